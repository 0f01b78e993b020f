"""Paper and downloads: table cards with the keeper link's QR code (organisers only, never
cached), score sheets with a row for every possible deal, the pairing list by name, and the
standings, pairings and deals as CSV, XLSX and JSON."""

import csv
import io
import json
import random
import re

import openpyxl
import pytest
from django.urls import reverse

from tournaments.events.services.event import club_create, event_create
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close, round_publish

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode("utf-8-sig")  # CSV exports start with a BOM, for Excel


def url(event, name, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


@pytest.fixture
def published(organised_event, build_round):
    register(organised_event, 7)
    round_ = build_round(organised_event, publish=True)
    return round_, list(round_.tables.select_related("game", "seat_0").order_by("number"))


# --- paper ------------------------------------------------------------------------------------


def test_table_cards_carry_the_keeper_link_as_a_qr_code(organiser_client, published):
    round_, tables = published
    event = round_.event
    response = organiser_client.get(url(event, "organise_print_cards", 1))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response["Referrer-Policy"] == "no-referrer"
    body = text(response)
    assert body.count('<article class="card">') == 2
    # two codes a card: the public table page and the keeper link
    assert body.count('<svg viewBox="0 0') == 4 and 'class="segno"' in body
    for table in tables:
        assert table.game.secret not in body  # only inside the keeper's QR code
        assert f"First dealer: {table.seats[table.first_dealer].name}" in body
    assert "deals first" not in body  # said once per card, by the line above
    assert "css/print.css" in body


def test_the_qr_code_encodes_the_absolute_keeper_link(organiser_client, published, monkeypatch):
    from tournaments.rounds.presenters import paper as organise_print

    made = []
    real = organise_print.segno.make

    def spy(content, **kwargs):
        made.append(content)
        return real(content, **kwargs)

    monkeypatch.setattr(organise_print.segno, "make", spy)
    round_, tables = published
    organiser_client.get(url(round_.event, "organise_print_cards", 1))
    game = tables[0].game
    assert made[0] == "http://testserver" + reverse("scoring:keep", args=[game.pk, game.secret])


def test_cards_need_a_published_round_and_an_organiser(
    organiser_client, outsider_client, client, organised_event, build_round
):
    register(organised_event, 6)
    build_round(organised_event)
    body = text(organiser_client.get(url(organised_event, "organise_print_cards", 1)))
    assert "Publish the round first" in body and "<svg" not in body
    round_publish(round_=organised_event.rounds.get())
    secrets = [t.game.secret for t in organised_event.rounds.get().tables.select_related("game")]
    for name in ("organise_print_cards", "organise_print_sheets", "organise_print_pairings"):
        denied = outsider_client.get(url(organised_event, name, 1))
        assert denied.status_code == 403
        assert client.get(url(organised_event, name, 1)).status_code == 302
        assert not any(secret in text(denied) for secret in secrets)


@pytest.mark.parametrize(
    ("ruleset", "options", "rows", "open_ended"),
    [
        ("blato", {}, 9 + 3, False),  # nine hands, and a redeal for each player's one pass
        ("blato", {"hands": 5}, 5 + 3, False),
        ("sergeant-major-alternate", {}, 3 * 6, False),  # each of six calls once per player
        ("three-five-eight", {}, 20, True),  # ends on points: a fixed count
    ],
)
def test_score_sheets_have_a_row_for_every_possible_deal(
    organiser, organiser_client, build_round, ruleset, options, rows, open_ended
):
    club = club_create(name="Club")
    event = event_create(
        club=club, name="Paper", ruleset=ruleset, options=options, organisers=[organiser]
    )
    register(event, 6)
    build_round(event)
    body = text(organiser_client.get(url(event, "organise_print_sheets", 1)))
    assert body.count('<article class="sheet-page">') == 2
    numbers = re.findall(r'<tr><th scope="row">(\d+)</th>', body)
    assert numbers == [str(n) for n in range(1, rows + 1)] * 2
    assert ("continue on the back" in body) is open_ended


@pytest.mark.parametrize("count", [9, 45])
def test_paper_costs_the_same_few_queries_for_any_field(
    organiser_client, organised_event, build_round, count, django_assert_max_num_queries
):
    register(organised_event, count)
    build_round(organised_event, publish=True)
    for name in ("organise_print_cards", "organise_print_sheets", "organise_print_pairings"):
        with django_assert_max_num_queries(8):
            body = text(organiser_client.get(url(organised_event, name, 1)))
        assert body.count(f"Player {count:03d}") >= 1


def test_the_pairing_list_is_sorted_by_name(organiser_client, published):
    round_, tables = published
    body = text(organiser_client.get(url(round_.event, "organise_print_pairings", 1)))
    listed = re.findall(r"<tr><td>(Player \d+)</td>", body)
    assert listed == sorted(listed) and len(listed) == 7
    bye = round_.byes.get().player.name
    assert re.search(rf"<td>{bye}</td><td colspan=\"2\">bye</td>", body)
    first = tables[0]
    assert f"<td>{first.seat_0.name}</td><td>1</td><td>1</td>" in body


# --- downloads --------------------------------------------------------------------------------


@pytest.fixture
def played(organiser_client, published, django_capture_on_commit_callbacks):
    round_, tables = published
    rng = random.Random(7)
    for table in tables:
        finish_game(table.game, rng)
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    with django_capture_on_commit_callbacks(execute=True):
        round_close(round_=round_, actor="olga")
    return round_.event


def _get(client, event, what, fmt):
    response = client.get(url(event, "organise_export", what, fmt))
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}-{what}.{fmt}"'
    return response


