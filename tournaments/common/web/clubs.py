"""Finding a club for its organiser pages: the club by the URL's slug, and only for those
who run it (``tournaments.change_club``: the club's organisers, and superusers)."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.common.selectors import club_by_slug
from tournaments.common.web.access import private
from tournaments.common.web.public import not_found
from tournaments.models import Club

PERMISSION = "tournaments.change_club"
DENIED = "tournaments/organise/seasons_denied.html"


def club_organiser_required(view_func):
    """The view gets the club (by the URL's slug) if this user runs it."""

    @login_required
    @wraps(view_func)
    def wrapper(request, slug: str, *args, **kwargs):
        try:
            club = club_by_slug(slug)
        except Club.DoesNotExist:
            return not_found(request, _("There is no such club."))
        if not request.user.has_perm(PERMISSION, club):
            return private(render(request, DENIED, {"club": club}, status=403))
        return private(view_func(request, club, *args, **kwargs))

    return wrapper
