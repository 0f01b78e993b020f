"""A club player's page on a phone (390 × 844), in English and in Bulgarian: the rating chart
is readable, the season selector works with a thumb, the figures and the games are there."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services as scoring
from tournaments.models import Club, Event, Player, Rating, RatingStep, Round, Season, Table

from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)

DEALS = [
    {"calls": ["hearts"], "tricks": [4, 7, 5]},
    {"calls": ["pass"]},
    {"calls": ["no-trump"], "tricks": [5, 4, 7]},
    {"calls": ["spades"], "tricks": [9, 4, 3]},
]
#: A rating that climbs, dips and settles over a dozen games, as OpenSkill's would.
RATINGS = [
    (25.0, 8.33),
    (27.1, 7.7),
    (28.9, 7.2),
    (27.0, 6.8),
    (28.4, 6.4),
    (30.2, 6.1),
    (29.1, 5.8),
    (30.6, 5.5),
    (31.8, 5.3),
    (30.9, 5.1),
    (32.0, 4.9),
    (32.6, 4.8),
]


def night(club, people, number, season):
    event = Event.objects.create(club=club, name=f"Friday {number}", slug=f"friday-{number}")
    event.season = season
    event.save()
    round_ = Round.objects.create(
        event=event, number=1, pairing_mode="random", status=Round.Status.CLOSED
    )
    game = scoring.game_create(
        ruleset="blato", players=[p.name for p in people], options={"hands": 3}, first_dealer=0
    )
    for deal_number, deal in enumerate(DEALS, start=1):
        scoring.deal_record(game_id=game.pk, number=deal_number, **deal)
    scoring.game_confirm(game_id=game.pk, actor="test")
    Table.objects.create(
        round=round_, number=1, seat_0=people[0], seat_1=people[1], seat_2=people[2], game=game
    )


@pytest.fixture
def player(live_server):
    club = Club.objects.create(name="Клуб Пловдив", slug="plovdiv")
    people = [Player.objects.create(club=club, name=n) for n in ("Ана Петрова", "Борис", "Вера")]
    spring = Season.objects.create(club=club, name="Spring 2026")
    Season.objects.create(club=club, name="Autumn 2026")
    for number in (1, 2, 3):
        night(club, people, number, spring)
    start = timezone.now() - dt.timedelta(days=60)
    for n, (mu, sigma) in enumerate(RATINGS):
        game = scoring.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
        RatingStep.objects.create(
            club=club,
            player=people[0],
            game=game,
            batch_at=start + dt.timedelta(days=5 * n),
            batch=f"b{n}",
            place=1 + n % 3,
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
        )
    mu, sigma = RATINGS[-1]
    Rating.objects.create(
        player=people[0], mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=len(RATINGS)
    )
    return people[0]


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_a_member_reads_their_page_on_a_phone(live_server, player, new_phone, screenshot, locale):
    page = new_phone(locale=locale)
    url = f"{live_server.url}/clubs/plovdiv/players/{player.pk}/"
    page.goto(url)
    chart = page.locator("svg[role=img]")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] >= 330 and box["height"] >= 180  # big enough to read on a phone
    label = "en" if locale == "en-GB" else "bg"
    check_screen(page, f"club-player-{label}", screenshot)
    season = page.locator(".season-nav a").nth(1)  # Spring 2026
    season.click()
    expect(page.locator(".season-nav a[aria-current=page]")).to_have_text("Spring 2026")
    page.locator(".chart-figures summary").click()
    expect(page.locator(".figures-table tbody tr")).to_have_count(len(RATINGS))
    # the game-by-game figures fit the phone's width: nothing to scroll sideways
    box = page.locator(".chart-figures .scroll-box")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), box.evaluate(
        "el => `the figures are ${el.scrollWidth}px wide in ${el.clientWidth}px`"
    )
    check_screen(page, f"club-player-season-{label}", screenshot)
    page.locator(".season-nav a").nth(2).click()  # Autumn: nothing played yet
    expect(page.locator("#figures-heading")).to_contain_text("Autumn 2026")


def test_the_page_works_without_javascript(live_server, player, new_phone):
    page = new_phone(javascript=False)
    page.goto(f"{live_server.url}/clubs/plovdiv/players/{player.pk}/?season=all")
    expect(page.locator("svg[role=img]")).to_be_visible()
    expect(page.get_by_role("heading", name="Games", exact=True)).to_be_visible()
