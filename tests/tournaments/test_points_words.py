"""The pages say which points and which tie-break they show: the player page tells placing
points from game points, and the standings' head-to-head column is named for what it counts."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.common.services import standings_changed

pytestmark = pytest.mark.django_db


def squash(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


def test_the_player_page_tells_placing_points_from_game_points(confirmed_round):
    table = confirmed_round.rounds.get().tables.select_related("game").first()
    game = table.game
    winner = table.seat_ids[game.placings[0]]
    url = reverse("tournaments:player", args=[confirmed_round.slug, winner])
    words = squash(Client().get(url))
    assert f"1st place, {game.totals[game.placings[0]]} game points" in words
    assert "Placing points" in words and "Game points" in words


def test_the_head_to_head_column_says_what_it_counts(confirmed_round):
    confirmed_round.precedence = ["placing_points", "head_to_head", "lot"]
    confirmed_round.save()
    standings_changed(confirmed_round)
    response = Client().get(reverse("tournaments:standings", args=[confirmed_round.slug]))
    words = squash(response)
    assert "Head to head" not in words
    assert "Level players beaten" in words
    assert "how many of them this player placed above in their games together" in words
