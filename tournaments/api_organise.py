"""The organisers' part of the JSON API (../shared/spec/http-api.md, "Organisers"), under /api/.

Every write goes through the same services as the organiser pages, with the token's account
as the actor, so the API can do exactly what the pages can and refuses what they refuse.
Checks run in this order: the token (401 without one or with an unknown one, 429 for an
address that keeps guessing), the event or game (404), the account's rights (403), the
request body (400), then the service. The services' refusals (TournamentError, NotAllowed,
ScoringError: each carries its status, 400 or 409) become the error answer in one place,
``refusals``. What is decided beyond the spec: docs/api.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from config.api import ApiError, api_view, bearer_token, json_body, json_response
from scoring import services as scoring
from scoring.errors import ScoringError
from scoring.models import Game
from scoring.selectors import game_state_json

from . import selectors, services, walkouts
from .api_auth import judged_account, no_token, organised_event, token_account
from .errors import TournamentError
from .forms import MAX_ROUNDS
from .models import Club, Entry, Event, Player, Round, Table

MAX_ID = 2**63 - 1  # the largest primary key any database here stores
MAX_NAMES = 1000  # players entered by one request
MAX_REASON = 500  # as the pages' reason fields
MAX_CLUB_NAME = 120
MAX_EVENT_NAME = 120
GAME_PERMISSION = "scoring.change_game"


# --- the edge: authentication and the services' refusals ---------------------------------------


@contextmanager
def refusals() -> Iterator[None]:
    """The services' refusals as the API's error answer: their own status and message."""
    try:
        yield
    except (TournamentError, ScoringError) as error:
        raise ApiError(error.status, error.message) from None


def organiser_view(*methods: str) -> Callable:
    """An API view for organisers: it gets the token's account as ``user``; the services'
    refusals become the error answer with their own status and message."""

    def decorate(view: Callable) -> Callable:
        @api_view(*methods)
        @wraps(view)
        def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            user = token_account(request)
            with refusals():
                return view(request, user, *args, **kwargs)

        return wrapped

    return decorate


def _actor(user) -> str:
    return user.get_username()


# --- reading the request -----------------------------------------------------------------------


def _body(request: HttpRequest, *, required=(), optional=()) -> dict:
    """The JSON object sent; an empty body counts as ``{}`` where no field is required."""
    try:
        empty = not request.body.strip()
    except (RequestDataTooBig, OSError):
        empty = False  # json_body gives the answer
    if empty and not required:
        return {}
    return json_body(request, required=required, optional=optional)


def _number(text: str, missing: str, limit: int = MAX_ID) -> int:
    """A number from the path; anything else (or too large for the database) is a 404 with
    the message `missing`."""
    if not text.isascii() or not text.isdigit() or len(text) > 19 or not 1 <= int(text) <= limit:
        raise ApiError(404, missing)
    return int(text)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(data: dict, key: str, low: int, high: int) -> int:
    value = data[key]
    if not _is_int(value) or not low <= value <= high:
        raise ApiError(
            400,
            _("%(key)s must be a whole number from %(low)s to %(high)s")
            % {"key": key, "low": low, "high": high},
        )
    return value


def _text(data: dict, key: str, max_length: int, *, blank: bool = False) -> str:
    """A one-line text field (runs of spaces become one), at most `max_length` long."""
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ApiError(400, _("%(key)s must be a string") % {"key": key})
    value = " ".join(value.split())
    if not value and not blank:
        raise ApiError(400, _("%(key)s may not be empty") % {"key": key})
    if len(value) > max_length:
        raise ApiError(
            400,
            _("%(key)s has at most %(n)s characters") % {"key": key, "n": max_length},
        )
    return value


def _reason(data: dict) -> str:
    """The reason given, if any (whether one is needed is the service's rule)."""
    value = data.get("reason", "")
    if not isinstance(value, str):
        raise ApiError(400, _("reason must be a string"))
    value = value.strip()
    if len(value) > MAX_REASON:
        raise ApiError(400, _("reason has at most %(n)s characters") % {"n": MAX_REASON})
    return value


# --- clubs and events --------------------------------------------------------------------------


@organiser_view("POST")
def clubs(request: HttpRequest, user) -> HttpResponse:
    """POST /api/clubs: a new club. Any account may make one, as on the pages."""
    data = _body(request, required=("name",))
    club = services.club_create(name=_text(data, "name", MAX_CLUB_NAME))
    return json_response({"club": club.slug, "name": club.name}, 201)


def _pairing(value: object) -> list[str]:
    """``pairing``: one mode for every round, or a list of modes, one a round (the services
    say whether each mode exists)."""
    modes = [value] if isinstance(value, str) else value
    if (
        not isinstance(modes, list)
        or not 1 <= len(modes) <= MAX_ROUNDS
        or not all(isinstance(mode, str) for mode in modes)
    ):
        raise ApiError(
            400,
            _("pairing must be a pairing mode, or a list of 1 to %(n)s modes, one a round")
            % {"n": MAX_ROUNDS},
        )
    return [mode.strip().lower() for mode in modes]


def _event_answer(event: Event) -> dict:
    return {
        "event": event.slug,
        "name": event.name,
        "club": event.club.slug,
        "ruleset": event.ruleset,
        "options": event.options,
        "rounds": event.rounds_planned,
        "pairing": event.pairing_modes,
        "status": event.status,
        "url": reverse("tournaments:organise_event", args=[event.slug]),
    }


@organiser_view("POST")
def events(request: HttpRequest, user) -> HttpResponse:
    """POST /api/events: a new event in a club; the token's account organises it."""
    data = _body(
        request,
        required=("club", "name", "ruleset", "rounds", "pairing"),
        optional=("options", "precedence", "placing_points", "bye_policy", "void_policy"),
    )
    club_slug = _text(data, "club", 50)
    club = Club.objects.filter(slug=club_slug).first()
    if club is None:
        raise ApiError(400, _("there is no club %(slug)s") % {"slug": club_slug})
    if not isinstance(data["ruleset"], str):
        raise ApiError(400, _("ruleset must be the name of a ruleset, e.g. blato"))
    options = data.get("options")
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise ApiError(400, _("options must be a JSON object"))
    settings = {}
    for key in ("precedence", "placing_points"):
        if data.get(key) is not None:
            if not isinstance(data[key], list):
                raise ApiError(400, _("%(key)s must be a list") % {"key": key})
            settings[key] = data[key]
    for key in ("bye_policy", "void_policy"):
        if key in data:
            settings[key] = _text(data, key, 20)
    event = services.event_create(
        club=club,
        name=_text(data, "name", MAX_EVENT_NAME),
        ruleset=data["ruleset"],
        options=options,
        rounds_planned=_whole(data, "rounds", 1, MAX_ROUNDS),
        pairing_modes=_pairing(data["pairing"]),
        organisers=[user],
        actor=_actor(user),
        **settings,
    )
    event.club = club
    location = reverse("tournaments_api:standings", args=[event.slug])
    return json_response(_event_answer(event), 201, headers={"Location": location})


# --- players -----------------------------------------------------------------------------------


def entry_status(entry: Entry) -> str:
    """The words the API uses for where a player stands in the event."""
    if entry.withdrawn:
        return "withdrawn"
    return "checked_in" if entry.checked_in else "entered"


def _entry_answer(entry: Entry) -> dict:
    return {"id": entry.player_id, "name": entry.player.name, "status": entry_status(entry)}


@organiser_view("POST")
def players(request: HttpRequest, user, slug: str) -> HttpResponse:
    """POST /api/events/{slug}/players: enter players by name (a name already entered is the
    same player, answered again)."""
    event = organised_event(user, slug)
    data = _body(request, required=("names",), optional=("checked_in",))
    names = data["names"]
    if not isinstance(names, list) or not 1 <= len(names) <= MAX_NAMES:
        raise ApiError(400, _("names must be a list of 1 to %(n)s names") % {"n": MAX_NAMES})
    checked_in = data.get("checked_in", False)
    if not isinstance(checked_in, bool):
        raise ApiError(400, _("checked_in must be true or false"))
    entries = services.players_register(
        event=event, names=names, checked_in=checked_in, actor=_actor(user)
    )
    answer = [_entry_answer(entry) for entry in entries]
    return json_response({"players": answer}, 201)


def _entry(event: Event, player_id: str) -> Entry:
    pid = _number(player_id, _("no such player in this event"))
    entry = event.entries.select_related("player", "event").filter(player_id=pid).first()
    if entry is None:
        raise ApiError(404, _("no such player in this event"))
    return entry


@organiser_view("POST")
def player_change(request: HttpRequest, user, slug: str, player_id: str, change: str):
    """POST .../players/{id}/check-in, check-out, withdraw, reinstate, with an optional
    reason (kept in the event's log for a withdrawal or a reinstatement)."""
    event = organised_event(user, slug)
    entry = _entry(event, player_id)
    reason = _reason(_body(request, optional=("reason",)))
    actor = _actor(user)
    if change in ("check-in", "check-out"):
        services.entry_check_in(entry=entry, checked_in=change == "check-in", actor=actor)
    elif change == "withdraw":
        services.entry_withdraw(entry=entry, reason=reason, actor=actor)
    else:
        services.entry_reinstate(entry=entry, reason=reason, actor=actor)
    entry.refresh_from_db()
    return json_response(_entry_answer(entry))


# --- rounds ------------------------------------------------------------------------------------


#: The words the API uses for a round's states (the model's "pending" is "building").
ROUND_STATUS = {
    Round.Status.PENDING: "building",
    Round.Status.DRAFT: "draft",
    Round.Status.FAILED: "failed",
    Round.Status.PUBLISHED: "published",
    Round.Status.CLOSED: "closed",
}


def round_status(round_: Round) -> dict:
    """``{"status"}``; for a failed build ``"error"``: why it failed; for a build waiting
    longer than it should (no worker took it) ``"stuck": true``: rebuild or delete it."""
    status = {"status": ROUND_STATUS.get(round_.status, round_.status)}
    if round_.status == Round.Status.FAILED:
        status["error"] = round_.build_error
    elif selectors.round_stuck(round_):
        status["stuck"] = True
    return status


def _round(event: Event, number: str) -> Round:
    try:
        return selectors.round_by_number(event, _number(number, _("no such round"), 9999))
    except Round.DoesNotExist:
        raise ApiError(404, _("no such round")) from None


def _round_answer(round_: Round) -> dict:
    round_.refresh_from_db()  # with the task run in process, the build may be done already
    return {"round": round_.number, **round_status(round_)}


@organiser_view("POST")
def rounds(request: HttpRequest, user, slug: str) -> HttpResponse:
    """POST /api/events/{slug}/rounds: build the next round (a Celery task); 202 at once."""
    event = organised_event(user, slug)
    _body(request)
    round_ = services.round_create(event=event, actor=_actor(user))
    location = reverse("tournaments_api:round", args=[event.slug, round_.number])
    return json_response(_round_answer(round_), 202, headers={"Location": location})


@organiser_view("DELETE")
def round_delete(request: HttpRequest, user, slug: str, number: str) -> HttpResponse:
    """DELETE /api/events/{slug}/rounds/{n} (beyond the spec's table: the pages' "delete"):
    a draft, failed or stuck round goes; its number can be built again. Reached through
    api.round_detail, which owns the path."""
    event = organised_event(user, slug)
    round_ = _round(event, number)
    reason = _reason(_body(request, optional=("reason",)))
    services.round_delete(round_=round_, reason=reason, actor=_actor(user))
    return json_response({"round": round_.number, "status": "deleted"})


ROUND_STEPS = {
    "rebuild": services.round_retry,
    "publish": services.round_publish,
    "close": services.round_close,
}


@organiser_view("POST")
def round_step(request: HttpRequest, user, slug: str, number: str, step: str):
    """POST .../rounds/{n}/rebuild, publish, close: the round's next step, as on its page."""
    event = organised_event(user, slug)
    round_ = _round(event, number)
    _body(request)
    ROUND_STEPS[step](round_=round_, actor=_actor(user))
    return json_response(_round_answer(round_))


# --- a table whose player left -----------------------------------------------------------------


def _table(event: Event, number: str, table_number: str) -> Table:
    round_ = _round(event, number)
    try:
        return selectors.table_of(round_, _number(table_number, _("no such table"), 9999))
    except Table.DoesNotExist:
        raise ApiError(404, _("no such table")) from None


def _table_answer(table: Table) -> dict:
    table.refresh_from_db()
    return walkouts.table_data(table)


@organiser_view("POST")
def table_substitute(request: HttpRequest, user, slug: str, number: str, table_number: str):
    """POST .../tables/{t}/substitute: a player who left is replaced from the next deal on."""
    event = organised_event(user, slug)
    table = _table(event, number, table_number)
    data = _body(request, required=("seat", "player", "reason"))
    player_id = _whole(data, "player", 1, MAX_ID)
    player = Player.objects.filter(pk=player_id, entries__event=event).first()
    if player is None:
        raise ApiError(400, _("no player %(id)s in this event") % {"id": player_id})
    table = walkouts.table_substitute(
        table=table,
        seat=data["seat"],
        player=player,
        reason=_reason(data),
        actor=_actor(user),
    )
    return json_response(_table_answer(table))


@organiser_view("POST")
def table_void(request: HttpRequest, user, slug: str, number: str, table_number: str):
    """POST .../tables/{t}/void: the table's game is set aside (the event's void policy)."""
    event = organised_event(user, slug)
    table = _table(event, number, table_number)
    data = _body(request, required=("reason",))
    table = walkouts.table_void(table=table, reason=_reason(data), actor=_actor(user))
    return json_response(_table_answer(table))


# --- confirming a game -------------------------------------------------------------------------


def _confirmer(request: HttpRequest, game: Game) -> str:
    """Who confirms: the table (its own token) or an organiser of the game's event (theirs);
    the name for the audit trails. Any other token is a wrong one for this game (403)."""
    token = bearer_token(request)
    if token is None:
        raise no_token()
    if scoring.secret_matches(game, token):
        return "api"
    user = judged_account(request, token, game.pk)
    if user is None or not user.has_perm(GAME_PERMISSION, game):
        raise ApiError(403, _("the token is neither this table's nor an organiser's of its event"))
    return _actor(user)


@api_view("POST")
def game_confirm(request: HttpRequest, game_id: str) -> HttpResponse:
    """POST /api/games/{id}/confirm: lock a finished game's result (again: no change)."""
    pk = _number(game_id, _("no such game"))
    game = Game.objects.filter(pk=pk).first()
    if game is None:
        raise ApiError(404, _("no such game"))
    actor = _confirmer(request, game)
    _body(request)
    table = Table.objects.select_related("round__event").filter(game=game).first()
    with refusals():
        if table is not None:
            game = services.result_confirm(table=table, actor=actor)
        else:
            game = scoring.game_confirm(game_id=game.pk, actor=actor)
    body = {
        "id": game.pk,
        "players": game.players,
        "state": game_state_json(game),
        "confirmed": game.confirmed,
    }
    return json_response(body)
