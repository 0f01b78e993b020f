"""Standings builds on a worker: results confirmed close together are taken up by one build.

A round's results arrive in a rush (bench.site_load: 333 tables confirming within a minute or
two); building once per confirmation stored a snapshot every fraction of a second. The task
now puts a build off until BUILD_INTERVAL_SECONDS after the last one when results came in
since; run eagerly (tests, no worker) it always builds at once.
"""

import random
import time
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from tournaments import tasks
from tournaments.events.services.event import club_create, event_create
from tournaments.models import Standings
from tournaments.results.selectors import standings_current
from tournaments.results.services import standings_build
from tournaments.rounds.services.rounds import round_create, round_publish

from .test_services import field, play_table

pytestmark = pytest.mark.django_db(transaction=True)


def event_with_round():
    club = club_create(name="Club")
    event = event_create(club=club, name="Open", rounds_planned=1, seed=8)
    field(event, 9)
    round_ = round_create(event=event)
    round_publish(round_=round_)  # builds the first (empty) standings
    return event, list(round_.tables.order_by("number"))


@pytest.fixture
def event_and_tables():
    return event_with_round()


def age_latest(event, seconds: float) -> None:
    latest = event.standings.first()
    Standings.objects.filter(pk=latest.pk).update(
        built_at=timezone.now() - timedelta(seconds=seconds)
    )


@pytest.fixture
def held(monkeypatch):
    """Builds are enqueued but not run: results come in while no worker builds."""
    monkeypatch.setattr(tasks.build_standings, "delay", lambda *args, **kwargs: None)


class Later:
    """Stands in for the signature build_standings sends itself again with."""

    def __init__(self, calls: list, refuse: bool = False):
        self.calls, self.refuse = calls, refuse

    def apply_async(self, countdown):
        if self.refuse:
            raise OSError("broker down")
        self.calls.append(countdown)


@pytest.fixture
def later(monkeypatch):
    """The countdowns build_standings puts itself off by."""
    calls = []
    monkeypatch.setattr(tasks.build_standings, "signature_from_request", lambda: Later(calls))
    return calls


def test_no_wait_without_a_build_or_without_new_results(event_and_tables):
    event, _ = event_and_tables
    assert tasks.build_wait(event.pk) == 0  # just built, but nothing new since
    event.standings.all().delete()
    assert tasks.build_wait(event.pk) == 0  # never built


def test_new_results_right_after_a_build_wait_out_the_interval(event_and_tables, held):
    event, tables = event_and_tables
    play_table(tables[0])
    wait = tasks.build_wait(event.pk)
    assert 0 < wait <= tasks.BUILD_INTERVAL_SECONDS
    age_latest(event, tasks.BUILD_INTERVAL_SECONDS + 1)
    assert tasks.build_wait(event.pk) == 0


def test_the_task_puts_a_build_off_and_stores_nothing_yet(event_and_tables, held, later):
    event, tables = event_and_tables
    play_table(tables[0])
    before = event.standings.count()
    assert tasks.build_standings.run(event.pk) is None  # as a worker runs it: not eagerly
    assert event.standings.count() == before
    [countdown] = later
    assert 0 < countdown <= tasks.BUILD_INTERVAL_SECONDS


def test_once_the_interval_has_passed_the_task_builds(event_and_tables, held, later):
    event, tables = event_and_tables
    play_table(tables[0])
    age_latest(event, tasks.BUILD_INTERVAL_SECONDS + 1)
    built = tasks.build_standings.run(event.pk)
    assert built == event.standings.first().pk and not later
    assert tasks.build_standings.run(event.pk) == built  # nothing new: no second snapshot


def test_a_broker_that_refuses_the_later_build_gets_the_build_now(
    event_and_tables, held, monkeypatch, caplog
):
    event, tables = event_and_tables
    play_table(tables[0])

    refusing = Later([], refuse=True)
    monkeypatch.setattr(tasks.build_standings, "signature_from_request", lambda: refusing)
    built = tasks.build_standings.run(event.pk)
    assert built == event.standings.first().pk
    assert "could not put tournaments.tasks.build_standings" in caplog.text


def test_run_eagerly_the_task_always_builds_at_once(event_and_tables):
    event, tables = event_and_tables
    before = event.standings.count()
    play_table(tables[0])  # right after the first build; the enqueued build runs here, eagerly
    assert event.standings.count() == before + 1
    assert any(row["metrics"]["games"] == 1 for row in event.standings.first().rows)


