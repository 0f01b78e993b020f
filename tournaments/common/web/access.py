"""Who may open an organiser page, what its address names, and how a refused write is
answered.

Every event page asks Django one question, ``has_perm("tournaments.change_event", event)``
(answered by tournaments.common.permissions for the event's organisers and its club's, and by Django
itself for superusers). Anonymous visitors are sent to the login page; a logged-in user who does not
run this event gets a 403 page. Organiser pages are never stored by shared caches.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_cache_control

from tournaments.common.selectors import event_by_slug, round_by_number
from tournaments.models import Event, Round

PERMISSION = "tournaments.change_event"


def actor(request) -> str:
    """The name written into the audit trails for this request's changes."""
    return request.user.get_username()


def private(response):
    """Never stored by any cache: organiser pages, print cards (every table's secret), sheets
    and exports alike."""
    patch_cache_control(response, private=True, no_cache=True, no_store=True)
    return response


def organiser_required(view_func):
    """The view gets the event (by the URL's slug) if this user organises it."""

    @login_required
    @wraps(view_func)
    def wrapper(request, slug: str, *args, **kwargs):
        try:
            event = event_by_slug(slug)
        except Event.DoesNotExist:
            raise Http404 from None
        if not request.user.has_perm(PERMISSION, event):
            context = {"event": event}
            return private(render(request, "tournaments/organise/denied.html", context, status=403))
        return private(view_func(request, event, *args, **kwargs))

    return wrapper


def error_status(request, status: int) -> int:
    """htmx swaps only successful answers, so an htmx partial carries its error with a 200."""
    return 200 if request.htmx and status >= 400 else status


def round_or_404(event: Event, number: int) -> Round:
    """The event's round by the URL's number (the round pages and the printed ones)."""
    try:
        return round_by_number(event, number)
    except Round.DoesNotExist:
        raise Http404 from None
