"""A player who leaves mid-round, on the pages: the withdrawal's warning, the organiser's
table page and its four choices, the public pages, the API round, exports and backups."""

from __future__ import annotations

import copy
import csv
import io
import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from scoring import autoplay
from scoring import services as scoring
from scoring.models import Game
from tournaments import backup
from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Bye, Entry, Round, Table
from tournaments.results.services import standings_build
from tournaments.rounds.services import walkouts

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organised_event, build_round):
    register(organised_event, 7)
    round_ = build_round(organised_event, publish=True)
    return organised_event, round_


def tables_of(round_: Round) -> list[Table]:
    return list(round_.tables.select_related("game", "round__event").order_by("number"))


def table_url(event, table: Table, step: str = "") -> str:
    name = "tournaments:organise_table" + (f"_{step}" if step else "")
    return reverse(name, args=[event.slug, table.round.number, table.number])


def text(response) -> str:
    return response.content.decode()


def played_a_little(table: Table) -> None:
    rng = random.Random(3)
    while True:
        autoplay.play(table.game, rng, deals=1)
        table.game.refresh_from_db()
        assert table.game.result == Game.Result.IN_PLAY
        if len(set(table.game.totals)) == 3:
            return


# --- withdrawing a seated player ----------------------------------------------------------------


def test_withdrawing_a_seated_player_warns_and_leads_to_the_tables_choices(
    organiser_client, evening
):
    event, round_ = evening
    table = tables_of(round_)[0]
    entry = Entry.objects.get(event=event, player=table.seat_1)
    url = reverse("tournaments:organise_withdraw", args=[event.slug, entry.pk])
    response = organiser_client.post(url, {"reason": "went home"})
    assert response.status_code == 302 and response["Location"] == table_url(event, table)
    page = organiser_client.get(response["Location"])
    body = text(page)
    assert f"{table.seat_1.name} has withdrawn but still sits at table {table.number}" in body
    for heading in ("Substitute a player", "Finish the game as it stands", "Void the table"):
        assert heading in body
    assert "Enter an adjusted result" in body
    assert '<option value="1" selected>' in body  # the leaver's seat, chosen already


