"""bin/serve's worker holds the polls the door parks without a thread (config.gunicorn_workers,
config.parking.HOLD): a real gunicorn of four threads holds thirty watchers' sheets at once,
still answers a page meanwhile, wakes every one with the new version soon after a deal, and
answers them at their deadline with the very 204 of a poll that did not wait, on connections
it keeps, and at once when it stops. (With a sleeping thread each, the page would have waited
for the polls' deadline.)
"""

from __future__ import annotations

import http.client
import os
import signal
import sys
import threading
import time

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from tests.nginx import LOOPBACK, free_port, served

THREADS = 4
POLLS = 30


def _database_url(settings_dict: dict) -> str:
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{settings_dict['NAME']}"
    user = settings_dict["USER"] or "postgres"
    host = settings_dict["HOST"] or "127.0.0.1"
    port = settings_dict["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings_dict['NAME']}"


@pytest.fixture
def site(transactional_db, tmp_path):
    """bin/serve's worker class on this test's database: one process of four threads, two of
    them working."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_CACHE_URL=f"file://{tmp_path / 'cache'}",
        DATABASE_URL=_database_url(connection.settings_dict),
        WEB_WORKING_THREADS="2",
    )
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"{LOOPBACK}:{port}",
        "--workers", "1", "--threads", str(THREADS), "--no-control-socket",
        "--worker-class", "config.gunicorn_workers.ThreadWorker",
    ]  # fmt: skip
    log = tmp_path / "gunicorn.log"
    with served(command, env, port, log) as process:
        yield port, log, process


@pytest.fixture
def game(transactional_db):
    from tests.scoring.test_views import create

    game = create(Client())
    scoring_services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    game.refresh_from_db()
    return game


def _ask(port: int, path: str, conn: http.client.HTTPConnection | None = None):
    conn = conn or http.client.HTTPConnection(LOOPBACK, port, timeout=60)
    conn.request("GET", path, headers={"Accept-Language": "en"})
    answer = conn.getresponse()
    return conn, answer.status, dict(answer.getheaders()), answer.read()


def _hold(port: int, path: str, count: int) -> tuple[list[threading.Thread], list]:
    got: list = []

    def poll():
        started = time.monotonic()
        conn, status, headers, body = _ask(port, path)
        got.append((status, headers, body, time.monotonic(), time.monotonic() - started, conn))

    threads = [threading.Thread(target=poll) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, got


def test_thirty_held_sheets_on_four_threads_leave_room_for_a_page(site, game):
    port, log, _ = site
    wait = settings.DOOR_WAIT_SECONDS
    sheet = reverse("scoring:sheet", args=[game.pk]) + f"?v={game.version}&wait={wait}"
    polls, got = _hold(port, sheet, POLLS)
    time.sleep(1.5)  # every poll read and held (4 threads, a few ms each)
    assert got == [], log.read_text()[-3000:]  # held, not answered
    started = time.monotonic()
    _, status, _, body = _ask(port, reverse("scoring:table", args=[game.pk]))
    assert status == 200 and b'id="game"' in body
    # Behind polls that each kept a thread, the page would come after their deadline, and
    # after their answers; a slow host may take a few seconds, never the polls' whole wait.
    assert time.monotonic() - started < wait / 2, "the page waited behind the held polls"
    assert got == []  # still held
    dealt = time.monotonic()
    scoring_services.deal_record(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 3, 8])
    for poll in polls:
        poll.join(30)
    assert len(got) == POLLS, log.read_text()[-3000:]
    for status, _, body, answered, _, _ in got:
        assert status == 200 and b'id="game"' in body
        assert answered - dealt < 10  # the watcher looks once a second, long before the deadline
    game.refresh_from_db()
    _, status, _, fresh = _ask(port, reverse("scoring:sheet", args=[game.pk]) + "?v=0")
    assert status == 200 and {body for _, _, body, *_ in got} == {fresh}


def test_at_their_deadline_held_sheets_get_the_204_of_a_poll_that_did_not_wait(site, game):
    port, log, _ = site
    path = reverse("scoring:sheet", args=[game.pk]) + f"?v={game.version}"
    _, status, plain_headers, plain_body = _ask(port, path)
    assert status == 204
    polls, got = _hold(port, path + "&wait=2", POLLS)
    for poll in polls:
        poll.join(30)
    assert len(got) == POLLS, log.read_text()[-3000:]
    for status, headers, body, _, seconds, _conn in got:
        assert (status, body) == (204, plain_body)
        assert {k: v for k, v in headers.items() if k != "Date"} == {
            k: v for k, v in plain_headers.items() if k != "Date"
        }
        assert 1.9 < seconds < 8  # the deadline, then the watcher's next look
    # The connection was kept: the phone's next poll comes on it.
    _, status, _, body = _ask(port, path, conn=got[0][5])
    assert (status, body) == (204, plain_body)
    for *_, conn in got:
        conn.close()


def test_a_stopping_server_answers_its_held_sheets_at_once(site, game):
    port, log, process = site
    path = reverse("scoring:sheet", args=[game.pk]) + f"?v={game.version}"
    _, _, _, plain_body = _ask(port, path)
    polls, got = _hold(port, path + "&wait=20", 5)
    time.sleep(1.5)  # every poll read and held
    assert got == []
    stopping = time.monotonic()
    process.send_signal(signal.SIGTERM)  # gunicorn's graceful stop
    for poll in polls:
        poll.join(30)
    assert [(status, body) for status, _, body, *_ in got] == [(204, plain_body)] * 5
    assert max(answered for _, _, _, answered, *_ in got) - stopping < 8, log.read_text()[-3000:]
    process.wait(10)


def test_a_phone_that_hangs_up_while_held_leaves_the_server_well(site, game):
    """A held question whose phone went away (a page closed, a phone asleep) is answered into
    the void when it wakes: nothing is logged as an error, and the server goes on."""
    import socket

    port, log, _ = site
    path = reverse("scoring:sheet", args=[game.pk]) + f"?v={game.version}&wait=20"
    for _ in range(3):
        with socket.create_connection((LOOPBACK, port)) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {LOOPBACK}\r\n\r\n".encode())
            time.sleep(0.2)
    time.sleep(1.0)
    scoring_services.deal_record(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 3, 8])
    time.sleep(2.5)  # the watcher's look, the answers into closed connections
    game.refresh_from_db()
    polls, got = _hold(port, reverse("scoring:sheet", args=[game.pk]) + "?v=0&wait=5", 3)
    for poll in polls:
        poll.join(30)
    assert [status for status, *_ in got] == [200] * 3
    assert "Traceback" not in log.read_text() and "Error" not in log.read_text()
