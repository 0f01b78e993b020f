"""Where do I sit? The players' own page on the night: a name typed, a seat shown, and a
phone that proves whose it is ("This is me" with the player's personal code, or the printed
slip's link): the signed identity it then keeps (tournaments.events.selectors.identity) shows that
player's seat first and lets the phone confirm their results (docs/confirmations.md)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.client_ip import client_address
from tournaments.common.errors import TournamentError
from tournaments.common.selectors import event_by_slug
from tournaments.common.web.public import PAGES, event_page, no_such_event, query_id
from tournaments.events.selectors.identity import (
    IDENTITY_MAX_AGE,
    identity_cookie,
    identity_value,
    proven_entry,
    slip_entry,
)
from tournaments.events.services import identity
from tournaments.models import Entry, Event
from tournaments.rounds.presenters.seat import SeatMap
from tournaments.rounds.web import event_seat_map, event_version, kept_page

PROVE = PAGES + "prove.html"


def _remembered(request, event: Event, seats: SeatMap) -> tuple[int, str] | None:
    """The player this phone has proven to be ("This is me"), if the proof still holds."""
    value = request.COOKIES.get(identity_cookie(event))
    entry = proven_entry(event, value) if value else None
    return None if entry is None else seats.entered(entry.player_id)


def _found(request, query: str, seats: SeatMap) -> tuple[tuple[int, str] | None, list]:
    """The player the search names (picked from its list, or its one whole-name match), and
    the list to pick from when it names nobody yet. The usual asks (a whole name, a picked
    link) look only at the names sounding alike; anything else scans every name."""
    picked = query_id(request.GET.get("player"))
    if picked is not None and (chosen := seats.may_mean(query, picked)) is not None:
        return chosen, [chosen]
    exact = seats.exact(query)
    if len(exact) == 1:
        return exact[0], exact
    exact, matches = seats.matching(query)
    return (exact[0] if len(exact) == 1 else None), matches


@dataclass(frozen=True)
class Asked:
    """What a seat page answers: the name as typed and tidied, the player it names (if it
    names one), the names to pick from, the phone's "This is me" player and the error."""

    typed: str | None
    query: str
    seats: SeatMap
    me: tuple[int, str] | None
    found: tuple[int, str] | None
    matches: list
    error: str


def _asked(request, event: Event) -> Asked:
    typed = request.GET.get("name")
    query = " ".join((typed or "").split())
    seats = event_seat_map(event)
    me = _remembered(request, event, seats)
    error, matches, found = "", [], None
    if typed is not None and not query:
        error = _("Type your name, or a part of it.")
    elif query:
        found, matches = _found(request, query, seats)
    elif me is not None:
        found = me
    return Asked(typed, query, seats, me, found, matches, error)


#: Where the typed name and the page's own address (the language form's way back) go in a
#: kept answer (below).
NAME_MARK = "kept-name-" + secrets.token_hex(16)
PATH_MARK = "kept-path-" + secrets.token_hex(16)


@event_page
def seat(request, event: Event):
    """Where do I sit? The page (_seat_page) as kept for this address and phone's "This is
    me" while the event is unchanged (tournaments.rounds.web). A search that finds its
    player is kept per player, not per address: after a publish a thousand phones each type
    their own name their own way, and all that differs between those pages is the text in
    the search box and the address the language form comes back to, put in for each answer
    (escaped as the template would)."""
    me = request.COOKIES.get(identity_cookie(event), "")
    version = ("seat", *event_version(event), me)
    asked = _asked(request, event)
    if asked.query and asked.found is not None:
        response = kept_page(
            request,
            version,
            lambda extra: _seat_page(
                request, event, replace(asked, query=NAME_MARK), extra | {"back_here": PATH_MARK}
            ),
            address=f"found:{asked.found[0]}",
            marks={NAME_MARK: escape(asked.query), PATH_MARK: escape(request.get_full_path())},
        )
    else:
        response = kept_page(
            request, version, lambda extra: _seat_page(request, event, asked, extra)
        )
    patch_cache_control(response, private=True)  # it depends on this phone's cookie
    return response


