"""Every answer of the API that succeeds (2xx) has its shape in the OpenAPI schema
(/api/openapi.json): an object with its properties and required keys, so that /api/docs and a
client read what comes back. The real answers of every operation, over a live evening run
through the API (a club, an event, its players, rounds built, published, played, walked out
of, confirmed and closed, a season, the ratings), match their declared shape: each required
key is there, each value of its declared type, and each key an answer carries is declared (the
published schema allows more keys, as the spec does; the schema here is held to all of them).
"""

from __future__ import annotations

import copy
import json
import random
import re
from datetime import timedelta

import jsonschema_rs
import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from scoring import autoplay
from scoring.models import Game, Quorum
from tournaments.clubs.services import seasons
from tournaments.common import tokens
from tournaments.events.services import check_in
from tournaments.models import Club, Event, Round, Team, TeamMember

pytestmark = pytest.mark.django_db(transaction=True)  # a round is built by a task on commit


@pytest.fixture
def schema():
    return Client().get("/api/openapi.json").json()


def successes(schema):
    """(method, path, status) → the declared answer, for every 2xx with a body (HEAD has none)."""
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method == "head":
                continue
            for status, answer in operation["responses"].items():
                if status.startswith("2"):
                    yield (method.upper(), path, int(status)), answer


def resolved(schema, found: dict) -> dict:
    while "$ref" in found:
        found = schema["components"]["schemas"][found["$ref"].rsplit("/", 1)[1]]
    return found


def test_every_success_declares_an_object_with_its_properties_and_required_keys(schema):
    declared = dict(successes(schema))
    assert len(declared) >= 26
    for label, answer in declared.items():
        body = answer.get("content", {}).get("application/json", {}).get("schema")
        assert body, label
        shape = resolved(schema, body)
        assert shape.get("type") == "object", label
        assert shape.get("properties"), label
        assert shape.get("required"), label
        assert set(shape["required"]) <= set(shape["properties"]), label
        assert shape.get("additionalProperties") is not False, label  # the spec: more keys


def test_every_component_object_lists_its_properties(schema):
    """Nested shapes too (a table, a deal, a standings row): an object with no properties is
    a free map on purpose (a metric → its value, a ruleset's options), never a shape left out."""
    maps = {"metrics", "options"}
    for name, component in schema["components"]["schemas"].items():
        for key, prop in component.get("properties", {}).items():
            prop = resolved(schema, prop)
            if prop.get("type") == "object" and not prop.get("properties"):
                assert key in maps, (name, key)


def strict(shape):
    """The schema held to every key: each object that lists properties allows no others."""
    shape = copy.deepcopy(shape)
    stack = [shape]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return shape


class Evening:
    """Calls the API as a script does, keeping each answer with the operation it answers."""

    def __init__(self, schema, token):
        self.client = Client()
        self.token = token
        self.answers = []
        self.templates = [
            (method.upper(), path, re.compile("^" + re.sub(r"\{\w+\}", r"[^/]+", path) + "$"))
            for path, methods in schema["paths"].items()
            for method in methods
        ]

    def call(self, method, path, body=None, *, token="organiser", expect=None):
        token = self.token if token == "organiser" else token
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        data = "" if body is None else json.dumps(body)
        response = self.client.generic(
            method, path, data, content_type="application/json", **headers
        )
        assert response.status_code < 300, (method, path, response.content[:300])
        if expect is not None:
            assert response.status_code == expect, (method, path, response.status_code)
        template = next(
            t for m, t, pattern in self.templates if m == method and pattern.match(path)
        )
        self.answers.append(((method, template, response.status_code), response.content))
        return response.json()


