"""An organiser runs a 9-player, 2-round event through the organiser pages: log in, create
the club and the event, paste the players, check everyone in, and for each round build,
review, publish, let the tables play (the test records their games through the services, as
the tables' phones would), confirm, close; then download the standings as CSV.

At phone size, at desktop size, and at phone size without JavaScript.
"""

from __future__ import annotations

import csv
import random
import re

import pytest
from playwright.sync_api import expect

from scoring import autoplay
from tournaments.models import Event, Round

from .checks import check_screen
from .conftest import DESKTOP
from .organiser import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [
    "Ana Petrova",
    "Boris Ivanov",
    "Vera Georgieva",
    "Dimitar Kolev",
    "Elena Todorova",
    "Filip Marinov",
    "Galina Stoyanova",
    "Hristo Nikolov",
    "Irina Dimitrova",
]


def play_the_tables(round_: Round, seed: int) -> None:
    """Every table plays its whole game (a tie-break settled too); nobody confirms yet."""
    for table in round_.tables.select_related("game").order_by("number"):
        autoplay.play(table.game, random.Random(seed * 100 + table.number), actor="table")


@pytest.mark.parametrize("variant", ["phone", "desktop", "phone-nojs"])
def test_an_organiser_runs_a_nine_player_event(
    live_server, new_phone, screenshot, django_user_model, variant
):
    django_user_model.objects.create_user(username="olga", password=PASSWORD)
    if variant == "desktop":
        page = new_phone(viewport=DESKTOP, mobile=False)
    else:
        page = new_phone(javascript=variant != "phone-nojs")
    # The screenshots are the phone's with JavaScript; the other two are checked all the same.
    shoot = screenshot if variant == "phone" else None
    desktop_shoot = screenshot if variant == "desktop" else None

    # Log in: the organiser's home asks for it, and comes back after.
    page.goto(live_server.url + "/organise/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    check_screen(page, "login", shoot)
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(live_server.url + "/organise/")
    expect(page.get_by_role("heading", level=1)).to_have_text("My events")
    check_screen(page, "organise-home", shoot)
    # No club yet: the club is the next step, not a "New event" that could not be filled in.
    expect(page.get_by_role("link", name="New event")).to_have_count(0)

    # A club, then the event (2 rounds; the rest as offered).
    page.get_by_label("Club name").fill("Varna Blato Club")
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("New event")
    expect(page.get_by_label("Club")).to_have_value(re.compile(r"\d+"))
    check_screen(page, "organise-event-new", shoot)
    page.get_by_label("Event name").fill("Spring Open")
    page.locator("#id_rounds_planned").fill("2")
    page.get_by_role("button", name="Create the event").click()
    event = Event.objects.get()
    Event.objects.filter(pk=event.pk).update(seed=358)  # the same pairings every run
    dashboard = f"{live_server.url}/organise/events/{event.slug}/"
    expect(page).to_have_url(dashboard)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Spring Open")

    # Nine players pasted, everyone checked in.
    page.get_by_role("navigation", name="Event").get_by_role("link", name="Players").click()
    page.get_by_text("Paste a list", exact=True).click()
    page.get_by_label("Paste a list of players").fill("\n".join(PLAYERS))
    page.get_by_role("button", name="Enter these players").click()
    counts = page.locator("#counts .counts-line")
    expect(counts).to_have_text("9 entered · 0 checked in · 0 withdrawn")
    # A name typed wrong is warned of, and deleted from the names that look alike.
    page.get_by_label("Player's name").fill("Irina Dimitrov")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("delete the one entered by mistake")
    alike = page.locator("section.names-alike")
    check_screen(page, "organise-players-alike", shoot)
    alike.get_by_role("button", name="Delete “Irina Dimitrov” (entered by mistake)").click()
    expect(page.locator(".messages")).to_contain_text("Irina Dimitrov deleted.")
    expect(alike).to_have_count(0)
    expect(counts).to_have_text("9 entered · 0 checked in · 0 withdrawn")
    expect(page.get_by_role("button", name="Build round 1")).to_have_count(0)
    page.get_by_role("button", name="Check in everyone").click()
    expect(counts).to_have_text("9 entered · 9 checked in · 0 withdrawn")
    # A withdrawal by mistake, taken back at once.
    row = page.locator(".player-row", has_text="Irina Dimitrova")
    row.get_by_text("Withdraw…").click()
    row.get_by_label("Reason (optional)").fill("wrong row")
    row.get_by_role("button", name="Withdraw Irina Dimitrova").click()
    expect(counts).to_have_text("9 entered · 8 checked in · 1 withdrawn")
    row = page.locator(".player-row", has_text="Irina Dimitrova")
    check_screen(page, "organise-player-withdrawn", None)
    # Two taps, in a place of its own: a tap down the "Check in" column restores nobody.
    expect(row.get_by_role("button", name="Reinstate Irina Dimitrova")).to_be_hidden()
    row.get_by_text("Reinstate…").click()
    row.get_by_role("button", name="Reinstate Irina Dimitrova").click()
    expect(counts).to_have_text("9 entered · 9 checked in · 0 withdrawn")
    expect(page.locator(".event-nav [aria-current=page]")).to_have_text("Players")
    check_screen(page, "organise-players", shoot)

    for number in (1, 2, 3):
        if number == 3:  # two were planned: the night goes on with a round more
            expect(page.locator("#rounds .notice")).to_have_text("All 2 planned rounds are played.")
            page.get_by_role("button", name="Add a round").click()
            expect(page.locator(".messages")).to_contain_text("Round 3 added.")
        elif number > 1:  # round 1 is built from the players page, the next step shown there
            page.goto(dashboard)
        page.get_by_role("button", name=f"Build round {number}").click()
        # The pairing runs at once (Celery eager): the draft is there to review.
        expect(page).to_have_url(f"{dashboard}rounds/{number}/")
        expect(page.locator(".round-state")).to_have_text("Status: Draft")
        expect(page.locator(".table-grid .table-card")).to_have_count(3)
        if number == 1:
            check_screen(page, "organise-round-review", shoot)
        page.get_by_role("button", name=f"Publish round {number}").click()
        expect(page.locator(".round-state")).to_have_text("Status: Published")
        expect(page.locator(".progress")).to_have_text("0 of 3 confirmed")

        round_ = Round.objects.get(event=event, number=number)
        play_the_tables(round_, seed=number)
        page.reload()
        expect(page.locator(".progress")).to_have_text("0 of 3 confirmed")
        confirm = page.locator("#results").get_by_role("button", name="Confirm the result")
        expect(confirm).to_have_count(3)
        for done in (1, 2, 3):
            confirm.first.click()
            expect(page.locator(".progress")).to_have_text(f"{done} of 3 confirmed")
        expect(confirm).to_have_count(0)
        if number == 1:
            check_screen(page, "organise-round-results", shoot)
            check_screen(page, "organise-round-results-desktop", desktop_shoot)
            page.get_by_role("link", name="Table cards with keeper links").click()
            expect(page.locator("article.card")).to_have_count(3)
            check_screen(page, "organise-print-cards", shoot)
            page.go_back()
        page.get_by_role("button", name=f"Close round {number}").click()
        # Closing is final: a page of its own asks first (no JavaScript needed).
        expect(page.locator("h1")).to_contain_text(f"Close round {number}?")
        if number == 1:
            check_screen(page, "organise-round-close", shoot)
        page.get_by_role("button", name=f"Yes, close round {number}").click()
        expect(page).to_have_url(dashboard)

    # The last round closed, the event goes on until the organiser ends it, asked first.
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    page.get_by_role("link", name="End the event").click()
    expect(page.locator("h1")).to_contain_text("End the event?")
    check_screen(page, "organise-event-end", shoot)
    page.get_by_role("button", name="Yes, end the event").click()
    expect(page).to_have_url(dashboard)
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED
    expect(page.locator("#rounds .notice")).to_contain_text("The event is over.")
    expect(page.locator("#final-heading")).to_have_text("Final standings")
    check_screen(page, "organise-dashboard", shoot)
    page.get_by_role("link", name="Print the final standings").click()
    expect(page.locator("table.final-list tbody tr")).to_have_count(len(PLAYERS))
    check_screen(page, "organise-final-standings", shoot)
    page.go_back()
    check_screen(page, "organise-dashboard-desktop", desktop_shoot)

    # The standings as CSV, through the page's link.
    standings = page.locator("ul.downloads li", has_text="Standings")
    with page.expect_download() as download:
        standings.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename.endswith(".csv")
    with open(download.value.path(), encoding="utf-8-sig", newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0][:2] == ["Rank", "Player"]
    assert len(rows) == 1 + len(PLAYERS)
    assert sorted(row[1] for row in rows[1:]) == sorted(PLAYERS)
    snapshot = event.standings.first()
    assert snapshot.rounds_complete == 3
    leader = event.entries.get(player_id=snapshot.rows[0]["player"]).player.name
    assert rows[1][:2] == ["1", leader]