@pytest.mark.worker
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_takes_a_rush_of_results_up_in_one_build(tmp_path):
    """Two results confirmed right after a build: the worker puts its builds off on its own
    queue (as a retry would be) and one build takes both up."""
    from config.celery import app
    from scoring import services as scoring

    from ..workers import celery_worker
    from .conftest import finish_game
    from .test_worker import _database_url, _wait

    app.conf.task_always_eager = True  # the setup's own tasks (pairing) run here
    try:
        event, tables = event_with_round()
        rng = random.Random(3)
        for table in tables:
            finish_game(table.game, rng)
    finally:
        app.conf.task_always_eager = False
    log = tmp_path / "worker.log"
    with celery_worker(log, env={"DATABASE_URL": _database_url()}) as (process, queue, _name):
        previous = app.conf.task_default_queue
        app.conf.task_default_queue = queue
        try:

            def current():
                return standings_current(event)

            scoring.game_confirm(game_id=tables[0].game_id, actor="org")
            _wait(current, process, log)
            built = event.standings.count()
            for table in tables[1:]:
                scoring.game_confirm(game_id=table.game_id, actor="org")
            snapshot = _wait(current, process, log)
        finally:
            app.conf.task_default_queue = previous
    assert all(row["metrics"]["games"] == 1 for row in snapshot.rows)
    assert event.standings.count() == built + 1


def test_results_while_a_build_is_put_off_leave_it_to_that_build(event_and_tables, held, later):
    """333 confirmations in a minute: one put-off build takes them all up, instead of each
    task putting one off, running again and finding nothing left to build."""
    event, tables = event_and_tables
    play_table(tables[0])
    assert tasks.build_standings.run(event.pk) is None
    [countdown] = later
    play_table(tables[1])
    assert tasks.build_standings.run(event.pk) is None  # the put-off build will take it up
    assert len(later) == 1 and tasks.build_due_later(event.pk)
    # the put-off build, once due, builds both results
    age_latest(event, tasks.BUILD_INTERVAL_SECONDS + 1)
    built = tasks.build_standings.run(event.pk)
    assert built == event.standings.first().pk
    assert sum(row["metrics"]["games"] for row in event.standings.first().rows) == 6


def test_a_put_off_build_close_to_its_time_does_not_count(event_and_tables, held, later):
    """Within DUE_MARGIN_SECONDS of its time the put-off build may have started already
    (another host's clock): a new result then puts a build off of its own."""
    event, tables = event_and_tables
    play_table(tables[0])
    tasks.build_standings.run(event.pk)
    cache.set(tasks._due_key(event.pk), time.time() + tasks.DUE_MARGIN_SECONDS / 2, 60)
    assert not tasks.build_due_later(event.pk)
    play_table(tables[1])
    assert tasks.build_standings.run(event.pk) is None
    assert len(later) == 2


def test_a_snapshot_is_stored_with_its_writing_so_no_poll_writes_it_out(
    event_and_tables, monkeypatch, client
):
    """Found with bench.site_load (the confirmation rush of 333 tables): a snapshot was
    stored first and written out after its transaction, and every poll in that ~0.3 s (a
    thousand phones) found it without its text and rendered 999 rows itself; the rush took
    the whole machine and answered in seconds. The writing now goes in with the row."""
    from django.db.models.signals import post_save

    from tournaments.results import render as standings_render

    event, tables = event_and_tables
    unwritten = []

    def stored(sender, instance, created, **kwargs):
        if created and (instance.api_body == "" or not instance.rendered):
            unwritten.append(instance.pk)

    post_save.connect(stored, sender=Standings)
    try:
        play_table(tables[0])  # confirmed: a build, eagerly
        standings_build(event_id=event.pk)
    finally:
        post_save.disconnect(stored, sender=Standings)
    assert event.standings.count() >= 2 and unwritten == []
    latest = event.standings.first()
    assert f'"updated": "{latest.built_at.isoformat().replace("+00:00", "Z")}"' in latest.api_body

    def refuse(*args, **kwargs):
        raise AssertionError("a poll wrote the standings out")

    monkeypatch.setattr(standings_render, "write_out", refuse)
    cache.clear()
    assert client.get(f"/api/events/{event.slug}/standings").status_code == 200
    assert client.get(f"/events/{event.slug}/standings/live/").status_code == 200
