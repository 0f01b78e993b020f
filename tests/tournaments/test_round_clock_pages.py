"""The round clock on the pages: the settings form, the organiser's controls (plain forms),
the tables flagged after time, "end as it stands" on a table's page, the keeper's and the
watchers' sheet, the public round page, the projector, and the API."""

from __future__ import annotations

import csv
import io
import json
import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import autoplay
from scoring.models import Game
from tournaments import backup
from tournaments.common import event_settings, tokens
from tournaments.models import Event, EventLog, Round, Table
from tournaments.results.services import standings_build
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
    return organised_event, round_


def fresh(round_: Round) -> Round:
    return Round.objects.select_related("event").get(pk=round_.pk)


def clock_url(event, round_, move: str) -> str:
    return reverse(f"tournaments:organise_clock_{move}", args=[event.slug, round_.number])


def round_url(event, round_) -> str:
    return reverse("tournaments:organise_round", args=[event.slug, round_.number])


def text(response) -> str:
    return response.content.decode()


def time_up(round_: Round) -> None:
    deadline = timezone.now() - timedelta(seconds=1)
    Round.objects.filter(pk=round_.pk).update(clock_deadline=deadline)
    Game.objects.filter(table__round=round_).update(time_up_at=deadline)


def played_a_little(game: Game) -> None:
    rng = random.Random(3)
    while True:
        autoplay.play(game, rng, deals=1)
        game.refresh_from_db()
        assert game.result == Game.Result.IN_PLAY
        if len(set(game.totals)) == 3:
            return


def seconds_shown(body: str) -> int:
    """The time left a page shows, in seconds."""
    shown = re.search(r"data-clock-time>(\d+):(\d\d)<", body)
    assert shown, body
    return int(shown.group(1)) * 60 + int(shown.group(2))


# --- the settings ---------------------------------------------------------------------------------


def test_the_settings_page_sets_the_round_clock(organiser_client, organised_event):
    url = reverse("tournaments:organise_settings", args=[organised_event.slug])
    page = text(organiser_client.get(url))
    assert "Round length (minutes)" in page and "the organiser decides per table" in page
    form = {
        "name": "Friday night",
        "rounds_planned": 2,
        "pairing_mode": "random",
        "placing_first": 2,
        "placing_second": 1,
        "placing_third": 0,
        "bye_policy": "second",
        "precedence_1": "placing_points",
        "clock_minutes": "45",
        "clock_autostart": "on",
        "clock_at_time": "more",
        "clock_more_deals": "3",
    }
    response = organiser_client.post(url, form)
    assert response.status_code == 302, text(response)[:2000]
    event = Event.objects.get(pk=organised_event.pk)
    assert (event.clock_minutes, event.clock_autostart) == (45, True)
    assert (event.clock_at_time, event.clock_more_deals) == ("more", 3)
    # Emptied: no clock.
    response = organiser_client.post(url, {**form, "clock_minutes": ""})
    assert response.status_code == 302
    assert Event.objects.get(pk=organised_event.pk).clock_minutes == 0


# --- the organiser's round page -------------------------------------------------------------------


def test_the_organiser_starts_pauses_extends_and_stops_the_clock_without_javascript(
    organiser_client, clocked
):
    event, round_ = clocked
    page = text(organiser_client.get(round_url(event, round_)))
    assert "Start the clock" in page and "The round lasts 30 minutes" in page
    assert "At time: the organiser decides per table." in page

    response = organiser_client.post(clock_url(event, round_, "start"))
    assert response.status_code == 302 and response["Location"].endswith("#round-clock")
    page = text(organiser_client.get(response["Location"]))
    assert "Clock started." in page and "Time left" in page
    assert 29 * 60 < seconds_shown(page) <= 30 * 60
    assert ">Pause<" in page and "+5 minutes" in page and "Stop the clock" in page

    organiser_client.post(clock_url(event, round_, "pause"))
    page = text(organiser_client.get(round_url(event, round_)))
    assert "Clock paused" in page and ">Resume<" in page
    organiser_client.post(clock_url(event, round_, "extend"))
    assert 34 * 60 < fresh(round_).clock_remaining <= 35 * 60
    organiser_client.post(clock_url(event, round_, "resume"))
    assert clock_of(fresh(round_)).running
    organiser_client.post(clock_url(event, round_, "stop"))
    page = text(organiser_client.get(round_url(event, round_)))
    assert "The clock was stopped" in page and "Start the clock" in page
    moves = EventLog.objects.filter(event=event, action__startswith="clock_").count()
    assert moves == 5


