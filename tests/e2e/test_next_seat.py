"""My next seat on a 390 px phone, in English and Bulgarian: a phone that said "This is me"
waits between rounds on its page (its last result and its place in the standings); the
organiser publishes the next round, and within a few seconds, without a tap, the page shows
the new table, seat and table-mates under a "New: round 2" banner, and the phone vibrates.

The live server runs the door as the venue's server does (`held_asks`: config/wsgi.py's Door,
with room to hold asks, config.parking): the phone's ask is held until the round is out."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from config.door import Door
from scoring import autoplay
from tournaments.events.selectors.identity import identity_cookie, identity_value
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Event, Round
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Мария Георгиева", "Georgi Ivanov", "Анна Иванова", "Boris Vasilev", "Vera Koleva"]
NAMES += ["Elena Petrova"]
ME = "Анна Иванова"

#: Records the phone's vibrations (a headless browser has no motor to ask).
BUZZ = "window.buzzed = []; navigator.vibrate = (p) => { window.buzzed.push(p); return true; };"

WORDS = {
    "en-GB": {"waiting": "waiting for the next round", "new": "New: round 2", "table": "Table"},
    "bg": {"waiting": "в очакване на следващия кръг", "new": "Ново: кръг 2", "table": "Маса"},
}


@pytest.fixture
def held_asks(live_server, make_parking):
    """The live server's application behind the door, with room to hold asks (its server
    runs a thread a request), as bin/serve's processes have; the watcher looks every second,
    as there."""
    server = live_server.thread.httpd
    application = server.get_app()
    server.set_app(Door(application, parking=make_parking(threads=16, working=4)))
    yield
    server.set_app(application)


@pytest.fixture
def event(live_server) -> Event:
    """Round 1 played, confirmed, in the standings and closed; round 2 paired as a draft."""
    club = club_create(name="Varna Blato Club")
    event = event_create(club=club, name="Spring Open", rounds_planned=3, seed=358)
    players_register(event=event, names=NAMES, checked_in=True)
    round_ = round_create(event=event)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT, round_.build_error
    round_publish(round_=round_)
    rng = random.Random(7)
    for table in round_.tables.select_related("game"):
        autoplay.play(table.game, rng, actor="test")
        result_confirm(table=table, actor="olga")
    standings_build(event_id=event.pk)
    round_close(round_=round_, actor="olga")
    second = round_create(event=event)
    second.refresh_from_db()
    assert second.status == Round.Status.DRAFT, second.build_error
    return event


def seat_of(event: Event, number: int, name: str) -> tuple[int, int]:
    for table in Round.objects.get(event=event, number=number).tables.all():
        names = [player.name for player in table.seats]
        if name in names:
            return table.number, names.index(name) + 1
    raise AssertionError(f"{name} has no seat")


@pytest.mark.parametrize("locale", ["en-GB", "bg"])
def test_a_remembered_phone_shows_its_next_seat_without_a_tap(
    live_server, held_asks, event, new_phone, screenshot, locale
):
    words = WORDS[locale]
    phone = new_phone(locale=locale)
    phone.add_init_script(BUZZ)
    entry = Entry.objects.select_related("player").get(event=event, player__name=ME)
    phone.context.add_cookies(
        [{"name": identity_cookie(event), "value": identity_value(entry), "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/events/{event.slug}/next/")

    # Between rounds: the last game's result and the place in the standings.
    part = phone.locator("#next-seat")
    expect(part).to_contain_text(words["waiting"])
    expect(phone.locator(".next-result")).to_be_visible()
    expect(phone.locator(".next-standing")).to_be_visible()
    expect(phone.locator("#next-banner")).to_be_hidden()
    suffix = "" if locale == "en-GB" else "-bg"
    check_screen(phone, "public-next-waiting" + suffix, screenshot)

    # The organiser publishes round 2; the phone is not touched.
    round_publish(round_=Round.objects.get(event=event, number=2))
    table, seat = seat_of(event, 2, ME)
    banner = phone.locator("#next-banner")
    # The held ask is let go within a second of the publish (which renews the kept version
    # at once), one fetch, a margin: a few seconds, not the 12 s of a plain poll.
    expect(banner).to_have_text(words["new"], timeout=6_000)
    expect(part).to_have_attribute("data-round", "2")
    expect(phone.locator("#next-seat .where-table")).to_have_text(f"{words['table']} {table}")
    expect(phone.locator("#next-seat .where-seat")).to_contain_text(str(seat))
    mates = phone.locator("#next-seat .seat-rows li")
    expect(mates).to_have_count(2)
    expect(phone.locator("#next-seat .next-pin")).to_be_visible()
    assert phone.evaluate("window.buzzed.length") == 1
    check_screen(phone, "public-next-published" + suffix, screenshot)


def test_without_javascript_the_page_refreshes_itself_and_has_a_refresh_button(
    live_server, event, new_phone
):
    phone = new_phone(javascript=False)
    entry = Entry.objects.select_related("player").get(event=event, player__name=ME)
    phone.context.add_cookies(
        [{"name": identity_cookie(event), "value": identity_value(entry), "url": live_server.url}]
    )
    phone.goto(f"{live_server.url}/events/{event.slug}/next/")
    expect(phone.locator("#next-seat")).to_contain_text(WORDS["en-GB"]["waiting"])
    assert phone.locator('noscript meta[http-equiv="refresh"]').count() == 1

    round_publish(round_=Round.objects.get(event=event, number=2))
    table, seat = seat_of(event, 2, ME)
    phone.get_by_role("link", name="Refresh").click()
    expect(phone.locator("#next-seat .where-table")).to_have_text(f"Table {table}")
    expect(phone.locator("#next-seat .where-seat")).to_contain_text(str(seat))
    expect(phone.locator("#next-banner")).to_be_hidden()  # the banner is the script's
