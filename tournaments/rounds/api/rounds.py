"""The organisers' token API for rounds, tables and confirming a game
(../shared/spec/http-api.md, "Organisers"); the order of checks as in tournaments.events.api.

A round's GET (public, tokens for its organisers) and DELETE share one path: both are in
tournaments.results.api, which calls `round_delete` here.
"""

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from config.api import ApiError, bearer_token, json_response, read_body
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import BODY, TOKEN, answers, extra, link, links
from scoring import services as scoring
from scoring.errors import Conflict
from scoring.models import Game, Quorum
from scoring.selectors import game_state_json
from tournaments.common.selectors import round_by_number
from tournaments.common.web.api_auth import (
    judged_account,
    no_token,
    organised_event,
    organiser_token,
)
from tournaments.common.web.api_input import (
    MAX_ID,
    MAX_REASON,
    ReasonIn,
    actor,
    number,
    reason,
    whole,
)
from tournaments.models import Event, Player, Round, Table
from tournaments.results import services as results_service
from tournaments.rounds.api.shapes import (
    ConfirmedOut,
    ConfirmIn,
    EmptyIn,
    RoundOut,
    SubstituteIn,
    TableOut,
    VoidIn,
    clock_data,
    round_status,
)
from tournaments.rounds.selectors import table_of
from tournaments.rounds.services import clock as clock_service
from tournaments.rounds.services import rounds as rounds_service
from tournaments.rounds.services import walkouts

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_rounds"

GAME_PERMISSION = "scoring.change_game"

router = ApiRouter(auth=organiser_token, tags=["organisers"])
#: A round's or a table's write: the token, what the path names (404), the body, the state.
ERRORS = answers({}, TOKEN, 404, BODY, 409)
#: Why a table is changed: the services refuse a blank one.
SLUG = "$request.path.slug"
#: The round clock's moves (rounds.services.clock), as on the round's page.
CLOCK_MOVES = ("start", "pause", "resume", "extend", "stop")
#: A round's next steps, as on its page.
ROUND_STEPS = {
    "rebuild": rounds_service.round_retry,
    "publish": rounds_service.round_publish,
    "close": rounds_service.round_close,
    # the round clock's moves (docs/round-clock.md): extend adds 5 minutes
    **{f"clock/{move}": getattr(clock_service, f"clock_{move}") for move in CLOCK_MOVES},
}


def _to_round(number: str) -> dict:
    """A round (``number``: a runtime expression) leads to its page and its next steps."""
    return {
        "round": link(
            "tournaments_api_round_detail", "The round.", path__slug=SLUG, path__number=number
        ),
        **{
            step: link(
                f"tournaments_api_rounds_round_{step}",
                f"The round: {step}.",
                path__slug=SLUG,
                path__number=number,
            )
            for step in ROUND_STEPS
            if "/" not in step  # the clock's moves are led to from the round's page
        },
    }


def _round(event: Event, text: str) -> Round:
    try:
        return round_by_number(event, number(text, _("no such round"), 9999))
    except Round.DoesNotExist:
        raise ApiError(404, _("no such round")) from None


def _round_answer(round_: Round, *, clock: bool = False) -> dict:
    round_.refresh_from_db()  # with the task run in process, the build may be done already
    answer = {"round": round_.number, **round_status(round_)}
    return {**answer, "clock": clock_data(round_)} if clock else answer


@router.post(
    "/events/{slug:slug}/rounds",
    response={202: RoundOut, **ERRORS},
    url_name="rounds",
    openapi_extra=extra(body_doc(EmptyIn), links(202, **_to_round("$response.body#/round"))),
)
def rounds(request: HttpRequest, slug: str) -> HttpResponse:
    """Build the next round (a Celery task); 202 at once."""
    event = organised_event(request.auth, slug)
    read_body(request, EmptyIn, empty_ok=True)
    round_ = rounds_service.round_create(event=event, actor=actor(request.auth))
    location = reverse("api:round", args=[event.slug, round_.number])
    return json_response(_round_answer(round_), 202, headers={"Location": location})


def round_delete(request: HttpRequest, user, slug: str, text: str) -> HttpResponse:
    """DELETE /api/events/{slug}/rounds/{n} (beyond the spec's table: the pages' "delete"):
    a draft, failed or stuck round goes; its number can be built again."""
    event = organised_event(user, slug)
    round_ = _round(event, text)
    why = reason(read_body(request, ReasonIn, empty_ok=True).reason)
    rounds_service.round_delete(round_=round_, reason=why, actor=actor(user))
    return json_response({"round": round_.number, "status": "deleted"})


ROUND = "/events/{slug:slug}/rounds/{number}/"


def _step_view(name: str, step):
    def view(request: HttpRequest, slug: str, number: str) -> HttpResponse:
        event = organised_event(request.auth, slug)
        round_ = _round(event, number)
        read_body(request, EmptyIn, empty_ok=True)
        step(round_=round_, actor=actor(request.auth))
        return json_response(_round_answer(round_, clock=name.startswith("clock/")))

    view.__name__ = f"round_{name.replace('/', '_')}"
    view.__doc__ = f"The round's next step, as on its page: {name.replace('/', ' ')}."
    return view


for _name, _step in ROUND_STEPS.items():
    router.post(
        ROUND + _name,
        response={200: RoundOut, **ERRORS},
        openapi_extra=extra(body_doc(EmptyIn), links(200, **_to_round("$request.path.number"))),
    )(_step_view(_name, _step))


# --- a table whose player left -----------------------------------------------------------------