def test_a_refused_move_says_why(organiser_client, clocked):
    event, round_ = clocked
    response = organiser_client.post(clock_url(event, round_, "pause"), follow=True)
    assert "the clock of this round is not running" in text(response)
    assert organiser_client.get(clock_url(event, round_, "start")).status_code == 405


def test_a_table_still_playing_after_time_is_flagged_and_ended_on_its_page(
    organiser_client, clocked
):
    event, round_ = clocked
    organiser_client.post(clock_url(event, round_, "start"))
    table = round_.tables.select_related("game").order_by("number").first()
    played_a_little(table.game)
    table_page = reverse(
        "tournaments:organise_table", args=[event.slug, round_.number, table.number]
    )
    assert "End as it stands" not in text(organiser_client.get(table_page))
    time_up(round_)

    page = text(organiser_client.get(round_url(event, round_)))
    assert "Time is up: 2 tables are still playing." in page
    assert page.count("playing after time") == 2

    body = text(organiser_client.get(table_page))
    assert "Time is up: end as it stands" in body
    end = reverse(
        "tournaments:organise_table_end_at_time", args=[event.slug, round_.number, table.number]
    )
    response = organiser_client.post(end)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENDED_AT_TIME and table.game.confirmed
    page = text(organiser_client.get(round_url(event, round_)))
    assert "Time is up: 1 table is still playing." in page
    assert "ended at time as it stood (round clock), confirmed" in page.lower()

    # the standings export says so per player, under its table notes (not only walkouts)
    standings_build(event_id=event.pk)
    export = organiser_client.get(f"/organise/events/{event.slug}/export/standings.csv")
    body = b"".join(export.streaming_content) if export.streaming else export.content
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    notes = {row["Player"]: row["Table notes"] for row in rows}
    said = f"round 1 table {table.number}: ended at time as it stood (round clock), confirmed"
    assert {notes[name] for name in table.game.players} == {said}


def test_the_clock_routes_are_the_organisers_only(outsider_client, client, clocked):
    event, round_ = clocked
    assert outsider_client.post(clock_url(event, round_, "start")).status_code == 403
    assert client.post(clock_url(event, round_, "start")).status_code == 302  # to log in
    assert fresh(round_).clock_started_at is None


# --- the sheets, the round page, the projector ----------------------------------------------------


def test_the_keeper_and_the_watchers_see_the_time_left(clocked):
    event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    game = round_.tables.order_by("number").first().game
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    page = text(keeper.get(reverse("scoring:table", args=[game.pk])))
    assert "data-clock-warn" in page and "js/clock/countdown.js" in page
    assert 29 * 60 < seconds_shown(page) <= 30 * 60
    assert "data-clock-now=" in page
    watcher = text(Client().get(reverse("scoring:table", args=[game.pk])))
    assert "Time left" in watcher and "data-clock-warn" not in watcher
    mark = clock_of(fresh(round_)).mark
    assert f"c={mark}" in watcher

    # The keeper's poll: nothing new while the clock is as shown; an extension is news.
    sheet = reverse("scoring:sheet", args=[game.pk])
    game.refresh_from_db()
    poll = {"v": game.version, "keeper": 1, "c": mark}
    assert keeper.get(sheet, poll).status_code == 204
    clock.clock_extend(round_=round_, actor="olga")
    answer = keeper.get(sheet, poll)
    assert answer.status_code == 200
    assert 34 * 60 < seconds_shown(text(answer)) <= 35 * 60
    # The watchers' poll too; their kept partial carries no server time of its own.
    watched = Client().get(sheet, {"v": game.version, "c": mark})
    assert watched.status_code == 200 and "data-clock-now" not in text(watched)


