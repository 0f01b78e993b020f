""" "I'm here": a player checks in from their own phone, reached from the door poster's QR code
while the organiser has self check-in open (docs/self-check-in.md). The player finds their
name with the search of "Where do I sit?" (tournaments.rounds.selectors.names_matching: Latin
or Cyrillic, no case or accents) and checks in with their phone's proof: the phone's identity
(tournaments.events.selectors.identity), or their personal code typed here, which then proves
the phone as on the seat page. One phone checks in one person: a phone proven as someone
else, or that checked someone else in, is refused. Someone not on the list asks to be
entered; the organiser answers on the players page. Plain forms: no JavaScript needed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.signing import BadSignature
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.api import KIND_STATUS
from config.client_ip import client_address
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.selectors import event_by_slug
from tournaments.common.web.public import PAGES, event_page, no_such_event, query_id
from tournaments.events.selectors.check_in import check_in_names, entry_of_player
from tournaments.events.selectors.identity import (
    IDENTITY_MAX_AGE,
    identity_cookie,
    identity_value,
    proven_entry,
)
from tournaments.events.services import check_in, identity
from tournaments.models import Entry, Event
from tournaments.rounds.selectors import names_matching

HERE = PAGES + "here.html"
#: The signed cookie naming whom this phone checked in (one phone, one person).
CHECKED_SALT = "tournaments.check_in.phone"
#: The signed cookie naming the newcomer's request this phone made.
ASKED_SALT = "tournaments.check_in.asked"
COOKIE = {"samesite": "Lax", "httponly": True}


def checked_cookie(event: Event) -> str:
    return f"here-{event.pk}"


def asked_cookie(event: Event) -> str:
    return f"asked-{event.pk}"


def _cookie(response, name: str, value: str, salt: str | None = None) -> None:
    options = {**COOKIE, "secure": settings.SESSION_COOKIE_SECURE, "max_age": IDENTITY_MAX_AGE}
    if salt is None:
        response.set_cookie(name, value, **options)
    else:
        response.set_signed_cookie(name, value, salt=salt, **options)


def _me(request, event: Event) -> Entry | None:
    return proven_entry(event, request.COOKIES.get(identity_cookie(event)))


def _checked_here(request, event: Event) -> int | None:
    """The entry this phone checked in at the event, if it did (the signed cookie)."""
    try:
        value = request.get_signed_cookie(checked_cookie(event), salt=CHECKED_SALT)
    except (KeyError, BadSignature):
        return None
    return query_id(value)


def _search(request, names: dict[int, str]) -> dict:
    """The name typed, the player it names (picked from the list, or its one whole-name
    match) and the names to pick from, as "Where do I sit?" finds them."""
    typed = request.GET.get("name")
    query = " ".join((typed or "").split())
    found, matches, error = None, [], ""
    if typed is not None and not query:
        error = _("Type your name, or a part of it.")
    elif query:
        exact, matches = names_matching(names, query)
        picked = query_id(request.GET.get("player"))
        chosen = [m for m in matches if m[0] == picked]
        found = chosen[0] if chosen else exact[0] if len(exact) == 1 else None
    return {"query": query, "player": found, "matches": matches, "error": error}


def _collect(request, event: Event) -> tuple[Entry | None, dict]:
    """A newcomer's phone back on the page: proven as them once the organiser accepted (the
    cookies are set by `_page`), still asking while the request waits, told when it is gone."""
    try:
        asked = request.get_signed_cookie(asked_cookie(event), salt=ASKED_SALT)
    except (KeyError, BadSignature):
        return None, {}
    request_id = query_id(asked)
    if request_id is None:
        return None, {}
    try:
        asked = check_in.newcomer_collect(event=event, request_id=request_id)
    except TournamentError as error:
        return None, {"ask_error": error.message}
    if asked.entry is None:
        return None, {"asked": asked.name, "waiting": True}
    return asked.entry, {"collected": True}


def _page(request, event: Event, *, extra: dict | None = None, status: int = 200):
    names = check_in_names(event)
    me = _me(request, event)
    collected, asking = (None, {}) if me is not None or extra else _collect(request, event)
    me = me or collected
    context = {
        **asking,
        "event": event,
        "open": event.self_check_in and not event.is_closed,
        "me": me,
        "searched": "name" in request.GET,
        **_search(request, names),
        **(extra or {}),
    }
    player = context["player"]
    context["picked"] = entry_of_player(event, player[0]) if player else None
    response = render(request, HERE, context, status=status)
    patch_cache_control(response, private=True, no_store=True)  # this phone's own page
    if collected is not None or "ask_error" in asking:
        response.delete_cookie(asked_cookie(event), samesite="Lax")
    if collected is not None:
        _cookie(response, identity_cookie(event), identity_value(collected))
        _cookie(response, checked_cookie(event), str(collected.pk), CHECKED_SALT)
    return response


@event_page
def here(request, event: Event):
    """The "I'm here" page: this phone's player first, else the search."""
    return _page(request, event)


