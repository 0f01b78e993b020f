"""The games part of the JSON API (../shared/spec/http-api.md, "Games"): a ninja router,
mounted at /api/ by config/api_urls.py.

Checks run in this order: the game exists (404), the table's token (401 without one, 403 for a
wrong one), the request body (400), then the service. The services' refusals carry a kind;
config.api_ninja's one handler answers them (400, or 409 when the game has moved on). Only a
conflict is caught here, to add the game's current state and version to the answer; a corrected
record the engine refuses (PUT) answers `error.deal`, the first deal that fails. Every write goes
through scoring.services, recorded as done by "api". The body schemas document the wire
format; what a value must be is the service's rule (``loose`` fields).

Every answer about a game carries its `version` (an extra field: the spec allows more). A
write that may arrive late (a phone's offline queue, a retry) sends back the version it was
made against; one whose deal changed since is refused with 409, and ``error.yours`` and
``error.current`` show both sides (the version, and the deal as each would have it), as a
deal recorded differently first (a clash) does. Without a version a write is taken as before.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from pydantic import Field

import engine
from config.api import (
    ApiError,
    Body,
    bearer_token,
    json_response,
    loose,
    parse_json,
    read_body,
)
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import BODY, TOKEN, answers, extra, link, links
from scoring import services, throttle
from scoring.api_schemas import GameCreated, GameOut, StaleOut
from scoring.errors import Conflict, DealRejected
from scoring.models import Game, deal_as_record
from scoring.names import MAX_NAME
from scoring.selectors import game_state_json, game_token, live_deals

ACTOR = "api"
MAX_ID = 2**63 - 1  # the largest primary key any database here stores

router = ApiRouter(tags=["games"])

SEATS = {"type": "array", "items": {"type": "integer"}, "description": "by seat"}
CALLS = {"type": "array", "items": {"type": "string"}, "description": "the calls, in order"}
TRICKS = {**SEATS, "description": "tricks won, by seat"}
LAST_TRICKS = {**SEATS, "description": "the seats that won the last tricks, most recent first"}
AGE = {
    "type": "integer",
    "minimum": 0,
    "description": "seconds since the keeper entered this deal, by the phone's own clock (an"
    " offline phone's queue says it): the round clock counts the deal from then; left out, now",
}
VERSION = {
    "type": "integer",
    "minimum": 0,
    "description": "the game's version this write was made against (from an earlier answer):"
    " if the deal changed since, 409 with both sides; left out, the write is taken as it comes",
}

NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": r"\S"}


class GameIn(Body):
    ruleset: loose({"type": "string", "enum": list(engine.RULESETS), "examples": ["blato"]})
    players: loose({"type": "array", "items": NAME, "minItems": 3, "maxItems": 3})
    options: loose({"type": "object"}) = None
    first_dealer: loose({"type": "integer", "minimum": 0, "maximum": 2}) = None


class DealValues(Body):
    """The lists' shapes are checked here (400 before the service could say 409); their
    values are the engine's rule."""

    deal: loose({"type": "integer", "minimum": 1, "description": "the number this deal gets"})
    calls: list[Any] = Field(json_schema_extra=CALLS)
    tricks: list[Any] | None = Field(None, json_schema_extra=TRICKS)
    last_tricks: list[Any] | None = Field(None, json_schema_extra=LAST_TRICKS)
    version: loose(VERSION) = None


class DealIn(DealValues):
    """A new deal: also when the keeper entered it (an offline phone's queue sends it late)."""

    age: loose(AGE) = None


class CorrectionIn(DealValues):
    deal: loose({"type": "integer", "description": "if given, the deal in the path"}) = None


class LastTricksIn(Body):
    last_tricks: list[Any] = Field(json_schema_extra=LAST_TRICKS)
    version: loose(VERSION) = None


class UndoIn(Body):
    """An undo's optional body: only its version is read (any other body is ignored)."""

    version: loose(VERSION) = None


