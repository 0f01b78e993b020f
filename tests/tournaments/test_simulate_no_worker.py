"""`manage.py simulate_event` with no worker running: it waited 300 s and
then failed; it now notices within seconds and says how to start a worker or run eagerly."""

import time

import pytest
from django.core.management import CommandError, call_command

from config.celery import app as celery_app
from tournaments.management.commands import simulate_event
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_eager(monkeypatch):
    """Tasks go to the broker, as without CELERY_TASK_ALWAYS_EAGER. (This test's transaction
    is never committed, so nothing is actually sent: no worker could ever answer.)"""
    monkeypatch.setattr(simulate_event, "NOTICE_SECONDS", 0.2)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = eager


def test_with_no_worker_it_stops_within_seconds_and_says_what_to_do(no_eager, monkeypatch):
    pings = []

    def ping(timeout):
        pings.append(timeout)
        return []  # nobody answers

    monkeypatch.setattr(celery_app.control, "ping", ping)
    started = time.monotonic()
    with pytest.raises(CommandError) as stopped:
        call_command("simulate_event", players=6, rounds=1, seed=1)
    assert time.monotonic() - started < 30  # not WAIT_SECONDS (300)
    message = str(stopped.value)
    assert message.startswith("The pairing is still waiting after 0.2 s")
    assert "no Celery worker answers a ping" in message
    assert ".venv/bin/celery -A config worker" in message
    assert "CELERY_TASK_ALWAYS_EAGER=1" in message
    assert pings == [simulate_event.PING_SECONDS]  # asked once
    assert Round.objects.get().status == Round.Status.PENDING


def test_a_broker_that_cannot_be_reached_counts_as_no_worker(no_eager, monkeypatch):
    def unreachable(timeout):
        raise ConnectionError("broker down")

    monkeypatch.setattr(celery_app.control, "ping", unreachable)
    with pytest.raises(CommandError, match="no Celery worker answers"):
        call_command("simulate_event", players=3, rounds=1, seed=2)


def test_a_worker_that_answers_is_waited_for_up_to_the_limit(no_eager, monkeypatch):
    monkeypatch.setattr(celery_app.control, "ping", lambda timeout: [{"w@host": {"ok": "pong"}}])
    monkeypatch.setattr(simulate_event, "WAIT_SECONDS", 0.6)
    with pytest.raises(CommandError, match=r"the pairing did not finish in 0.6 s"):
        call_command("simulate_event", players=3, rounds=1, seed=3)
