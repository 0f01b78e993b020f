"""A club's leaderboard: its rated players by ordinal (mu - 3 sigma), highest first.

Public when the club's ratings are (Club.ratings_public); otherwise only the club's
organisers see it and everyone else gets the 404 page, as if there were no such page: a
hidden leaderboard does not say it exists. No script.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.clubs.selectors import ratings as reads
from tournaments.common.selectors import club_by_slug
from tournaments.common.web.public import not_found
from tournaments.models import Club

PAGE = "tournaments/club/ratings.html"


@require_GET
def club_ratings(request, slug: str):
    try:
        club = club_by_slug(slug)
    except Club.DoesNotExist:
        return not_found(request, _("There is no such club."))
    if not reads.may_see_ratings(request.user, club):
        return not_found(request, _("There is no such club."))
    rows = [
        {"rank": n, "rating": rating} for n, rating in enumerate(reads.leaderboard(club), start=1)
    ]
    response = render(request, PAGE, {"club": club, "rows": rows})
    patch_cache_control(response, private=True, max_age=0)
    return response