def test_with_htmx_the_withdrawal_redirects_the_whole_page(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    entry = Entry.objects.get(event=event, player=table.seat_0)
    url = reverse("tournaments:organise_withdraw", args=[event.slug, entry.pk])
    response = organiser_client.post(url, {"reason": ""}, headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == table_url(event, table)


def test_withdrawing_a_player_with_a_bye_is_as_before(organiser_client, evening):
    event, round_ = evening
    bye = Bye.objects.get(round=round_)
    entry = Entry.objects.get(event=event, player=bye.player)
    url = reverse("tournaments:organise_withdraw", args=[event.slug, entry.pk])
    response = organiser_client.post(url, {"reason": ""})
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:organise_players", args=[event.slug])


# --- the table page -----------------------------------------------------------------------------


def test_the_round_page_links_each_table_to_its_page(organiser_client, evening):
    event, round_ = evening
    body = text(organiser_client.get(reverse("tournaments:organise_round", args=[event.slug, 1])))
    for table in tables_of(round_):
        assert table_url(event, table) in body


def test_only_the_events_organisers_see_or_change_a_table(outsider_client, client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    assert outsider_client.get(table_url(event, table)).status_code == 403
    for step in ("substitute", "finish", "void", "adjust"):
        response = outsider_client.post(table_url(event, table, step), {"void-reason": "x"})
        assert response.status_code == 403
        assert "/accounts/login/" in client.post(table_url(event, table, step))["Location"]
    table.game.refresh_from_db()
    assert table.game.result == Game.Result.IN_PLAY


def test_substituting_on_the_page_with_a_bye_player(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    bye_player = Bye.objects.get(round=round_).player
    assert f'value="{bye_player.pk}"' in text(organiser_client.get(table_url(event, table)))
    response = organiser_client.post(
        table_url(event, table, "substitute"),
        {"sub-seat": "1", "sub-player": str(bye_player.pk), "sub-reason": "left early"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.seat_1 == bye_player and table.game.players[1] == bye_player.name
    body = text(organiser_client.get(table_url(event, table)))
    assert "takes seat 2 from the next deal on" in body
    assert f"{bye_player.name} for " in body  # the history line


def test_substituting_a_new_name_enters_and_checks_them_in(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    response = organiser_client.post(
        table_url(event, table, "substitute"),
        {"sub-seat": "0", "sub-new_name": "Late  Arrival", "sub-reason": "walkout"},
    )
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.seat_0.name == "Late Arrival"
    entry = Entry.objects.get(event=event, player=table.seat_0)
    assert entry.checked_in and not entry.withdrawn


def test_a_refused_new_substitute_is_not_entered_either(organiser_client, evening):
    """Entering the new name and seating them are one act: refused, neither happens."""
    event, round_ = evening
    table = tables_of(round_)[0]
    finish_game(table.game, random.Random(2))
    scoring.game_confirm(game_id=table.game_id, actor="olga")
    entries = Entry.objects.filter(event=event).count()
    response = organiser_client.post(
        table_url(event, table, "substitute"),
        {"sub-seat": "0", "sub-new_name": "Late Arrival", "sub-reason": "walkout"},
    )
    assert response.status_code == 409
    assert Entry.objects.filter(event=event).count() == entries
    assert not Entry.objects.filter(event=event, player__name="Late Arrival").exists()
    assert not event.club.players.filter(name="Late Arrival").exists()


def test_the_substitute_form_wants_one_player_and_a_reason(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    response = organiser_client.post(
        table_url(event, table, "substitute"), {"sub-seat": "0", "sub-reason": "x"}
    )
    assert response.status_code == 400
    assert "Choose a player or type a new name" in text(response)
    seated = tables_of(round_)[1].seat_0
    response = organiser_client.post(
        table_url(event, table, "substitute"),
        {"sub-seat": "0", "sub-new_name": seated.name, "sub-reason": "x"},
    )
    assert response.status_code == 400 and "already plays at table 2" in text(response)


def test_finishing_on_the_page_shows_the_placings_first(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    response = organiser_client.post(table_url(event, table, "finish"), {"fin-reason": "time"})
    assert response.status_code == 409 and "no hand has been played yet" in text(response)
    played_a_little(table)
    totals = table.game.totals
    leader = table.seats[max(range(3), key=lambda seat: totals[seat])]
    body = text(organiser_client.get(table_url(event, table)))
    assert "Placed by the score so far" in body and leader.name in body
    response = organiser_client.post(table_url(event, table, "finish"), {"fin-reason": "time"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.game.confirmed and table.outcome == Table.Outcome.ENDED_EARLY


def test_voiding_on_the_page_then_the_public_pages_and_the_api_say_so(
    organiser_client, client, evening
):
    event, round_ = evening
    table = tables_of(round_)[0]
    assert organiser_client.post(table_url(event, table, "void"), {}).status_code == 400
    response = organiser_client.post(table_url(event, table, "void"), {"void-reason": "left"})
    assert response.status_code == 302
    body = text(organiser_client.get(table_url(event, table)))
    assert "Void, set aside by the organisers" in body and "Substitute a player" not in body
    public = text(client.get(reverse("tournaments:round", args=[event.slug, 1])))
    assert "Void, set aside by the organisers" in public and "result-void" in public
    seat = text(
        client.get(
            reverse("tournaments:seat", args=[event.slug]),
            {"name": table.seat_2.name, "player": table.seat_2_id},
        )
    )
    assert "was set aside (void)" in seat
    api = client.get(f"/api/events/{event.slug}/rounds/1").json()
    assert api["tables"][0]["finished"] is True


def test_after_a_substitution_the_public_pages_and_api_show_the_new_seats(client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    leaver = table.seat_2
    joined = Bye.objects.get(round=round_).player
    walkouts.table_substitute(table=table, seat=2, player=joined, reason="ill", actor="olga")
    seat_url = reverse("tournaments:seat", args=[event.slug])
    mine = text(client.get(seat_url, {"name": joined.name, "player": joined.pk}))
    assert f"Table {table.number}" in mine and "seat 3" in mine
    gone = text(client.get(seat_url, {"name": leaver.name, "player": leaver.pk}))
    assert "Another player took your seat in round 1" in gone
    public = text(client.get(reverse("tournaments:round", args=[event.slug, 1])))
    assert joined.name in public and leaver.name not in public
    api = client.get(f"/api/events/{event.slug}/rounds/1").json()
    assert api["tables"][0]["player_ids"][2] == joined.pk
    assert api.get("byes", []) == []


def test_adjusting_on_the_page(organiser_client, client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    same = {"adj-place_0": "0", "adj-place_1": "0", "adj-place_2": "1", "adj-reason": "x"}
    response = organiser_client.post(table_url(event, table, "adjust"), same)
    assert response.status_code == 400 and "Each player takes one place." in text(response)
    partial = {"adj-place_0": "2", "adj-place_1": "0", "adj-place_2": "1", "adj-total_0": "4"}
    response = organiser_client.post(
        table_url(event, table, "adjust"), {**partial, "adj-reason": "x"}
    )
    assert response.status_code == 400 and "Give all three totals, or none." in text(response)
    good = {**partial, "adj-total_1": "0", "adj-total_2": "-2", "adj-reason": "a fight"}
    response = organiser_client.post(table_url(event, table, "adjust"), good)
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.game.placings == [2, 0, 1] and table.game.totals == [4, 0, -2]
    public = text(client.get(reverse("tournaments:round", args=[event.slug, 1])))
    assert "Adjusted result, confirmed" in public
    organiser = text(
        organiser_client.get(reverse("tournaments:organise_round", args=[event.slug, 1]))
    )
    assert 'class="result-state">Adjusted result, confirmed</span>' in organiser


def test_the_round_closes_once_each_table_is_confirmed_or_void(organiser_client, evening):
    event, round_ = evening
    first, second = tables_of(round_)
    finish_game(second.game, random.Random(1))
    scoring.game_confirm(game_id=second.game_id, actor="olga")
    close = reverse("tournaments:organise_round_close", args=[event.slug, 1])
    refused = organiser_client.post(close, follow=True)
    assert "1 table is neither confirmed nor void yet" in text(refused)
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    organiser_client.post(table_url(event, first, "void"), {"void-reason": "all left"})
    page = text(organiser_client.get(reverse("tournaments:organise_round", args=[event.slug, 1])))
    assert 'class="result-state">Void, set aside by the organisers</span>' in page
    assert "1 of 2 confirmed, 1 void" in page  # the heading agrees with the close button's line
    assert "last entry just now" in page and "0 minutes" not in page
    assert organiser_client.post(close).status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


# --- settings, exports, backup ------------------------------------------------------------------


def test_the_void_policy_is_on_the_settings_page(organiser_client, organised_event):
    url = reverse("tournaments:organise_settings", args=[organised_event.slug])
    body = text(organiser_client.get(url))
    assert 'name="void_policy"' in body and "A void table scores" in body
    data = {
        "name": organised_event.name,
        "rounds_planned": "2",
        "pairing_mode": "swiss",
        "placing_first": "2",
        "placing_second": "1",
        "placing_third": "0",
        "bye_policy": "second",
        "void_policy": "average",
        "precedence_1": "placing_points",
    }
    assert organiser_client.post(url, data).status_code == 302
    organised_event.refresh_from_db()
    assert organised_event.void_policy == "average"


def _csv(response) -> list[dict]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))


def test_exports_mark_void_and_adjusted_tables(organiser_client, evening):
    event, round_ = evening
    first, second = tables_of(round_)
    walkouts.table_void(table=first, reason="two left", actor="olga")
    walkouts.table_adjust(table=second, placings=[0, 1, 2], totals=None, reason="dispute")
    standings_build(event_id=event.pk)
    pairings = _csv(organiser_client.get(f"/organise/events/{event.slug}/export/pairings.csv"))
    results = {(row["Table"], row["Result"], row["Reason"]) for row in pairings if row["Table"]}
    # the round page's words (one wording of a table's state everywhere)
    assert results == {
        ("1", "void, set aside by the organisers", "two left"),
        ("2", "adjusted result, confirmed", "dispute"),
    }
    standings = _csv(organiser_client.get(f"/organise/events/{event.slug}/export/standings.csv"))
    notes = {row["Player"]: row["Table notes"] for row in standings}
    assert notes[first.seat_0.name] == "round 1 table 1: void, set aside by the organisers"
    assert notes[second.seat_0.name] == "round 1 table 2: adjusted result, confirmed"


def test_a_backup_keeps_the_walkouts_and_reads_older_backups(evening):
    event, round_ = evening
    first, second = tables_of(round_)
    joined = Bye.objects.get(round=round_).player
    played_a_little(first)
    walkouts.table_substitute(table=first, seat=0, player=joined, reason="ill", actor="olga")
    walkouts.table_adjust(table=first, placings=[1, 0, 2], totals=None, reason="agreed")
    walkouts.table_void(table=second, reason="left", actor="olga")
    event.void_policy = "none"
    event.save()
    data = json.loads(json.dumps(backup.event_export(event=event)))
    tables = data["rounds"][0]["tables"]
    assert tables[0]["outcome"] == "adjusted" and tables[0]["substitutions"][0]["joined"] == (
        joined.name
    )
    assert tables[1]["void_players"] == [p.name for p in second.seats]
    older = copy.deepcopy(data)
    del older["event"]["void_policy"]
    for table in older["rounds"][0]["tables"]:
        for key in ("outcome", "outcome_reason", "substitutions", "void_players"):
            del table[key]
    older["event"]["slug"] = "older"

    plain = copy.deepcopy(older)  # a backup from before walkouts, its rounds left out
    plain["rounds"], plain["standings"], plain["log"] = [], [], []
    assert backup.event_import(data=plain, club_slug="plain").event.void_policy == "bye"

    games = list(Game.objects.filter(table__round__event=event).values_list("pk", flat=True))
    event.delete()
    Game.objects.filter(pk__in=games).delete()
    imported = backup.event_import(data=data, club_slug="elsewhere").event
    again = Table.objects.get(round__event=imported, number=1)
    assert again.outcome == "adjusted" and again.substitutions[0]["joined"] == again.seat_0_id
    assert again.game.placings == [1, 0, 2] and again.game.confirmed
    assert imported.void_policy == "none"
    void = Table.objects.get(round__event=imported, number=2)
    assert void.void_players == list(void.seat_ids) and void.game.result == Game.Result.VOID


def test_the_permission_matrix_knows_the_table_pages():
    from tests.test_permissions import routes

    names = {name for name, _route in routes()}
    for step in ("", "_substitute", "_finish", "_void", "_adjust"):
        assert f"tournaments:organise_table{step}" in names
    client = Client()
    assert client.get("/organise/events/x/rounds/1/tables/1/").status_code == 302


def test_the_public_standings_name_the_settled_tables(client, evening):
    event, round_ = evening
    first, second = tables_of(round_)
    walkouts.table_adjust(table=second, placings=[2, 1, 0], totals=None, reason="dispute")
    walkouts.table_void(table=first, reason="two left", actor="olga")
    standings_build(event_id=event.pk)
    body = text(client.get(reverse("tournaments:standings", args=[event.slug])))
    assert "Results settled by the organisers" in body
    assert "Round 1, table 1: void, set aside by the organisers (two left)" in body
    assert "Round 1, table 2: adjusted result, confirmed (dispute)" in body


def test_the_hands_export_names_who_played_each_deal(organiser_client, evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    played_a_little(table)
    before = table.game.entries.count()
    leaver, joined = table.seat_0, Bye.objects.get(round=round_).player
    walkouts.table_substitute(table=table, seat=0, player=joined, reason="ill", actor="olga")
    autoplay.play(table.game, random.Random(8), deals=1)
    rows = _csv(organiser_client.get(f"/organise/events/{event.slug}/export/hands.csv"))
    mine = [row for row in rows if row["Table"] == str(table.number)]
    assert {row["Player 1"] for row in mine[:before]} == {leaver.name}
    assert mine[before]["Player 1"] == joined.name


def test_the_score_sheet_of_a_void_or_adjusted_game_still_opens(organiser_client, client, evening):
    event, round_ = evening
    first, second = tables_of(round_)
    played_a_little(first)
    walkouts.table_void(table=first, reason="left", actor="olga")
    walkouts.table_adjust(table=second, placings=[0, 2, 1], totals=None, reason="agreed")
    for table in (first, second):
        assert client.get(reverse("scoring:table", args=[table.game_id])).status_code == 200
        manage = organiser_client.get(reverse("scoring:manage", args=[table.game_id]))
        assert manage.status_code == 200
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[first.game_id, first.game.secret]))
    assert keeper.get(reverse("scoring:table", args=[first.game_id])).status_code == 200


def test_the_log_says_what_happened_to_the_table(organiser_client, evening):
    event, round_ = evening
    first, second = tables_of(round_)
    leaver, joined = first.seat_0, Bye.objects.get(round=round_).player
    entry_withdraw(entry=Entry.objects.get(event=event, player=leaver), actor="olga")
    walkouts.table_substitute(table=first, seat=0, player=joined, reason="ill", actor="olga")
    walkouts.table_void(table=second, reason="left", actor="olga")
    body = text(organiser_client.get(reverse("tournaments:organise_log", args=[event.slug])))
    assert f"{leaver.name} withdrew, still seated at round 1, table 1." in body
    assert f"Round 1, table 1: {joined.name} took {leaver.name}&#x27;s seat from hand 1." in body
    assert "Round 1, table 2: void." in body


def test_a_substitute_after_a_pass_is_named_by_the_hand_the_players_count(
    organiser_client, evening
):
    """Hand 1 played, then everyone passed (deal 2 dealt again): the substitute plays from
    deal 3, which is the second hand. The table's history, the event log and the standings
    export say "hand 2", as the score sheet numbers it (scoring.presenters.numbering)."""
    event, round_ = evening
    first = tables_of(round_)[0]
    scoring.deal_record(game_id=first.game_id, number=1, calls=["hearts"], tricks=[4, 7, 5])
    scoring.deal_record(game_id=first.game_id, number=2, calls=["pass"])
    leaver, joined = first.seat_0, Bye.objects.get(round=round_).player
    entry_withdraw(entry=Entry.objects.get(event=event, player=leaver), actor="olga")
    walkouts.table_substitute(table=first, seat=0, player=joined, reason="ill", actor="olga")
    first.refresh_from_db()
    assert first.substitutions[0]["from_deal"] == 3 and first.substitutions[0]["from_hand"] == 2

    page = text(organiser_client.get(table_url(event, first)))
    assert f"{joined.name} for {leaver.name} from hand 2" in page
    log = text(organiser_client.get(reverse("tournaments:organise_log", args=[event.slug])))
    assert f"{joined.name} took {leaver.name}&#x27;s seat from hand 2." in log
    standings_build(event_id=event.pk)
    rows = _csv(organiser_client.get(f"/organise/events/{event.slug}/export/standings.csv"))
    notes = {row["Player"]: row["Table notes"] for row in rows}
    assert notes[joined.name] == "round 1 table 1: substitute from hand 2"
