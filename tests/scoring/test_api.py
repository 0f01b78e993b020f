"""The games part of the JSON API, against ../shared/spec/http-api.md ("Games").

Every state the API answers is compared with the engine's own replay of the same record, and
every error with the one shape the spec allows: a 4xx with {"error": {"message": "..."}}.
"""

import json
import sqlite3
import threading
from urllib.parse import quote

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import engine
from scoring import services
from scoring.models import DealEntry, Game, GameChange
from scoring.selectors import game_record
from tests.engine.strategies import json_values, last_tricks_for, tricks_for

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Boris", "Vera"]
# The spec's keys, and the game's version (an extra key, which the spec allows).
GAME_KEYS = {"id", "players", "state", "version"}
CREATED_KEYS = {"id", "token", "url", "players", "state", "version"}
# Nine blato hands in which everyone makes their target: a three-way tie at 0.
TIED_BLATO = [{"calls": ["spades"], "tricks": t} for t in ([3, 8, 5], [5, 3, 8], [8, 5, 3])] * 3


# --- helpers ---------------------------------------------------------------------------------


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def send(client, method, url, body=None, token=None, **kwargs):
    """A request with a JSON body (a str or bytes body is sent as it is), any method."""
    if body is None:
        body = b""
    elif not isinstance(body, str | bytes):
        body = json.dumps(body)
    headers = kwargs.pop("headers", {})
    if token is not None:
        headers = {**auth(token), **headers}
    kwargs.setdefault("content_type", "application/json")
    return client.generic(method.upper(), url, body, headers=headers, **kwargs)


def create(client, **fields):
    body = {"ruleset": "blato", "players": PLAYERS, "first_dealer": 0, **fields}
    response = send(client, "post", "/api/games", body)
    assert response.status_code == 201, response.content
    return response.json()


def deals_url(game):
    return f"/api/games/{game['id']}/deals"


def post_deal(client, game, number, deal, token=None):
    body = {"deal": number, **deal}
    return send(client, "post", deals_url(game), body, game["token"] if token is None else token)


def play(client, game, deals):
    for number, deal in enumerate(deals, start=1):
        response = post_deal(client, game, number, deal)
        assert response.status_code == 201, response.content
    return response.json()


def replay(ruleset="blato", deals=(), first_dealer=0, options=None):
    record = {"ruleset": ruleset, "first_dealer": first_dealer, "deals": list(deals)}
    if options is not None:
        record["options"] = options
    return engine.state_as_json(engine.replay(record))