def _seat_page(request, event: Event, asked: Asked, extra: dict):
    """Where do I sit? A GET form: type a name, pick your own among the names it may mean
    (in Latin or Cyrillic letters), read the answer. Only a whole name goes straight to the
    seat: a part of one ("Georgi") may be someone else's ("Maria Georgieva"). A phone that
    said "This is me" shows that player's seat first, without typing. Read from the event's
    kept seat map (tournaments.rounds.web): one query, the event's, per request."""
    seats, found, me = asked.seats, asked.found, asked.me
    answer = None if found is None else seats.answer(found[0])
    context = {
        "event": event,
        "query": asked.query,
        "error": asked.error,
        "matches": asked.matches,
        "player": found,
        "answer": answer,
        "searched": bool(asked.query),
        "me": me,
        "me_answer": None if me is None else answer if found == me else seats.answer(me[0]),
    }
    status = 400 if asked.error else 200
    return render(request, PAGES + "seat.html", context | extra, status=status)


def _prove_page(request, event: Event, player, *, slip=None, error: str = "", status=200):
    """ "This is me": the code asked for (or the slip's tap: `slip` is its entry and token),
    with the refusal if any."""
    context = {"event": event, "player": player, "slip": slip, "error": error}
    return render(request, PROVE, context, status=status)


def _proven(event: Event, entry: Entry):
    """This phone is the entry's player from now on: its signed identity, then the seat page."""
    response = redirect("tournaments:seat", event.slug)
    response.set_cookie(
        identity_cookie(event),
        identity_value(entry),
        max_age=IDENTITY_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response


def _error_status(error: TournamentError) -> int:
    return {"rejected": 429, "not_allowed": 403}.get(error.kind, 400)


@require_POST
def seat_me(request, slug: str):
    """ "This is me" with the player's personal code, or the slip's token (the phone proves
    whose it is, in a signed cookie), or "Not you?" (forget). A plain form post, so it works
    without JavaScript; back to the seat page after, or the form again with the refusal."""
    try:
        event = event_by_slug(slug)
    except Event.DoesNotExist:
        return no_such_event(request)
    if request.POST.get("forget"):
        response = redirect("tournaments:seat", event.slug)
        response.delete_cookie(identity_cookie(event), samesite="Lax")
        return response
    entry_id, token = query_id(request.POST.get("entry")), request.POST.get("token", "")
    if entry_id is not None and token:
        entry = slip_entry(event, entry_id, token)
        if entry is None:
            raise Http404
        return _proven(event, entry)
    player_id = query_id(request.POST.get("player"))
    player = event.entries.filter(player_id=player_id).values_list("player_id", "player__name")
    player = player.first() if player_id is not None else None
    if player is None:
        return redirect("tournaments:seat", event.slug)
    try:
        entry = identity.code_check(
            client_address(request), event, player_id, request.POST.get("code")
        )
    except TournamentError as error:
        return _prove_page(request, event, player, error=error.message, status=_error_status(error))
    return _proven(event, entry)


@require_GET
def seat_slip(request, slug: str, entry_id: int, secret: str):
    """The printed slip's link: "You are Ana? This is me" (one tap posts the token, so a link
    opened by someone else's preview or a forged page proves nothing on this phone)."""
    try:
        event = event_by_slug(slug)
    except Event.DoesNotExist:
        return no_such_event(request)
    entry = slip_entry(event, entry_id, secret)
    if entry is None:
        return _prove_page(
            request,
            event,
            None,
            error=_("This slip is no longer valid: ask the organiser for a new one."),
            status=404,
        )
    player = (entry.player_id, entry.player.name)
    response = _prove_page(request, event, player, slip=(entry.pk, secret))
    # The link's secret reaches no other site; the form's own post keeps its Origin (which
    # "no-referrer" would blank, failing the CSRF check).
    response["Referrer-Policy"] = "same-origin"
    patch_cache_control(response, private=True, no_store=True)
    return response