#: A write with the table's token: the game (404), the token, the body, the game's state (409).
ERRORS = {**answers({}, 404, TOKEN, BODY, 409), 409: StaleOut}
#: The writes' security: the table's own token (checked in the view, after the game's 404).
TABLE = {"security": [{"TableToken": []}]}
GAME = "$response.body#/id"
#: Where a new game leads: its sheet, its first deal with its token, its confirmation.
NEW_GAME = links(
    201,
    game=link("scoring_api_game", "The new game's sheet.", path__game_id=GAME),
    deal=link(
        "scoring_api_deals",
        "Its first deal, with the token just answered.",
        path__game_id=GAME,
        header__Authorization="Bearer {$response.body#/token}",
    ),
    confirm=link(
        "tournaments_api_rounds_game_confirm",
        "Its result confirmed, with the token just answered.",
        path__game_id=GAME,
        header__Authorization="Bearer {$response.body#/token}",
    ),
)
#: A deal recorded (or recorded already) leads to the game's sheet.
RECORDED = link("scoring_api_game", "The game's sheet.", path__game_id=GAME)


def _game_or_404(game_id: int) -> Game:
    """The game, or 404."""
    if not 1 <= game_id <= MAX_ID:
        raise ApiError(404, f"no game {game_id}")
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id}") from None


def _writable(request: HttpRequest, game_id: int) -> Game:
    """The game a write names, read for its token only (its service reads the whole row again
    under its lock), once the token is right."""
    if not 1 <= game_id <= MAX_ID:
        raise ApiError(404, f"no game {game_id}")
    try:
        found = game_token(game_id)
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game_id}") from None
    _authorize(request, found)
    return found


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
    return {"id": game.pk, "players": game.players, "state": state, "version": game.version}


#: The refusals about one deal that the other side of: a late write, a deal recorded first.
BOTH_SIDES = {"deal_stale", "undo_stale", "deal_taken"}


def _deal_now(entries: list, number: int) -> dict | None:
    if not 1 <= number <= len(entries):
        return None
    entry = entries[number - 1]
    return {"deal": number, **deal_as_record(entry.calls, entry.tricks, entry.last_tricks)}


@contextmanager
def _refusals(game: Game, mine: dict | None = None, version: object = None) -> Iterator[None]:
    """Around a service write: a conflict answers the game's current state and version too
    (the other refusals go to the API's one handler as they are). A refusal about deal n
    also shows both sides: `yours` (the version sent, and deal n as this write would have it:
    `mine`, null for an undo) and `current` (the version now, and deal n as recorded)."""
    try:
        yield
    except Game.DoesNotExist:
        raise ApiError(404, f"no game {game.pk}") from None
    except Conflict as error:  # the state as it stands now, after whatever came first
        current = Game.objects.get(pk=game.pk)
        entries = live_deals(current.pk)
        detail = None
        if error.code in BOTH_SIDES:
            number = error.params["n"]
            detail = {
                "yours": {"version": version, "deal": mine},
                "current": {"version": current.version, "deal": _deal_now(entries, number)},
            }
        extra = {"state": game_state_json(current, entries), "version": current.version}
        raise ApiError.of(error, detail=detail, extra=extra) from None


def _mine(number: object, data, *fields: str) -> dict:
    """Deal `number` as a write would have it: its number and the fields it sent."""
    sent = {name: getattr(data, name) for name in fields}
    return {"deal": number, **{name: value for name, value in sent.items() if value is not None}}


@router.post(
    "/games",
    response=answers({201: GameCreated}, BODY, 429),
    url_name="games",
    openapi_extra=extra(body_doc(GameIn), NEW_GAME),
)
def games(request: HttpRequest) -> HttpResponse:
    """A new game; answers its token, once."""
    data = read_body(request, GameIn)
    if not throttle.game_creation_allowed(request, session=False):
        raise ApiError(
            429,
            f"too many new games from this address: at most {throttle.GAMES_PER_ADDRESS}"
            f" in {throttle.GAMES_WINDOW_SECONDS // 60} minutes",
            headers={"Retry-After": str(throttle.GAMES_WINDOW_SECONDS)},
        )
    game = services.game_create(
        ruleset=data.ruleset,
        players=data.players,
        options=data.options,
        first_dealer=data.first_dealer,
        actor=ACTOR,
    )
    body = {
        "id": game.pk,
        "token": game.secret,
        "url": reverse("scoring:table", args=[game.pk]),
        "players": game.players,
        "state": game_state_json(game, []),
        "version": game.version,
    }
    location = reverse("api:game", args=[game.pk])
    return json_response(body, 201, headers={"Location": location, "Cache-Control": "no-store"})


