"""The games part of the JSON API (../shared/spec/http-api.md, "Games"), under /api/.

Checks run in this order: the game exists (404), the table's token (401 without one, 403 for a
wrong one), the request body (400), then the service, whose own errors carry their status
(400 for what the engine rejects, 409 when the game has moved on: a 409 also carries the
current state). Every write goes through scoring.services, recorded as done by "api".
Correcting a deal (PUT) answers the engine's refusal with `error.deal`, the first deal the
corrected record makes invalid.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse

import engine
from config.api import ApiError, api_view, bearer_token, json_body, json_response

from . import services, throttle
from .errors import Conflict, DealRejected, ScoringError
from .models import Game
from .selectors import game_state_json

ACTOR = "api"
MAX_ID = 2**63 - 1  # the largest primary key any database here stores


def _game_or_404(game_id: int) -> Game:
    if not 1 <= game_id <= MAX_ID:
        raise ApiError(404, f"no game {game_id}")
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id}") from None


def _authorize(request: HttpRequest, game: Game) -> None:
    token = bearer_token(request)
    if token is None:
        raise ApiError(
            401,
            "this needs the table's token: send the header Authorization: Bearer <token>",
            headers={"WWW-Authenticate": 'Bearer realm="api"'},
        )
    right = services.secret_matches(game, token)
    verdict = throttle.judge_secret(request, game.pk, right=right, via="api")
    if verdict is throttle.Verdict.BLOCKED:
        raise ApiError(429, "too many wrong tokens from this address: try again later")
    if verdict is throttle.Verdict.WRONG:
        raise ApiError(403, "the token is not this table's")


def _body(game: Game, state: dict) -> dict:
    return {"id": game.pk, "players": game.players, "state": state}


def _service_error(error: ScoringError, game: Game) -> ApiError:
    if isinstance(error, Conflict):
        return ApiError(error.status, error.message, extra={"state": game_state_json(game)})
    return ApiError(error.status, error.message)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@api_view("POST")
def games(request: HttpRequest) -> HttpResponse:
    """POST /api/games: a new game; answers its token, once."""
    data = json_body(request, required=("ruleset", "players"), optional=("options", "first_dealer"))
    if not throttle.game_creation_allowed(request, session=False):
        raise ApiError(
            429,
            f"too many new games from this address: at most {throttle.GAMES_PER_ADDRESS}"
            f" in {throttle.GAMES_WINDOW_SECONDS // 60} minutes",
            headers={"Retry-After": str(throttle.GAMES_WINDOW_SECONDS)},
        )
    try:
        game = services.game_create(
            ruleset=data["ruleset"],
            players=data["players"],
            options=data.get("options"),
            first_dealer=data.get("first_dealer"),
            actor=ACTOR,
        )
    except ScoringError as error:
        raise ApiError(error.status, error.message) from None
    location = reverse("scoring_api:game", args=[game.pk])
    body = {
        "id": game.pk,
        "token": game.secret,
        "url": reverse("scoring:table", args=[game.pk]),
        "players": game.players,
        "state": game_state_json(game, []),
    }
    return json_response(body, 201, headers={"Location": location, "Cache-Control": "no-store"})


@api_view("GET")
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET /api/games/{id}: public; never the token."""
    found = _game_or_404(game_id)
    return json_response(_body(found, game_state_json(found)))


@api_view("POST")
def deals(request: HttpRequest, game_id: int) -> HttpResponse:
    """POST /api/games/{id}/deals: record deal `deal`; resending it records nothing twice."""
    found = _game_or_404(game_id)
    _authorize(request, found)
    data = json_body(request, required=("deal", "calls"), optional=("tricks", "last_tricks"))
    if not _is_int(data["deal"]) or data["deal"] < 1:
        raise ApiError(400, "deal must be the positive number of the deal being entered")
    if not isinstance(data["calls"], list):
        raise ApiError(400, "calls must be a list of calls, in order")
    for key in ("tricks", "last_tricks"):
        if data.get(key) is not None and not isinstance(data[key], list):
            raise ApiError(400, f"{key} must be a list of whole numbers, by seat")
    try:
        recorded = services.deal_record(
            game_id=found.pk,
            number=data["deal"],
            calls=data["calls"],
            tricks=data.get("tricks"),
            last_tricks=data.get("last_tricks"),
            actor=ACTOR,
        )
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id}") from None
    except ScoringError as error:
        raise _service_error(error, found) from None
    status = 201 if recorded.created else 200
    return json_response(_body(recorded.game, engine.state_as_json(recorded.state)), status)


def _check_lists(data: dict) -> None:
    if not isinstance(data["calls"], list):
        raise ApiError(400, "calls must be a list of calls, in order")
    for key in ("tricks", "last_tricks"):
        if data.get(key) is not None and not isinstance(data[key], list):
            raise ApiError(400, f"{key} must be a list of whole numbers, by seat")


def _correct(found: Game, number: int, request: HttpRequest):
    """PUT: correct deal `number`; a refusal by the replay names the first deal that fails."""
    data = json_body(request, required=("calls",), optional=("deal", "tricks", "last_tricks"))
    if "deal" in data and not (_is_int(data["deal"]) and data["deal"] == number):
        raise ApiError(400, f"deal must be {number}, the deal in the path, or left out")
    _check_lists(data)
    try:
        return services.deal_correct(
            game_id=found.pk,
            number=number,
            calls=data["calls"],
            tricks=data.get("tricks"),
            last_tricks=data.get("last_tricks"),
            actor=ACTOR,
        )
    except DealRejected as error:
        raise RejectedAt(error) from None


class RejectedAt(ApiError):
    """The engine's refusal of a corrected record: 400, with `error.deal` the first deal that
    fails (the corrected one, or a later one that no longer fits)."""

    def __init__(self, error: DealRejected):
        super().__init__(error.status, error.message)
        self.deal = error.rule.deal if error.rule is not None else None

    def response(self) -> HttpResponse:
        body = {"error": {"message": self.message, "deal": self.deal}}
        return json_response(body, self.status)


@api_view("PATCH", "DELETE", "PUT")
def deal(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """PATCH: add the last tricks' winners to deal `number`; DELETE: undo it (the last deal);
    PUT: correct it (any recorded deal)."""
    found = _game_or_404(game_id)
    _authorize(request, found)
    try:
        if request.method == "PUT":
            recorded = _correct(found, number, request)
        elif request.method == "PATCH":
            data = json_body(request, required=("last_tricks",))
            if not isinstance(data["last_tricks"], list):
                raise ApiError(400, "last_tricks must be a list of seats, the most recent first")
            recorded = services.last_tricks_add(
                game_id=found.pk, number=number, last_tricks=data["last_tricks"], actor=ACTOR
            )
        else:
            recorded = services.deal_undo(game_id=found.pk, number=number, actor=ACTOR)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id}") from None
    except ScoringError as error:
        raise _service_error(error, found) from None
    return json_response(_body(recorded.game, engine.state_as_json(recorded.state)))
