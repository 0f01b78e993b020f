"""Where am I: the keeper's page names event · round · table for an event's table (asked of
the tournaments app through scoring.signals.game_place) and "game N" for a casual game; the
casual games this phone keeps are listed on the new game page; a finished casual game offers
a new game with the same players in one tap."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring import autoplay
from scoring.models import Game
from scoring.presenters.place import again_dealer, place_of
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.rounds.services.rounds import round_create, round_publish

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera"]


def new_game(client: Client, names=NAMES, **fields) -> Game:
    data = {"ruleset": "blato", "first_dealer": "1", "exchange_order": "target"}
    data.update({f"player_{seat}": name for seat, name in enumerate(names)}, **fields)
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302, response.content.decode()
    return Game.objects.latest("pk")


def heading(body: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", body, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


@pytest.fixture
def event_table(django_capture_on_commit_callbacks):
    """Table 1 of round 1 of "Friday night", published, with its game."""
    club = club_create(name="Sofia Blato Club")
    event = event_create(
        club=club, name="Friday night", rounds_planned=2, seed=11, organisers=[], actor="olga"
    )
    players_register(event=event, names=[f"Player {n}" for n in range(1, 7)], checked_in=True)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event, actor="olga")
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(round_=round_, actor="olga")
    return round_.tables.select_related("game").order_by("number").first()


def keeper_of(game: Game) -> Client:
    client = Client()
    response = client.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert response.status_code == 302
    return client


def test_an_event_table_is_named_by_event_round_and_table(event_table):
    game = event_table.game
    assert place_of(game) == {"event": "Friday night", "round": 1, "table": 1}
    body = keeper_of(game).get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert heading(body) == "Blato Friday night · round 1 · table 1"
    # Watchers read the same heading.
    watcher = Client().get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert "Friday night · round 1 · table 1" in heading(watcher)
    # An event's game is not a casual one: not offered again, not listed as mine.
    keeper = keeper_of(game)
    new_page = keeper.get(reverse("scoring:game_new")).content.decode()
    assert "My games on this phone" not in new_page
    response = keeper.post(reverse("scoring:game_again", args=[game.pk]))
    assert response.status_code == 403


def test_a_casual_game_is_named_by_number():
    keeper = Client()
    game = new_game(keeper)
    assert place_of(game) is None
    body = keeper.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert heading(body) == f"Blato game {game.pk}"


def test_my_games_on_this_phone():
    phone = Client()
    assert "My games on this phone" not in phone.get(reverse("scoring:game_new")).content.decode()
    first = new_game(phone)
    second = new_game(phone, names=["Dora", "Emil", "Filip"], ruleset="sergeant-major")
    autoplay.play(second, random.Random(3))
    elsewhere = new_game(Client(), names=["Gala", "Hristo", "Ivo"])
    body = phone.get(reverse("scoring:game_new")).content.decode()
    listed = body[body.index("My games on this phone") : body.index("Start a new game")]
    # The latest first, with players, game and state, each a link to its table page.
    assert listed.index("Dora, Emil, Filip") < listed.index("Ana, Boris, Vera")
    assert f'href="{reverse("scoring:table", args=[first.pk])}"' in listed
    assert "in play" in listed and "finished" in listed and "Sergeant Major" in listed
    assert "Gala" not in listed and str(elsewhere.pk) not in re.findall(r"/games/(\d+)/", listed)
    # Stopping keeping on this phone takes a game off the list.
    phone.post(reverse("scoring:release", args=[first.pk]))
    body = phone.get(reverse("scoring:game_new")).content.decode()
    assert "Ana, Boris, Vera" not in body and "Dora, Emil, Filip" in body
    # In Bulgarian.
    bg = phone.get(reverse("scoring:game_new"), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "Сержант-майор" in bg


def test_new_game_with_the_same_players_after_a_finished_one():
    keeper = Client()
    game = new_game(keeper, hands="3", pass_turns="on")
    table = reverse("scoring:table", args=[game.pk])
    assert "New game with the same players" not in keeper.get(table).content.decode()
    again = reverse("scoring:game_again", args=[game.pk])
    autoplay.play(game, random.Random(5))
    game.refresh_from_db()
    body = keeper.get(table).content.decode()
    assert "New game with the same players" in body and f'action="{again}"' in body
    # A watcher sees no such button, and cannot start one.
    assert "New game with the same players" not in Client().get(table).content.decode()
    assert Client().post(again).status_code == 403
    # One tap: same names, ruleset and options; the next seat deals first.
    response = keeper.post(again)
    follow = Game.objects.latest("pk")
    assert follow.pk != game.pk and response["Location"] == reverse(
        "scoring:table", args=[follow.pk]
    )
    assert follow.players == game.players and follow.ruleset == game.ruleset
    assert follow.options == game.options == {"hands": 3, "pass_turns": True}
    assert follow.first_dealer == again_dealer(game) == 2
    assert follow.entries.count() == 0
    # This phone keeps the new one.
    page = keeper.get(response["Location"]).content.decode()
    assert 'class="call-form"' in page
