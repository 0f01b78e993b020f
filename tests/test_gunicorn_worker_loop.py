"""bin/serve's worker (config.gunicorn_workers.ThreadWorker) spares gunicorn's loop two costs a
room of phones pays on every connection (docs/performance.md, "What one held question
costs"): a kept connection its client closes is closed on the loop, not handed to a thread
that only finds the end; and a new connection whose request is already there is read at
once, without the selector gunicorn makes for it alone. Everything else goes gunicorn's way:
a kept connection with a request goes to a thread, a new one with nothing yet is waited for.
"""

from __future__ import annotations

import os
import selectors
import socket
from functools import partial

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.workers.gthread import _DEFER, TConn

from config.gunicorn_workers import ThreadWorker

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"


@pytest.fixture
def worker():
    cfg = Config()
    made = ThreadWorker(1, os.getpid(), [], None, 30, cfg, Logger(cfg))
    made.poller = selectors.DefaultSelector()
    made.handed = []  # the connections given to a thread
    made.enqueue_req = made.handed.append
    yield made
    made.poller.close()
    made.tmp.close()


@pytest.fixture
def pair():
    server_side, phone = socket.socketpair()
    yield server_side, phone
    for end in (server_side, phone):
        end.close()


def _kept(worker, server_side, tls: bool = False):
    """A connection answered once and kept, as gunicorn's finish_request keeps it."""
    conn = TConn(worker.cfg, server_side, ("192.0.2.1", 50000), ("192.0.2.2", 8000))
    if tls:  # its TLS wrapping is not these tests'
        conn.initialized, conn.parser = True, object()
    else:
        conn.init()
    conn.sock.setblocking(False)
    conn.set_timeout()
    worker.nr_conns += 1
    worker.keepalived_conns.append(conn)
    worker.poller.register(
        conn.sock, selectors.EVENT_READ, partial(worker.on_client_socket_readable, conn)
    )
    return conn


def test_a_kept_connection_its_phone_closes_is_closed_without_a_thread(worker, pair):
    server_side, phone = pair
    _kept(worker, server_side)
    phone.close()
    worker.wait_for_and_dispatch_events(timeout=1.0)
    assert worker.handed == []
    assert server_side.fileno() == -1  # closed
    assert worker.nr_conns == 0
    assert not worker.keepalived_conns
    assert not worker.poller.get_map()


def test_a_kept_connection_with_a_request_goes_to_a_thread(worker, pair):
    server_side, phone = pair
    conn = _kept(worker, server_side)
    phone.sendall(REQUEST)
    worker.wait_for_and_dispatch_events(timeout=1.0)
    assert worker.handed == [conn]
    assert server_side.fileno() != -1
    assert worker.nr_conns == 1
    assert server_side.recv(len(REQUEST), socket.MSG_PEEK) == REQUEST  # left for the thread


def _new(worker, server_side, monkeypatch):
    """A connection just accepted, as gunicorn's accept makes it; its waits are counted."""
    conn = TConn(worker.cfg, server_side, ("192.0.2.1", 50000), ("192.0.2.2", 8000))
    waits = []
    real_wait = conn.wait_for_data

    def wait_for_data(timeout):
        waits.append(timeout)
        return real_wait(0.01)

    monkeypatch.setattr(conn, "wait_for_data", wait_for_data)
    read = []
    monkeypatch.setattr(worker, "handle_request", lambda req, conn: read.append(req.path))
    return conn, waits, read


def test_a_new_connections_request_already_there_is_read_without_a_wait(worker, pair, monkeypatch):
    server_side, phone = pair
    conn, waits, read = _new(worker, server_side, monkeypatch)
    phone.sendall(REQUEST)
    worker.handle(conn)
    assert waits == []
    assert read == ["/healthz"]


def test_a_new_connection_with_nothing_yet_is_waited_for_as_gunicorn_does(
    worker, pair, monkeypatch
):
    server_side, phone = pair
    conn, waits, read = _new(worker, server_side, monkeypatch)
    answer = worker.handle(conn)
    assert len(waits) == 1  # gunicorn's wait, which then hands it back to the loop
    assert read == []
    assert answer is _DEFER  # back to the loop, to wait there with no thread
    phone.sendall(REQUEST)  # it comes later: the loop's poller would then give it a thread
    assert server_side.recv(len(REQUEST), socket.MSG_PEEK) == REQUEST


def test_a_tls_connection_is_left_to_gunicorn(worker, pair, monkeypatch):
    """A TLS socket takes no flags on recv: the worker does not look, gunicorn waits."""
    server_side, phone = pair
    monkeypatch.setattr(type(worker.cfg), "is_ssl", property(lambda cfg: True))
    conn = _kept(worker, server_side, tls=True)
    phone.close()
    worker.wait_for_and_dispatch_events(timeout=1.0)
    assert worker.handed == [conn]  # gunicorn's way: its thread finds the end
