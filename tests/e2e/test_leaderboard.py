"""A club's leaderboard on a phone, in English and in Bulgarian: three nights played through
the services (each confirmation rated by the worker's task, run in process here); the
leaderboard lists the rated players by rating, links to their pages, and is gone for the
public once the club hides its ratings."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.tournaments.season_nights import play_night
from tournaments.events.services.event import club_create
from tournaments.models import Rating

from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)

MEMBERS = ["Ана Петрова", "Борис Иванов", "Vera Georgieva", "Димитър Колев", "Elena", "Филип"]


@pytest.fixture
def club():
    club = club_create(name="Клуб Варна", slug="varna")
    play_night(club, "Петък 1", MEMBERS, seed=1, rounds=2)
    play_night(club, "Петък 2", MEMBERS, seed=2, rounds=2)
    play_night(club, "Петък 3", [*MEMBERS, "Живко"], seed=3)
    return club


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_the_leaderboard_on_a_phone(live_server, club, new_phone, screenshot, locale):
    label = "en" if locale == "en-GB" else "bg"
    page = new_phone(locale=locale)
    page.goto(f"{live_server.url}/clubs/varna/ratings/")
    expected = [
        r.player.name
        for r in Rating.objects.filter(player__club=club).order_by(
            "-ordinal", "-games", "player__name"
        )
    ]
    assert len(expected) == 7
    rows = page.locator("table.ratings tbody th.player")
    expect(rows).to_have_count(7)
    assert [name.strip() for name in rows.all_inner_texts()] == expected
    top = Rating.objects.filter(player__club=club).order_by("-ordinal").first()
    first_rating = page.locator("table.ratings tbody tr").first.locator("td.score")
    shown = f"{top.ordinal:.1f}".replace(".", "," if label == "bg" else ".")
    expect(first_rating).to_have_text(shown)
    check_screen(page, f"club-ratings-{label}", screenshot)

    club.ratings_public = False
    club.save()
    response = page.goto(f"{live_server.url}/clubs/varna/ratings/")
    assert response.status == 404
