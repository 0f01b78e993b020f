"""The organiser's check-in list on a 390 px phone in Bulgarian: names whole on a line of their
own (never squeezed beside a long button), rows two lines of buttons at most, and a withdrawn
row's way back behind a disclosure of its own, never where "Check in" sits on the other rows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import entry_withdraw, players_register
from tournaments.models import Entry

from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Йордан Христов", "Стоянка Стоянова", "Ana Petrova", "Boris Ivanov", "Мария Димитрова"]


def test_the_bulgarian_check_in_list_keeps_names_whole(
    live_server, new_phone, screenshot, django_user_model
):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Клуб Блато", creator=olga)
    event = event_create(club=club, name="Петък", ruleset="blato", by=olga)
    players_register(event=event, names=NAMES, by=olga)
    entry_withdraw(entry=Entry.objects.get(event=event, player__name="Ana Petrova"), actor="olga")
    page = new_phone(locale="bg-BG")
    url = f"{live_server.url}/organise/events/{event.slug}/players/"
    log_in(page, url)
    expect(page.locator("html")).to_have_attribute("lang", "bg")
    rows = page.locator(".player-row")
    expect(rows).to_have_count(len(NAMES))
    for name in NAMES:
        row = page.locator(".player-row", has_text=name)
        box = row.locator(".player-name").bounding_box()
        line = row.locator(".player-state").bounding_box()
        # the name is one line, as wide as the row allows, not a narrow column beside a button
        assert box["height"] < 1.8 * line["height"] + 8, name
        assert row.bounding_box()["height"] < 200, name
    withdrawn = page.locator(".player-row.is-withdrawn")
    expect(withdrawn.get_by_role("button")).to_have_count(0)  # nothing one tap brings back
    checked = page.locator(".player-row:not(.is-withdrawn) .check-in button").first.bounding_box()
    summary = withdrawn.locator("summary").bounding_box()
    assert abs(summary["x"] - checked["x"]) > 5 or abs(summary["width"] - checked["width"]) > 5
    screenshot(page, "check-in-list-bg")
