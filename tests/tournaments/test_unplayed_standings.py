"""Who is ranked: a player who has taken part in no round (no game played, no bye) is never
placed by lot among those who played. Withdrawn typos, a walkout before the first game and a
late arrival are listed after the ranked players with no rank, on the wall, the projector,
the API, the export and a season's night places; and "where do I sit" matches no withdrawn
entry's name."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import autoplay
from tournaments import standings
from tournaments.clubs.selectors.seasons import places_of
from tournaments.clubs.services import seasons as writes
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import entry_withdraw, players_register
from tournaments.models import Entry, Player
from tournaments.results.exports import standings_table
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_pair, round_publish
from tournaments.standings import Bye, GameResult

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = ["Ana", "Boris", "Vera", "Georgi", "Dana", "Emil", "Иван Петров"]
GHOSTS = ["Maria Dimitrova отказал се", "Ivan Petrov"]
LATE = "Late Lora"


# --- the rule, in the pure module ---------------------------------------------------------------


def test_a_player_with_no_game_and_no_bye_is_not_ranked_and_comes_last():
    # Player 3 placed third with a negative score: no lot may put 4 or 5 (no game) above him.
    game = GameResult(round=1, table=1, players=(1, 2, 3), totals=(9, 2, -4), placings=(1, 2, 3))
    rows = standings.build_standings([5, 4, 3, 2, 1, 6], [game], [Bye(round=1, player=6)])
    assert [(row.player, row.rank) for row in rows] == [
        (1, 1),
        (2, 2),
        (6, 3),  # a bye is taking part: ranked (a second place's points under "second")
        (3, 4),
        (4, None),
        (5, None),
    ]
    assert all(row.decided_by is None for row in rows if row.rank is None)
    assert rows[-1].as_dict()["rank"] is None


def test_before_any_game_nobody_is_ranked():
    rows = standings.build_standings([3, 1, 2], [])
    assert [(row.player, row.rank) for row in rows] == [(1, None), (2, None), (3, None)]


# --- the night, through the site ------------------------------------------------------------------


def _night(club, name="Friday", seed=4):
    """Seven players play round 1; two typos were withdrawn before it, a late arrival never
    checked in."""
    event = event_create(club=club, name=name, rounds_planned=2, seed=seed)
    players_register(event=event, names=PLAYERS + GHOSTS, checked_in=True)
    players_register(event=event, names=[LATE], checked_in=False)
    for ghost in GHOSTS:
        entry_withdraw(entry=Entry.objects.get(event=event, player__name=ghost))
    rng = random.Random(seed)
    round_ = round_pair(round_id=round_create(event=event).pk)
    round_publish(round_=round_)
    for table in round_.tables.select_related("game"):
        autoplay.play(table.game, rng, actor="test")
        result_confirm(table=table, actor="test")
    round_close(round_=round_)
    standings_build(event_id=event.pk)
    event.refresh_from_db()
    return event


@pytest.fixture
def night():
    return _night(club_create(name="Sofia Blato Club"))


UNPLAYED = {*GHOSTS, LATE}


def _squash(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_api_ranks_only_those_who_took_part(client, night):
    body = client.get(f"/api/events/{night.slug}/standings").json()
    assert [row["rank"] for row in body["rows"]] == list(range(1, 8))
    assert {row["player"] for row in body["rows"]} == set(PLAYERS)
    assert all(row["withdrawn"] is False for row in body["rows"])
    unranked = {row["player"]: row for row in body["unranked"]}
    assert set(unranked) == UNPLAYED
    assert all(row["rank"] is None and row["metrics"]["games"] == 0 for row in unranked.values())
    assert [unranked[name]["withdrawn"] for name in (*GHOSTS, LATE)] == [True, True, False]


def test_the_wall_and_the_projector_list_the_unplayed_apart(client, night):
    for page in ("standings", "projector"):
        words = _squash(client.get(reverse(f"tournaments:{page}", args=[night.slug])).text)
        heading = words.index("Not ranked: no game played yet")
        assert all(words.index(name) > heading for name in UNPLAYED), page
        assert all(words.index(name) < heading for name in PLAYERS), page
        assert "by lot" not in words[heading:], page


def test_the_player_page_says_not_ranked(client, night):
    ghost = Player.objects.get(name=GHOSTS[0])
    page = client.get(reverse("tournaments:player", args=[night.slug, ghost.pk])).text
    assert "Not ranked: no game played yet" in _squash(page) and "Rank None" not in page


def test_the_export_has_games_played_and_withdrawn(night):
    from config import spreadsheets

    table = standings_table(night)
    headers = [str(column.header) for column in table.columns]
    rows = [[cell for cell in row] for row in list(table.as_values())[1:]]
    body = spreadsheets.rows_file("csv", headers, rows, title="standings").decode("utf-8-sig")
    lines = list(csv.DictReader(io.StringIO(body)))
    assert "Games played" in lines[0] and "Withdrawn" in lines[0]
    by_name = {line["Player"]: line for line in lines}
    assert [line["Player"] for line in lines[-3:]] == sorted(
        UNPLAYED, key=lambda n: Player.objects.get(name=n).pk
    )
    for name in UNPLAYED:
        assert by_name[name]["Rank"] == "" and by_name[name]["Games played"] == "0"
    assert [by_name[name]["Withdrawn"] for name in GHOSTS] == ["yes", "yes"]
    assert by_name[LATE]["Withdrawn"] == "" and by_name["Ana"]["Withdrawn"] == ""
    assert sorted(int(by_name[name]["Rank"]) for name in PLAYERS) == list(range(1, 8))


def test_a_seasons_night_place_counts_among_those_who_played(night):
    season = writes.season_create(club=night.club, name="Autumn", best_nights=1, min_nights=1)
    writes.season_add_event(season, night)
    places = places_of(night.standings.first().rows)
    names = dict(Player.objects.values_list("pk", "name"))
    assert sorted(places.values()) == list(range(1, 7))  # 6 played a game; one had the bye
    assert not {names[player] for player in places} & UNPLAYED
    # a snapshot stored before the rule (ghosts ranked by lot among the players) still counts
    # places among those who played
    old = [{**row, "rank": n} for n, row in enumerate(reversed(night.standings.first().rows), 1)]
    assert sorted(places_of(old).values()) == list(range(1, 7))


def test_where_do_i_sit_matches_no_withdrawn_entry(night):
    round_publish(round_=round_create(event=night))
    client = Client()
    words = _squash(
        client.get(reverse("tournaments:seat", args=[night.slug]), {"name": "Ivan Petrov"}).text
    )
    assert "Which one are you?" not in words
    assert "not in round" not in words and "Table " in words
    words = _squash(
        client.get(reverse("tournaments:seat", args=[night.slug]), {"name": "Maria"}).text
    )
    assert "Maria Dimitrova" not in words


def test_a_withdrawal_after_the_publish_leaves_the_names_matched(night):
    from tournaments.models import Bye
    from tournaments.rounds import web as public_kept

    round_ = round_create(event=night)
    round_publish(round_=round_)
    sitting_out = Bye.objects.get(round=round_).player.name
    seated = round_.tables.first().seats[0].name
    client = Client()
    seat_page = reverse("tournaments:seat", args=[night.slug])
    assert "You have a bye this round" in _squash(client.get(seat_page, {"name": sitting_out}).text)
    for name in (sitting_out, seated):
        entry_withdraw(entry=Entry.objects.get(event=night, player__name=name))
    public_kept.seat_maps.clear()  # another process: only the shared copy is left
    public_kept.pages.clear()
    words = _squash(client.get(seat_page, {"name": sitting_out}).text)
    assert "You have a bye this round" not in words and "Check the spelling" in words
    # one who withdrew still seated at a table is still shown it (the organiser settles it)
    assert "Table " in _squash(client.get(seat_page, {"name": seated}).text)
