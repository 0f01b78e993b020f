"""The watchers' sheet poll of a table playing against a round clock, at the door
(config.door, tests/test_door.py): with the clock's mark as shown (`c`) it is answered there
exactly as the view answers it; once the organiser moves the clock the door lets it through
and the view answers the news."""

from __future__ import annotations

import time

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.urls import reverse

from config.door import Door
from tests.test_door import at_door, environ, full, same_as_full, wrapped
from tests.test_door_wait import in_thread, until
from tournaments.common import event_settings
from tournaments.models import Round
from tournaments.rounds.selectors import clock_of
from tournaments.rounds.services import clock

from .conftest import register

pytestmark = pytest.mark.django_db


@pytest.fixture
def clocked(organised_event, build_round):
    event_settings.apply(organised_event, {"clock_minutes": 30, "clock_at_time": "organiser"})
    organised_event.save()
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    clock.clock_start(round_=round_, actor="olga")
    return Round.objects.select_related("event").get(pk=round_.pk)


def test_the_clocked_sheet_poll_at_the_door_is_the_views_answer(clocked):
    game = clocked.tables.order_by("number").first().game
    mark = clock_of(clocked).mark
    env = environ(reverse("scoring:sheet", args=[game.pk]), query={"v": game.version, "c": mark})
    answer = at_door(env)
    assert answer[0] == "204 No Content"
    same_as_full(env, answer)

    clock.clock_extend(round_=clocked, actor="olga")
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    moved = wrapped(env)
    assert moved[0] == "200 OK" and moved == full(env)


@pytest.mark.django_db(transaction=True)
def test_a_held_clocked_sheet_is_let_go_when_the_organiser_moves_the_clock(clocked, make_parking):
    """The watchers' page of a clocked table asks to wait with the clock's mark it shows: the
    door's watcher reads every held game's clock mark with its version (one statement for
    all), so an extension reaches the table's phones within a tick, as a deal does."""
    from scoring.views.watch import SHEET_AT_DOOR

    tables = list(clocked.tables.order_by("number"))
    games = [table.game for table in tables]
    mark = clock_of(clocked).mark
    asked = [{"game_id": str(game.pk)} for game in games]
    assert SHEET_AT_DOOR.watch(asked) == [(game.version, mark) for game in games]

    parking = make_parking(threads=8, working=2, tick=0.05)
    query = {"v": games[0].version, "c": mark, "wait": 25}
    env = environ(reverse("scoring:sheet", args=[games[0].pk]), query=query)
    thread, got = in_thread(Door(WSGIHandler(), parking=parking), env)
    until(lambda: parking.parked == 1)
    clock.clock_extend(round_=clocked, actor="olga")
    thread.join(2)
    assert not thread.is_alive()
    assert got["answer"][0] == "200 OK" and got["answer"] == full(env)
    moved = clock_of(Round.objects.select_related("event").get(pk=clocked.pk)).mark
    assert moved != mark
    assert SHEET_AT_DOOR.watch(asked) == [(game.version, moved) for game in games]


@pytest.mark.django_db(transaction=True)
def test_a_held_sheet_without_a_clock_shown_sleeps_through_a_clock_move(clocked, make_parking):
    """A page that shows no clock (no `c`) is not behind when the organiser moves it: its
    held question sleeps on, and wakes for the next deal."""
    from scoring import services

    game = clocked.tables.order_by("number").first().game
    parking = make_parking(threads=8, working=2, tick=0.05)
    query = {"v": game.version, "wait": 25}
    env = environ(reverse("scoring:sheet", args=[game.pk]), query=query)
    thread, got = in_thread(Door(WSGIHandler(), parking=parking), env)
    until(lambda: parking.parked == 1)
    clock.clock_extend(round_=clocked, actor="olga")
    time.sleep(0.3)  # six looks
    assert thread.is_alive() and parking.parked == 1
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    thread.join(2)
    assert not thread.is_alive() and got["answer"][0] == "200 OK"
