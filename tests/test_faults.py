"""Faults at a live event: the database dropping a connection mid-write, the worker stopped
while results come in, the broker unreachable. Nothing is lost or half-written, and the
work is done once the service is back.

The worker tests run a real Celery worker on the broker the settings name (Redis in CI) and
share the PostgreSQL test database with it.
"""

import time

import pytest
from django.db import connection, connections

from config.celery import app
from scoring import services as scoring
from scoring.models import Game
from scoring.services import recording
from tournaments import tasks
from tournaments.events.services.event import club_create, event_create
from tournaments.models import Round
from tournaments.results.selectors import standings_current, standings_latest
from tournaments.results.services import standings_build
from tournaments.rounds.services.rounds import round_create, round_publish

from .tournaments.test_services import field, play_table
from .tournaments.test_worker import _database_url
from .workers import celery_worker


def _kill_my_connection() -> None:
    """What a database restart does to a session: end it from the server side."""
    pid = connection.connection.info.backend_pid
    with (
        connections["default"].__class__(connection.settings_dict, alias="killer").cursor() as other
    ):
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_dropped_database_connection_mid_deal_gives_a_clean_503_and_writes_nothing(
    client, monkeypatch
):
    game = scoring.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
    replay = recording.replay

    def replay_then_lose_the_database(record):
        state = replay(record)
        _kill_my_connection()
        return state

    monkeypatch.setattr(recording, "replay", replay_then_lose_the_database)
    response = client.post(
        f"/api/games/{game.pk}/deals",
        {"deal": 1, "calls": ["spades"], "tricks": [8, 3, 5]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.secret}",
    )
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["message"]
    assert response["Retry-After"] == "5"
    connection.close()  # what Django does at the end of a real request
    monkeypatch.undo()
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.entries.count() == 0 and fresh.version == game.version
    again = client.post(
        f"/api/games/{game.pk}/deals",
        {"deal": 1, "calls": ["spades"], "tricks": [8, 3, 5]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.secret}",
    )
    assert again.status_code == 201


@pytest.mark.django_db
def test_a_page_answers_503_with_a_plain_explanation_when_the_database_fails(client, monkeypatch):
    from django.db import OperationalError

    from scoring.views import table as views

    def fail(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views.services, "game_create", fail)
    response = client.post(
        "/games/new/",
        {
            "ruleset": "blato",
            "first_dealer": "0",
            "exchange_order": "target",
            "player_0": "A",
            "player_1": "B",
            "player_2": "C",
        },
    )
    assert response.status_code == 503
    assert "nothing was saved" in response.content.decode()


# --- the worker and the broker ------------------------------------------------------------------


def _wait(check, seconds=90, what="the worker"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what} did not finish in {seconds} s")


def _fresh(event):
    return standings_current(event)


@pytest.fixture
def worker_queue(tmp_path):
    """Tasks go to a queue of this test's own; start and stop workers on it at will."""
    import uuid

    queue = f"test-{uuid.uuid4().hex[:12]}"
    previous = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    try:
        yield queue, tmp_path / "worker.log"
    finally:
        app.conf.task_default_queue = previous


def _published_round(event, queue, log):
    with celery_worker(log, env={"DATABASE_URL": _database_url()}, queue=queue):
        round_ = round_create(event=event, actor="org")
        round_ = _wait(lambda: Round.objects.filter(pk=round_.pk, status="draft").first())
    return round_publish(round_=round_, actor="org")


@pytest.mark.worker
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_results_confirmed_while_no_worker_runs_are_kept_and_counted_once_it_returns(
    worker_queue,
):
    queue, log = worker_queue
    event = event_create(club=club_create(name="C"), name="Stopped", seed=4)
    field(event, 6)
    round_ = _published_round(event, queue, log)
    # No worker now: results come in, their standings tasks wait in the broker.
    for table in round_.tables.all():
        play_table(table)
    assert all(t.game.confirmed for t in round_.tables.all())
    assert standings_latest(event).stale
    with celery_worker(log, env={"DATABASE_URL": _database_url()}, queue=queue):
        snapshot = _wait(lambda: _fresh(event))
    assert len(snapshot.rows) == 6
    assert not standings_latest(event).stale
    # The same task run twice (a redelivery) stores nothing new.
    again = standings_build(event_id=event.pk)
    assert again.pk == snapshot.pk


@pytest.fixture
def broker_unreachable():
    """The producer side points at a port where no broker listens, as when Redis is down."""

    def cut():
        app.conf.broker_write_url = "redis://127.0.0.1:1/0"
        app.conf.broker_connection_max_retries = 1
        app.conf.task_publish_retry = False
        _reset_pools()

    original = (
        app.conf.broker_write_url,
        app.conf.broker_connection_max_retries,
        app.conf.task_publish_retry,
    )

    def restore():
        (
            app.conf.broker_write_url,
            app.conf.broker_connection_max_retries,
            app.conf.task_publish_retry,
        ) = original
        _reset_pools()

    yield cut, restore
    restore()


def _reset_pools():
    app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.worker
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_deals_are_still_entered_and_the_sweep_catches_up(
    worker_queue, broker_unreachable, caplog
):
    queue, log = worker_queue
    cut, restore = broker_unreachable
    event = event_create(club=club_create(name="C"), name="No broker", seed=4)
    field(event, 3)
    round_ = _published_round(event, queue, log)
    standings_build(event_id=event.pk)
    table = round_.tables.get()
    cut()
    play_table(table)  # nine deals, trick winners and the confirmation: all stored
    table.game.refresh_from_db()
    assert table.game.confirmed and table.game.entries.count() == 9
    assert "could not enqueue build_standings" in caplog.text
    assert standings_latest(event).stale
    restore()
    with celery_worker(log, env={"DATABASE_URL": _database_url()}, queue=queue):
        tasks.sweep.delay()
        snapshot = _wait(lambda: _fresh(event))
    assert snapshot.rows[0]["rank"] == 1
