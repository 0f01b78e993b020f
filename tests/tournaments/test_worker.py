"""Pairings and standings built end to end by a real Celery worker process.

Runs where a worker can share the test database: PostgreSQL (marked `postgres`), with the
broker the settings name (Redis in CI), and once more on RabbitMQ (marked `rabbitmq`). The
worker consumes a queue of its own, so no other worker takes these tasks and this worker
takes no one else's.
"""

import os
import time

import pytest
from django.db import connection

from config.celery import app
from tournaments.common.queue import enqueue_now
from tournaments.events.services.event import club_create, event_create
from tournaments.models import Round
from tournaments.results.selectors import standings_current
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from ..workers import celery_worker
from .test_services import field, play_table


def _database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _reset_pools():
    """Drop the app's broker connections, so the next task is sent with the current URLs."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def worker(tmp_path):
    log = tmp_path / "worker.log"
    with celery_worker(log, env={"DATABASE_URL": _database_url()}) as (process, queue, _name):
        previous = app.conf.task_default_queue
        app.conf.task_default_queue = queue
        try:
            yield process, log
        finally:
            app.conf.task_default_queue = previous


@pytest.fixture
def rabbitmq_worker(tmp_path):
    """A worker on RabbitMQ, and this process sending its tasks there too (the write and read
    URLs win over CELERY_BROKER_URL, which names the pass's own broker)."""
    url = os.environ["RABBITMQ_URL"]
    log = tmp_path / "worker.log"
    env = {"DATABASE_URL": _database_url(), "CELERY_BROKER_URL": url}
    with celery_worker(log, env=env) as (process, queue, _name):
        previous = (
            app.conf.task_default_queue,
            app.conf.broker_write_url,
            app.conf.broker_read_url,
        )
        app.conf.task_default_queue = queue
        app.conf.broker_write_url = app.conf.broker_read_url = url
        _reset_pools()
        try:
            yield process, log
        finally:
            (app.conf.task_default_queue, app.conf.broker_write_url, app.conf.broker_read_url) = (
                previous
            )
            _reset_pools()


def _wait(check, process, log, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"the worker did not finish in {seconds} s:\n{log.read_text()}")


def _pair_and_build(process, log):
    assert not app.conf.task_always_eager
    club = club_create(name="Worker club")
    event = event_create(club=club, name="Worker open", rounds_planned=1, seed=9)
    field(event, 9)
    round_ = round_create(event=event, actor="org")
    round_ = _wait(
        lambda: Round.objects.filter(pk=round_.pk, status=Round.Status.DRAFT).first(), process, log
    )
    assert round_.tables.count() == 3
    round_publish(round_=round_, actor="org")
    for table in round_.tables.all():
        play_table(table)
    round_close(round_=round_, actor="org")
    snapshot = _wait(
        lambda: standings_current(event),
        process,
        log,
    )
    assert snapshot.rounds_complete == 1 and len(snapshot.rows) == 9
    # running the task again changes nothing: the same snapshot stays the newest
    enqueue_now("build_standings", event.pk)
    time.sleep(1)
    assert event.standings.first().pk == snapshot.pk


@pytest.mark.worker
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_worker_pairs_a_round_and_builds_the_standings(worker):
    _pair_and_build(*worker)


@pytest.mark.worker
@pytest.mark.postgres
@pytest.mark.rabbitmq
@pytest.mark.django_db(transaction=True)
def test_a_worker_on_rabbitmq_pairs_a_round_and_builds_the_standings(rabbitmq_worker):
    assert app.connection_for_write().transport_cls in ("amqp", "pyamqp")
    _pair_and_build(*rabbitmq_worker)
