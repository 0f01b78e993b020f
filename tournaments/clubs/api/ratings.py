"""A club's ratings in the JSON API (spec: GET /api/clubs/{slug}/ratings): its rated
players by ordinal, highest first, the same rows as the leaderboard page.

A club whose ratings are not public answers 404 (as an unknown club does) unless the request
carries the token of one of the club's organisers.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from ninja import Schema

from config.api import ApiError, json_response
from config.api_ninja import ApiRouter
from config.api_schema import answers
from tournaments.clubs.selectors import ratings as reads
from tournaments.common.selectors import club_by_slug
from tournaments.common.web.api_auth import token_account
from tournaments.models import Club
from tournaments.ratings import MODEL_NAME

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_ratings"

router = ApiRouter(tags=["clubs"])


class RatingRowOut(Schema):
    player_id: int
    name: str
    mu: float  # the model's estimate of the player's skill
    sigma: float  # its uncertainty
    ordinal: float  # mu - 3 sigma: the figure the rows are sorted by
    games: int  # the player's rated games


class RatingsOut(Schema):
    club: str  # the club's slug
    model: str  # always "openskill-plackett-luce"
    rows: list[RatingRowOut]


def ratings_body(club: Club) -> dict:
    return {
        "club": club.slug,
        "model": MODEL_NAME,
        "rows": [
            {
                "player_id": rating.player_id,
                "name": rating.player.name,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "ordinal": rating.ordinal,
                "games": rating.games,
            }
            for rating in reads.leaderboard(club)
        ],
    }


@router.get(
    "/clubs/{slug:slug}/ratings",
    response=answers({200: RatingsOut}, 401, 404, 429),
    url_name="club_ratings",
    openapi_extra={"security": [{}, {"OrganiserToken": []}]},
)
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's rated players, highest ordinal (mu - 3 sigma) first. Every confirmed game
    of the club is rated by its placings with openskill's Plackett-Luce model at its
    default parameters; players with no rated game are left out."""
    try:
        club = club_by_slug(slug)
    except Club.DoesNotExist:
        raise ApiError(404, "no such club") from None
    if not club.ratings_public:
        user = token_account(request, required=False)
        if user is None or not reads.may_see_ratings(user, club):
            raise ApiError(404, "no such club")
    response = json_response(ratings_body(club))
    if club.ratings_public:
        patch_cache_control(response, public=True, max_age=30)
    else:
        patch_cache_control(response, private=True, max_age=0)
    return response
