"""A club's members on a phone, in English and in Bulgarian: the organiser finds members,
enters an event's players by picking members (a Cyrillic query finds a Latin name and the
other way round), and merges two records of one person."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import ClubLog, Entry, Player

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def club(django_user_model):
    petya = django_user_model.objects.create_user("petya", password=PASSWORD)
    club = club_create(name="Клуб Варна", slug="varna", creator=petya)
    last_week = event_create(club=club, name="Петък 1", organisers=[petya])
    players_register(
        event=last_week, names=["Ivan Petrov", "Мария Иванова", "Иван Петров", "Elena"]
    )
    event_create(club=club, name="Петък 2", organisers=[petya])
    return club


def pick(page, typed: str, name: str) -> None:
    """Type into the members' type-ahead and enter the one suggested of that name."""
    page.locator("#pick-name").fill(typed)
    row = page.locator("#pick-results li", has_text=name)
    expect(row).to_be_visible()
    row.locator("button").click()
    expect(page.locator(".message")).to_contain_text(name)


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_members_picked_into_an_event_and_two_records_merged(
    live_server, club, new_phone, screenshot, locale
):
    label = "en" if locale == "en-GB" else "bg"
    page = new_phone(locale=locale)
    home = f"{live_server.url}/organise/clubs/varna/"
    log_in(page, home, "petya")
    expect(page.locator(".member-row")).to_have_count(4)
    check_screen(page, f"club-members-{label}", screenshot)

    # Entering next week's players by picking members: Cyrillic finds Latin, and back.
    event = club.events.get(name="Петък 2")
    page.goto(f"{live_server.url}/organise/events/{event.slug}/players/")
    pick(page, "иван п", "Ivan Petrov")
    check_screen(page, f"club-pick-{label}", screenshot)
    pick(page, "maria", "Мария Иванова")
    entered = set(Entry.objects.filter(event=event).values_list("player__name", flat=True))
    assert entered == {"Ivan Petrov", "Мария Иванова"}
    assert Player.objects.filter(club=club).count() == 4  # the same records, none new

    # The same person entered twice last week: merge the records.
    page.goto(home)
    page.locator(".member-row", has_text="Иван Петров").get_by_role("link").last.click()
    page.locator("#merge-find").fill("ivan petrov")
    page.locator("#merge-find").press("Enter")
    page.locator(".card-list a", has_text="Ivan Petrov").click()
    check_screen(page, f"club-merge-{label}", screenshot)
    page.get_by_role("radio", name=re.compile(r"^Ivan Petrov")).check()  # the Latin record stays
    page.locator("button.primary").click()
    expect(page).to_have_url(home)
    expect(page.locator(".member-row")).to_have_count(3)
    expect(page.locator(".log-list")).to_contain_text("Иван Петров")
    log = ClubLog.objects.get(club=club, action="members_merged")
    assert log.data["kept"]["name"] == "Ivan Petrov" and log.actor == "petya"
    assert [e["name"] for e in log.data["events"]] == ["Петък 1"]

    # A casual game under the club: a member's name is that member, a new one joins.
    page.locator(".club-links a[href$='/casual/']").click()
    check_screen(page, f"club-casual-{label}", screenshot)
    for seat, name in enumerate(["ivan petrov", "Мария Иванова", "Живко"]):
        page.locator(f"#seat-{seat}").fill(name)
    page.locator("button.primary").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/"))
    casual = club.casual_games.get()
    assert casual.seat_0.name == "Ivan Petrov" and casual.seat_2.name == "Живко"

    # The public club page lists the members, each linking to their page.
    page.goto(f"{live_server.url}/clubs/varna/")
    expect(page.locator(".member-cards li")).to_have_count(4)
    check_screen(page, f"club-public-{label}", screenshot)
