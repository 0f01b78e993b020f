"""The downloads name each player's team, list the teams and the keep-apart rules, and keep
what organisers typed from becoming a formula (config.spreadsheets, the one place)."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.urls import reverse

from tournaments.events.services.registration import players_register
from tournaments.teams.services import keep_apart_create, team_create

pytestmark = pytest.mark.django_db

NAMES = ["=1+1", "Ana Petrova", "Boris Ivanov", "Вера Колева", "Georgi Dimov", "Dora Stoeva"]


@pytest.fixture
def event(organised_event, build_round):
    entries = players_register(event=organised_event, names=NAMES, checked_in=True)
    team_create(event=organised_event, name="=SUM(A1)", entries=entries[:2])
    team_create(event=organised_event, name="Kings", entries=entries[2:3])
    keep_apart_create(event=organised_event, entries=entries[3:5], label="@couple")
    build_round(organised_event, publish=True)
    return organised_event


def rows(client, event, what):
    response = client.get(reverse("tournaments:organise_export", args=[event.slug, what, "csv"]))
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_teams_and_the_keep_apart_rules_are_downloads(event, organiser_client):
    teams = rows(organiser_client, event, "teams")
    assert teams[0] == ["Team", "Player", "Withdrawn"]
    assert teams[1:] == [
        ["'=SUM(A1)", "'=1+1", ""],
        ["'=SUM(A1)", "Ana Petrova", ""],
        ["Kings", "Boris Ivanov", ""],
    ]
    apart = rows(organiser_client, event, "apart")
    assert apart == [["Rule", "Players", "Reason"], ["1", "Georgi Dimov, Вера Колева", "'@couple"]]


def test_the_pairings_name_each_players_team(event, organiser_client):
    header, *body = rows(organiser_client, event, "pairings")
    team, player = header.index("Team"), header.index("Player")
    teams = {row[player]: row[team] for row in body}
    assert teams["'=1+1"] == "'=SUM(A1)" and teams["Boris Ivanov"] == "Kings"
    assert teams["Dora Stoeva"] == ""


def test_no_team_or_reason_is_a_formula_in_a_workbook(event, organiser_client):
    for what in ("teams", "apart", "pairings"):
        url = reverse("tournaments:organise_export", args=[event.slug, what, "xlsx"])
        sheet = openpyxl.load_workbook(io.BytesIO(organiser_client.get(url).content)).active
        cells = [cell for row in sheet.iter_rows() for cell in row]
        assert all(cell.data_type != "f" for cell in cells), what
        assert {"=SUM(A1)", "@couple"} & {cell.value for cell in cells}, what


def test_the_dashboard_offers_the_two_downloads(event, organiser_client):
    page = organiser_client.get(reverse("tournaments:organise_event", args=[event.slug]))
    html = page.content.decode()
    assert reverse("tournaments:organise_export", args=[event.slug, "teams", "csv"]) in html
    assert reverse("tournaments:organise_export", args=[event.slug, "apart", "xlsx"]) in html