@router.get("/games/{int:game_id}", response=answers({200: GameOut}, 404), url_name="game")
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """Public; never the token."""
    found = _game_or_404(game_id)
    return json_response(_body(found, game_state_json(found)))


@router.post(
    "/games/{int:game_id}/deals",
    response={200: GameOut, 201: GameOut, **ERRORS},
    openapi_extra=extra(
        body_doc(DealIn), TABLE, links(200, game=RECORDED), links(201, game=RECORDED)
    ),
)
def deals(request: HttpRequest, game_id: int) -> HttpResponse:
    """Record deal `deal`; resending it records nothing twice (200)."""
    found = _writable(request, game_id)
    data = read_body(request, DealIn)
    mine = _mine(data.deal, data, "calls", "tricks", "last_tricks")
    with _refusals(found, mine, data.version):
        recorded = services.deal_record(
            game_id=found.pk,
            number=data.deal,
            calls=data.calls,
            tricks=data.tricks,
            last_tricks=data.last_tricks,
            actor=ACTOR,
            version=data.version,
            age=data.age,
        )
    status = 201 if recorded.created else 200
    return json_response(_body(recorded.game, engine.state_as_json(recorded.state)), status)


DEAL = "/games/{int:game_id}/deals/{int:number}"


def _deal_answer(recorded) -> HttpResponse:
    return json_response(_body(recorded.game, engine.state_as_json(recorded.state)))


@router.patch(
    DEAL,
    response={200: GameOut, **ERRORS},
    url_name="deal",
    openapi_extra=extra(body_doc(LastTricksIn), TABLE),
)
def deal_patch(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """Add the last tricks' winners to deal `number` (a tie-break asks for them)."""
    found = _writable(request, game_id)
    data = read_body(request, LastTricksIn)
    with _refusals(found, _mine(number, data, "last_tricks"), data.version):
        recorded = services.last_tricks_add(
            game_id=found.pk,
            number=number,
            last_tricks=data.last_tricks,
            actor=ACTOR,
            version=data.version,
        )
    return _deal_answer(recorded)


@router.delete(
    DEAL,
    response={200: GameOut, **ERRORS},
    url_name="deal_undo",
    openapi_extra=extra(body_doc(UndoIn), TABLE),
)
def deal_undo(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """Undo deal `number`, the last one, while the result is not confirmed. A body
    `{"version": v}` binds the undo to the version it was asked at; any other body is
    ignored."""
    found = _writable(request, game_id)
    version = _undo_version(request)
    with _refusals(found, None, version):
        recorded = services.deal_undo(game_id=found.pk, number=number, actor=ACTOR, version=version)
    return _deal_answer(recorded)


def _undo_version(request: HttpRequest) -> object:
    """The `version` of an undo's body, if it is a JSON object that has one; else None (an
    undo's body was always ignored, and stays so unless it says a version)."""
    try:
        data = parse_json(request.body)
    except (ApiError, RequestDataTooBig, OSError):
        return None
    return data.get("version") if isinstance(data, dict) else None


@router.put(
    DEAL,
    response={200: GameOut, **ERRORS},
    url_name="deal_correct",
    openapi_extra=extra(body_doc(CorrectionIn), TABLE),
)
def deal_correct(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """Correct any recorded deal; the engine's refusal of the replayed record answers 400 with
    `error.deal`, the first deal that fails (the corrected one or a later one)."""
    found = _writable(request, game_id)
    data = read_body(request, CorrectionIn)
    if "deal" in data.model_fields_set and not (_is_int(data.deal) and data.deal == number):
        raise ApiError(400, f"deal must be {number}, the deal in the path, or left out")
    mine = _mine(number, data, "calls", "tricks", "last_tricks")
    with _refusals(found, mine, data.version):
        try:
            recorded = services.deal_correct(
                game_id=found.pk,
                number=number,
                calls=data.calls,
                tricks=data.tricks,
                last_tricks=data.last_tricks,
                actor=ACTOR,
                version=data.version,
            )
        except DealRejected as error:
            deal = error.rule.deal if error.rule is not None else None
            raise ApiError.of(error, detail={"deal": deal}) from None
    return _deal_answer(recorded)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