def _status(error: TournamentError) -> int:
    if isinstance(error, identity.CodeWrong):
        return 403
    return {"rejected": 429}.get(error.kind) or KIND_STATUS.get(error.kind, 400)


def _checked_in(event: Event, entry: Entry, *, proved: bool):
    """Back to the page, which shows the player checked in; the phone remembers whom it
    checked in, and whom it proved to be when the code was typed here."""
    response = redirect(reverse("tournaments:check_in_here", args=[event.slug]))
    _cookie(response, checked_cookie(event), str(entry.pk), CHECKED_SALT)
    if proved:
        _cookie(response, identity_cookie(event), identity_value(entry))
    return response


def _one_person(request, event: Event, entry: Entry, me: Entry | None) -> None:
    """One phone checks in one person: refused when the phone is proven as someone else, or
    checked someone else in already."""
    checked = _checked_here(request, event)
    if (me is not None and me.pk != entry.pk) or (checked is not None and checked != entry.pk):
        raise check_in.NotThisPhone("self_check_in_not_yours", name=entry.player.name)


@require_POST
def here_check_in(request, slug: str):
    """ "I'm here" for the player posted: with the phone's identity, or the personal code
    typed (checked by identity.code_check, throttled against guessing)."""
    try:
        event = event_by_slug(slug)
    except Event.DoesNotExist:
        return no_such_event(request)
    player_id = query_id(request.POST.get("player"))
    entry = entry_of_player(event, player_id) if player_id is not None else None
    if entry is None:
        return redirect("tournaments:check_in_here", event.slug)
    me = _me(request, event)
    try:
        _one_person(request, event, entry, me)
        proved = me is None
        if proved:
            if not event.self_check_in or event.is_closed:
                raise NotAllowed("self_check_in_closed")  # say so before asking a code
            me = identity.code_check(
                client_address(request), event, entry.player_id, request.POST.get("code")
            )
        check_in.self_check_in(event=event, entry=entry, proven=me)
    except TournamentError as error:
        refusal = {"refusal": error.message, "refused": (entry.player_id, entry.player.name)}
        return _page(request, event, extra=refusal, status=_status(error))
    return _checked_in(event, entry, proved=proved)


@require_POST
def here_ask(request, slug: str):
    """A newcomer asks to be entered (tournaments.events.services.check_in.newcomer_ask)."""
    try:
        event = event_by_slug(slug)
    except Event.DoesNotExist:
        return no_such_event(request)
    name = request.POST.get("name", "")
    try:
        asked = check_in.newcomer_ask(event=event, name=name, address=client_address(request))
    except TournamentError as error:
        extra = {"ask_error": error.message, "ask_name": name[:80]}
        return _page(request, event, extra=extra, status=_status(error))
    response = _page(request, event, extra={"asked": asked.name, "waiting": True})
    _cookie(response, asked_cookie(event), str(asked.pk), ASKED_SALT)
    return response
