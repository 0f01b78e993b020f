"""gunicorn's own refusals in the API's JSON shape.

gunicorn answers a request it cannot read (a header value holding a control character, a line
or a header over its limits, a malformed chunk) itself, before Django, with a small HTML page.
Under /api/ the contract is a JSON error, never an HTML page (shared/spec/http-api.md). These
worker classes write such a refusal as ``{"error": {"message": ...}}`` when the request's path
is under /api/, or could not be read (then no page was asked for: nginx answers the same way,
deploy/nginx/358.conf), and leave gunicorn's page for a page. The status is gunicorn's.

gunicorn writes every refusal through one function, ``gunicorn.util.write_error``, from the
worker's ``handle_error``, which knows the request when there is one; the function is replaced
in the worker's process by one that asks the path the worker saw, so gunicorn's choice of
status stays gunicorn's. The deployment names these classes: deploy/358-web.service and the
Procfile ``SyncWorker``, bin/serve (threads) ``ThreadWorker``.

bin/serve's ``ThreadWorker`` also holds the polls the door parks (config.parking) without a
thread: the door hands the worker how to answer later (``HOLD`` in the request's environ), the
connection waits beside the idle kept ones, and the parking's watcher gives it back to a thread
when it wakes. And it looks at a socket before gunicorn's longer way with it: a kept connection
its client closed is closed on the loop (gunicorn hands it to a thread to find that out), and a
new connection's request already there is read at once (gunicorn makes a selector to wait for
it): a room of phones pays both on every connection (docs/performance.md).
"""

from __future__ import annotations

import errno
import json
import socket
import threading
from collections.abc import Callable, Iterable
from datetime import datetime

from gunicorn import http, util
from gunicorn.http import wsgi
from gunicorn.workers.gthread import ThreadWorker as _ThreadWorker
from gunicorn.workers.sync import SyncWorker as _SyncWorker

from config.parking import HOLD
from config.paths import is_api_path

_html_error = util.write_error
_refused = threading.local()  # the path of the request being refused, None when unread


