"""A whole event run through the organiser pages, as an organiser on a phone without
JavaScript would: log in, create the event, paste 31 names, check everyone in, and for each
of 4 swiss rounds build, publish, have every table play its game, confirm, close; then export
the standings in the three formats."""

import csv
import io
import json
import random
import re

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Event, Round

from .conftest import PASSWORD, finish_game

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [f"Player {n:02d}" for n in range(1, 32)]


def ok(response, status=302):
    assert response.status_code == status, response.content.decode()[:2000]
    return response


def test_a_31_player_4_round_swiss_event_from_registration_to_export(make_user):
    make_user("olga", password=PASSWORD)
    client = Client()
    rng = random.Random(358)

    # Log in through the login page: back to the organiser's home.
    ok(client.get(reverse("tournaments:organise_home")), 302)
    response = ok(
        client.post(reverse("login"), {"username": "olga", "password": PASSWORD}),
    )
    assert response["Location"] == reverse("tournaments:organise_home")

    # A club, then the event.
    response = ok(
        client.post(reverse("tournaments:organise_club_create"), {"name": "Varna Blato Club"})
    )
    form = client.get(response["Location"]).content.decode()  # the new event, for this club
    club = re.search(r'<option value="(\d+)" selected>Varna Blato Club</option>', form).group(1)
    response = ok(
        client.post(
            reverse("tournaments:organise_event_new"),
            {
                "club": club,
                "name": "Spring Open",
                "ruleset": "blato",
                "rounds_planned": "4",
                "pairing_mode": "swiss",
                "placing_first": "2",
                "placing_second": "1",
                "placing_third": "0",
                "bye_policy": "second",
                "precedence_1": "placing_points",
                "precedence_2": "score",
                "precedence_3": "firsts",
                "precedence_4": "opponents",
            },
        )
    )
    event = Event.objects.get()
    assert response["Location"] == reverse("tournaments:organise_event", args=[event.slug])
    assert event.organisers.get().username == "olga"
    slug = event.slug

    def url(name, *args):
        return reverse(f"tournaments:{name}", args=[slug, *args])

    # 31 names pasted (with a blank line and a repeat), everyone checked in.
    pasted = "\n".join(PLAYERS[:10] + ["", PLAYERS[3]] + PLAYERS[10:])
    ok(client.post(url("organise_players_paste"), {"names": pasted}))
    ok(client.post(url("organise_check_in_all")))
    body = client.get(url("organise_players")).content.decode()
    assert "31 entered · 31 checked in · 0 withdrawn" in body

    for number in range(1, 5):
        response = ok(client.post(url("organise_round_create")))
        assert response["Location"] == url("organise_round", number)
        body = ok(client.get(url("organise_round", number)), 200).content.decode()
        assert "Draft" in body and "Publish round" in body
        ok(client.post(url("organise_round_publish", number)))
        round_ = Round.objects.get(event=event, number=number)
        tables = list(round_.tables.select_related("game").order_by("number"))
        assert len(tables) == 10 and round_.byes.count() == 1
        for table in tables:
            finish_game(table.game, rng)
        body = client.get(url("organise_round", number)).content.decode()
        assert "0 of 10 confirmed" in body
        for table in tables:
            ok(client.post(url("organise_result_confirm", number, table.number)))
        body = client.get(url("organise_round", number)).content.decode()
        assert "10 of 10 confirmed" in body
        response = ok(client.post(url("organise_round_close", number)))
        assert response["Location"] == url("organise_event")

    # The last planned round closed, the night is not over until the organiser says so.
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    assert "End the event?" in ok(client.get(url("organise_event_end")), 200).content.decode()
    ok(client.post(url("organise_event_end")))
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    snapshot = event.standings.first()
    assert snapshot.rounds_complete == 4 and len(snapshot.rows) == 31
    leader = next(
        e.player.name for e in event.entries.all() if e.player_id == snapshot.rows[0]["player"]
    )

    rows = list(
        csv.reader(
            io.StringIO(
                client.get(url("organise_export", "standings", "csv")).content.decode("utf-8-sig")
            )
        )
    )
    assert rows[0][:2] == ["Rank", "Player"]
    assert rows[1][:2] == ["1", leader] and len(rows) == 32

    book = openpyxl.load_workbook(
        io.BytesIO(client.get(url("organise_export", "standings", "xlsx")).content)
    )
    sheet = book.active
    assert [cell.value for cell in sheet[2]][:2] == [1, leader]

    data = json.loads(client.get(url("organise_export", "standings", "json")).content)
    assert data[0]["Player"] == leader and len(data) == 31

    # The pages write a true minus sign; the exports keep plain numbers for spreadsheets.
    low = min(row["metrics"]["score"] for row in snapshot.rows)
    assert low < 0
    assert "\u2212" not in "".join(",".join(row) for row in rows)
    assert str(low) in [cell for row in rows for cell in row]
    assert low in [cell.value for row in sheet.iter_rows() for cell in row]
    assert low in [value for row in data for value in row.values()]