def assert_error(response, status):
    """A 4xx JSON error of exactly the spec's shape; returns its message."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = json.loads(response.content)
    assert isinstance(body["error"], dict)
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]["message"]


def assert_game_body(response, status, game, state):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert set(body) == GAME_KEYS
    assert body["id"] == game["id"]
    assert body["players"] == PLAYERS
    assert body["state"] == state
    assert game["token"] not in response.content.decode()
    return body


def snapshot(game_id):
    """Everything a refused request must leave as it was."""
    game = Game.objects.get(pk=game_id)
    entries = list(DealEntry.objects.filter(game=game).values_list("number", "calls", "tricks"))
    return (
        game.version,
        game.result,
        game.totals,
        entries,
        GameChange.objects.filter(game=game).count(),
    )


# --- POST /api/games -------------------------------------------------------------------------


def test_creating_a_game_answers_its_id_token_url_players_and_state(client):
    response = send(
        client,
        "post",
        "/api/games",
        {"ruleset": "blato", "options": {"hands": 3}, "players": PLAYERS, "first_dealer": 2},
    )
    assert response.status_code == 201
    assert response["Content-Type"] == "application/json; charset=utf-8"
    body = response.json()
    assert set(body) == CREATED_KEYS
    game = Game.objects.get()
    assert body["id"] == game.pk
    assert body["token"] == game.secret and len(body["token"]) >= 22  # >= 128 bits
    assert body["url"] == reverse("scoring:table", args=[game.pk])
    assert body["players"] == PLAYERS
    assert body["state"] == replay(first_dealer=2, options={"hands": 3})
    assert response["Location"] == f"/api/games/{game.pk}"
    assert (game.ruleset, game.options, game.first_dealer) == ("blato", {"hands": 3}, 2)
    change = game.changes.get()
    assert (change.action, change.actor) == (GameChange.Action.CREATED, "api")


def test_options_and_first_dealer_may_be_left_out(client):
    response = send(client, "post", "/api/games", {"ruleset": "nine-five-two", "players": PLAYERS})
    assert response.status_code == 201
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert game.first_dealer in (0, 1, 2)
    assert body["state"] == replay("nine-five-two", first_dealer=game.first_dealer)
    null = send(
        client,
        "post",
        "/api/games",
        {"ruleset": "blato", "players": PLAYERS, "options": None, "first_dealer": None},
    )
    assert null.status_code == 201


def test_tokens_are_random_and_differ_per_game(client):
    tokens = {create(client)["token"] for _ in range(5)}
    assert len(tokens) == 5


def test_names_are_tidied_and_may_be_any_language(client):
    body = create(client, players=["  Ана  Мария ", "Борис", "Vera"])
    assert body["players"] == ["Ана Мария", "Борис", "Vera"]
    assert GAME_KEYS <= set(client.get(f"/api/games/{body['id']}").json())


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ruleset": "poker"}, "unknown ruleset"),
        ({"ruleset": ["blato"]}, "unknown ruleset"),
        ({"players": ["A", "B"]}, "three names"),
        ({"players": "Ana, Boris, Vera"}, "three names"),
        ({"players": ["A", "", "C"]}, "name"),
        ({"players": ["A", 7, "C"]}, "name"),
        ({"players": ["A", "B", "C" * 81]}, "at most"),
        ({"options": {"hands": 0}}, "hands"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"options": [1]}, ""),
        ({"first_dealer": 3}, "first_dealer"),
        ({"first_dealer": True}, "first_dealer"),
        ({"first_dealer": "0"}, "first_dealer"),
        ({"token": "mine"}, "unknown field"),
    ],
)
def test_a_bad_game_is_refused_with_a_message(client, fields, message):
    body = {"ruleset": "blato", "players": PLAYERS, **fields}
    text = assert_error(send(client, "post", "/api/games", body), 400)
    assert message in text
    assert not Game.objects.exists()


@pytest.mark.parametrize("missing", ["ruleset", "players"])
def test_ruleset_and_players_are_required(client, missing):
    body = {"ruleset": "blato", "players": PLAYERS}
    del body[missing]
    assert missing in assert_error(send(client, "post", "/api/games", body), 400)


def test_the_engines_own_message_explains_a_refused_option(client):
    response = send(
        client, "post", "/api/games", {"ruleset": "blato", "players": PLAYERS, "options": {"x": 1}}
    )
    with pytest.raises(engine.RuleError) as refused:
        engine.replay({"ruleset": "blato", "options": {"x": 1}, "deals": []})
    assert assert_error(response, 400) == refused.value.message


# --- GET /api/games/{id} ---------------------------------------------------------------------


def test_a_game_is_public_and_never_shows_its_token(client):
    game = create(client)
    play(client, game, [{"calls": ["pass"]}, {"calls": ["hearts"], "tricks": [4, 7, 5]}])
    response = Client().get(f"/api/games/{game['id']}")
    body = assert_game_body(
        response,
        200,
        game,
        replay(deals=[{"calls": ["pass"]}, {"calls": ["hearts"], "tricks": [4, 7, 5]}]),
    )
    assert "token" not in body and "secret" not in response.content.decode()


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/0",
        "/api/games/987654",
        "/api/games/99999999999999999999999",
        "/api/games/" + "9" * 5000,
        "/api/games/abc",
        "/api/games/-1",
        "/api/games/1.0",
        "/api/games/%00",
        "/api/games/%FF%FE",
    ],
)
def test_unknown_games_are_a_json_404(client, path):
    create(client)
    for method, suffix in (
        ("get", ""),
        ("post", "/deals"),
        ("patch", "/deals/1"),
        ("delete", "/deals/1"),
    ):
        assert_error(getattr(client, method)(path + suffix), 404)


def test_a_trailing_slash_is_accepted(client):
    game = create(client)
    assert client.get(f"/api/games/{game['id']}/").status_code == 200
    response = send(client, "post", "/api/games/", {"ruleset": "blato", "players": PLAYERS})
    assert response.status_code == 201


# --- POST /api/games/{id}/deals --------------------------------------------------------------


def test_a_deal_is_recorded_and_the_state_is_the_engines(client):
    game = create(client)
    response = post_deal(client, game, 1, {"calls": ["pass"]})
    assert_game_body(response, 201, game, replay(deals=[{"calls": ["pass"]}]))
    deal = {"calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": [1]}
    response = post_deal(client, game, 2, deal)
    assert_game_body(response, 201, game, replay(deals=[{"calls": ["pass"]}, deal]))
    entry = DealEntry.objects.get(game_id=game["id"], number=2)
    assert (entry.calls, entry.tricks, entry.last_tricks, entry.entered_by) == (
        ["hearts"],
        [4, 7, 5],
        [1],
        "api",
    )
    change = GameChange.objects.get(game_id=game["id"], deal_number=2)
    assert (change.action, change.actor) == (GameChange.Action.DEAL_RECORDED, "api")
    assert client.get(f"/api/games/{game['id']}").json()["state"] == response.json()["state"]


def test_a_whole_game_through_the_api_matches_the_engine(client):
    game = create(client, ruleset="three-five-eight")
    deals = [{"calls": ["hearts"], "tricks": [8, 5, 3]}, {"calls": ["clubs"], "tricks": [16, 0, 0]}]
    body = play(client, game, deals)
    state = replay("three-five-eight", deals)
    assert body["state"] == state and state["finished"] and state["placings"] is not None
    stored = Game.objects.get(pk=game["id"])
    assert stored.result == Game.Result.FINISHED and stored.totals == state["totals"]
    refused = post_deal(client, game, 3, {"calls": ["hearts"], "tricks": [8, 5, 3]})
    assert "finished" in assert_error(refused, 400)


def test_resending_a_deal_answers_200_with_the_same_body_and_records_nothing(client):
    game = create(client)
    deal = {"calls": ["hearts"], "tricks": [4, 7, 5]}
    first = post_deal(client, game, 1, deal)
    before = snapshot(game["id"])
    again = post_deal(client, game, 1, deal)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json() == first.json()
    assert snapshot(game["id"]) == before
    # An earlier deal resent after later ones: still 200, with the current state.
    second = post_deal(client, game, 2, {"calls": ["spades"], "tricks": [5, 5, 6]})
    late = post_deal(client, game, 1, deal)
    assert late.status_code == 200 and late.json() == second.json()
    # An empty last_tricks is the same as none.
    assert post_deal(client, game, 1, {**deal, "last_tricks": []}).status_code == 200


@pytest.mark.parametrize(
    ("number", "deal"),
    [
        (1, {"calls": ["hearts"], "tricks": [5, 6, 5]}),  # recorded differently
        (1, {"calls": ["spades"], "tricks": [4, 7, 5]}),
        (1, {"calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": [1]}),
        (3, {"calls": ["hearts"], "tricks": [4, 7, 5]}),  # not the next number
        (10**30, {"calls": ["hearts"], "tricks": [4, 7, 5]}),
    ],
)
def test_a_conflicting_deal_answers_409_with_the_state_and_changes_nothing(client, number, deal):
    game = create(client)
    post_deal(client, game, 1, {"calls": ["hearts"], "tricks": [4, 7, 5]})
    before = snapshot(game["id"])
    response = post_deal(client, game, number, deal)
    assert_error(response, 409)
    body = response.json()
    assert set(body) == {"error", "state", "version"}
    assert body["state"] == replay(deals=[{"calls": ["hearts"], "tricks": [4, 7, 5]}])
    assert body["version"] == Game.objects.get(pk=game["id"]).version
    assert game["token"] not in response.content.decode()
    assert snapshot(game["id"]) == before


@pytest.mark.parametrize(
    "deal",
    [
        {"calls": ["hearts"], "tricks": [5, 5, 5]},  # does not add up to 16
        {"calls": ["hearts"], "tricks": [4, 7, -5, 10]},
        {"calls": ["hearts"], "tricks": [4.0, 7, 5]},
        {"calls": ["hearts"], "tricks": [True, 10, 5]},
        {"calls": ["hearts"]},  # tricks missing
        {"calls": ["hearts"], "tricks": None},
        {"calls": ["pass"], "tricks": [4, 7, 5]},  # a redeal has no tricks
        {"calls": ["miz"], "tricks": [4, 7, 5]},  # not a blato call
        {"calls": ["hearts", "spades"], "tricks": [4, 7, 5]},  # a call after the contract
        {"calls": []},
        {"calls": [None]},
        {"calls": [["hearts"]], "tricks": [4, 7, 5]},
        {"calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": [0, 0, 0, 0, 0]},
        {"calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": [3]},
        {"calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": ["1"]},
    ],
)
def test_a_deal_the_engine_refuses_answers_400_with_its_message(client, deal):
    game = create(client)
    before = snapshot(game["id"])
    with pytest.raises(engine.RuleError) as refused:
        engine.replay({"ruleset": "blato", "first_dealer": 0, "deals": [deal]})
    response = post_deal(client, game, 1, deal)
    assert assert_error(response, 400) == refused.value.message
    assert snapshot(game["id"]) == before


def test_a_second_pass_is_refused_by_the_engine(client):
    game = create(client)
    play(client, game, [{"calls": ["pass"]}])
    response = post_deal(client, game, 2, {"calls": ["pass"]})
    assert "no pass left" in assert_error(response, 400)


@pytest.mark.parametrize(
    "body",
    [
        {"calls": ["hearts"], "tricks": [4, 7, 5]},  # deal missing
        {"deal": 1, "tricks": [4, 7, 5]},  # calls missing
        {"deal": "1", "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": 1.0, "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": True, "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": 0, "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": -1, "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": None, "calls": ["hearts"], "tricks": [4, 7, 5]},
        {"deal": 1, "calls": "hearts", "tricks": [4, 7, 5]},
        {"deal": 1, "calls": {"0": "hearts"}, "tricks": [4, 7, 5]},
        {"deal": 1, "calls": ["hearts"], "tricks": "4 7 5"},
        {"deal": 1, "calls": ["hearts"], "tricks": {"0": 4}},
        {"deal": 1, "calls": ["hearts"], "tricks": [4, 7, 5], "last_tricks": 1},
        {"deal": 1, "calls": ["hearts"], "tricks": [4, 7, 5], "hand": 1},  # unknown field
        [1, ["hearts"], [4, 7, 5]],
        "deal",
        17,
        None,
    ],
)
def test_a_malformed_deal_answers_400_and_changes_nothing(client, body):
    game = create(client)
    before = snapshot(game["id"])
    assert_error(send(client, "post", deals_url(game), body, game["token"]), 400)
    assert snapshot(game["id"]) == before


# --- the token -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Basic YTpi",
        "Token {token}",
        "{token}",
        "Bearer {token} extra",
        "Bearer\t",
    ],
)
def test_without_a_bearer_token_a_write_answers_401(client, header):
    game = create(client)
    play(client, game, [{"calls": ["hearts"], "tricks": [4, 7, 5]}])
    before = snapshot(game["id"])
    headers = {} if header is None else {"Authorization": header.format(token=game["token"])}
    deal = {"deal": 2, "calls": ["spades"], "tricks": [5, 5, 6]}
    for method, url, body in (
        ("post", deals_url(game), deal),
        ("patch", deals_url(game) + "/1", {"last_tricks": [1]}),
        ("delete", deals_url(game) + "/1", None),
    ):
        response = send(client, method, url, body, headers=headers)
        assert_error(response, 401)
        assert response["WWW-Authenticate"].startswith("Bearer")
    assert snapshot(game["id"]) == before


@pytest.mark.parametrize(
    "token",
    ["wrong", "{token}x", "{token_short}", "{other}", "{token_upper}", "ÿ{token}", "\u0100"],
)
def test_a_wrong_token_answers_403(client, token):
    game = create(client)
    other = create(client)
    play(client, game, [{"calls": ["hearts"], "tricks": [4, 7, 5]}])
    before = snapshot(game["id"])
    offered = token.format(
        token=game["token"],
        token_short=game["token"][:-1],
        other=other["token"],
        token_upper=game["token"].upper(),
    )
    if offered == game["token"]:
        offered = offered[:-1]
    deal = {"deal": 2, "calls": ["spades"], "tricks": [5, 5, 6]}
    for method, url, body in (
        ("post", deals_url(game), deal),
        ("patch", deals_url(game) + "/1", {"last_tricks": [1]}),
        ("delete", deals_url(game) + "/1", None),
    ):
        response = send(client, method, url, body, headers={"Authorization": f"Bearer {offered}"})
        assert_error(response, 403)
        assert game["token"] not in response.content.decode()
    assert snapshot(game["id"]) == before


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "Bearer", "bEaReR"])
def test_the_scheme_is_case_insensitive(client, scheme):
    game = create(client)
    headers = {"Authorization": f" {scheme} \t{game['token']} "}
    deal = {"deal": 1, "calls": ["hearts"], "tricks": [4, 7, 5]}
    assert send(client, "post", deals_url(game), deal, headers=headers).status_code == 201


def test_checks_run_404_then_token_then_body(client):
    game = create(client)
    garbage = b"{not json"
    # 404 before 401/403: an unknown game, whatever the token and body.
    assert_error(send(client, "post", "/api/games/987654/deals", garbage), 404)
    assert_error(send(client, "post", "/api/games/987654/deals", garbage, "x"), 404)
    # 401/403 before 400.
    assert_error(send(client, "post", deals_url(game), garbage), 401)
    assert_error(send(client, "post", deals_url(game), garbage, "wrong"), 403)
    assert_error(send(client, "patch", deals_url(game) + "/1", garbage), 401)
    assert_error(send(client, "patch", deals_url(game) + "/1", garbage, "wrong"), 403)
    # 400 before the service (which would say 409: there is no deal 5).
    assert_error(send(client, "post", deals_url(game), garbage, game["token"]), 400)
    assert_error(send(client, "patch", deals_url(game) + "/5", garbage, game["token"]), 400)
    bad = {"deal": 5, "calls": "x"}
    assert_error(send(client, "post", deals_url(game), bad, game["token"]), 400)


def test_the_token_never_appears_in_a_game_read_or_write_answer(client):
    game = create(client)
    token = game["token"]
    answers = [
        client.get(f"/api/games/{game['id']}"),
        post_deal(client, game, 1, {"calls": ["hearts"], "tricks": [4, 7, 5]}),
        post_deal(client, game, 1, {"calls": ["hearts"], "tricks": [4, 7, 5]}),
        post_deal(client, game, 1, {"calls": ["spades"], "tricks": [4, 7, 5]}),
        post_deal(client, game, 2, {"calls": ["spades"], "tricks": [4, 7, 4]}),
        send(client, "patch", deals_url(game) + "/1", {"last_tricks": [1]}, token),
        send(client, "delete", deals_url(game) + "/1", None, token),
        client.get(f"/api/games/{game['id']}"),
    ]
    for response in answers:
        assert token not in response.content.decode()
        assert token not in str(response.headers)


# --- PATCH /api/games/{id}/deals/{n} ---------------------------------------------------------


def test_last_tricks_settle_a_tie(client):
    game = create(client)
    body = play(client, game, TIED_BLATO)
    assert body["state"]["needs"] is not None and body["state"]["placings"] is None
    assert Game.objects.get(pk=game["id"]).result == Game.Result.FINISHED
    url = deals_url(game) + "/9"
    response = send(client, "patch", url, {"last_tricks": [0, 1]}, game["token"])
    settled = [*TIED_BLATO[:8], {**TIED_BLATO[8], "last_tricks": [0, 1]}]
    body = assert_game_body(response, 200, game, replay(deals=settled))
    assert body["state"]["placings"] is not None and body["state"]["needs"] is None
    entry = DealEntry.objects.get(game_id=game["id"], number=9)
    assert entry.last_tricks == [0, 1]
    change = GameChange.objects.get(game_id=game["id"], action=GameChange.Action.LAST_TRICKS)
    assert change.actor == "api" and change.data == {"before": None, "after": [0, 1]}
    stored = Game.objects.get(pk=game["id"])
    assert stored.placings == body["state"]["placings"]


@pytest.mark.parametrize(
    "body",
    [
        {"last_tricks": [0], "tricks": [3, 8, 5]},
        {"last_tricks": [0], "deal": 9},
        {"calls": ["hearts"]},
        {"tricks": [8, 5, 3]},
        {},
        {"last_tricks": 0},
        {"last_tricks": None},
        {"last_tricks": "0"},
        [0],
        b"",
        b"last_tricks=0",
    ],
)
def test_only_last_tricks_may_be_patched(client, body):
    game = create(client)
    play(client, game, TIED_BLATO)
    before = snapshot(game["id"])
    assert_error(send(client, "patch", deals_url(game) + "/9", body, game["token"]), 400)
    assert snapshot(game["id"]) == before


def test_patching_what_the_engine_refuses_answers_400(client):
    game = create(client)
    play(client, game, TIED_BLATO)
    before = snapshot(game["id"])
    bad = {"last_tricks": [2, 2, 2, 2]}  # seat 2 took 3 tricks in the last hand
    message = assert_error(send(client, "patch", deals_url(game) + "/9", bad, game["token"]), 400)
    assert "seat 2" in message
    assert snapshot(game["id"]) == before


@pytest.mark.parametrize("number", [0, 1, 8, 10, 10**30])
def test_patching_a_deal_other_than_the_last_hand_answers_409(client, number):
    game = create(client)
    body = play(client, game, TIED_BLATO)
    before = snapshot(game["id"])
    url = f"{deals_url(game)}/{number}"
    response = send(client, "patch", url, {"last_tricks": [0, 1]}, game["token"])
    assert_error(response, 409)
    assert response.json()["state"] == body["state"]
    assert snapshot(game["id"]) == before


def test_a_redeal_takes_no_last_tricks(client):
    game = create(client)
    play(client, game, [{"calls": ["pass"]}])
    response = send(client, "patch", deals_url(game) + "/1", {"last_tricks": []}, game["token"])
    assert_error(response, 409)


# --- DELETE /api/games/{id}/deals/{n} --------------------------------------------------------


def test_undoing_the_last_deal_keeps_it_in_the_history(client):
    game = create(client)
    deals = [{"calls": ["hearts"], "tricks": [4, 7, 5]}, {"calls": ["spades"], "tricks": [5, 5, 6]}]
    play(client, game, deals)
    response = send(client, "delete", deals_url(game) + "/2", None, game["token"])
    assert_game_body(response, 200, game, replay(deals=deals[:1]))
    undone = DealEntry.objects.get(game_id=game["id"], number=2)
    assert undone.undone_at is not None and undone.undone_by == "api"
    assert undone.calls == ["spades"] and undone.tricks == [5, 5, 6]
    change = GameChange.objects.get(game_id=game["id"], action=GameChange.Action.DEAL_UNDONE)
    assert (change.actor, change.deal_number) == ("api", 2)
    # The number is free again, for other values; the undone row stays.
    other = {"calls": ["clubs"], "tricks": [6, 5, 5]}
    assert_game_body(post_deal(client, game, 2, other), 201, game, replay(deals=[deals[0], other]))
    assert DealEntry.objects.filter(game_id=game["id"], number=2).count() == 2
    assert DealEntry.objects.filter(game_id=game["id"], undone_at__isnull=True).count() == 2
    # Undo both, down to no deals at all.
    send(client, "delete", deals_url(game) + "/2", None, game["token"])
    response = send(client, "delete", deals_url(game) + "/1", None, game["token"])
    assert_game_body(response, 200, game, replay())
    assert DealEntry.objects.filter(game_id=game["id"], undone_at__isnull=False).count() == 3


@pytest.mark.parametrize("number", [0, 1, 3, 10**30])
def test_only_the_last_deal_can_be_undone(client, number):
    game = create(client)
    body = play(client, game, [{"calls": ["pass"]}, {"calls": ["hearts"], "tricks": [4, 7, 5]}])
    before = snapshot(game["id"])
    response = send(client, "delete", f"{deals_url(game)}/{number}", None, game["token"])
    assert_error(response, 409)
    assert response.json()["state"] == body["state"]
    assert snapshot(game["id"]) == before


def test_nothing_to_undo_answers_409(client):
    game = create(client)
    response = send(client, "delete", deals_url(game) + "/0", None, game["token"])
    assert_error(response, 409)
    assert response.json()["state"] == replay()


def test_a_confirmed_result_cannot_be_changed(client):
    game = create(client, ruleset="three-five-eight")
    deals = [{"calls": ["hearts"], "tricks": [8, 5, 3]}, {"calls": ["clubs"], "tricks": [16, 0, 0]}]
    body = play(client, game, deals)
    services.game_confirm(game_id=game["id"], actor="org")
    before = snapshot(game["id"])
    token = game["token"]
    for response in (
        send(client, "delete", deals_url(game) + "/2", None, token),
        send(client, "patch", deals_url(game) + "/2", {"last_tricks": [0]}, token),
        post_deal(client, game, 3, {"calls": ["hearts"], "tricks": [8, 5, 3]}),
    ):
        assert "confirmed" in assert_error(response, 409)
        assert response.json()["state"] == body["state"]
    assert snapshot(game["id"]) == before
    # Resending a recorded deal is still answered: nothing changes.
    assert post_deal(client, game, 2, deals[1]).status_code == 200


def test_a_delete_body_is_ignored(client):
    game = create(client)
    play(client, game, [{"calls": ["hearts"], "tricks": [4, 7, 5]}])
    response = send(client, "delete", deals_url(game) + "/1", b"\xff{", game["token"])
    assert response.status_code == 200


# --- methods, paths, bodies and headers that are not the API's -------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("get", "/api/games", "POST"),
        ("put", "/api/games", "POST"),
        ("delete", "/api/games", "POST"),
        ("post", "/api/games/{id}", "GET, HEAD"),
        ("put", "/api/games/{id}", "GET, HEAD"),
        ("patch", "/api/games/{id}", "GET, HEAD"),
        ("delete", "/api/games/{id}", "GET, HEAD"),
        ("get", "/api/games/{id}/deals", "POST"),
        ("patch", "/api/games/{id}/deals", "POST"),
        ("get", "/api/games/{id}/deals/1", "PATCH, DELETE, PUT"),
        ("post", "/api/games/{id}/deals/1", "PATCH, DELETE, PUT"),
        ("options", "/api/games/{id}/deals/1", "PATCH, DELETE, PUT"),
    ],
)
def test_other_methods_answer_405_with_allow(client, method, path, allow):
    game = create(client)
    response = send(client, method, path.format(id=game["id"]), {}, game["token"])
    assert_error(response, 405)
    assert response["Allow"] == allow


def test_head_answers_like_get(client):
    game = create(client)
    response = client.head(f"/api/games/{game['id']}")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"


@pytest.mark.parametrize(
    "path",
    [
        "/api",
        "/api/",
        "/api/nothing",
        "/api/nothing/here",
        "/api/games/1/deals/-1",
        "/api/games/1/deals/abc",
        "/api/games/1/deals/1/more",
        "/api/games/1/players",
        "/api/games//deals",
        "/api/%FF",
        "/api/" + quote("ü"),
        "/api/" + "x" * 5000,
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete", "head", "options"])
def test_unknown_api_paths_answer_a_json_404(client, path, method):
    create(client)
    response = send(client, method, path, {})
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json; charset=utf-8"
    if method != "head":
        assert_error(response, 404)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   ",
        b"{",
        b"{'ruleset': 'blato'}",
        b"\xff\xfe{}",
        b'{"ruleset": "blato", "players": ["\xff", "B", "C"]}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "first_dealer": NaN}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "first_dealer": Infinity}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "first_dealer": 1e999}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "first_dealer": ' + b"9" * 5000 + b"}",
        b'{"ruleset": "blato", "players": ["A\\u0000", "B", "C"]}',
        b'{"ruleset": "blato", "players": ["\\ud800", "B", "C"]}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "options": {"\\udfff": 1}}',
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "options": ' + b"[" * 100_000,
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "options": '
        + b"[" * 5000
        + b"]" * 5000
        + b"}",
        b'{"ruleset": "blato", "players": ["A", "B", "C"], "options": {"a": '
        + b"[" * 40
        + b"]" * 40
        + b"}}",
        b"ruleset=blato&players=A",
        b"[]",
        b"null",
        b'"text"',
        b"12",
    ],
)
def test_bodies_that_are_not_a_json_object_answer_400(client, raw):
    assert_error(send(client, "post", "/api/games", raw), 400)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "", "application/json"]
)
def test_any_content_type_is_read_as_json(client, content_type):
    body = json.dumps({"ruleset": "blato", "players": PLAYERS})
    response = client.post("/api/games", body, content_type=content_type)
    assert response.status_code == 201


def test_a_multipart_form_is_a_400(client):
    response = client.post("/api/games", {"ruleset": "blato", "players": PLAYERS})
    assert_error(response, 400)


def test_a_body_over_the_upload_limit_answers_413(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    game = create(client)
    big = json.dumps({"ruleset": "blato", "players": ["A" * 2000, "B", "C"]})
    assert_error(send(client, "post", "/api/games", big), 413)
    body = json.dumps({"deal": 1, "calls": ["hearts"] * 500})
    assert_error(send(client, "post", deals_url(game), body, game["token"]), 413)


def test_a_disallowed_host_is_a_json_400(client):
    response = client.get("/api/games/1", headers={"host": "evil.example"})
    assert_error(response, 400)


def test_the_api_needs_no_csrf_token(db):
    csrf_client = Client(enforce_csrf_checks=True)
    response = send(csrf_client, "post", "/api/games", {"ruleset": "blato", "players": PLAYERS})
    assert response.status_code == 201
    game = response.json()
    deal = {"deal": 1, "calls": ["hearts"], "tricks": [4, 7, 5]}
    assert send(csrf_client, "post", deals_url(game), deal, game["token"]).status_code == 201
    assert_error(send(csrf_client, "post", "/api/nothing", {}), 404)


def test_django_error_pages_under_api_become_json(rf):
    from django.http import HttpResponse, HttpResponseNotAllowed

    from config.api import ApiErrorMiddleware

    def answer(response):
        return ApiErrorMiddleware(lambda request: response)

    for status in (400, 403, 404, 413, 500):
        page = HttpResponse("<h1>no</h1>", status=status)
        assert_error(answer(page)(rf.get("/api/games/1")), status)
    response = answer(HttpResponseNotAllowed(["GET"]))(rf.post("/api/x"))
    assert_error(response, 405)
    assert response["Allow"] == "GET"
    # Outside /api/, and JSON answers, are left alone.
    page = HttpResponse("<h1>no</h1>", status=404)
    assert answer(page)(rf.get("/apiary")) is page
    assert answer(page)(rf.get("/games/1/")) is page
    json_page = HttpResponse(b"{}", status=404, content_type="application/json")
    assert answer(json_page)(rf.get("/api/games/1")) is json_page


def test_even_a_bug_answers_json(db, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    game = create(Client())
    monkeypatch.setattr("scoring.api.game_state_json", broken)
    response = Client(raise_request_exception=False).get(f"/api/games/{game['id']}")
    assert_error(response, 500)


# --- fuzzing ---------------------------------------------------------------------------------

ENDPOINTS = [
    ("POST", "/api/games"),
    ("GET", "/api/games/{id}"),
    ("POST", "/api/games/{id}/deals"),
    ("PATCH", "/api/games/{id}/deals/{n}"),
    ("DELETE", "/api/games/{id}/deals/{n}"),
]
METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
latin1 = st.characters(min_codepoint=0x20, max_codepoint=0xFF)
near_valid_deals = st.fixed_dictionaries(
    {},
    optional={
        "deal": st.integers(-2, 12) | json_values,
        "calls": st.lists(
            st.sampled_from(["pass", "hearts", "spades", "no-trump", "miz"]), max_size=4
        )
        | json_values,
        "tricks": st.lists(st.integers(-1, 17), min_size=2, max_size=4) | json_values,
        "last_tricks": st.lists(st.integers(-1, 3), max_size=6) | json_values,
        "ruleset": st.sampled_from(["blato", "three-five-eight", "poker"]) | json_values,
        "players": st.lists(st.text(max_size=5), max_size=4) | json_values,
        "options": json_values,
        "first_dealer": st.integers(-1, 3) | json_values,
    },
)
bodies = st.one_of(
    st.none(),
    near_valid_deals.map(json.dumps),
    json_values.map(json.dumps),
    st.binary(max_size=200),
    st.text(max_size=100),
)
path_parts = st.one_of(
    st.integers(-5, 10**30).map(str),
    st.just("{real}"),
    st.text(max_size=12).map(lambda text: quote(text, safe="")),
)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    method=st.sampled_from(METHODS) | st.none(),
    game_part=path_parts,
    deal_part=path_parts,
    body=bodies,
    authorization=st.none()
    | st.sampled_from(["Bearer {token}", "bearer {token}", "Bearer wrong"])
    | st.text(latin1, max_size=40),
    content_type=st.sampled_from(["application/json", "text/plain", "", "multipart/form-data"])
    | st.text(latin1, max_size=30),
)
def test_fuzz_never_a_server_error_and_every_error_is_json(
    client, fuzz_game, endpoint, method, game_part, deal_part, body, authorization, content_type
):
    endpoint_method, template = endpoint
    method = method or endpoint_method
    game_id = str(fuzz_game["id"])
    path = template.format(
        id=game_id if game_part == "{real}" else game_part,
        n=str(Game.objects.get(pk=game_id).entries.count()) if deal_part == "{real}" else deal_part,
    )
    headers = {}
    if authorization is not None:
        headers["Authorization"] = authorization.replace("{token}", fuzz_game["token"])
    response = client.generic(
        method,
        path,
        body.encode("utf-8", "surrogatepass") if isinstance(body, str) else (body or b""),
        content_type=content_type,
        headers=headers,
    )
    event(f"{method} {template}: {response.status_code}")
    assert response.status_code < 500, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    if method == "HEAD":
        return
    answer = json.loads(response.content)
    if response.status_code >= 400:
        assert isinstance(answer["error"]["message"], str)
    else:
        assert {"id", "players", "state"} <= set(answer)


@st.composite
def writes(draw, record):
    """A write to the game of `record`: often one the rules allow, else anything near it."""
    state = engine.replay(record)
    deals = record["deals"]
    method = draw(st.sampled_from(["POST", "POST", "PATCH", "DELETE"]))
    near = "next" if method == "POST" else "last"
    number = draw(st.just(near) | st.sampled_from(["next", "last"]) | st.integers(0, 12))
    number = {"next": len(deals) + 1, "last": len(deals)}.get(number, number)
    if method == "POST" and state.next and draw(st.booleans()):
        calls = [draw(st.sampled_from([call.name for call in state.next.allowed_calls]))]
        deal = {"calls": calls}
        if calls != ["pass"] or state.rules.options.pass_turns:
            deal["tricks"] = draw(tricks_for(state.rules.tricks_per_hand))
        return method, number, {"deal": number, **deal}
    if method == "PATCH" and deals and deals[-1].get("tricks") and draw(st.booleans()):
        return method, number, {"last_tricks": draw(last_tricks_for(deals[-1]["tricks"]))}
    body = draw(near_valid_deals | json_values)
    if method == "POST" and isinstance(body, dict):
        body.setdefault("deal", number)
    if method == "PATCH" and isinstance(body, dict) and draw(st.booleans()):
        body = {key: value for key, value in body.items() if key == "last_tricks"}
    return method, number, body


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_writes_with_the_token_agree_with_the_engine(client, data):
    """With the right token and real paths, every answer is an error or the engine's state,
    and the stored deals always replay. A few writes in a row to a new game each time."""
    fuzz_game = create(client)
    game = Game.objects.get(pk=fuzz_game["id"])
    for _ in range(4):
        before = snapshot(game.pk)
        record = game_record(game)
        method, number, body = data.draw(writes(record))
        path = deals_url(fuzz_game) + ("" if method == "POST" else f"/{number}")
        response = send(client, method, path, body, fuzz_game["token"])
        event(f"{method}: {response.status_code}")
        assert response.status_code in (200, 201, 400, 409), response.content
        answer = json.loads(response.content)
        state = engine.state_as_json(engine.replay(game_record(game)))
        if response.status_code >= 400:
            assert isinstance(answer["error"]["message"], str)
            assert snapshot(game.pk) == before
        if response.status_code == 409:
            assert answer["state"] == state
        if response.status_code < 400:
            assert set(answer) == GAME_KEYS and answer["state"] == state


@pytest.fixture
def fuzz_game(client):
    return create(client)


# --- query counts ----------------------------------------------------------------------------


def test_reading_a_game_takes_two_queries(client, django_assert_max_num_queries):
    game = create(client)
    play(client, game, [{"calls": ["hearts"], "tricks": [4, 7, 5]}] * 5)
    with django_assert_max_num_queries(2):
        assert client.get(f"/api/games/{game['id']}").status_code == 200


def test_recording_a_deal_takes_a_handful_of_queries(client, django_assert_max_num_queries):
    game = create(client)
    play(client, game, [{"calls": ["hearts"], "tricks": [4, 7, 5]}] * 5)
    deal = {"calls": ["spades"], "tricks": [5, 5, 6]}
    # Read the game; in one transaction: lock it, read its deals, write the deal, the game and
    # the change (plus the savepoint's two statements inside the test's transaction).
    with django_assert_max_num_queries(8):
        assert post_deal(client, game, 6, deal).status_code == 201
    with django_assert_max_num_queries(5):
        assert post_deal(client, game, 6, deal).status_code == 200
    # A conflict rolls back, then reads the game and its deals again for the state it answers
    # (the write read only the token before the service's lock).
    with django_assert_max_num_queries(8):
        assert post_deal(client, game, 6, {**deal, "calls": ["clubs"]}).status_code == 409


# --- concurrency -----------------------------------------------------------------------------


def in_thread(function, *args):
    """Run `function` in a thread of its own (a connection of its own); re-raise its error."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function(*args)
        except BaseException as error:  # noqa: BLE001 - re-raised in the calling thread
            outcome["error"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def race(game, bodies):
    """POST the bodies at once from threads, each with its own client and connection."""
    barrier = threading.Barrier(len(bodies))
    statuses = [None] * len(bodies)

    def post(index, body):
        try:
            client = Client()
            barrier.wait()
            statuses[index] = post_deal(client, game, 1, body).status_code
        except Exception as error:  # noqa: BLE001 - shown by the assertion below
            statuses[index] = repr(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(i, body)) for i, body in enumerate(bodies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses, key=str)


def check_races():
    client = Client()
    game = create(client)
    same = {"calls": ["hearts"], "tricks": [4, 7, 5]}
    assert race(game, [same] * 6) == [200] * 5 + [201]
    other = create(client)
    different = [{"calls": ["hearts"], "tricks": [4 + i, 7 - i, 5]} for i in range(5)]
    assert race(other, different) == [201] + [409] * 4
    for each in (game, other):
        live = DealEntry.objects.filter(game_id=each["id"], number=1, undone_at__isnull=True)
        assert live.count() == 1
        stored = Game.objects.get(pk=each["id"])
        assert stored.version == 2
        assert GameChange.objects.filter(game=stored, action="deal_recorded").count() == 1
    winner = DealEntry.objects.get(game_id=other["id"])
    assert client.get(f"/api/games/{other['id']}").json()["state"] == replay(
        deals=[{"calls": winner.calls, "tricks": winner.tricks}]
    )


@pytest.fixture
def shared_database(transactional_db, tmp_path):
    """A test database that other threads can use at the same time as each other.

    SQLite's in-memory test database is shared between threads through SQLite's shared
    cache, whose table locks fail at once ("database table is locked") instead of waiting,
    unlike a real SQLite file. So for SQLite, the test database is copied into a file and
    connections opened from now on (in new threads) use that file, with the project's own
    settings (IMMEDIATE transactions, a 20 s busy timeout, WAL): what the site runs on.
    Run the test's own queries in a thread too (`in_thread`). Other databases: as they are.
    """
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield
        return
    path = tmp_path / "race.sqlite3"
    connection.ensure_connection()
    copy = sqlite3.connect(path)
    connection.connection.backup(copy)
    copy.close()
    in_memory = connections.settings[DEFAULT_DB_ALIAS]
    connections.settings[DEFAULT_DB_ALIAS] = {**in_memory, "NAME": str(path)}
    try:
        yield
    finally:
        connections.settings[DEFAULT_DB_ALIAS] = in_memory


def test_concurrent_posts_record_a_deal_once_on_any_database(shared_database):
    in_thread(check_races)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_record_a_deal_once_on_postgresql():
    assert connection.vendor == "postgresql"
    check_races()
