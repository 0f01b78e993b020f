"""The events part of the JSON API (../shared/spec/http-api.md, "Events"): the standings and
a round's tables, public reads (a round's organisers also see its tokens and may delete it).
"""

import re

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from pydantic import Field

from config.api import CONTENT_TYPE, ApiError, json_response
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import BODY, TOKEN, Out, absent, answers, extra, link, links, word
from config.door import DoorAnswer
from config.memory import Recent
from tournaments.common.selectors import event_by_slug
from tournaments.common.vocabulary import TEAM_SCORING_LABELS
from tournaments.common.web.api_auth import may_run, token_account
from tournaments.common.web.api_input import ReasonIn
from tournaments.models import Event
from tournaments.results import render as standings_render
from tournaments.results.selectors import team_standings_newest
from tournaments.rounds.api.rounds import round_delete
from tournaments.rounds.api.shapes import (
    ROUND_STATUS,
    ClockOut,
    RoundOut,
    TableOut,
    clock_data,
    round_status,
)
from tournaments.rounds.selectors import published_rounds, round_byes, round_tables
from tournaments.rounds.services import walkouts

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api"

#: How long a process answers a standings poll from memory without asking the database
#: anything. Every phone in the room polls: one look every few seconds per process is plenty
#: (a new snapshot, or results newer than it, show up at most this much later).
FRESH_SECONDS = 2
#: How long an answer's body stays in the shared cache under its ETag (a process that did not
#: read it from the database fetches it once from there), and how many a process keeps.
BODY_SECONDS = 60
KEPT_IN_PROCESS = 64
_bodies = Recent(KEPT_IN_PROCESS)

router = ApiRouter(tags=["events"])


class StandingsRowOut(Out):
    rank: int | None = Field(description="null in `unranked`: no game nor bye yet")
    player: str
    player_id: int
    score: int
    metrics: dict[str, int] = Field(description="every standings metric, by its name")
    decided_by: str | None = Field(description="the metric that put this row below the one above")
    withdrawn: bool


class StandingsOut(Out):
    event: str = Field(description="the event's slug")
    rounds_complete: int
    updated: str | None = Field(description="when they were built (UTC); null: never")
    stale: bool = Field(description="results came in since: new standings are being built")
    rows: list[StandingsRowOut] = Field(description="the ranked players, by rank")
    unranked: list[StandingsRowOut] = Field(description="the players not ranked yet")


class TeamRowOut(Out):
    rank: int | None = Field(description="null in `unranked`: none of its players has played")
    team: str
    team_id: int
    points: int = Field(description="its total: the sum of `per_round`")
    per_round: list[int] = Field(description="what it scored in rounds 1, 2, ...")
    metrics: dict[str, int] = Field(description="every team standings metric, by its name")
    decided_by: str | None = Field(description="the tie-break that put it below the one above")
    players: list[str]
    player_ids: list[int]


class TeamStandingsOut(Out):
    event: str = Field(description="the event's slug")
    scoring: str = word(TEAM_SCORING_LABELS, "what a team scores in each round")
    order: list[str] = Field(description="what ranks the teams: the total, then the tie-breaks")
    rounds_complete: int
    updated: str | None = Field(description="when they were built (UTC); null: never")
    stale: bool = Field(description="results came in since: new standings are being built")
    rows: list[TeamRowOut] = Field(description="the ranked teams, by rank (empty: no teams)")
    unranked: list[TeamRowOut] = Field(description="the teams not ranked yet")


class RoundTableOut(TableOut):
    confirmed: bool = Field(description="whether its game's result is confirmed")
    token: str | None = absent("the event's organisers: its game's token (null: no game yet)")


class RoundDetailOut(Out):
    event: str = Field(description="the event's slug")
    round: int
    status: str = word(ROUND_STATUS.values())
    error: str = absent("a failed build: why")
    stuck: bool = absent("true: the build waits longer than it should; rebuild or delete it")
    tables: list[RoundTableOut]
    byes: list[str] = Field(description="the names of the players with a bye")
    bye_ids: list[int]
    clock: ClockOut


def _event(slug: str) -> Event:
    try:
        return event_by_slug(slug)
    except Event.DoesNotExist:
        raise ApiError(404, "no such event") from None


