"""What a held question costs: the watchers' sheet asked to wait (`?wait=`), on bin/serve's
worker, against the same poll answered at once and gunicorn's least, on that one worker.

The worker is bin/serve's (`-c python:config.gunicorn_venue`, one process): a held question
takes no thread, its connection waits in the worker's selector until the watcher wakes it
(config.parking, config.gunicorn_workers). A batch of N phones ask at once, each its own
table's sheet at the version it shows, and wait; nothing changes, so each is answered its 204
when its deadline comes. The worker's CPU from the first question to the last answer, over
N, is a held question's cost: reading it, one version read at the door, parking it, the
watcher's looks meanwhile (one statement a tick for every question held), waking it and
sending the same 204 a plain poll gets. The plain poll (the same question without `wait`,
answered at once) and the bare 204 are measured on the same worker, one request at a time,
each on a new connection, as bench.door measures them.

A held question stands for the polls its phone would have sent while it waited: bin/serve's
page asks to wait DOOR_WAIT_SECONDS (25 s) where it polled every 5 s.
"""

from __future__ import annotations

import http.client
import statistics
import threading
import time

from bench.request_cost.server import TICK_MS, Server, cpu_of

SETTLE_SECONDS = 0.05


class VenueServer(Server):
    """bin/serve's gunicorn (config.gunicorn_venue) with one process instead of four."""

    OPTIONS = ("-c", "python:config.gunicorn_venue", "--workers", "1")


def ask(port: int, path: str, answers: list) -> None:
    """One phone: a new connection, the question, the answer read whole; (status, seconds
    from the question to the answer) put in `answers`."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        asked = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        answers.append((response.status, time.perf_counter() - asked))
    except OSError as error:
        answers.append((type(error).__name__, 0.0))
    finally:
        connection.close()


def _held_path(games: list[tuple[int, int]], i: int, wait: int) -> str:
    game, version = games[i % len(games)]
    return f"/games/{game}/sheet/?v={version}&wait={wait}"


def held_batch(server: Server, games: list[tuple[int, int]], count: int, wait: int) -> dict:
    """`count` phones asking at once, each a table's sheet at its version, waiting `wait` s."""
    answers: list = []
    phones = [
        threading.Thread(target=ask, args=(server.port, _held_path(games, i, wait), answers))
        for i in range(count)
    ]
    time.sleep(SETTLE_SECONDS)
    before, started = cpu_of(server.worker_pid), time.perf_counter()
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    wall = time.perf_counter() - started
    time.sleep(SETTLE_SECONDS)
    used = cpu_of(server.worker_pid) - before
    statuses: dict[str, int] = {}
    for status, _ in answers:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    waited = sorted(seconds for _, seconds in answers)
    return {
        "cpu_ms": round(used.ns / 1e6 / count, 3),
        "cpu_ms_ticks": round(used.ticks * TICK_MS / count, 3),
        "wall_s": round(wall, 2),
        "answered_after_s": {
            "min": round(waited[0], 2),
            "p50": round(statistics.median(waited), 2),
            "max": round(waited[-1], 2),
        },
        "statuses": statuses,
    }
