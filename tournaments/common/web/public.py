"""Finding a public page's event (and the round or player it names), and the 404 page."""

from __future__ import annotations

from functools import wraps

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments.common.selectors import event_by_slug
from tournaments.models import Event

PAGES = "tournaments/public/"
MAX_ROUND = 32767  # a PositiveSmallIntegerField: anything larger names no round
MAX_ID = 2**63 - 1  # larger ids would overflow the database's integers


class Missing(Exception):
    """Something the address names does not exist (or is not public): a 404 page."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def not_found(request, message: str, event: Event | None = None) -> HttpResponse:
    context = {"message": message, "event": event}
    return render(request, PAGES + "not_found.html", context, status=404)


def no_such_event(request) -> HttpResponse:
    return not_found(request, _("There is no such event."))


def event_page(view_func):
    """A GET of an event's page by slug; an unknown slug, round or player is a 404 page."""

    @require_GET
    @wraps(view_func)
    def wrapper(request, slug: str, **kwargs):
        try:
            event = event_by_slug(slug)
        except Event.DoesNotExist:
            return no_such_event(request)
        try:
            return view_func(request, event, **kwargs)
        except Missing as missing:
            return not_found(request, missing.message, event)

    return wrapper


def query_id(value: object) -> int | None:
    """An id typed into an address or a form, or None when it cannot name a row."""
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and int(text) <= MAX_ID else None
