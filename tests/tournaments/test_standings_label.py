"""The standings say what they count: "After 1 round" while round 2's
confirmed tables were already counted misled the room. The label names the closed rounds and
the settled tables of the round being played; every row shows the games played, and players
who withdrew are marked."""

import re

import pytest
from django.utils import translation

from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Entry
from tournaments.results.presenters import standings_label
from tournaments.rounds.services.rounds import round_close

from .test_public_pages import get, make_event, numbered, publish_round
from .test_services import play_table

pytestmark = pytest.mark.django_db(transaction=True)


def label(page: str) -> str:
    found = re.search(r'<span class="counted">([^<]*)</span>', page)
    return found.group(1) if found else ""


def test_the_label_counts_closed_rounds_and_the_open_rounds_tables(client):
    event = make_event(numbered(15))  # five tables a round
    round_ = publish_round(event)
    tables = list(round_.tables.order_by("number"))
    play_table(tables[0])
    page = get(client, "standings", event.slug)
    assert label(page) == "After 1 of 5 tables of round 1"
    for table in tables[1:]:
        play_table(table)
    round_close(round_=round_)
    page = get(client, "standings", event.slug)
    assert label(page) == "After 1 round"

    second = list(publish_round(event).tables.order_by("number"))
    for table in second[:3]:
        play_table(table)
    page = get(client, "standings", event.slug)
    # before: "After 1 round", while three tables of round 2 were in the numbers
    assert label(page) == "After 1 round + 3 of 5 tables of round 2"
    projector = get(client, "projector", event.slug)
    said = re.sub(r"<[^>]+>", "", projector)
    assert "After 1 round + 3 of 5 tables of round 2 · built just now" in said
    assert re.search(r'· <time datetime="[^"]+" data-built ', projector)
    snapshot = event.standings.first()
    assert snapshot.rounds_complete == 1  # what the API says stays as it was
    assert snapshot.counted == {"round": 2, "tables": 5, "settled": 3}


def test_plural_forms_of_the_label():
    class Snapshot:
        def __init__(self, done, counted):
            self.rounds_complete, self.counted = done, counted

    with translation.override("en"):
        assert standings_label(Snapshot(0, {})) == ""
        assert standings_label(Snapshot(2, {})) == "After 2 rounds"
        assert standings_label(Snapshot(2, {"round": 3, "tables": 4, "settled": 0})) == (
            "After 2 rounds"
        )
        assert standings_label(Snapshot(2, {"round": 3, "tables": 1, "settled": 1})) == (
            "After 2 rounds + 1 of 1 table of round 3"
        )


def test_games_played_are_shown_and_withdrawn_players_marked(client):
    event = make_event(numbered(6))
    round_ = publish_round(event)
    first, second = round_.tables.order_by("number")
    play_table(first)
    gone = Entry.objects.get(event=event, player=second.seat_0)
    entry_withdraw(entry=gone, reason="went home")
    page = get(client, "standings", event.slug)
    headings = re.findall(r'<th scope="col" class="num">([^<]+)</th>', page)
    assert headings[-1] == "Games"
    played = {pid: 1 for pid in first.seat_ids} | {pid: 0 for pid in second.seat_ids}
    for player, games in played.items():
        row = re.search(rf'players/{player}/">.*?</tr>', page, re.S).group(0)
        assert re.findall(r'<td class="num">([^<]+)</td>', row)[-1] == str(games)
    tags = re.findall(
        r'players/(\d+)/">[^<]+</a> <span class="withdrawn-tag">withdrawn</span>', page
    )
    assert tags == [str(gone.player_id)]
    projector = get(client, "projector", event.slug)
    assert projector.count('<span class="withdrawn-tag">withdrawn</span>') == 1