def test_the_keeper_is_warned_in_the_last_five_minutes_and_at_time(clocked):
    event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    game = round_.tables.order_by("number").first().game
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    soon = timezone.now() + timedelta(minutes=4)
    Round.objects.filter(pk=round_.pk).update(clock_deadline=soon)
    assert "Five minutes left." in text(keeper.get(reverse("scoring:table", args=[game.pk])))
    time_up(round_)
    page = text(keeper.get(reverse("scoring:table", args=[game.pk])))
    assert "Time is up." in page and "0:00" in page


def test_the_public_round_page_and_the_projector_show_the_clock(clocked):
    event, round_ = clocked
    public = reverse("tournaments:round", args=[event.slug, round_.number])
    projector = reverse("tournaments:projector", args=[event.slug])
    assert "data-clock" not in text(Client().get(public))  # not started: nothing to show
    clock.clock_start(round_=round_, actor="olga")
    for url in (public, public, projector):  # the round page twice: the kept copy too
        body = text(Client().get(url))
        assert "round-clock-big" in body and 29 * 60 < seconds_shown(body) <= 30 * 60
    clock.clock_pause(round_=round_, actor="olga")
    body = text(Client().get(public))
    assert "Clock paused" in body
    # The projector's poll answers anew when the clock moves.
    live = reverse("tournaments:projector_live", args=[event.slug])
    first = Client().get(live)
    tag = first["ETag"]
    assert Client().get(live, headers={"If-None-Match": tag}).status_code == 304
    clock.clock_resume(round_=round_, actor="olga")
    assert Client().get(live, headers={"If-None-Match": tag}).status_code == 200


# --- the API and the backup -----------------------------------------------------------------------


def test_the_api_moves_the_clock_and_gives_its_state(organiser, clocked):
    event, round_ = clocked
    token = tokens.token_issue(user=organiser)
    api = Client(headers={"Authorization": f"Bearer {token}"})
    base = f"/api/events/{event.slug}/rounds/{round_.number}"
    answer = api.post(f"{base}/clock/start", "{}", content_type="application/json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["clock"]["status"] == "running" and body["clock"]["minutes"] == 30
    assert body["clock"]["deadline"] == fresh(round_).clock_deadline.isoformat()
    refused = api.post(f"{base}/clock/start", "{}", content_type="application/json")
    assert refused.status_code == 409
    assert api.post(f"{base}/clock/extend", content_type="application/json").status_code == 200
    detail = Client().get(base).json()
    assert detail["clock"]["status"] == "running"
    assert 34 * 60 < detail["clock"]["remaining"] <= 35 * 60
    assert (
        api.post(f"{base}/clock/stop", "{}", content_type="application/json").json()["clock"][
            "status"
        ]
        == "stopped"
    )
    anonymous = Client().post(f"{base}/clock/start", "{}", content_type="application/json")
    assert anonymous.status_code == 401
    assert fresh(round_).clock_stopped_at is not None


def test_the_backup_keeps_the_clock(organiser, clocked):
    event, round_ = clocked
    event_settings.apply(event, {"clock_autostart": True, "clock_more_deals": 4})
    event.save()
    clock.clock_start(round_=round_, actor="olga")
    table = round_.tables.select_related("game").order_by("number").first()
    played_a_little(table.game)
    time_up(round_)
    clock.table_end_at_time(table=table, actor="olga")
    deadline = fresh(round_).clock_deadline
    document = backup.event_export(event=Event.objects.get(pk=event.pk))
    assert document["event"]["clock_minutes"] == 30
    assert document["event"]["clock_at_time"] == "organiser"
    assert document["rounds"][0]["clock_deadline"] is not None
    outcomes = [t["outcome"] for t in document["rounds"][0]["tables"]]
    assert Table.Outcome.ENDED_AT_TIME in outcomes

    data = json.loads(json.dumps(document))
    games = list(Game.objects.filter(table__round__event=event).values_list("pk", flat=True))
    club = event.club
    Event.objects.filter(pk=event.pk).delete()
    Game.objects.filter(pk__in=games).delete()
    club.delete()
    restored = backup.event_import(data=data).event
    assert (restored.clock_minutes, restored.clock_autostart) == (30, True)
    assert (restored.clock_at_time, restored.clock_more_deals) == ("organiser", 4)
    again = restored.rounds.get(number=1)
    assert again.clock_deadline == deadline and again.clock_started_at is not None
    ended = again.tables.get(outcome=Table.Outcome.ENDED_AT_TIME)
    assert ended.game.confirmed and ended.game.time_up_at == again.clock_deadline


def test_the_sheet_of_a_game_the_clock_ended_shows_its_result_and_takes_no_more_deals(clocked):
    event, round_ = clocked
    set_finish = event_settings.apply(event, {"clock_at_time": "finish"})
    assert set_finish == ["clock_at_time"]
    event.save()
    clock.clock_start(round_=round_, actor="olga")
    table = round_.tables.select_related("game").order_by("number").first()
    played_a_little(table.game)
    time_up(round_)
    autoplay.play(table.game, random.Random(9), deals=1)
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENDED_AT_TIME
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[table.game_id, table.game.secret]))
    for phone in (keeper, Client()):
        body = text(phone.get(reverse("scoring:table", args=[table.game_id])))
        assert "Time is up: the round clock ended the game as it stood." in body
        assert "Confirmed by round clock: the result is locked." in body
        assert 'name="call"' not in body and "tricks-form" not in body
        game = table.game
        first = game.players[game.placings[0]]
        assert re.search(rf'class="place">1\.</span> <span class="name">{first}<', body)