def write_error(sock, status_int: int, reason: str, mesg: str) -> None:
    path = getattr(_refused, "path", None)
    if path is not None and not is_api_path(path):
        _html_error(sock, status_int, reason, mesg)
        return
    body = json.dumps({"error": {"message": reason.lower() or "bad request"}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = write_error


class _JsonRefusals:
    def handle_error(self, req, client, addr, exc):
        request = req if req is not None else getattr(exc, "req", None)
        _refused.path = getattr(request, "path", None) or None
        try:
            super().handle_error(req, client, addr, exc)
        finally:
            _refused.path = None


class SyncWorker(_JsonRefusals, _SyncWorker):
    """gunicorn's sync worker, its refusals in JSON under /api/."""


class _Held:
    """A request the door holds: what answers it when its poll wakes (`answer(moved)`, a WSGI
    answer through the same `start_response`) and what the worker needs to send that answer
    on its connection. Returned by the application as its answer, it says "later"."""

    def __init__(self, worker: ThreadWorker, conn, req) -> None:
        self.worker, self.conn, self.req = worker, conn, req
        self.resp = None
        self.environ: dict = {}
        self.started = datetime.now()
        self.answer: Callable[[bool], Iterable[bytes]] | None = None

    def hold(self, answer: Callable[[bool], Iterable[bytes]]) -> _Held:
        """The environ's HOLD: the application will answer with `answer(moved)` when woken."""
        self.answer = answer
        return self

    def wake(self, moved: bool) -> None:
        """The parking's watcher, on its thread: the worker's loop gives the poll a thread."""
        self.worker.method_queue.defer(self.worker.resume, self, moved)

    def __iter__(self):
        return iter(())


class ThreadWorker(_JsonRefusals, _ThreadWorker):
    """gunicorn's gthread worker, its refusals in JSON under /api/; it tells the site how many
    threads it serves with and holds the polls the door parks without a thread (HOLD), up to
    half its connections: the other half stays for the phones' other requests."""

    def init_process(self):
        from config.parking import serve_with_threads

        serve_with_threads(self.cfg.threads, room=self.cfg.worker_connections // 2)
        super().init_process()

    def handle_exit(self, sig, frame):
        """Stopping: the held polls are answered now, as at their deadline (gunicorn waits for
        every open request before it stops), and the parking holds no more (Parking.close)."""
        from config.parking import made_parking

        super().handle_exit(sig, frame)
        parking = made_parking()
        if parking is not None:
            parking.close()

    def handle_request(self, req, conn):
        """gunicorn's, but the application may answer "later" (_Held)."""
        held = _Held(self, conn, req)

        def first() -> Iterable[bytes]:
            self.cfg.pre_request(self, req)
            held.started = datetime.now()
            resp, environ = wsgi.create(req, conn.sock, conn.client, conn.server, self.cfg)
            held.resp, held.environ = resp, environ
            environ["wsgi.multithread"] = True
            self.nr += 1
            if self.nr >= self.max_requests:
                if self.alive:
                    self.log.info("Autorestarting worker after current request.")
                    self.alive = False
                resp.force_close()
            if not self.alive or not self.cfg.keepalive:
                resp.force_close()
            elif len(self.keepalived_conns) >= self.max_keepalived:
                resp.force_close()
            environ[HOLD] = held.hold
            return self.wsgi(environ, resp.start_response)

        return self._respond(held, first)

    def _respond(self, held: _Held, run: Callable[[], Iterable[bytes]]):
        """Run the application (`run`) and send its answer, as gunicorn's handle_request does:
        whether the connection may be kept; or `held`, unsent, when the application said
        later."""
        later = False
        try:
            respiter = run()
            if respiter is held:
                later = True
                return held
            resp = held.resp
            try:
                if isinstance(respiter, held.environ["wsgi.file_wrapper"]):
                    resp.write_file(respiter)
                else:
                    for item in respiter:
                        resp.write(item)
                resp.close()
            finally:
                self.log.access(resp, held.req, held.environ, datetime.now() - held.started)
                if hasattr(respiter, "close"):
                    respiter.close()
            if resp.should_close():
                self.log.debug("Closing connection.")
                return False
        except OSError:
            raise
        except (Exception, SystemExit):
            if held.resp is not None and held.resp.headers_sent:
                self.log.exception("Error handling request")
                util.close_graceful(held.conn.sock)
                raise StopIteration() from None
            raise
        finally:
            if not later:
                try:
                    self.cfg.post_request(self, held.req, held.environ, held.resp)
                except Exception:
                    self.log.exception("Exception in post_request hook")
        return True

    def handle(self, conn):
        """gunicorn's, without its wait for a new connection's first bytes when they are
        there already (a phone sends its request with the connection): gunicorn waits on a
        selector made for the one socket, four system calls and their objects, where one look
        at the socket says it."""
        if not conn.initialized and not conn.data_ready and _peek(conn, self.cfg):
            conn.data_ready = True
        return super().handle(conn)

    def on_client_socket_readable(self, conn, client):
        """A kept connection turned readable. When that is its client closing it (a phone
        that slept, a client that asks once a connection), it is closed here on the loop;
        gunicorn would hand it to a thread only to find the end there."""
        if _peek(conn, self.cfg) == b"":
            self.poller.unregister(client)
            self.keepalived_conns.remove(conn)
            self.nr_conns -= 1
            conn.close()
            return
        super().on_client_socket_readable(conn, client)

    def _keepalive_after(self, conn, keepalive):
        if isinstance(keepalive, _Held):
            return keepalive
        return super()._keepalive_after(conn, keepalive)

    def finish_request(self, conn, fs):
        """A held request's connection waits, with no thread and off the poller, until its
        poll wakes (`resume`); the rest as gunicorn does."""
        if not fs.cancelled() and fs.exception() is None and isinstance(fs.result(), _Held):
            return
        super().finish_request(conn, fs)

    def resume(self, held: _Held, moved: bool) -> None:
        """On the worker's loop: a thread answers the woken poll, then the connection is kept
        or closed as after any request."""
        future = self.tpool.submit(self._answer_held, held, moved)
        future.add_done_callback(
            lambda done: self.method_queue.defer(self.finish_request, held.conn, done)
        )

    def _answer_held(self, held: _Held, moved: bool):
        """gunicorn's handle for a woken poll: its answer, with gunicorn's care of errors."""
        conn = held.conn
        if not self.alive:
            held.resp.force_close()
        try:
            return self._keepalive_after(conn, self._respond(held, lambda: held.answer(moved)))
        except (http.errors.NoMoreData, StopIteration):
            pass
        except OSError as e:
            if e.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN):
                self.log.exception("Socket error answering a held request.")
        except Exception as e:
            self.handle_error(held.req, conn.sock, conn.client, e)
        return False


def _peek(conn, cfg) -> bytes | None:
    """The next byte waiting on a plain connection's socket, left there (b"" when the client
    closed it), without waiting; None when none is there yet, the connection is TLS (its
    socket takes no flags) or the look failed (gunicorn's own path then meets the failure)."""
    if cfg.is_ssl:
        return None
    try:
        return conn.sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except OSError:
        return None
