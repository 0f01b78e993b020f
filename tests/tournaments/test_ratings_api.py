"""GET /api/clubs/{slug}/ratings and the leaderboard page: the spec's shape, sorted by
ordinal, public or only for the club's organisers."""

from __future__ import annotations

import pytest
from django.test import Client
from openskill.models import PlackettLuce

from tests.tournaments.season_nights import MEMBERS, play_night
from tournaments.common import tokens
from tournaments.models import Club, Rating

pytestmark = pytest.mark.django_db

URL = "/api/clubs/{}/ratings"


@pytest.fixture
def rated_club(django_capture_on_commit_callbacks):
    club = Club.objects.create(name="Varna Blato", slug="varna")
    with django_capture_on_commit_callbacks(execute=True):
        play_night(club, "Night 1", MEMBERS + ["Unrated"], seed=2, rounds=1)
    return club


def test_the_ratings_as_the_spec_says(client, rated_club):
    answer = client.get(URL.format("varna"))
    assert answer.status_code == 200
    body = answer.json()
    assert body["club"] == "varna"
    assert body["model"] == "openskill-plackett-luce"
    rows = body["rows"]
    assert [set(row) for row in rows] == [
        {"player_id", "name", "mu", "sigma", "ordinal", "games"}
    ] * len(rows)
    ordinals = [row["ordinal"] for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    # one round of seven players: six played (two tables), the bye is left out
    assert len(rows) == 6 and all(row["games"] == 1 for row in rows)
    # a first game from the default: openskill's own numbers for a 1st, 2nd and 3rd place
    model = PlackettLuce()
    fresh = [[model.rating()] for _ in range(3)]
    expected = sorted(
        (round(r.mu - 3 * r.sigma, 9) for (r,) in model.rate(fresh, ranks=[1, 2, 3])),
        reverse=True,
    )
    assert sorted({round(o, 9) for o in ordinals}, reverse=True) == expected
    for row in rows:
        assert row["ordinal"] == pytest.approx(row["mu"] - 3 * row["sigma"])


def test_an_unknown_club_is_404(client):
    answer = client.get(URL.format("nowhere"))
    assert answer.status_code == 404
    assert "error" in answer.json()


def test_hidden_ratings_answer_only_the_clubs_organisers(client, rated_club, make_user):
    rated_club.ratings_public = False
    rated_club.save()
    assert client.get(URL.format("varna")).status_code == 404
    assert client.get("/clubs/varna/ratings/").status_code == 404
    stranger, boss = make_user("stranger"), make_user("boss")
    rated_club.organisers.add(boss)
    as_boss = {"HTTP_AUTHORIZATION": f"Bearer {tokens.token_issue(user=boss)}"}
    as_stranger = {"HTTP_AUTHORIZATION": f"Bearer {tokens.token_issue(user=stranger)}"}
    answer = client.get(URL.format("varna"), **as_boss)
    assert answer.status_code == 200 and len(answer.json()["rows"]) == 6
    assert "private" in answer["Cache-Control"]
    assert client.get(URL.format("varna"), **as_stranger).status_code == 404
    web = Client()
    web.force_login(boss)
    page = web.get("/clubs/varna/ratings/")
    assert page.status_code == 200
    assert "Only the club" in page.content.decode()
    other = Client()
    other.force_login(stranger)
    assert other.get("/clubs/varna/ratings/").status_code == 404


def test_the_leaderboard_page_lists_the_rated_by_ordinal(client, rated_club):
    page = client.get("/clubs/varna/ratings/")
    assert page.status_code == 200
    html = page.content.decode()
    ranked = Rating.objects.order_by("-ordinal", "-games", "player__name")
    names = [r.player.name for r in ranked]
    positions = [html.index(f">{name}<") for name in names]
    assert positions == sorted(positions)
    (unrated,) = rated_club.players.filter(rating__isnull=True)  # the bye of the round
    assert f">{unrated.name}<" not in html
    assert client.get("/clubs/nowhere/ratings/").status_code == 404


def test_the_ratings_path_is_in_the_openapi_schema(client):
    schema = client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/clubs/{slug}/ratings"]["get"]
    assert "200" in operation["responses"]


def test_the_leaderboard_writes_a_negative_rating_with_a_true_minus(client, rated_club):
    """Ratings start below zero; they are written as every score on the site is ("−0.9"),
    never with a hyphen."""
    html = client.get("/clubs/varna/ratings/").content.decode()
    negative = [r for r in Rating.objects.all() if r.ordinal < -0.05]
    assert negative, "a first night leaves someone below zero"
    for rating in negative:
        assert f"\u2212{abs(rating.ordinal):.1f}" in html
    assert 'score">-' not in html
