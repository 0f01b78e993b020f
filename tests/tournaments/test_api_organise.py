"""The organisers' token API (../shared/spec/http-api.md, "Organisers"): every endpoint, its
refusals, who may call it, and a whole event run through the API alone."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from scoring import services as scoring
from scoring import throttle
from scoring.models import Game
from tournaments.common import tokens
from tournaments.events.services.event import organiser_add
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Event, EventLog, Round, Table

from .conftest import finish_game
from .test_services import _rotate

pytestmark = pytest.mark.django_db(transaction=True)


class Api:
    """A client sending JSON with an organiser's token."""

    def __init__(self, token: str | None):
        self.client = Client()
        self.token = token

    def headers(self, token: str | None = None) -> dict:
        token = token or self.token
        return {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}

    def post(self, path: str, body=None, *, raw: str | None = None, token: str | None = None):
        data = raw if raw is not None else json.dumps({} if body is None else body)
        return self.client.post(path, data, content_type="application/json", **self.headers(token))

    def get(self, path: str, *, token: str | None = None):
        return self.client.get(path, **self.headers(token))

    def delete(self, path: str, body=None):
        data = "" if body is None else json.dumps(body)
        return self.client.delete(path, data, content_type="application/json", **self.headers())


def error(response) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]["message"]


@pytest.fixture
def api(organiser):
    return Api(tokens.token_issue(user=organiser))


@pytest.fixture
def outsider_api(make_user):
    return Api(tokens.token_issue(user=make_user("otto")))


@pytest.fixture
def anonymous():
    return Api(None)


def entered(event, count: int, checked_in: bool = True) -> list[int]:
    names = [f"Player {n:02d}" for n in range(1, count + 1)]
    entries = players_register(event=event, names=names, checked_in=checked_in)
    return [entry.player_id for entry in entries]


