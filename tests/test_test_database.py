"""The test database behaves as the venue laptop's does under two threads at once.

The browser journeys write through the services from the test's thread while the live
server's threads answer the page's polls. On SQLite that is only safe when each thread has
its own connection to a database file in WAL mode, as `bin/serve` runs it: a writer then
passes a reader (or waits for another writer) instead of failing at once with "database
table is locked", which is what an in-memory shared-cache database does.
"""

import threading

import pytest
from django.db import connection, connections

from scoring import services
from scoring.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_in_another_thread_passes_an_open_read():
    games = [
        services.game_create(ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0)
        for _ in range(3)
    ]
    game = games[-1]
    reader = connection.cursor()
    reader.execute("SELECT id FROM scoring_game")
    reader.fetchone()  # the statement stays open, as a page's read does mid-request
    failures = []

    def write():
        try:
            Game.objects.filter(pk=game.pk).update(players=["Ana", "Boris", "Vesela"])
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            failures.append(repr(error))
        finally:
            connections.close_all()

    writer = threading.Thread(target=write)
    writer.start()
    writer.join(timeout=30)
    reader.close()
    assert failures == []
    assert Game.objects.get(pk=game.pk).players == ["Ana", "Boris", "Vesela"]


def test_sqlite_tests_run_on_a_file_in_wal_mode():
    if connection.vendor != "sqlite":
        assert connection.vendor == "postgresql"
        return
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
