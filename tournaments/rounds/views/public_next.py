"""My next seat: the page a player's own phone keeps open through the evening
(docs/players-phones.md). It shows the table, seat, table-mates and PIN of the round just
published, and between rounds the player's last result and place in the standings
(tournaments.rounds.presenters.next_seat), for the player this phone proved to be ("This is
me", tournaments.events.selectors.identity); a phone that proved nobody is asked who it is.

Waiting stays cheap, and a new round shows within a few seconds: the page
(static/js/next_seat_page.js) asks for `next_seat_version`, a few bytes the same for every
phone of the event kept in the shared cache (tournaments.rounds.web.phone_version), with the
version it has as If-None-Match and a wait marker (`?wait=WAIT_SECONDS`). While it is
unchanged the answer is a 304 that reads nothing but that cache entry, made at the door
(config.door: before the middleware, `NEXT_SEAT_VERSION_AT_DOOR`), and **held** there on the
venue laptop (config.parking: no thread, only its connection; one watcher a process looking at
the kept version once a second) until the version moves (a round published or closed, the standings
rebuilt: then the door answers the new version too, and the page fetches its own
`next_seat_live`) or WAIT_SECONDS pass (the same 304; the page asks again at once). Where the
server holds nothing (the hosted site's sync workers, or its room for held questions full)
the 304 comes at once, and the page asks again every VERSION_POLL_SECONDS, as a plain
poll; while the player's own game is played it asks without waiting, every
PLAYING_POLL_SECONDS. A phone that wakes asks at once. Measured: docs/performance.md, "My
next seat". Without JavaScript the page reloads itself every REFRESH_SECONDS and has a
Refresh link.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from config.door import DoorAnswer, each
from tournaments.common.web.polls import POLL_SECONDS, not_modified, polled
from tournaments.common.web.public import PAGES, event_page, no_such_event
from tournaments.events.selectors.identity import identity_cookie, proven_entry
from tournaments.models import Event
from tournaments.rounds.presenters.next_seat import next_seat
from tournaments.rounds.web import event_seat_map, kept_phone_version, phone_version

PAGE = PAGES + "next.html"
#: How often the page asks for the version when the server answers its wait at once (no
#: parking, or no room left; spread by ±20 %, static/js/next_seat.js): a new round then shows
#: within this of its publishing (the publish renews the kept version at once,
#: tournaments.tasks.prerender_round). At this pace a thousand waiting phones cost as much as
#: the standings page's polls every 15 s, measured (docs/performance.md); faster would cost
#: more than that. A held ask is asked again at once when it is answered.
VERSION_POLL_SECONDS = 12
#: How long the page asks the door to hold its ask (the door caps it: DOOR_WAIT_SECONDS).
WAIT_SECONDS = settings.DOOR_WAIT_SECONDS
#: ... but while the player's own game is being played ("seat"), at the standings' pace: no
#: next round can come before theirs is over, and a room of phones at the tables then costs
#: less than the standings' polls did.
PLAYING_POLL_SECONDS = POLL_SECONDS
#: How often the page reloads itself without JavaScript (a whole page each time).
REFRESH_SECONDS = 10


def _context(request, event: Event) -> dict:
    """The phone's player and what they see now, or no player (asked who they are)."""
    entry = proven_entry(event, request.COOKIES.get(identity_cookie(event)))
    context = {
        "event": event,
        "me": None,
        "refresh_seconds": REFRESH_SECONDS,
        "poll_seconds": VERSION_POLL_SECONDS,
        "playing_poll_seconds": PLAYING_POLL_SECONDS,
        "wait_seconds": WAIT_SECONDS,
    }
    if entry is None:
        return context
    seats = event_seat_map(event)
    return context | {
        "me": (entry.player_id, entry.player.name),
        "next": next_seat(event, entry, seats),
        "version": phone_version(event.slug) or "",
        # The banner of a new round, its number put in by the page's script.
        "banner_words": _("New: round %(n)s"),
    }


def _private(response: HttpResponse) -> HttpResponse:
    """Per phone (its cookie), and with the table's PIN: kept by nobody."""
    add_never_cache_headers(response)
    patch_cache_control(response, private=True)
    return response


@event_page
def next_seat_page(request, event: Event):
    """The page: the player's seat (or result) as it stands, and the poll around it."""
    return _private(render(request, PAGE, _context(request, event)))


@event_page
def next_seat_live(request, event: Event):
    """What the poll fetches once the version moved: the player's part of the page."""
    context = _context(request, event)
    if context["me"] is None:  # the phone forgot who it is: the whole page asks again
        return _private(HttpResponse(status=204))
    return _private(render(request, PAGE + "#live", context))


@require_GET
def next_seat_version(request, slug: str):
    """The event's phone version, a few bytes the same for every phone: 304 while the poll's
    If-None-Match is still it (no query; one small shared-cache read). Its wait marker is the
    door's (config.door): here, as on a server that holds nothing, it is answered at once."""
    version = phone_version(slug)
    if version is None:
        return no_such_event(request)
    return _version_answer(request, version)


def _version_answer(request, version: str) -> HttpResponse:
    """The 304 while If-None-Match names `version`, else the version itself."""
    tag = f'"{version}"'
    unchanged = not_modified(request, tag)
    if unchanged is not None:
        return unchanged
    return polled(HttpResponse(version, content_type="text/plain; charset=utf-8"), tag)


def _version_at_door(request, slug: str) -> HttpResponse | None:
    """The version poll's answer before the middleware (config.door): when the shared cache
    holds the event's phone version, exactly what `next_seat_version` answers, the 304 or
    the new version (the whole answer is that one entry: a publish wakes a room of held
    polls at once, and each is answered here, not by the whole stack); else None (a miss:
    the view reads the version again, or finds no such event)."""
    version = kept_phone_version(slug)
    return None if version is None else _version_answer(request, version)


#: settings.DOOR_ANSWERS names it; the path is tournaments.public_urls's "next_seat_version".
#: A held poll watches the event's version as the view reads it (the kept one; on a miss, the
#: one small query that keeps it again: once per process every two seconds at most).
NEXT_SEAT_VERSION_AT_DOOR = DoorAnswer(
    "tournaments:next_seat_version",
    re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/next/version/"),
    _version_at_door,
    watch=each(phone_version),
)
