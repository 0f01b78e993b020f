"""A club player's page: /clubs/<slug>/players/<id>/ — rating chart, games, placings and
per-position figures by season."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import services as scoring
from tournaments.models import (
    Club,
    ClubGame,
    Event,
    Player,
    RatingStep,
    Round,
    Season,
    Table,
)

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
#: The small game of test_player_figures, ending after its third hand: totals 2 −1 −1, seat 0
#: first, seat 2 second (it lost less in the last hand), seat 1 third.
DEALS = [
    {"calls": ["hearts"], "tricks": [4, 7, 5]},
    {"calls": ["pass"]},
    {"calls": ["no-trump"], "tricks": [5, 4, 7]},
    {"calls": ["spades"], "tricks": [9, 4, 3]},
]


def played_game(names, deals=DEALS, confirm=True):
    game = scoring.game_create(ruleset="blato", players=names, options={"hands": 3}, first_dealer=0)
    for number, deal in enumerate(deals, start=1):
        scoring.deal_record(game_id=game.pk, number=number, **deal)
    if confirm:
        game = scoring.game_confirm(game_id=game.pk, actor="test")
    game.refresh_from_db()
    return game


@pytest.fixture
def club():
    return Club.objects.create(name="Plovdiv Club", slug="plovdiv")


@pytest.fixture
def people(club):
    return [Player.objects.create(club=club, name=name) for name in ("Ana", "Boris", "Vera")]


def event_table(club, people, *, season=None, number=1, deals=DEALS, substitutions=()):
    event = Event.objects.create(club=club, name=f"Night {number}", slug=f"night-{number}")
    event.season = season
    event.save()
    round_ = Round.objects.create(
        event=event, number=1, pairing_mode="random", status=Round.Status.CLOSED
    )
    game = played_game([p.name for p in people], deals)
    return Table.objects.create(
        round=round_,
        number=1,
        seat_0=people[0],
        seat_1=people[1],
        seat_2=people[2],
        game=game,
        substitutions=list(substitutions),
    )


def page(client, club, player, **query):
    url = reverse("tournaments:club_player", args=[club.slug, player.pk])
    return client.get(url, query)


def steps(club, player, values):
    """Rating steps after games of their own (the ratings helper writes these)."""
    start = timezone.now() - dt.timedelta(days=len(values))
    for n, (mu, sigma) in enumerate(values):
        game = scoring.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
        RatingStep.objects.create(
            club=club,
            player=player,
            game=game,
            batch_at=start + dt.timedelta(days=n),
            batch=f"b{n}",
            place=1 + n % 3,
            mu=mu,
            sigma=sigma,
            ordinal=mu - 3 * sigma,
        )


def test_the_page_shows_the_games_placings_and_figures(client, club, people):
    event_table(club, people)
    body = page(client, club, people[2]).content.decode()
    assert "Vera" in body and "Night 1" in body
    assert "2 place" in body  # second, on −1
    # Vera, seat 2: targets 5 (made), 8 (lost the no-trump), 3 (made); one pass
    assert "Target 8 made" in body and "0 of 1" in body
    assert "No-trumps called and made" in body
    assert "<dt>Passes</dt><dd>1</dd>" in body
    assert "<dt>Second</dt><dd>1</dd>" in body
    assert "<dt>Average points per game</dt><dd>−1.00</dd>" in body


def test_the_chart_is_valid_svg_that_says_what_it_shows(client, club, people):
    event_table(club, people)
    steps(club, people[0], [(25.0, 8.333), (27.5, 7.9), (26.0, 7.5)])
    from tournaments.models import Rating

    Rating.objects.create(player=people[0], mu=26.0, sigma=7.5, ordinal=3.5, games=3)
    body = page(client, club, people[0]).content.decode()
    start = body.index("<svg")
    svg = ET.fromstring(body[start : body.index("</svg>") + len("</svg>")])
    assert svg.get("role") == "img"
    assert svg.find(f"{SVG}title").text == "Rating over time"
    desc = svg.find(f"{SVG}desc").text
    assert "3 rated games" in desc and "from 0.0 to 3.5" in desc and "between 0.0 and 3.8" in desc
    points = svg.find(f"{SVG}polyline").get("points").split()
    assert len(points) == 3
    assert "<dt>Rating (μ − 3σ)</dt><dd>3.5</dd>" in body
    assert "Rating after each game" in body  # the figures as a table, for screen readers


def test_the_chart_numbers_stay_machine_readable_in_bulgarian(club, people):
    steps(club, people[0], [(25.0, 8.333), (27.25, 7.9)])
    client = Client(headers={"accept-language": "bg"})
    client.cookies["django_language"] = "bg"
    body = page(client, club, people[0]).content.decode()
    svg = body[body.index("<svg") : body.index("</svg>") + 6]
    ET.fromstring(svg)
    line = ET.fromstring(svg).find(f"{SVG}polyline").get("points")
    assert "," in line and all(len(pair.split(",")) == 2 for pair in line.split())


def test_ratings_are_hidden_when_the_club_hides_them(client, club, people, django_user_model):
    steps(club, people[0], [(25.0, 8.333), (27.5, 7.9)])
    club.ratings_public = False
    club.save()
    body = page(client, club, people[0]).content.decode()
    assert "<svg" not in body and "μ" not in body and "Rating" not in body
    organiser = django_user_model.objects.create_user(username="olga")
    club.organisers.add(organiser)
    client.force_login(organiser)
    assert "<svg" in page(client, club, people[0]).content.decode()


def test_seasons_select_the_events_they_group(client, club, people):
    spring = Season.objects.create(club=club, name="Spring")
    autumn = Season.objects.create(club=club, name="Autumn")
    event_table(club, people, season=spring)
    chosen = page(client, club, people[0], season=spring.pk).content.decode()
    assert "Figures: Spring" in chosen and "From 1 confirmed game." in chosen
    empty = page(client, club, people[0], season=autumn.pk).content.decode()
    assert "No confirmed games here yet." in empty and "Night 1" not in empty
    unknown = page(client, club, people[0], season="nonsense").content.decode()
    assert "Figures: all games" in unknown


def test_a_casual_game_of_the_club_counts(client, club, people):
    game = played_game([p.name for p in people])
    ClubGame.objects.create(
        game=game, club=club, seat_0=people[0], seat_1=people[1], seat_2=people[2]
    )
    body = page(client, club, people[0]).content.decode()
    assert "Casual game" in body and "<dt>First</dt><dd>1</dd>" in body


def test_a_player_who_left_counts_only_their_deals(client, club, people):
    sub = Player.objects.create(club=club, name="Galya")
    move = {"seat": 2, "left": people[2].pk, "joined": sub.pk, "from_deal": 3}
    event_table(club, [people[0], people[1], sub], substitutions=[move])
    left = page(client, club, people[2]).content.decode()
    # deal 3 is the second hand: deal 2 was dealt again (a pass)
    assert "a substitute played from hand 2" in left
    assert "<dt>Hands played</dt><dd>1</dd>" in left and "<dt>Passes</dt><dd>1</dd>" in left
    came = page(client, club, sub).content.decode()
    assert "<dt>Hands played</dt><dd>2</dd>" in came and "2 place" in came


def test_the_query_count_does_not_grow_with_the_games(client, club, people):
    event_table(club, people, number=1)
    steps(club, people[0], [(25.0, 8.333)])
    with CaptureQueriesContext(connection) as one:
        assert page(client, club, people[0]).status_code == 200
    for number in range(2, 7):
        event_table(club, people, number=number)
    with CaptureQueriesContext(connection) as six:
        body = page(client, club, people[0]).content.decode()
    assert "From 6 confirmed games." in body
    assert len(six) == len(one) <= 12


def test_unknown_club_or_player_is_a_404(client, club, people):
    other = Club.objects.create(name="Other", slug="other")
    stranger = Player.objects.create(club=other, name="Ivo")
    assert page(client, club, stranger).status_code == 404
    assert client.get("/clubs/nope/players/1/").status_code == 404
    assert client.get(f"/clubs/{club.slug}/players/99999999999999999999/").status_code == 404


def test_the_event_player_page_links_to_the_club_page(client, club, people):
    table = event_table(club, people)
    from tournaments.models import Entry

    Entry.objects.create(event=table.round.event, player=people[0])
    url = reverse("tournaments:player", args=[table.round.event.slug, people[0].pk])
    body = client.get(url).content.decode()
    assert reverse("tournaments:club_player", args=[club.slug, people[0].pk]) in body


def test_the_chart_geometry_keeps_every_value_inside_the_plot():
    from tournaments.clubs.charts import RatingPoint, nice_step, rating_chart

    assert [nice_step(span) for span in (1, 4, 6, 12, 30, 140)] == [1, 1, 2, 5, 10, 50]
    assert rating_chart([]) is None
    chart = rating_chart([RatingPoint(25.0, 8.333, 0.001), RatingPoint(30.0, 5.0, 15.0)])
    ys = [float(pair.split(",")[1]) for pair in (chart.line + " " + chart.band).split()]
    assert all(chart.top <= y <= chart.bottom for y in ys)
    assert [tick.value for tick in chart.y_ticks] == [0, 10, 20, 30, 40]
    assert [tick.value for tick in chart.x_ticks] == [1, 2]
    one = rating_chart([RatingPoint(25.0, 8.333, 0.001)])
    assert one.line.count(",") == 1 and one.band.count(",") == 4  # a dot and a visible band


def test_a_single_rated_game_is_said_in_words(client, club, people):
    steps(club, people[1], [(25.0, 8.333)])
    body = page(client, club, people[1]).content.decode()
    assert "The rating (μ − 3σ) after 1 rated game: 0.0." in body
    assert "Not rated yet" in body  # steps but no Rating row: the ratings helper writes both