def test_one_slow_table_is_given_five_minutes_on_its_page_its_sheet_and_the_api(
    organiser, organiser_client, clocked
):
    """At time, "+5 minutes for this table" on table 2's page: its keeper's sheet shows its
    own five minutes (the keeper's poll hears of it), the round page flags only table 1, and
    the API gives the same (clock_extra) and extends it again."""
    event, round_ = clocked
    organiser_client.post(clock_url(event, round_, "start"))
    first, second = round_.tables.select_related("game").order_by("number")
    table_page = reverse(
        "tournaments:organise_table", args=[event.slug, round_.number, second.number]
    )
    assert "+5 minutes for this table" in text(organiser_client.get(table_page))
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[second.game_id, second.game.secret]))
    sheet = reverse("scoring:sheet", args=[second.game_id])
    second.game.refresh_from_db()
    poll = {"v": second.game.version, "keeper": 1, "c": clock_of(fresh(round_)).mark}
    assert keeper.get(sheet, poll).status_code == 204
    time_up(round_)

    extend = reverse("tournaments:organise_table_clock_extend", args=[event.slug, round_.number, 2])
    response = organiser_client.post(extend, follow=True)
    assert "Table 2: five minutes more." in text(response)
    page = text(organiser_client.get(round_url(event, round_)))
    assert "Time is up: 1 table is still playing." in page
    answer = keeper.get(sheet, poll)
    assert answer.status_code == 200 and 4 * 60 < seconds_shown(text(answer)) <= 5 * 60
    sheet_page = text(keeper.get(reverse("scoring:table", args=[second.game_id])))
    assert 4 * 60 < seconds_shown(sheet_page) <= 5 * 60
    other = Client()
    other.get(reverse("scoring:keep", args=[first.game_id, first.game.secret]))
    assert seconds_shown(text(other.get(reverse("scoring:table", args=[first.game_id])))) == 0

    token = tokens.token_issue(user=organiser)
    api = Client(headers={"Authorization": f"Bearer {token}"})
    base = f"/api/events/{event.slug}/rounds/{round_.number}/tables/2"
    answer = api.post(f"{base}/clock/extend", "{}", content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert (
        595
        <= answer.json()["clock_extra"]
        - (timezone.now() - fresh(round_).clock_deadline).total_seconds()
        <= 601
    )
    assert (
        Client().post(f"{base}/clock/extend", "{}", content_type="application/json").status_code
        == 401
    )
