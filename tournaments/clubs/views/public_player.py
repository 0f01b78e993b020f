"""A club player's page: their rating over time, their games, placings and per-position
figures across the club's events and casual games, by season. Public, read-only, no script.

Ratings show only when the club's ratings are public, or to the club's organisers.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.clubs.presenters import club_player as words
from tournaments.clubs.selectors import club_player as reads
from tournaments.clubs.selectors.ratings import may_see_ratings
from tournaments.common.selectors import club_by_slug
from tournaments.common.web.public import MAX_ID, not_found
from tournaments.models import Club, Player

PAGE = "tournaments/club/player.html"


@require_GET
def club_player(request, slug: str, player_id: int):
    try:
        club = club_by_slug(slug)
    except Club.DoesNotExist:
        return not_found(request, _("There is no such club."))
    try:
        if player_id > MAX_ID:
            raise Player.DoesNotExist
        person = reads.club_player(club, player_id)
    except Player.DoesNotExist:
        return not_found(request, _("There is no such player in this club."))
    seasons = reads.club_seasons(club)
    games = reads.player_games(club, person)
    show_ratings = may_see_ratings(request.user, club)
    context = {
        "club": club,
        "person": person,
        "show_ratings": show_ratings,
        **words.games_context(games, seasons, request.GET.get("season")),
    }
    if show_ratings:
        context["rating"] = words.rating_facts(reads.rating_of(person))
        context["chart"] = words.chart_context(reads.rating_steps(club, person))
    return render(request, PAGE, context)