def test_standings_in_three_formats(organiser_client, played):
    rows = played.standings.first().rows
    names = dict(played.entries.values_list("player_id", "player__name"))
    leader = names[rows[0]["player"]]
    table = list(csv.reader(io.StringIO(text(_get(organiser_client, played, "standings", "csv")))))
    assert table[0] == [
        "Rank",
        "Player",
        "Placing points",
        "Game points",
        "First places",
        "Opponents' placing points",
        "Head to head",
        "Games played",
        "Decided by",
        "Withdrawn",
        "Table notes",
    ]
    assert len(table) == 8 and table[1][:3] == [
        "1",
        leader,
        str(rows[0]["metrics"]["placing_points"]),
    ]
    book = openpyxl.load_workbook(
        io.BytesIO(_get(organiser_client, played, "standings", "xlsx").content)
    )
    sheet = book.active
    assert sheet.max_row == 8 and [c.value for c in sheet[2]][:2] == [1, leader]
    data = json.loads(_get(organiser_client, played, "standings", "json").content)
    assert [row["Rank"] for row in data] == list(range(1, 8)) and data[0]["Player"] == leader


def test_pairings_in_three_formats(organiser_client, played):
    table = list(csv.reader(io.StringIO(text(_get(organiser_client, played, "pairings", "csv")))))
    assert table[0] == [
        "Round",
        "Table",
        "Seat",
        "Player",
        "Deals first",
        "Bye",
        "Result",
        "Reason",
    ]
    assert len(table) == 1 + 6 + 1
    assert table[1][:3] == ["1", "1", "1"] and table[-1][5] == "yes"
    sheet = openpyxl.load_workbook(
        io.BytesIO(_get(organiser_client, played, "pairings", "xlsx").content)
    ).active
    assert sheet.max_row == 8
    data = json.loads(_get(organiser_client, played, "pairings", "json").content)
    assert sum(1 for row in data if row["Deals first"] == "yes") == 2


def test_every_deal_in_three_formats(organiser_client, played):
    games = [t.game for t in played.rounds.get().tables.select_related("game").order_by("number")]
    deals = sum(game.entries.filter(undone_at__isnull=True).count() for game in games)
    table = list(csv.reader(io.StringIO(text(_get(organiser_client, played, "hands", "csv")))))
    header = table[0]
    assert header[:8] == [
        "Round",
        "Table",
        "Deal",
        "Hand",
        "Player 1",
        "Player 2",
        "Player 3",
        "Dealer",
    ]
    assert {"Calls", "Contract", "Declarer", "Tricks 1", "Points 3", "Total 2"} <= set(header)
    assert len(table) == 1 + deals
    last = dict(zip(header, [r for r in table if r[1] == "1"][-1], strict=True))
    assert [int(last[f"Total {seat}"]) for seat in (1, 2, 3)] == games[0].totals
    book = openpyxl.load_workbook(
        io.BytesIO(_get(organiser_client, played, "hands", "xlsx").content)
    )
    assert book.active.max_row == 1 + deals
    data = json.loads(_get(organiser_client, played, "hands", "json").content)
    hands = [row for row in data if row["Contract"]]
    assert all(sum(row[f"Tricks {s}"] for s in (1, 2, 3)) == 16 for row in hands)


def test_unknown_exports_are_404(organiser_client, organised_event):
    for tail in ("standings.pdf", "players.csv", "standings.csv.json"):
        response = organiser_client.get(f"/organise/events/{organised_event.slug}/export/{tail}")
        assert response.status_code == 404


@pytest.mark.parametrize("count", [7, 19])
def test_exports_cost_the_same_few_queries_for_any_field(
    organiser_client,
    organised_event,
    build_round,
    count,
    django_assert_max_num_queries,
    django_capture_on_commit_callbacks,
):
    register(organised_event, count)
    round_ = build_round(organised_event, publish=True)
    rng = random.Random(count)
    for table in round_.tables.select_related("game"):
        finish_game(table.game, rng)
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    for what in ("standings", "pairings", "hands"):
        with django_assert_max_num_queries(8):
            body = text(_get(organiser_client, organised_event, what, "csv"))
        assert len(body.splitlines()) > count // 3
