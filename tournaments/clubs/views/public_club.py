"""A club's public page: its events, its seasons, its members (each linking to their club
player page) and its leaderboard when the club shows it to everyone."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.clubs.selectors import members as reads
from tournaments.clubs.selectors.ratings import may_see_ratings
from tournaments.common.selectors import club_by_slug
from tournaments.common.web.public import not_found
from tournaments.models import Club


@require_GET
def club(request, slug: str):
    try:
        found = club_by_slug(slug)
    except Club.DoesNotExist:
        return not_found(request, _("There is no such club."))
    runs = request.user.has_perm("tournaments.change_club", found)
    context = {
        "club": found,
        "events": reads.club_events(found),
        "seasons": reads.club_seasons(found),
        "members": reads.members(found),
        "show_ratings": may_see_ratings(request.user, found),
        "runs_club": runs,
    }
    return render(request, "tournaments/club/club.html", context)
