"""Where an event's table game is played, as the table page asks it on every visit
(tournaments.rounds.selectors.table_place, one plain SQL statement): the same event, round,
table and round clock as the models say, in every state of the clock, in one query."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import Game
from scoring.presenters.place import place_of
from tournaments.common import event_settings
from tournaments.models import Round, Table
from tournaments.rounds.selectors import clock_of, table_place
from tournaments.rounds.services import clock

from .conftest import register

pytestmark = pytest.mark.django_db


def expected(table: Table) -> dict:
    """The place as the models give it (the queryset the page used to build)."""
    table = Table.objects.select_related("round__event").get(pk=table.pk)
    place = {"event": table.round.event.name, "round": table.round.number, "table": table.number}
    if table.round.event.clock_minutes:
        place["clock"] = clock_of(table.round, extra=table.clock_extra)
    return place


@pytest.fixture
def now(monkeypatch):
    """The server's time, held still so that two reads of a running clock agree."""
    moment = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


def test_a_table_without_a_round_clock_is_placed_in_one_query(
    organised_event, build_round, django_assert_num_queries
):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    table = round_.tables.select_related("game").order_by("number").last()
    with django_assert_num_queries(1):
        place = place_of(table.game)
    assert place == expected(table) == {"event": "Friday night", "round": 1, "table": 2}


def test_the_round_clock_read_with_the_place_is_the_models_in_every_state(
    organised_event, build_round, now, django_assert_num_queries
):
    event_settings.apply(organised_event, {"clock_minutes": 30, "clock_at_time": "organiser"})
    organised_event.save()
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    table = round_.tables.order_by("number").first()

    def same() -> dict:
        with django_assert_num_queries(1):
            place = table_place(table.game_id)
        assert place == expected(table)
        return place

    assert same()["clock"].status == "idle"
    clock.clock_start(round_=round_)
    assert same()["clock"].status == "running"
    Table.objects.filter(pk=table.pk).update(clock_extra=300)
    assert same()["clock"].remaining == 30 * 60 + 300
    clock.clock_pause(round_=Round.objects.get(pk=round_.pk))
    assert same()["clock"].status == "paused"
    clock.clock_resume(round_=Round.objects.get(pk=round_.pk))
    Round.objects.filter(pk=round_.pk).update(clock_deadline=now - timedelta(minutes=6))
    assert same()["clock"].status == "at_time"
    Round.objects.filter(pk=round_.pk).update(clock_stopped_at=now)
    assert same()["clock"].status == "stopped"


def test_a_game_no_table_plays_has_no_place():
    game = Game.objects.create(players=["Ana", "Boris", "Vera"], ruleset="blato", first_dealer=0)
    assert table_place(game.pk) is None
