"""A club's season on a phone, in English and in Bulgarian: three nights played through the
services; the organiser makes the season, sets its counting and picks its nights; the season
page is right, the projector shows it, and the CSV download holds the same table."""

from __future__ import annotations

import csv

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.tournaments.season_nights import play_night
from tournaments.events.services.event import club_create
from tournaments.models import ClubLog, Season

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["Ана Петрова", "Борис Иванов", "Vera Georgieva", "Димитър Колев", "Elena", "Филип"]


@pytest.fixture
def club(django_user_model):
    club = club_create(name="Клуб Пловдив", slug="plovdiv")
    club.organisers.add(django_user_model.objects.create_user("petya", password=PASSWORD))
    play_night(club, "Петък 1", MEMBERS, seed=1)
    play_night(club, "Петък 2", MEMBERS, seed=2)
    play_night(club, "Петък 3", [*MEMBERS[1:], "Живко", MEMBERS[0]], seed=3)
    return club


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_a_club_runs_a_season_of_three_nights(live_server, club, new_phone, screenshot, locale):
    label = "en" if locale == "en-GB" else "bg"
    page = new_phone(locale=locale)
    log_in(page, f"{live_server.url}/organise/clubs/plovdiv/seasons/", "petya")
    check_screen(page, f"organise-seasons-{label}", screenshot)

    # A bad list of points is refused, and what was typed stays.
    page.locator("#id_name").fill("Есен 2026")
    page.locator("#id_place_points").fill("5 8 3")
    page.locator("button.primary").click()
    expect(page.locator(".alert[role=alert]")).to_be_visible()
    expect(page.locator("#id_place_points")).to_have_value("5 8 3")
    page.locator("#id_place_points").fill("")
    page.locator("#id_best_nights").fill("2")
    page.locator("#id_min_nights").fill("2")
    page.locator("button.primary").click()
    season = Season.objects.get(name="Есен 2026")
    expect(page).to_have_url(f"{live_server.url}/organise/clubs/plovdiv/seasons/{season.pk}/")
    for night in ("Петък 1", "Петък 2", "Петък 3"):
        page.locator(".season-events label", has_text=night).locator("input").check()
    check_screen(page, f"organise-season-{label}", screenshot)
    page.locator("button.primary").click()
    expect(page.locator(".message")).to_be_visible()
    assert season.events.count() == 3
    assert ClubLog.objects.filter(club=club, action="season_event_added").count() == 3

    # The season page, as the API counts it.
    body = Client().get(f"/api/clubs/plovdiv/seasons/{season.pk}/standings").json()
    ranked = [row for row in body["rows"] if row["rank"] is not None]
    page.goto(f"{live_server.url}/clubs/plovdiv/seasons/{season.pk}/")
    rows = page.locator("table.season-standings").first.locator("tbody tr")
    expect(rows).to_have_count(len(ranked))
    first = rows.first
    expect(first.locator("th.player a")).to_have_text(ranked[0]["player"])
    expect(first.locator("td.score")).to_have_text(str(ranked[0]["score"]))
    expect(page.locator("#unranked-heading")).to_be_visible()
    expect(page.locator("table.season-standings").nth(1)).to_contain_text("Живко")
    check_screen(page, f"season-{label}", screenshot)

    # An export downloaded: the same table.
    with page.expect_download() as download:
        page.locator("a[href$='standings.csv']").click()
    with open(download.value.path(), encoding="utf-8-sig", newline="") as file:
        lines = list(csv.reader(file))
    assert [line[1] for line in lines[1:]] == [row["player"] for row in body["rows"]]
    assert [int(line[2]) for line in lines[1:]] == [row["score"] for row in body["rows"]]

    page.locator("a[href$='/projector/']").click()
    expect(page.locator("table.season-standings").first.locator("tbody tr")).to_have_count(
        len(ranked)
    )
    check_screen(page, f"season-projector-{label}", screenshot)


def test_the_season_page_works_without_javascript(live_server, club, new_phone):
    season = Season.objects.create(club=club, name="Winter", min_nights=1)
    club.events.update(season=season)
    page = new_phone(javascript=False)
    page.goto(f"{live_server.url}/clubs/plovdiv/seasons/{season.pk}/")
    expect(page.locator("table.season-standings tbody tr")).to_have_count(7)
    page.goto(f"{live_server.url}/clubs/plovdiv/seasons/{season.pk}/projector/")
    expect(page.locator("table.season-standings tbody tr")).to_have_count(7)