TABLE = ROUND + "tables/{table_number}/"


def _table(event: Event, round_text: str, table_text: str) -> Table:
    round_ = _round(event, round_text)
    try:
        return table_of(round_, number(table_text, _("no such table"), 9999))
    except Table.DoesNotExist:
        raise ApiError(404, _("no such table")) from None


def _table_answer(table: Table) -> dict:
    table.refresh_from_db()
    return walkouts.table_data(table)


@router.post(
    TABLE + "substitute",
    response={200: TableOut, **ERRORS},
    url_name="table_substitute",
    openapi_extra=body_doc(SubstituteIn),
)
def table_substitute(request: HttpRequest, slug: str, number: str, table_number: str):
    """A player who left is replaced from the next deal on: by a player of the event
    (`player`), or by a new name (`name`), entered and checked in as they sit down."""
    event = organised_event(request.auth, slug)
    table = _table(event, number, table_number)
    data = read_body(request, SubstituteIn)
    player = None
    if data.player is not None:
        player_id = whole(data.player, "player", 1, MAX_ID)
        player = Player.objects.filter(pk=player_id, entries__event=event).first()
        if player is None:
            raise ApiError(400, _("no player %(id)s in this event") % {"id": player_id})
    table = walkouts.table_substitute(
        table=table,
        seat=data.seat,
        player=player,
        name=data.name,
        reason=reason(data.reason),
        actor=actor(request.auth),
        by=request.auth,
    )
    return json_response(_table_answer(table))


@router.post(
    TABLE + "void",
    response={200: TableOut, **ERRORS},
    url_name="table_void",
    openapi_extra=body_doc(VoidIn),
)
def table_void(request: HttpRequest, slug: str, number: str, table_number: str):
    """The table's game is set aside (the event's void policy)."""
    event = organised_event(request.auth, slug)
    table = _table(event, number, table_number)
    data = read_body(request, VoidIn)
    table = walkouts.table_void(table=table, reason=reason(data.reason), actor=actor(request.auth))
    return json_response(_table_answer(table))


@router.post(
    TABLE + "clock/extend",
    response={200: TableOut, **ERRORS},
    url_name="table_clock_extend",
    openapi_extra=body_doc(EmptyIn),
)
def table_clock_extend(request: HttpRequest, slug: str, number: str, table_number: str):
    """Five minutes more for one slow table, beyond its round's time (`clock_extra`)."""
    event = organised_event(request.auth, slug)
    table = _table(event, number, table_number)
    read_body(request, EmptyIn)
    table = clock_service.table_clock_extend(table=table, actor=actor(request.auth))
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
    return actor(user)


def _note(value: object) -> str:
    """The organiser's note, if any, its spacing tidied (as the page's form takes it)."""
    if not isinstance(value, str):
        raise ApiError(400, _("note must be a string"))
    value = " ".join(value.split())
    if len(value) > MAX_REASON:
        raise ApiError(400, _("note has at most %(n)s characters") % {"n": MAX_REASON})
    return value


@router.post(
    "/games/{game_id}/confirm",
    auth=None,
    response={200: ConfirmedOut, **ERRORS},
    url_name="game_confirm",
    openapi_extra=extra(
        body_doc(ConfirmIn),
        {"security": [{"OrganiserToken": []}, {"TableToken": []}]},
        links(
            200,
            game=link("scoring_api_game", "The game's sheet.", path__game_id="$response.body#/id"),
        ),
    ),
)
def game_confirm(request: HttpRequest, game_id: str) -> HttpResponse:
    """Lock a finished game's result (again: no change); the organiser's or the table's
    token. With `version` (sent late, a retry), a game changed since is refused (409, both
    versions in ``error.yours`` and ``error.current``). With `note` (an organiser's token
    only), the organiser's answer to the players, as the round page's dispute card gives it."""
    pk = number(game_id, _("no such game"))
    game = Game.objects.filter(pk=pk).first()
    if game is None:
        raise ApiError(404, _("no such game"))
    confirmer = _confirmer(request, game)
    data = read_body(request, ConfirmIn, empty_ok=True)
    version, note = data.version, _note(data.note)
    if note and confirmer == "api":
        # The keeper's page gives no word with a confirmation: nor does the table's token.
        raise ApiError(
            400, _("a note is the organisers' answer: send it with an organiser's token")
        )
    table = Table.objects.select_related("round__event").filter(game=game).first()
    try:
        if confirmer == "api" and game.quorum != Quorum.KEEPER:
            # The table's own token is the keeper: its word locks once the quorum agrees.
            game = scoring.game_confirm(
                game_id=game.pk, actor=confirmer, by_keeper=True, version=version
            )
        elif table is not None:
            game = results_service.result_confirm(
                table=table, actor=confirmer, version=version, note=note
            )
        else:
            game = scoring.game_confirm(
                game_id=game.pk, actor=confirmer, version=version, note=note
            )
    except Conflict as error:
        if error.code != "confirm_stale":
            raise
        now = Game.objects.get(pk=game.pk)
        detail = {"yours": {"version": version}, "current": {"version": now.version}}
        extra = {"state": game_state_json(now), "version": now.version}
        raise ApiError.of(error, detail=detail, extra=extra) from None
    body = {
        "id": game.pk,
        "players": game.players,
        "state": game_state_json(game),
        "version": game.version,
        "confirmed": game.confirmed,
    }
    if not game.confirmed:
        body["waiting_for"] = scoring.waiting_for(game)
    return json_response(body)