@router.get(
    "/events/{slug:slug}/standings",
    response=answers({200: StandingsOut, 304: None}, 404),
    url_name="standings",
)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The newest standings; 304 when the client's ETag (If-None-Match) is still current.

    The body is written out when the snapshot is stored (tournaments.results.render). For
    FRESH_SECONDS the ETag is kept under a small key, so a poll reads that alone: a 304
    reads nothing else, a 200 takes the body from this process's memory (a 999-player body
    is a few hundred KB: fetched once per process, not per poll); then the database is asked
    whether it still holds (two small queries)."""
    answer = _kept_answer(request, slug, _body)
    if answer is None:  # not kept, or no copy of its body left anywhere: read again
        tag, body = standings_render.api_answer(_event(slug))
        _keep(slug, tag, body)
        cache.set(_tag_key(slug), tag, FRESH_SECONDS)
        unchanged = get_conditional_response(request, etag=tag)
        answer = _headed(unchanged or HttpResponse(body, content_type=CONTENT_TYPE), tag)
    return answer


def _kept_answer(request: HttpRequest, slug: str, body_of) -> HttpResponse | None:
    """The poll's answer from what is kept, while the ETag is (FRESH_SECONDS): the 304 when
    If-None-Match names it, else the 200 with the body `body_of(slug, tag)` finds. None when
    either is not kept: the database is read."""
    tag = cache.get(_tag_key(slug))
    if tag is None:
        return None
    unchanged = get_conditional_response(request, etag=tag)
    if unchanged is not None:
        return _headed(unchanged, tag)
    body = body_of(slug, tag)
    return None if body is None else _headed(HttpResponse(body, content_type=CONTENT_TYPE), tag)


def _headed(response: HttpResponse, tag: str) -> HttpResponse:
    response["ETag"] = tag
    patch_cache_control(response, no_cache=True)
    return response


def _in_memory(slug: str, tag: str) -> bytes | None:
    return _bodies.get((slug, tag))


def _standings_at_door(request: HttpRequest, slug: str) -> HttpResponse | None:
    """The standings poll before the middleware (config.door): the answer `standings` gives
    from what is kept, when this process holds the body (or the client holds the current
    one: the 304). Else None: Django answers (it may fetch the body from the shared cache,
    or read it)."""
    return _kept_answer(request, slug, _in_memory)


#: settings.DOOR_ANSWERS names it; the path is the API's "standings" (config.api_urls).
STANDINGS_API_AT_DOOR = DoorAnswer(
    "api:standings",
    re.compile(r"/api/events/(?P<slug>[-a-zA-Z0-9_]+)/standings"),
    _standings_at_door,
)


def _tag_key(slug: str) -> str:
    return f"api-standings:{slug}"


def _body_key(slug: str, tag: str) -> str:
    return f"api-standings-body:{slug}:{tag}"


def _keep(slug: str, tag: str, body: bytes) -> None:
    _bodies.put((slug, tag), body)
    cache.set(_body_key(slug, tag), body, BODY_SECONDS)


def _body(slug: str, tag: str) -> bytes | None:
    """The event's answer named `tag`: from this process's memory, else the shared cache."""
    return _bodies.get_or_fetch((slug, tag), lambda: cache.get(_body_key(slug, tag)))


@router.get(
    "/events/{slug:slug}/team-standings",
    response=answers({200: TeamStandingsOut}, 404),
    url_name="team_standings",
)
def team_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The newest team standings (docs/team-standings.md): teams ranked beside the players,
    from the same snapshot; empty rows when the event has no teams. Beyond the spec."""
    event = _event(slug)
    response = json_response(standings_render.team_api_data(event, team_standings_newest(event)))
    patch_cache_control(response, no_cache=True)
    return response


def _table_data(table, *, with_token: bool) -> dict:
    """The table as walkouts.table_data gives it, whether its result is confirmed, and for
    the event's organisers its token."""
    data = {
        **walkouts.table_data(table),
        "confirmed": table.game is not None and table.game.confirmed,
    }
    if with_token:
        data["token"] = table.game.secret if table.game is not None else None
    return data


ROUND = "/events/{slug:slug}/rounds/{number}"
SLUG, NUMBER = "$request.path.slug", "$request.path.number"
TABLE, GAME = "$response.body#/tables/0/table", "$response.body#/tables/0/game"
#: Where a round leads: its first table (a walkout: substitute, void) and that table's game,
#: read, scored with the token its organisers see, confirmed.
ROUND_LINKS = links(
    200,
    game=link("scoring_api_game", "The first table's game.", path__game_id=GAME),
    deal=link(
        "scoring_api_deals",
        "A deal of the first table's game, with the table's token (organisers see it).",
        path__game_id=GAME,
        header__Authorization="Bearer {$response.body#/tables/0/token}",
    ),
    confirm=link(
        "tournaments_api_rounds_game_confirm",
        "The first table's result confirmed.",
        path__game_id=GAME,
    ),
    **{
        step: link(
            f"tournaments_api_rounds_table_{step}",
            f"The first table: {step}.",
            path__slug=SLUG,
            path__number=NUMBER,
            path__table_number=TABLE,
        )
        for step in ("substitute", "void")
    },
    standings=link("tournaments_api_standings", "The event's standings.", path__slug=SLUG),
)
#: The public may read it without a token; an organiser's shows drafts and tokens too.
OPTIONAL_TOKEN = {"security": [{}, {"OrganiserToken": []}]}


@router.get(
    ROUND,
    response=answers({200: RoundDetailOut}, 401, 404, 429),
    url_name="round",
    openapi_extra=extra(ROUND_LINKS, OPTIONAL_TOKEN),
)
def round_detail(request: HttpRequest, slug: str, number: str) -> HttpResponse:
    """A round's tables. The public sees published and closed rounds; the event's organisers
    (their API token) see every round, a draft, a failed or a still-building one too, and each
    table's token (its game's secret) for the scripts that hand them out."""
    event = _event(slug)
    organiser = may_run(token_account(request, required=False), event)
    if not (number.isascii() and number.isdigit()) or len(number) > 4:
        raise ApiError(404, "no such round")
    rounds = event.rounds.all() if organiser else published_rounds(event)
    round_ = rounds.filter(number=int(number)).first()
    if round_ is None:
        raise ApiError(404, "no such round, or it is not published yet")
    byes = round_byes(round_)
    response = json_response(
        {
            "event": event.slug,
            "round": round_.number,
            **round_status(round_),
            "tables": [_table_data(table, with_token=organiser) for table in round_tables(round_)],
            "byes": [bye.player.name for bye in byes],
            "bye_ids": [bye.player_id for bye in byes],
            "clock": clock_data(round_),
        }
    )
    patch_vary_headers(response, ["Authorization"])
    if organiser:
        patch_cache_control(response, private=True, no_store=True)
    return response


@router.delete(
    ROUND,
    response=answers({200: RoundOut}, TOKEN, 404, BODY, 409),
    openapi_extra=extra(body_doc(ReasonIn), {"security": [{"OrganiserToken": []}]}),
)
def round_remove(request: HttpRequest, slug: str, number: str) -> HttpResponse:
    """A draft, failed or stuck round goes (organisers; beyond the spec: the pages' delete)."""
    return round_delete(request, token_account(request), slug, number)
