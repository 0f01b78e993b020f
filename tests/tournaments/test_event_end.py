"""The night goes on after the last planned round: closing it leaves the event running, the
dashboard offers "Add a round" (one more planned, logged) and "End the event" (asked first,
logged); an event that is over can be reopened by its organisers (docs/rounds.md)."""

import random

import pytest
from django.urls import reverse

from tournaments import tasks  # noqa: F401 - the pairing task, registered
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services.event import (
    event_end,
    event_reopen,
    event_round_add,
    event_update,
)
from tournaments.models import Event, EventLog, Round
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close, round_create

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def url(event, name, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def text(response) -> str:
    return response.content.decode()


def play_round(event, build_round, seed=1) -> Round:
    round_ = build_round(event, publish=True)
    rng = random.Random(seed)
    for table in round_.tables.all():
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    round_close(round_=round_, actor="olga")
    return round_


def actions(event) -> list[str]:
    return list(EventLog.objects.filter(event=event).values_list("action", flat=True))


def test_closing_the_last_planned_round_leaves_the_event_running(organised_event, build_round):
    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    play_round(organised_event, build_round, 2)
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.RUNNING
    # no third round unless one is added: said in words the organiser can act on
    with pytest.raises(NotAllowed) as refused:
        round_create(event=organised_event)
    assert refused.value.message == (
        "all 2 planned rounds are played: add a round or end the event"
    )
    # the settings are not frozen
    event_update(event=organised_event, name="Friday night, late")


def test_a_round_added_on_the_night_is_logged_and_can_be_built(organised_event, build_round):
    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    play_round(organised_event, build_round, 2)
    event = event_round_add(event=organised_event, actor="olga")
    assert event.rounds_planned == 3
    assert "round_added" in actions(event)
    third = play_round(event, build_round, 3)
    assert third.number == 3


def test_ending_the_event_is_refused_while_a_round_is_played(organised_event, build_round):
    register(organised_event, 6)
    build_round(organised_event, publish=True)
    with pytest.raises(NotAllowed) as refused:
        event_end(event=organised_event, actor="olga")
    assert refused.value.message == "round 1 is not closed yet"
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.RUNNING


def test_an_ended_event_is_frozen_until_its_organisers_reopen_it(organised_event, build_round):
    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    event = event_end(event=organised_event, actor="olga")  # early: one round of two
    assert event.status == Event.Status.CLOSED and "event_ended" in actions(event)
    with pytest.raises(NotAllowed):
        event_round_add(event=event, actor="olga")
    with pytest.raises(NotAllowed):
        round_create(event=event)
    with pytest.raises(TournamentError):
        event_end(event=event, actor="olga")  # over already
    event = event_reopen(event=event, actor="olga")
    assert event.status == Event.Status.RUNNING and "event_reopened" in actions(event)
    assert play_round(event, build_round, 2).number == 2


# --- the dashboard ------------------------------------------------------------------------------


def test_the_dashboard_offers_a_round_more_or_the_end_after_the_last_one(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    play_round(organised_event, build_round, 2)
    body = text(organiser_client.get(url(organised_event, "organise_event")))
    assert "All 2 planned rounds are played." in body
    assert url(organised_event, "organise_event_add_round") in body
    assert url(organised_event, "organise_event_end") in body
    assert "Build round 3" not in body

    response = organiser_client.post(url(organised_event, "organise_event_add_round"))
    assert response.status_code == 302
    body = text(organiser_client.get(response["Location"]))
    assert "Round 3 added." in body and "Build round 3" in body
    organised_event.refresh_from_db()
    assert organised_event.rounds_planned == 3


def test_ending_the_event_asks_first_and_reopening_undoes_it(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    end = url(organised_event, "organise_event_end")
    body = text(organiser_client.get(end))  # the question, as a page: no JavaScript needed
    assert "End the event?" in body and f'action="{end}"' in body
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.RUNNING  # asking changes nothing

    response = organiser_client.post(end)
    assert response["Location"] == url(organised_event, "organise_event")
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.CLOSED
    body = text(organiser_client.get(url(organised_event, "organise_event")))
    assert "The event is over." in body
    assert url(organised_event, "organise_event_reopen") in body

    response = organiser_client.post(url(organised_event, "organise_event_reopen"))
    assert response.status_code == 302
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.RUNNING


def test_ending_while_a_round_is_played_goes_back_with_the_reason(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    build_round(organised_event, publish=True)
    response = organiser_client.post(url(organised_event, "organise_event_end"), follow=True)
    assert "round 1 is not closed yet" in text(response)
    organised_event.refresh_from_db()
    assert organised_event.status == Event.Status.RUNNING


# --- the final standings ------------------------------------------------------------------------


def test_a_finished_events_dashboard_shows_the_final_standings_to_print(
    organiser_client, organised_event, build_round, django_capture_on_commit_callbacks
):
    from tournaments.results.services import standings_build

    register(organised_event, 6)
    play_round(organised_event, build_round, 1)
    play_round(organised_event, build_round, 2)
    dashboard = url(organised_event, "organise_event")
    assert "Final standings" not in text(organiser_client.get(dashboard))  # not over yet
    event_end(event=organised_event, actor="olga")
    snapshot = standings_build(event_id=organised_event.pk)
    names = dict(organised_event.entries.values_list("player_id", "player__name"))
    leader = names[snapshot.rows[0]["player"]]
    tied = [row for row in snapshot.rows if row.get("decided_by")]
    body = text(organiser_client.get(dashboard))
    assert "Final standings" in body and leader in body
    assert "Ranked by" in body  # how the order is decided, as the public standings say
    final = url(organised_event, "organise_event_final")
    assert final in body
    paper = text(organiser_client.get(final))
    assert "Final standings" in paper and "Print this page" in paper and leader in paper
    assert "After 2 rounds" in paper
    # every tie-break, said in full on paper (a mouse-over title does not print)
    assert tied, "the seeded field has ties"
    assert paper.count("Level with the player above on") == len(tied)
