"""bench.door --held: the batch of phones that ask at once and wait (bench/door/held.py),
against a small server here that holds each question as long as it asks."""

import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest

from bench.door.held import held_batch


class Holding(BaseHTTPRequestHandler):
    asked: list[str] = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        Holding.asked.append(self.path)
        query = parse_qs(urlsplit(self.path).query)
        time.sleep(float(query["wait"][0]))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def holding():
    Holding.asked = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Holding)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield SimpleNamespace(port=server.server_address[1], worker_pid=os.getpid())
    server.shutdown()
    server.server_close()


def test_every_phone_asks_its_table_at_its_version_at_once_and_waits(holding):
    games = [(11, 3), (12, 5), (13, 0)]
    started = time.perf_counter()
    figures = held_batch(holding, games, count=12, wait=1)
    took = time.perf_counter() - started
    assert figures["statuses"] == {"204": 12}
    assert sorted(Holding.asked) == sorted(
        f"/games/{game}/sheet/?v={version}&wait=1" for game, version in games * 4
    )
    assert 1.0 <= figures["answered_after_s"]["min"] <= figures["answered_after_s"]["max"] < 3
    assert took < 3  # at once, not one after the other (12 s)
    assert figures["cpu_ms"] >= 0 and figures["wall_s"] >= 1.0


def test_a_phone_the_server_does_not_answer_is_counted_by_its_error():
    figures = held_batch(SimpleNamespace(port=1, worker_pid=os.getpid()), [(1, 0)], count=2, wait=1)
    assert figures["statuses"] == {"ConnectionRefusedError": 2}
