"""The periodic sweep redoes work whose task a broker outage lost."""

import pytest

from tournaments import tasks
from tournaments.events.services.event import club_create, event_create
from tournaments.models import Round
from tournaments.results.services import standings_build
from tournaments.results.sweep import events_with_stale_standings, rounds_waiting_for_pairing
from tournaments.rounds.services.rounds import round_create, round_publish

from .test_services import field, play_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker_down(monkeypatch):
    """Every enqueue fails as if the broker were unreachable; the writes still commit."""

    def refuse(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.pair_round, "delay", refuse)
    monkeypatch.setattr(tasks.build_standings, "delay", refuse)
    return monkeypatch


def test_a_round_asked_for_while_the_broker_was_down_is_paired_by_the_sweep(broker_down):
    event = event_create(club=club_create(name="Club"), name="Evening", seed=5)
    field(event, 6)
    round_ = round_create(event=event)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PENDING
    assert rounds_waiting_for_pairing() == [round_.pk]
    broker_down.undo()
    assert tasks.sweep()["rounds"] == [round_.pk]
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.tables.count() == 2
    assert rounds_waiting_for_pairing() == []


def test_results_confirmed_while_the_broker_was_down_reach_the_standings(broker_down):
    event = event_create(club=club_create(name="Club"), name="Evening", seed=5)
    field(event, 3)
    broker_down.undo()
    round_ = round_create(event=event)
    round_publish(round_=Round.objects.get(pk=round_.pk))
    standings_build(event_id=event.pk)
    assert events_with_stale_standings() == []
    broker_down.setattr(tasks.build_standings, "delay", lambda *a: (_ for _ in ()).throw(OSError))
    play_table(Round.objects.get(pk=round_.pk).tables.get())
    assert events_with_stale_standings() == [event.pk]
    before = event.standings.first()
    broker_down.undo()
    assert tasks.sweep()["standings"] == [event.pk]
    after = event.standings.first()
    assert after.pk != before.pk and after.rows != before.rows
    assert tasks.sweep() == {"standings": [], "rounds": []}  # nothing left: nothing redone
