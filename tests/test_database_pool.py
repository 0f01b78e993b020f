"""A process that holds polls (bin/serve's: hundreds of threads, two of them working) asks
PostgreSQL for no more connections than it can use at once: a pool of one a working thread and
one for the watcher (config.parking.database_connections, config.env.database_from_env), not
one kept by every thread that ever worked, which made PostgreSQL refuse ("too many clients")."""

import os
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from django.db import connection, connections

from config.env import POOL_WAIT_SECONDS, database_from_env
from config.parking import Parking, database_connections, serve_with_threads
from tests.nginx import LOOPBACK, free_port, served

SQLITE = Path("/project/var/db.sqlite3")


@pytest.fixture
def threads_said():
    """serve_with_threads as a worker calls it, undone after."""
    yield serve_with_threads
    serve_with_threads(0)


def test_a_process_that_parks_needs_a_connection_a_working_thread_and_one_for_the_watcher(
    threads_said,
):
    assert database_connections(2) is None  # nobody said: a connection kept a thread, as ever
    threads_said(512)
    assert database_connections(2) == 3
    assert database_connections(4) == 5
    threads_said(2)  # no thread to spare: nothing parks
    assert database_connections(2) is None


def test_postgresql_takes_a_pool_of_that_size_and_keeps_no_connection_besides():
    url = {"DATABASE_URL": "postgres://ana@db.example:5432/blato"}
    pooled = database_from_env(url, default_sqlite_path=SQLITE, pool_size=3)
    assert pooled["OPTIONS"]["pool"] == {
        "min_size": 1,
        "max_size": 3,
        "timeout": POOL_WAIT_SECONDS,
    }
    assert pooled["CONN_MAX_AGE"] == 0  # Django refuses a pool with kept connections
    kept = database_from_env(url, default_sqlite_path=SQLITE)
    assert "pool" not in kept.get("OPTIONS", {}) and kept["CONN_MAX_AGE"] == 60


def test_sqlite_has_no_pool_and_keeps_its_connections():
    config = database_from_env({}, default_sqlite_path=SQLITE, pool_size=3)
    assert "pool" not in config["OPTIONS"] and config["CONN_MAX_AGE"] == 60


#: The name the served site's connections give PostgreSQL: counted alone, not the test
#: process's own (a live server's thread of an earlier test may still hold one).
SERVED = "pool-test-served"


def _backends(database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [database, SERVED],
        )
        return cursor.fetchone()[0]


def _url(settings_dict: dict) -> str:
    user = settings_dict["USER"] or "postgres"
    host = settings_dict["HOST"] or "127.0.0.1"
    port = settings_dict["PORT"] or 5432
    name = settings_dict["NAME"]
    return f"postgres://{user}@{host}:{port}/{name}?application_name={SERVED}"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_bin_serves_threads_on_postgresql_share_a_pool_not_a_connection_each(tmp_path):
    """bin/serve's worker class on PostgreSQL: 40 requests at once, each on a thread of its
    own, all answered, and PostgreSQL sees at most the pool (it saw one a thread: 40)."""
    database = connection.settings_dict["NAME"]
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=_url(connection.settings_dict),
        WEB_WORKING_THREADS="2",
    )
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"{LOOPBACK}:{port}",
        "--workers", "1", "--threads", "64", "--no-control-socket",
        "--worker-class", "config.gunicorn_workers.ThreadWorker",
    ]  # fmt: skip
    log = tmp_path / "gunicorn.log"
    with served(command, env, port, log):
        statuses: list[int] = []
        start = threading.Barrier(40)

        def ask():
            start.wait()
            with urllib.request.urlopen(f"http://{LOOPBACK}:{port}/events/", timeout=60) as r:
                r.read()
                statuses.append(r.status)

        askers = [threading.Thread(target=ask) for _ in range(40)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(90)
        assert statuses == [200] * 40, log.read_text()[-3000:]
        assert 1 <= _backends(database) <= 3, log.read_text()[-3000:]  # its pool, named


class _Observed(Parking):
    """A parking that notes, as each poll falls asleep, whether its thread still holds a
    database connection."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.holding: list[bool] = []

    def park(self, *args, **kwargs):
        self.holding.append(connection.connection is not None)
        return super().park(*args, **kwargs)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_parked_poll_gives_its_connection_back_before_it_sleeps(monkeypatch):
    """Under a pool (no kept connection), the connection the poll's thread holds goes back
    before the thread sleeps: 300 sleeping polls would otherwise hold a pool of 3."""
    from django.core.cache import cache
    from django.core.handlers.wsgi import WSGIHandler

    from config.door import Door
    from tests.test_door import call
    from tests.test_door_wait import version_of, waiting_poll
    from tournaments.events.services.event import club_create, event_create
    from tournaments.rounds import web as rounds_web

    monkeypatch.setattr(rounds_web, "PHONE_VERSION_SECONDS", 600)
    event = event_create(club=club_create(name="Club"), name="Night", seed=3)
    cache.clear()
    env = waiting_poll(event, version_of(event), wait=1)
    observed = _Observed(8, 2, tick=0.05)
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)  # as under a pool
    connection.close()
    connection.ensure_connection()  # opened as under a pool: to be given back at the end
    assert call(Door(WSGIHandler(), parking=observed), env)[0] == "304 Not Modified"
    assert observed.holding == [False]