def play_via_api(api: Api, table: dict) -> None:
    """Every deal of a table through the games API with the table's token: everybody makes
    their target, and the tie the last tricks settle."""
    game = Game.objects.get(pk=table["game"])
    path = f"/api/games/{game.pk}/deals"
    for number in range(1, 10):
        tricks = list(_rotate((3, 8, 5), game.first_dealer, number))
        body = {"deal": number, "calls": ["spades"], "tricks": tricks}
        response = api.post(path, body, token=table["token"])
        assert response.status_code == 201, response.content
    response = api.client.patch(
        f"{path}/9",
        json.dumps({"last_tricks": [0, 1]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {table['token']}",
    )
    assert response.status_code == 200, response.content


# --- a whole event, through the API alone ------------------------------------------------------


def test_a_whole_event_through_the_api(api, organiser):
    response = api.post("/api/clubs", {"name": "  Plovdiv   Blato  "})
    assert response.status_code == 201
    club = response.json()
    assert club == {"club": "plovdiv-blato", "name": "Plovdiv Blato"}

    response = api.post(
        "/api/events",
        {
            "club": club["club"],
            "name": "Spring cup",
            "ruleset": "blato",
            "options": {"hands": 9},
            "rounds": 2,
            "pairing": ["random", "swiss"],
        },
    )
    assert response.status_code == 201, response.content
    event = response.json()
    slug = event["event"]
    assert (event["rounds"], event["pairing"], event["club"]) == (
        2,
        ["random", "swiss"],
        "plovdiv-blato",
    )
    assert organiser in Event.objects.get(slug=slug).organisers.all()

    names = ["Ana", "Boris", "Vera", "Dora", "Emil", "Fani", "Gosho"]
    response = api.post(f"/api/events/{slug}/players", {"names": names})
    assert response.status_code == 201
    players = response.json()["players"]
    assert [p["name"] for p in players] == names
    assert {p["status"] for p in players} == {"entered"}
    for player in players:
        response = api.post(f"/api/events/{slug}/players/{player['id']}/check-in")
        assert response.status_code == 200
        assert response.json() == {
            "id": player["id"],
            "name": player["name"],
            "status": "checked_in",
            "checked_in_by": "organiser",
        }

    for number in (1, 2):
        response = api.post(f"/api/events/{slug}/rounds", {})
        assert response.status_code == 202, response.content
        assert response.json()["round"] == number
        # Tasks run in process (as with CELERY_TASK_ALWAYS_EAGER): the draft is there at once.
        assert response.json()["status"] == "draft"
        draft = api.get(f"/api/events/{slug}/rounds/{number}").json()
        assert draft["status"] == "draft" and len(draft["tables"]) == 2
        assert [t["token"] for t in draft["tables"]] == [None, None]

        response = api.post(f"/api/events/{slug}/rounds/{number}/publish", {})
        assert response.json() == {"round": number, "status": "published"}
        published = api.get(f"/api/events/{slug}/rounds/{number}").json()
        assert published["status"] == "published" and len(published["bye_ids"]) == 1
        for index, table in enumerate(published["tables"]):
            assert table["token"] == Game.objects.get(pk=table["game"]).secret
            play_via_api(api, table)
            # one table confirms with its own token, the other by the organiser's
            token = table["token"] if index == 0 else None
            response = api.post(f"/api/games/{table['game']}/confirm", {}, token=token)
            assert response.status_code == 200, response.content
            body = response.json()
            assert body["confirmed"] is True and body["id"] == table["game"]
            assert body["players"] == table["players"] and body["state"]["finished"] is True

        response = api.post(f"/api/events/{slug}/rounds/{number}/close")
        assert response.json() == {"round": number, "status": "closed"}

    # closing the last planned round leaves the event running until it is ended on purpose
    assert Event.objects.get(slug=slug).status == Event.Status.RUNNING
    response = api.post(f"/api/events/{slug}/end")
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "closed"
    assert Event.objects.get(slug=slug).status == Event.Status.CLOSED
    standings = api.client.get(f"/api/events/{slug}/standings").json()
    assert standings["rounds_complete"] == 2 and len(standings["rows"]) == 7
    actors = set(EventLog.objects.filter(event__slug=slug).values_list("actor", flat=True))
    assert "olga" in actors


# --- tokens and rights -------------------------------------------------------------------------


def test_every_write_needs_a_token(anonymous, organised_event):
    slug = organised_event.slug
    for path in (
        "/api/clubs",
        "/api/events",
        f"/api/events/{slug}/players",
        f"/api/events/{slug}/players/1/check-in",
        f"/api/events/{slug}/rounds",
        f"/api/events/{slug}/rounds/1/publish",
        f"/api/events/{slug}/rounds/1/tables/1/void",
    ):
        response = anonymous.post(path, {})
        assert response.status_code == 401, path
        assert "Bearer" in response["WWW-Authenticate"]
        assert "Authorization: Bearer" in error(response)


def test_an_unknown_or_replaced_token_is_401(api, organiser, organised_event):
    path = f"/api/events/{organised_event.slug}/rounds"
    for token in ("358_nothing", "x" * 5000, api.token):
        if token == api.token:
            tokens.token_issue(user=organiser)  # replaces it
        response = api.post(path, {}, token=token)
        assert response.status_code == 401
        assert 'error="invalid_token"' in response["WWW-Authenticate"]
        assert "account page" in error(response)
    assert not Round.objects.exists()


def test_an_inactive_account_s_token_is_401(api, organiser, organised_event):
    organiser.is_active = False
    organiser.save()
    response = api.post(f"/api/events/{organised_event.slug}/rounds")
    assert response.status_code == 401


def test_another_organiser_s_event_is_403(outsider_api, organised_event):
    entered(organised_event, 6)
    slug = organised_event.slug
    player = organised_event.entries.first().player_id
    for path, body in (
        (f"/api/events/{slug}/players", {"names": ["Mallory"]}),
        (f"/api/events/{slug}/players/{player}/withdraw", {}),
        (f"/api/events/{slug}/rounds", {}),
        (f"/api/events/{slug}/rounds/1/publish", {}),
        (f"/api/events/{slug}/rounds/1/tables/1/void", {"reason": "x"}),
    ):
        response = outsider_api.post(path, body)
        assert response.status_code == 403, path
        assert error(response) == "your account does not organise this event"
    assert not Round.objects.exists()
    assert not Entry.objects.filter(withdrawn=True).exists()
    assert organised_event.entries.count() == 6


def test_a_superuser_s_token_runs_any_event(django_user_model, organised_event):
    root = django_user_model.objects.create_superuser(username="root", password=None)
    entered(organised_event, 3)
    response = Api(tokens.token_issue(user=root)).post(f"/api/events/{organised_event.slug}/rounds")
    assert response.status_code == 202


def test_an_added_organiser_s_token_works(make_user, organised_event):
    organiser_add(event=organised_event, username=make_user("petya").username)
    entered(organised_event, 3)
    petya = Api(tokens.token_issue(user=organised_event.organisers.get(username="petya")))
    assert petya.post(f"/api/events/{organised_event.slug}/rounds").status_code == 202


def test_wrong_tokens_are_throttled(api, organised_event):
    path = f"/api/events/{organised_event.slug}/rounds"
    for _ in range(throttle.FAILURES_ALLOWED):
        assert api.post(path, token="358_wrong").status_code == 401
    response = api.post(path, token="358_wrong")
    assert response.status_code == 429
    assert "too many" in error(response)
    # the right token still works: guessing cannot find one, so it is never blocked
    assert api.post(path).status_code == 409  # no players: refused for that reason only


def test_unknown_things_are_json_404s(api, organised_event):
    slug = organised_event.slug
    entered(organised_event, 3)
    for path in (
        "/api/events/nope/players",
        f"/api/events/{slug}/players/99999999999999999999/check-in",
        f"/api/events/{slug}/players/0/check-in",
        f"/api/events/{slug}/players/²/check-in",
        f"/api/events/{slug}/players/123456/withdraw",
        f"/api/events/{slug}/players/1/levitate",
        f"/api/events/{slug}/rounds/1/publish",
        f"/api/events/{slug}/rounds/99999999999/close",
        f"/api/events/{slug}/rounds/1/tables/1/void",
        "/api/games/99999999999999999999/confirm",
        "/api/games/123456/confirm",
    ):
        response = api.post(path, {"reason": "x"})
        assert response.status_code == 404, path
        assert error(response)


def test_only_post(api, organised_event):
    response = api.get(f"/api/events/{organised_event.slug}/rounds")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert error(response)


# --- malformed bodies --------------------------------------------------------------------------


def event_body(**changes) -> str:
    """A new event's body, with these fields changed."""
    body = {"club": "{club}", "name": "E", "ruleset": "blato", "rounds": 2, "pairing": "swiss"}
    return json.dumps({**body, **changes})


@pytest.mark.parametrize(
    "path, body",
    [
        ("/api/clubs", "not json"),
        ("/api/clubs", "[]"),
        ("/api/clubs", "{}"),
        ("/api/clubs", '{"name": ""}'),
        ("/api/clubs", '{"name": 5}'),
        ("/api/clubs", '{"name": "Club", "colour": "red"}'),
        ("/api/clubs", json.dumps({"name": "x" * 121})),
        ("/api/events", '{"club": "c"}'),
        ("/api/events", event_body(club="nope")),
        ("/api/events", event_body(rounds="2")),
        ("/api/events", event_body(rounds=0)),
        ("/api/events", event_body(pairing=5)),
        ("/api/events", event_body(pairing=[])),
        ("/api/events", event_body(pairing="fast")),
        ("/api/events", event_body(ruleset="poker")),
        ("/api/events", event_body(ruleset=["blato"])),
        ("/api/events", event_body(options=[])),
        ("/api/events", event_body(options={"hands": 0})),
        ("/api/events", event_body(bye_policy="everything")),
        ("/api/events/{event}/players", '{"names": "Ana"}'),
        ("/api/events/{event}/players", '{"names": []}'),
        ("/api/events/{event}/players", '{"names": ["Ana", 7]}'),
        ("/api/events/{event}/players", '{"names": ["Ana"], "checked_in": "yes"}'),
        ("/api/events/{event}/players/{player}/withdraw", '{"reason": 5}'),
        ("/api/events/{event}/players/{player}/withdraw", '{"why": "ill"}'),
        ("/api/events/{event}/rounds", '{"round": 1}'),
        ("/api/events/{event}/rounds", "[1]"),
    ],
)
def test_malformed_bodies_are_400s(api, organised_event, path, body):
    player = entered(organised_event, 1)[0]
    path = path.format(event=organised_event.slug, player=player)
    body = body.replace("{club}", organised_event.club.slug)
    response = api.post(path, raw=body)
    assert response.status_code == 400, response.content
    assert error(response)
    assert Event.objects.count() == 1 and not Round.objects.exists()
    assert not Entry.objects.filter(withdrawn=True).exists()


def test_an_empty_body_is_an_empty_object(api, organised_event):
    entered(organised_event, 3)
    response = api.post(f"/api/events/{organised_event.slug}/rounds", raw="")
    assert response.status_code == 202


def test_an_event_with_one_pairing_mode_and_its_settings(api, organised_event):
    response = api.post(
        "/api/events",
        {
            "club": organised_event.club.slug,
            "name": "Autumn",
            "ruleset": "blato",
            "rounds": 3,
            "pairing": "no-repeat",
            "bye_policy": "zero",
            "placing_points": [3, 1, 0],
        },
    )
    assert response.status_code == 201, response.content
    event = Event.objects.get(slug=response.json()["event"])
    assert event.pairing_modes == ["no-repeat"] and event.rounds_planned == 3
    assert (event.bye_policy, event.placing_points) == ("zero", [3, 1, 0])


# --- players -----------------------------------------------------------------------------------


def test_players_entered_checked_in_and_again(api, organised_event):
    path = f"/api/events/{organised_event.slug}/players"
    response = api.post(path, {"names": ["Ana", "Boris"], "checked_in": True})
    assert response.status_code == 201
    first = response.json()["players"]
    assert [p["status"] for p in first] == ["checked_in", "checked_in"]
    again = api.post(path, {"names": ["Ana"]}).json()["players"]
    assert again == [first[0]]  # the same player, not a second one
    assert organised_event.entries.count() == 2


def test_check_out_withdraw_and_reinstate(api, organised_event):
    player = entered(organised_event, 1)[0]
    base = f"/api/events/{organised_event.slug}/players/{player}"
    assert api.post(f"{base}/check-out").json()["status"] == "entered"
    response = api.post(f"{base}/withdraw", {"reason": "went home"})
    assert response.json() == {
        "id": player,
        "name": "Player 01",
        "status": "withdrawn",
        "checked_in_by": "",
    }
    assert EventLog.objects.get(action="withdrawn").reason == "went home"
    # a withdrawn player is not checked in again, nor withdrawn twice
    for change in ("check-in", "withdraw"):
        response = api.post(f"{base}/{change}")
        assert response.status_code == 409
        assert error(response) == "Player 01 has withdrawn."
    response = api.post(f"{base}/reinstate", {"reason": "came back"})
    assert response.json()["status"] == "entered"
    response = api.post(f"{base}/reinstate")
    assert response.status_code == 409 and error(response) == "Player 01 has not withdrawn."


def test_refusals_are_translated(api, organised_event):
    player = entered(organised_event, 1)[0]
    base = f"/api/events/{organised_event.slug}/players/{player}"
    api.post(f"{base}/withdraw")
    response = api.client.post(
        f"{base}/withdraw",
        "{}",
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="bg",
        **api.headers(),
    )
    assert response.status_code == 409
    assert "Player 01" in error(response) and "withdrawn" not in error(response)


def test_players_of_a_closed_event_are_refused(api, organised_event):
    organised_event.status = Event.Status.CLOSED
    organised_event.save()
    response = api.post(f"/api/events/{organised_event.slug}/players", {"names": ["Ana"]})
    assert response.status_code == 409 and error(response)


# --- rounds ------------------------------------------------------------------------------------


def test_a_round_with_two_players_checked_in_is_refused_at_once(api, organised_event):
    entered(organised_event, 2)
    entered(organised_event, 4, checked_in=False)
    response = api.post(f"/api/events/{organised_event.slug}/rounds", {})
    assert response.status_code == 409
    assert error(response) == "only 2 players are checked in; a round needs at least 3"
    assert not Round.objects.exists()


def test_one_round_at_a_time(api, organised_event):
    entered(organised_event, 6)
    path = f"/api/events/{organised_event.slug}/rounds"
    assert api.post(path).status_code == 202
    response = api.post(path)
    assert response.status_code == 409
    assert "round 1" in error(response)


def test_round_steps_refused_in_the_wrong_state(api, organised_event):
    entered(organised_event, 6)
    slug = organised_event.slug
    api.post(f"/api/events/{slug}/rounds")
    response = api.post(f"/api/events/{slug}/rounds/1/close")
    assert response.status_code == 409 and error(response)
    assert api.post(f"/api/events/{slug}/rounds/1/publish").status_code == 200
    for step in ("publish", "rebuild"):
        response = api.post(f"/api/events/{slug}/rounds/1/{step}")
        assert response.status_code == 409 and error(response)
    response = api.post(f"/api/events/{slug}/rounds/1/close")
    assert response.status_code == 409
    assert "2 table" in error(response)  # neither table has a confirmed result
    assert Round.objects.get().status == Round.Status.PUBLISHED


def test_a_draft_is_rebuilt_and_deleted(api, organised_event):
    entered(organised_event, 6)
    slug = organised_event.slug
    api.post(f"/api/events/{slug}/rounds")
    entered(organised_event, 9)  # three more arrive: the draft is built again with them
    response = api.post(f"/api/events/{slug}/rounds/1/rebuild", {})
    assert response.json() == {"round": 1, "status": "draft"}
    assert len(api.get(f"/api/events/{slug}/rounds/1").json()["tables"]) == 3
    response = api.delete(f"/api/events/{slug}/rounds/1", {"reason": "wrong evening"})
    assert response.json() == {"round": 1, "status": "deleted"}
    assert not Round.objects.exists()


def test_a_published_round_is_not_deleted(api, outsider_api, organised_event):
    entered(organised_event, 3)
    slug = organised_event.slug
    api.post(f"/api/events/{slug}/rounds")
    assert outsider_api.delete(f"/api/events/{slug}/rounds/1").status_code == 403
    api.post(f"/api/events/{slug}/rounds/1/publish")
    response = api.delete(f"/api/events/{slug}/rounds/1")
    assert response.status_code == 409 and error(response)
    assert Round.objects.exists()


def test_a_failed_round_says_why_and_is_rebuilt(api, organised_event):
    entered(organised_event, 6)
    round_ = Round.objects.create(
        event=organised_event,
        number=1,
        pairing_mode="swiss",
        status=Round.Status.FAILED,
        build_error="no pairing without repeats exists",
    )
    body = api.get(f"/api/events/{organised_event.slug}/rounds/1").json()
    assert (body["status"], body["error"], body["tables"]) == (
        "failed",
        "no pairing without repeats exists",
        [],
    )
    response = api.post(f"/api/events/{organised_event.slug}/rounds/1/rebuild")
    assert response.json() == {"round": 1, "status": "draft"}
    round_.refresh_from_db()
    assert round_.build_error == ""


def test_a_round_being_built(api, organised_event):
    entered(organised_event, 3)
    Round.objects.create(event=organised_event, number=1, pairing_mode="swiss")
    path = f"/api/events/{organised_event.slug}/rounds/1"
    body = api.get(path).json()
    assert body["status"] == "building" and "error" not in body and "stuck" not in body
    response = api.post(f"{path}/rebuild")
    assert response.status_code == 409 and error(response)  # give the worker its minute


def test_a_build_no_worker_took_says_so_and_is_rebuilt(api, organised_event):
    entered(organised_event, 3)
    Round.objects.create(
        event=organised_event,
        number=1,
        pairing_mode="swiss",
        requested_at=timezone.now() - timedelta(minutes=5),
    )
    path = f"/api/events/{organised_event.slug}/rounds/1"
    body = api.get(path).json()
    assert (body["status"], body["stuck"]) == ("building", True)
    assert api.post(f"{path}/rebuild").json() == {"round": 1, "status": "draft"}


def test_the_public_and_other_organisers_see_published_rounds_only(
    api, outsider_api, anonymous, organised_event
):
    entered(organised_event, 3)
    path = f"/api/events/{organised_event.slug}/rounds/1"
    api.post(f"/api/events/{organised_event.slug}/rounds")
    assert api.get(path).status_code == 200
    for other in (anonymous, outsider_api):
        response = other.get(path)
        assert response.status_code == 404 and error(response)
    api.post(f"{path}/publish")
    for other in (anonymous, outsider_api):
        body = other.get(path).json()
        assert body["status"] == "published"
        assert "token" not in body["tables"][0]
    response = api.get(path)
    assert response.json()["tables"][0]["token"]
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert "Authorization" in response["Vary"]


def test_a_round_number_in_other_digits_is_a_404_not_a_500(anonymous, organised_event):
    response = anonymous.get(f"/api/events/{organised_event.slug}/rounds/²")
    assert response.status_code == 404 and error(response)


def test_a_stale_token_on_the_public_round_is_401(api, organised_event):
    response = api.get(f"/api/events/{organised_event.slug}/rounds/1", token="358_old")
    assert response.status_code == 401


# --- a table whose player left -----------------------------------------------------------------


@pytest.fixture
def published(api, organised_event):
    """Round 1 published: 7 players, two tables and a bye."""
    entered(organised_event, 7)
    slug = organised_event.slug
    api.post(f"/api/events/{slug}/rounds")
    api.post(f"/api/events/{slug}/rounds/1/publish")
    return Round.objects.get(event=organised_event, number=1)


def test_substitute_a_player_who_left(api, organised_event, published):
    table = published.tables.get(number=1)
    bye = published.byes.get().player
    leaver = table.seat_1
    scoring.deal_record(
        game_id=table.game_id,
        number=1,
        calls=["spades"],
        tricks=list(_rotate((3, 8, 5), table.game.first_dealer, 1)),
    )
    path = f"/api/events/{organised_event.slug}/rounds/1/tables/1/substitute"
    response = api.post(path, {"seat": 1, "player": bye.pk, "reason": "Ana felt ill"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["table"] == 1 and body["player_ids"][1] == bye.pk
    assert body["substitutions"][0]["left"] == leaver.pk
    table.refresh_from_db()
    assert table.seat_1_id == bye.pk
    assert not published.byes.exists()  # the bye player gave up the bye


def test_substitute_a_new_name_as_on_the_page(api, organised_event, published):
    """`name` instead of `player`: the name is entered, checked in and seated, as the
    page's "or a new player's name" does."""
    table = published.tables.get(number=1)
    path = f"/api/events/{organised_event.slug}/rounds/1/tables/1/substitute"
    response = api.post(path, {"seat": 2, "name": "Late  Arrival", "reason": "Ana felt ill"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["players"][2] == "Late Arrival"
    entry = Entry.objects.get(event=organised_event, player_id=body["player_ids"][2])
    assert entry.checked_in and not entry.withdrawn
    table.refresh_from_db()
    assert table.seat_2.name == "Late Arrival"


def test_a_refused_new_name_is_not_entered(api, organised_event, published):
    path = f"/api/events/{organised_event.slug}/rounds/1/tables/1/substitute"
    seated = published.tables.get(number=2).seat_0
    bye = published.byes.get().player
    entries = Entry.objects.filter(event=organised_event).count()
    for body, status in (
        ({"seat": 1, "name": "Late Arrival", "player": bye.pk, "reason": "left"}, 400),
        ({"seat": 1, "name": seated.name, "reason": "left"}, 400),  # plays elsewhere
        ({"seat": 1, "name": "Late, Arrival", "reason": "left"}, 400),  # two names
        ({"seat": 1, "name": "", "reason": "left"}, 400),
        ({"seat": 1, "name": 5, "reason": "left"}, 400),
        ({"seat": 3, "name": "Late Arrival", "reason": "left"}, 400),
        ({"seat": 1, "name": "Late Arrival", "reason": " "}, 400),
    ):
        response = api.post(path, body)
        assert response.status_code == status, body
        assert error(response)
    table = published.tables.get(number=1)
    finish_game(table.game, random.Random(2))
    scoring.game_confirm(game_id=table.game_id, actor="olga")
    response = api.post(path, {"seat": 1, "name": "Late Arrival", "reason": "left"})
    assert response.status_code == 409 and error(response)
    assert Entry.objects.filter(event=organised_event).count() == entries
    assert not organised_event.club.players.filter(name="Late Arrival").exists()
    assert published.tables.get(number=1).substitutions == []


def test_substitute_refusals(api, organised_event, published):
    path = f"/api/events/{organised_event.slug}/rounds/1/tables/1/substitute"
    seated = published.tables.get(number=2).seat_0
    bye = published.byes.get().player
    for body, status in (
        ({"seat": 1, "player": seated.pk, "reason": "left"}, 400),  # plays elsewhere
        ({"seat": 3, "player": bye.pk, "reason": "left"}, 400),
        ({"seat": 1, "player": bye.pk, "reason": " "}, 400),
        ({"seat": 1, "player": 987654, "reason": "left"}, 400),
        ({"seat": 1, "player": "x", "reason": "left"}, 400),
        ({"seat": 1, "player": bye.pk}, 400),
    ):
        response = api.post(path, body)
        assert response.status_code == status, body
        assert error(response)
    assert published.tables.get(number=1).substitutions == []


def test_void_a_table(api, organised_event, published):
    path = f"/api/events/{organised_event.slug}/rounds/1/tables/2/void"
    response = api.post(path, {"reason": "two players left"})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "void" and response.json()["table"] == 2
    again = api.post(path, {"reason": "again"})
    assert again.status_code == 409 and error(again)
    assert api.post(path.replace("/2/", "/1/"), {}).status_code == 400  # reason missing


def test_a_draft_s_table_is_not_voided(api, organised_event):
    entered(organised_event, 3)
    api.post(f"/api/events/{organised_event.slug}/rounds")
    response = api.post(
        f"/api/events/{organised_event.slug}/rounds/1/tables/1/void", {"reason": "x"}
    )
    assert response.status_code == 409 and error(response)
    assert Table.objects.get().outcome != Table.Outcome.VOID


# --- confirming a game -------------------------------------------------------------------------


def test_confirm_refusals_and_rights(api, outsider_api, anonymous, organised_event, published):
    table = published.tables.get(number=1)
    path = f"/api/games/{table.game_id}/confirm"
    response = api.post(path)
    assert response.status_code == 409  # not finished yet
    assert error(response) == "only a finished game with settled placings can be confirmed"
    for client, status in ((outsider_api, 403), (anonymous, 401)):
        assert client.post(path).status_code == status
    other_table = published.tables.get(number=2)
    response = api.post(path, token=other_table.game.secret)  # another table's token
    assert response.status_code == 403 and error(response)
    assert api.post(path, token="358_wrong").status_code == 403
    assert not Game.objects.filter(result=Game.Result.CONFIRMED).exists()


def test_confirm_twice_changes_nothing(api, organised_event, published):
    table = published.tables.get(number=1)
    play_via_api(api, {"game": table.game_id, "token": table.game.secret})
    path = f"/api/games/{table.game_id}/confirm"
    first = api.post(path)
    second = api.post(path)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert EventLog.objects.filter(action="result_confirmed").count() >= 1


def test_a_standalone_game_is_confirmed_with_its_own_token(api):
    game = scoring.game_create(ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0)
    play_via_api(api, {"game": game.pk, "token": game.secret})
    assert api.post(f"/api/games/{game.pk}/confirm").status_code == 403  # no event: no organiser
    response = api.post(f"/api/games/{game.pk}/confirm", token=game.secret)
    assert response.status_code == 200 and response.json()["confirmed"] is True


def test_confirm_body_must_be_empty(api, organised_event, published):
    table = published.tables.get(number=1)
    response = api.post(f"/api/games/{table.game_id}/confirm", {"force": True})
    assert response.status_code == 400 and error(response)
