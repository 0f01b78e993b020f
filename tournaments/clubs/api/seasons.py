"""A club season's standings in the JSON API: public, the same rows as the season's page and
its JSON download (tournaments.clubs.presenters.season), built on read."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from ninja import Schema

from config.api import ApiError, json_response
from config.api_ninja import ApiRouter
from config.api_schema import answers
from tournaments.clubs.presenters import season as words
from tournaments.clubs.selectors import seasons as reads
from tournaments.models import Season

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_seasons"

router = ApiRouter(tags=["clubs"])


class NightOut(Schema):
    event: str
    name: str
    provisional: bool
    has_standings: bool


class NightScoreOut(Schema):
    place: int | None
    points: int | None
    counted: bool


class SeasonRowOut(Schema):
    rank: int | None  # None: under the season's attendance minimum, listed after the ranked
    player: str
    player_id: int
    score: int
    nights: int
    counted: int
    wins: int
    best_place: int | None
    tie_break: str | None  # in the request's language: why level rows are ordered so
    per_night: list[NightScoreOut]  # one per night of `nights`, in that order


class SeasonStandingsOut(Schema):
    club: str  # the club's slug
    season: int  # the season's id
    name: str
    starts_on: str | None
    ends_on: str | None
    place_points: list[int]  # season points for 1st, 2nd, ... place of a night
    best_nights: int | None  # only a player's best N nights count (null: all)
    min_nights: int  # nights needed to be ranked
    nights: list[NightOut]  # the season's events, oldest first
    rows: list[SeasonRowOut]


@router.get(
    "/clubs/{slug:slug}/seasons/{season_id}/standings",
    response=answers({200: SeasonStandingsOut}, 404),
    url_name="club_season_standings",
)
def season_standings(request: HttpRequest, slug: str, season_id: str) -> HttpResponse:
    """The season's standings as they stand now: ranked rows first, then the players under
    the attendance minimum (rank null). A night still being played counts as it stands
    (its `provisional` is true)."""
    if not (season_id.isascii() and season_id.isdigit()) or len(season_id) > 18:
        raise ApiError(404, "no such season")
    try:
        season = reads.season_of_club(slug, int(season_id))
    except Season.DoesNotExist:
        raise ApiError(404, "no such season") from None
    table = reads.season_table(season)
    response = json_response(words.season_body(table, words.season_lines(table)))
    patch_cache_control(response, public=True, max_age=30)
    return response
