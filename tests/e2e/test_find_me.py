"""Finding yourself on a 390 px phone, with and without JavaScript: a part of a name lists
the candidates (Latin finds Cyrillic), one tap picks yourself, "This is me" with your personal
code proves it (a wrong code is refused), and the next visit shows "You: table …, seat …"
first; "Not you?" forgets."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Event, Round
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Мария Георгиева", "Georgi Ivanov", "Анна Иванова", "Boris Vasilev", "Vera Koleva"]
NAMES += ["Александра Константинова-Петрова"]


@pytest.fixture
def event(live_server) -> Event:
    club = club_create(name="Varna Blato Club")
    event = event_create(club=club, name="Spring Open", rounds_planned=2, seed=358)
    players_register(event=event, names=NAMES, checked_in=True)
    round_ = round_create(event=event)
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT, round_.build_error
    round_publish(round_=round_)
    return event


def code_of(event: Event, name: str) -> str:
    return Entry.objects.get(event=event, player__name=name).code


def seat_of(event: Event, name: str) -> tuple[int, int]:
    for table in Round.objects.get(event=event, number=1).tables.all():
        names = [player.name for player in table.seats]
        if name in names:
            return table.number, names.index(name) + 1
    raise AssertionError(f"{name} has no seat")


@pytest.mark.parametrize("javascript", [True, False])
def test_a_player_finds_themself_and_is_remembered(
    live_server, event, new_phone, screenshot, javascript
):
    phone = new_phone(javascript=javascript)
    phone.goto(f"{live_server.url}/events/{event.slug}/seat/")

    # "Georgi" is a part of two names (one of them in Cyrillic): both are offered, no seat yet.
    phone.get_by_label("Your name").fill("Georgi")
    phone.get_by_role("button", name="Find my seat").click()
    expect(phone.get_by_role("heading", name="Which one are you?")).to_be_visible()
    expect(phone.locator(".card-list li")).to_have_count(2)
    expect(phone.locator(".seat-answer")).to_have_count(0)
    if javascript:
        check_screen(phone, "public-seat-candidates", screenshot)

    # "anna" finds "Анна Иванова": one candidate, still a choice, then one tap.
    phone.get_by_label("Your name").fill("anna")
    phone.get_by_role("button", name="Find my seat").click()
    phone.get_by_role("link", name="Анна Иванова").click()
    table, seat = seat_of(event, "Анна Иванова")
    expect(phone.locator(".seat-answer .where")).to_have_text(f"Table {table} seat {seat}")
    check_screen(phone, "public-seat-picked" + ("" if javascript else "-nojs"), None)

    # "This is me" with the personal code: a wrong one is refused, the right one proves the
    # phone; the next visit is one tap, the answer first.
    wrong = "1" * 8 if code_of(event, "Анна Иванова") != "1" * 8 else "2" * 8
    phone.get_by_label("Your personal code (on your slip)").fill(wrong)
    phone.get_by_role("button", name="This is me: remember on this phone").click()
    expect(phone.locator(".alert[role=alert]")).to_contain_text("not Анна Иванова")
    check_screen(phone, "public-seat-wrong-code" + ("" if javascript else "-nojs"), None)
    code = code_of(event, "Анна Иванова")
    phone.get_by_label("Your personal code").fill(f"{code[:4]} {code[4:]}")
    phone.get_by_role("button", name="Yes, I am Анна Иванова").click()
    expect(phone.locator(".seat-me h2")).to_have_text(f"You: table {table}, seat {seat}")
    phone.goto(f"{live_server.url}/events/{event.slug}/")
    phone.get_by_role("link", name="Where do I sit?").first.click()
    me = phone.locator(".seat-me")
    expect(me.get_by_role("heading")).to_have_text(f"You: table {table}, seat {seat}")
    expect(me).to_contain_text("Анна Иванова")
    if javascript:
        check_screen(phone, "public-seat-remembered", screenshot)
    else:
        check_screen(phone, "public-seat-remembered-nojs", None)

    # "Not you?" forgets.
    me.get_by_role("button", name="Not you?").click()
    expect(phone.locator(".seat-me")).to_have_count(0)
    expect(phone.get_by_label("Your name")).to_be_visible()


def test_a_long_cyrillic_name_fits_the_phone(live_server, event, phone, screenshot):
    phone.goto(f"{live_server.url}/events/{event.slug}/seat/?name=aleksandra")
    phone.get_by_role("link", name="Александра Константинова-Петрова").click()
    code = code_of(event, "Александра Константинова-Петрова")
    phone.get_by_label("Your personal code (on your slip)").fill(code)
    phone.get_by_role("button", name="This is me: remember on this phone").click()
    expect(phone.locator(".seat-me")).to_contain_text("Александра Константинова-Петрова")
    check_screen(phone, "public-seat-long-name", None)
