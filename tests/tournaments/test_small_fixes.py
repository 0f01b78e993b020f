"""Small things players and organisers notice (issue 12, item 11): CSV exports that Excel
reads as UTF-8, English dates in day-month order, and words on the player page and the
standings that say which points and which tie-break they show."""

import datetime
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from tournaments.common.services import standings_changed
from tournaments.events.services.registration import players_register
from tournaments.results.services import result_confirm

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def squash(response) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split())


@pytest.fixture
def played(organised_event, build_round, django_capture_on_commit_callbacks):
    """Round 1 of six players, both tables played and confirmed."""
    players_register(event=organised_event, names=["Анна Иванова"], checked_in=True)
    register(organised_event, 5)
    round_ = build_round(organised_event, publish=True)
    rng = random.Random(3)
    for table in round_.tables.all():
        finish_game(table.game, rng)
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    return organised_event


@pytest.mark.parametrize("what", ["standings", "pairings", "hands"])
def test_every_csv_export_starts_with_the_utf8_byte_order_mark(organiser_client, played, what):
    url = reverse("tournaments:organise_export", args=[played.slug, what, "csv"])
    response = organiser_client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")
    assert response.content.count(b"\xef\xbb\xbf") == 1
    if what != "hands":
        assert "Анна Иванова" in response.content.decode("utf-8-sig")
    other = reverse("tournaments:organise_export", args=[played.slug, what, "json"])
    assert not organiser_client.get(other).content.startswith(b"\xef\xbb\xbf")


def test_english_dates_put_the_day_first():
    moment = datetime.datetime(2026, 11, 23, 18, 3)
    with translation.override("en"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "23 Nov 2026, 18:03"
        assert formats.date_format(moment, "SHORT_DATE_FORMAT") == "23 Nov 2026"
        assert formats.date_format(moment, "DATETIME_FORMAT") == "23 November 2026, 18:03"
    with translation.override("bg"):
        assert formats.date_format(moment, "SHORT_DATETIME_FORMAT") == "23.11.2026 18:03"


def test_the_player_page_tells_placing_points_from_game_points(played):
    table = played.rounds.get().tables.select_related("game").first()
    game = table.game
    winner = table.seat_ids[game.placings[0]]
    url = reverse("tournaments:player", args=[played.slug, winner])
    words = squash(Client().get(url))
    assert f"1st place, {game.totals[game.placings[0]]} game points" in words
    assert "Placing points" in words and "Game points" in words


def test_the_head_to_head_column_says_what_it_counts(played):
    played.precedence = ["placing_points", "head_to_head", "lot"]
    played.save()
    standings_changed(played)
    response = Client().get(reverse("tournaments:standings", args=[played.slug]))
    words = squash(response)
    assert "Head to head" not in words
    assert "Level players beaten" in words
    assert "how many of them this player placed above in their games together" in words
