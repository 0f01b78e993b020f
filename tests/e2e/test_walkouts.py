"""A player walks out mid-round, on a 390 px phone, with and without
JavaScript: the withdrawal leads to the table's choices; a substitution, a void table and an
adjusted result; the round closes; the public pages follow."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scoring import autoplay
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Bye, Round, Table
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_walkout_a_substitute_a_void_table_and_an_adjusted_result(
    live_server, new_phone, screenshot, django_user_model, javascript
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Varna Blato Club")
    event = event_create(
        club=club, name="Walkout Night", rounds_planned=2, seed=358, organisers=[user]
    )
    names = [
        "Ana Petrova",
        "Boris Ivanov",
        "Vera Georgieva",
        "Dimitar Kolev",
        "Elena Todorova",
        "Filip Marinov",
        "Александра Константинова-Петрова",
        "Hristo Hristov",
        "Iva Nikolova",
        "Kamen Stoyanov",
    ]
    players_register(event=event, names=names, checked_in=True)
    round_ = round_create(event=event)
    round_ = Round.objects.get(pk=round_.pk)  # built eagerly on commit
    round_publish(round_=round_)
    first, second, third = Table.objects.filter(round=round_).order_by("number")
    autoplay.play(first.game, random.Random(1), deals=2)
    leaver = first.seat_1
    substitute = Bye.objects.get(round=round_).player

    page = new_phone(javascript=javascript)
    shoot = screenshot if javascript else None
    log_in(page, live_server.url + "/organise/")

    # The withdrawal: a warning, and straight to the table's choices.
    page.goto(f"{live_server.url}/organise/events/{event.slug}/players/")
    row = page.locator(".player-row", has_text=leaver.name)
    row.locator("summary", has_text="Withdraw").click()
    row.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {first.number}")
    expect(page.locator(".messages")).to_contain_text("has withdrawn but still sits at table")
    check_screen(page, "organise-table-walkout", shoot)

    # Substitute the bye player from the next deal on.
    page.get_by_label("Seat of the player who left").select_option(label=f"Seat 2 · {leaver.name}")
    page.get_by_label("Who takes the seat").select_option(label=substitute.name)
    page.locator("#id_sub-reason").fill("went home ill")
    page.get_by_role("button", name="Substitute").click()
    expect(page.locator(".messages")).to_contain_text("takes seat 2 from the next deal on")
    first.refresh_from_db()
    assert first.seat_1 == substitute

    # Void the second table.
    page.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/tables/2/")
    page.locator("#id_void-reason").fill("both left")
    page.get_by_role("button", name="Void the table").click()
    expect(page.locator(".table-status")).to_have_text("Void, set aside by the organisers")

    # An adjusted result for the third.
    page.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/tables/3/")
    seats = [player.name for player in third.seats]
    for place, seat in zip(("First", "Second", "Third"), (2, 0, 1), strict=True):
        page.get_by_label(place, exact=True).select_option(label=f"Seat {seat + 1} · {seats[seat]}")
    page.locator("#id_adj-reason").fill("agreed by all three")
    page.get_by_role("button", name="Confirm the adjusted result").click()
    expect(page.locator(".table-status")).to_have_text("Adjusted result, confirmed")
    check_screen(page, "organise-table-adjusted", shoot)

    # The first table plays on and finishes; the round closes.
    autoplay.play(Table.objects.get(pk=first.pk).game, random.Random(2))
    result_confirm(table=Table.objects.get(pk=first.pk), actor="olga")
    page.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/")
    page.get_by_role("button", name="Close round 1").click()
    page.get_by_role("button", name="Yes, close round 1").click()  # closing asks first
    expect(page.locator("h1")).not_to_contain_text("Close round 1?")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED

    # The public pages follow.
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/1/")
    expect(page.locator(".table-state").nth(1)).to_contain_text("Void")
    expect(page.locator(".table-state").nth(2)).to_contain_text("Adjusted result")
    check_screen(page, "public-round-walkouts", shoot)
    page.goto(f"{live_server.url}/events/{event.slug}/seat/?name={leaver.name}")
    expect(page.locator(".seat-answer")).to_contain_text("Another player took your seat")