def run_evening(evening: Evening, django_user_model) -> None:
    """Every operation that can succeed, and every way its answer can look (a round failed or
    stuck, a table's token shown or not, a confirmation waiting for the players)."""
    call = evening.call
    club = call("POST", "/api/clubs", {"name": "Friday"}, expect=201)
    event = call(
        "POST",
        "/api/events",
        {
            "club": club["club"],
            "name": "Friday",
            "ruleset": "blato",
            "rounds": 3,
            "pairing": ["random", "swiss"],
            "clock_minutes": 40,
            "clock_at_time": "organiser",
        },
        expect=201,
    )
    slug = event["event"]
    Event.objects.filter(slug=slug).update(seed=7)  # the same tables every run
    season = seasons.season_create(club=Club.objects.get(slug=club["club"]), name="Autumn")
    seasons.season_add_event(season, Event.objects.get(slug=slug))
    names = [f"Player {n}" for n in range(1, 8)]
    players = call(
        "POST", f"/api/events/{slug}/players", {"names": names, "checked_in": True}, expect=201
    )["players"]
    first = f"/api/events/{slug}/players/{players[0]['id']}"
    for change in ("check-out", "check-in", "withdraw", "reinstate"):
        call("POST", f"{first}/{change}", {"reason": "late"}, expect=200)

    # teams and keep-apart rules (tournaments.teams.api)
    teams = f"/api/events/{slug}/teams"
    ids = [player["id"] for player in players]
    team = call("POST", teams, {"name": "Aces", "players": ids[:1]}, expect=201)
    call("POST", f"{teams}/{team['id']}/members", {"players": ids[1:2]}, expect=200)
    call("PATCH", f"{teams}/{team['id']}", {"name": "Kings"}, expect=200)
    call("DELETE", f"{teams}/{team['id']}/members/{ids[1]}", expect=200)
    call("GET", teams)
    gone = call("POST", teams, {"name": "Gone"}, expect=201)
    call("DELETE", f"{teams}/{gone['id']}", expect=200)
    apart = f"/api/events/{slug}/keep-apart"
    call("POST", apart, {"players": ids[2:4], "reason": "couple"}, expect=201)
    rule = call("POST", apart, {"players": ids[4:6]}, expect=201)
    call("GET", apart)
    call("DELETE", f"{apart}/{rule['id']}", expect=200)

    # self check-in: opened, a newcomer accepted and one declined, closed
    call("POST", f"/api/events/{slug}/self-check-in/open", {}, expect=200)
    event_row = Event.objects.get(slug=slug)
    for name, address in (("Player 8", "10.0.0.8"), ("Player 9", "10.0.0.9")):
        check_in.newcomer_ask(event=event_row, name=name, address=address)
    waiting = call("GET", f"/api/events/{slug}/newcomers")["newcomers"]
    call("POST", f"/api/events/{slug}/newcomers/{waiting[0]['id']}/accept", {}, expect=200)
    call("POST", f"/api/events/{slug}/newcomers/{waiting[1]['id']}/decline", {}, expect=200)
    call("POST", f"/api/events/{slug}/self-check-in/close", {}, expect=200)

    call("POST", f"/api/events/{slug}/rounds", {}, expect=202)
    rnd = f"/api/events/{slug}/rounds/1"
    call("GET", rnd)  # a draft, the tokens null
    Round.objects.filter(event__slug=slug, number=1).update(
        status=Round.Status.FAILED, build_error="not enough players"
    )
    call("GET", rnd)  # failed, with its error
    call("POST", f"{rnd}/rebuild", {}, expect=200)
    call("POST", f"{rnd}/publish", {}, expect=200)
    for move in ("start", "pause", "extend", "resume"):  # the round clock
        call("POST", f"{rnd}/clock/{move}", {}, expect=200)
    round_ = call("GET", rnd)
    slow = round_["tables"][0]["table"]  # one slow table's own five minutes
    call("POST", f"{rnd}/tables/{slow}/clock/extend", {}, expect=200)
    call("POST", f"{rnd}/clock/stop", {}, expect=200)
    round_ = call("GET", rnd)
    call("GET", rnd, token=None)  # the public's: no tokens
    call("GET", f"/api/events/{slug}/standings", token=None)  # no standings yet
    call("GET", f"/api/events/{slug}/team-standings", token=None)  # no teams, no standings

    one, two = round_["tables"][0], round_["tables"][1]
    game, secret = f"/api/games/{one['game']}", one["token"]
    call("GET", game, token=None)
    deal = {"deal": 1, "calls": ["hearts"], "tricks": [4, 7, 5]}
    call("POST", f"{game}/deals", deal, token=secret, expect=201)
    call("POST", f"{game}/deals", deal, token=secret, expect=200)  # resent
    call("PATCH", f"{game}/deals/1", {"last_tricks": [1]}, token=secret)
    call("PUT", f"{game}/deals/1", {"calls": ["spades"], "tricks": [5, 6, 5]}, token=secret)
    call("DELETE", f"{game}/deals/1", token=secret)
    bye = round_["bye_ids"][0]
    call(
        "POST",
        f"{rnd}/tables/{one['table']}/substitute",
        {"seat": 0, "player": bye, "reason": "left early"},
        expect=200,
    )
    call("POST", f"{rnd}/tables/{two['table']}/void", {"reason": "gone"}, expect=200)

    played = Game.objects.get(pk=one["game"])
    autoplay.play(played, random.Random(5), actor="test")
    Game.objects.filter(pk=played.pk).update(quorum=Quorum.KEEPER_AND_ONE)
    waiting = call("POST", f"{game}/confirm", {}, token=secret, expect=200)
    assert waiting["confirmed"] is False and "waiting_for" in waiting
    assert call("POST", f"{game}/confirm", {}, expect=200)["confirmed"] is True
    # two teams (docs/team-standings.md; made as the teams pages would), one with nobody yet;
    # the team made through the API above ("Kings") goes first
    Team.objects.filter(event=event_row).delete()
    red = Team.objects.create(event=event_row, name="Red")
    Team.objects.create(event=event_row, name="Empty")
    for entry in event_row.entries.all()[:3]:
        TeamMember.objects.create(team=red, entry=entry)
    call("POST", f"{rnd}/close", {}, expect=200)
    cache.clear()  # the standings as built now, not as answered a moment ago
    call("GET", f"/api/events/{slug}/standings", token=None)
    teams = call("GET", f"/api/events/{slug}/team-standings", token=None)
    assert [row["team"] for row in teams["rows"] + teams["unranked"]] == ["Red", "Empty"]

    call("POST", f"/api/events/{slug}/rounds", {}, expect=202)
    long_ago = timezone.now() - timedelta(hours=1)
    Round.objects.filter(event__slug=slug, number=2).update(
        status=Round.Status.PENDING, requested_at=long_ago
    )
    assert call("GET", f"/api/events/{slug}/rounds/2")["stuck"] is True
    call("DELETE", f"/api/events/{slug}/rounds/2", {"reason": "again"}, expect=200)
    call("POST", f"/api/events/{slug}/add-round", {}, expect=200)  # the night goes on
    call("POST", f"/api/events/{slug}/end", {}, expect=200)
    call("POST", f"/api/events/{slug}/reopen", {}, expect=200)

    call("GET", f"/api/clubs/{club['club']}/seasons/{season.pk}/standings", token=None)
    call("GET", f"/api/clubs/{club['club']}/ratings", token=None)
    call(
        "POST",
        "/api/games",
        {"ruleset": "blato", "players": ["Ana", "Boris", "Vera"], "first_dealer": 0},
    )


@pytest.fixture
def evening(schema, django_user_model):
    user = django_user_model.objects.create_user(username="olga")
    evening = Evening(schema, tokens.token_issue(user=user))
    run_evening(evening, django_user_model)
    return evening


def test_every_success_is_answered_over_the_evening(schema, evening):
    assert {label for label, _ in evening.answers} == set(dict(successes(schema)))


def test_each_answer_matches_its_declared_shape_with_every_key_declared(schema, evening):
    declared = dict(successes(schema))
    for label, content in evening.answers:
        body = declared[label]["content"]["application/json"]["schema"]
        shape = {**body, "components": schema["components"]}
        answer = json.loads(content)
        errors = [error.message for error in jsonschema_rs.validator_for(shape).iter_errors(answer)]
        assert not errors, (label, errors)
        strict_errors = [
            error.message
            for error in jsonschema_rs.validator_for(strict(shape)).iter_errors(answer)
        ]
        assert not strict_errors, (label, strict_errors)
