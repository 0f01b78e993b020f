"""Players check themselves in (docs/self-check-in.md): the organiser opens self check-in for
an event (and closes it); a player's phone, proven to be theirs (the identity of
tournaments.events.selectors.identity: the personal code or the slip's link), checks that
player in, and no one else; someone whose name is not on the list asks to be entered, and
the organiser accepts (entered and checked in) or declines.

Flooding. A request names a person and waits on the organiser's page, so the requests are
counted by the site's one throttle (config.throttle) per client address and per event, and
no more than MAX_WAITING wait at once: past any of these a request is refused (429) until
the window passes or the organiser has answered some.
"""

from __future__ import annotations

import logging

from django.db import transaction

from config.throttle import Throttle
from scoring.names import name_key
from tournaments.club_models import NewcomerRequest
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.services import log_action
from tournaments.events.selectors import check_in as selectors
from tournaments.events.services.registration import (
    ORGANISER,
    PHONE,
    checked_in_by,
    clean_name,
    players_register,
)
from tournaments.models import Entry, Event

log = logging.getLogger("tournaments.check_in")

#: Requests from one client address (any event) within the window.
ADDRESS_REQUESTS_ALLOWED = 3
#: Requests for one event (any address) within the window.
EVENT_REQUESTS_ALLOWED = 30
#: Requests waiting for the organiser's answer at once, per event.
MAX_WAITING = 20
WINDOW_SECONDS = 600
REQUESTS = Throttle(
    "newcomer-requests",
    WINDOW_SECONDS,
    address=ADDRESS_REQUESTS_ALLOWED,
    event=EVENT_REQUESTS_ALLOWED,
)


class NotThisPhone(TournamentError):
    """The phone has not proven to be this player's (the page answers 403)."""

    kind = "forbidden"


class RequestsBlocked(TournamentError):
    """Too many requests from this address or for this event (the page answers 429)."""

    kind = "rejected"


def _not_closed(event: Event) -> None:
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("event_closed")


@transaction.atomic
def self_check_in_set(*, event: Event, open: bool, actor: str = "") -> Event:
    """Open self check-in for the event, or close it (phones then see it closed at once).
    Setting it as it already is changes nothing and logs nothing."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if open:
        _not_closed(event)
    if event.self_check_in == open:
        return event
    event.self_check_in = open
    Event.objects.filter(pk=event.pk).update(self_check_in=open)
    if open:
        log_action(event, actor, "self_check_in_opened")
    else:
        log_action(event, actor, "self_check_in_closed")
    return event


def _open_for_phones(event: Event) -> None:
    if not event.self_check_in or event.status == Event.Status.CLOSED:
        raise NotAllowed("self_check_in_closed")


@transaction.atomic
def self_check_in(*, event: Event, entry: Entry, proven: Entry | None) -> Entry:
    """The player checks in from their own phone: `proven` is whom the phone has proven to be
    (the identity cookie, or the code just typed); it must be `entry`'s player: one phone
    checks in one person. Refused while self check-in is closed, and for a withdrawn player.
    A player already checked in stays as they were (a second tap changes nothing)."""
    event = Event.objects.get(pk=event.pk)
    _open_for_phones(event)
    if proven is None or proven.pk != entry.pk or entry.event_id != event.pk:
        raise NotThisPhone("self_check_in_not_yours", name=entry.player.name)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.withdrawn:
        raise NotAllowed("player_withdrawn", name=entry.player.name)
    if entry.checked_in:
        return entry
    fields = checked_in_by(PHONE)
    for name, value in fields.items():
        setattr(entry, name, value)
    entry.save(update_fields=list(fields))
    log_action(event, "", "self_checked_in", player=entry.player_id)
    return entry


@transaction.atomic
def newcomer_ask(*, event: Event, name: object, address: str) -> NewcomerRequest:
    """Someone not on the list asks to be entered, from their phone at `address`. Refused
    while self check-in is closed, for a name entered already (they find it instead), past
    the throttle or with MAX_WAITING requests waiting. The same name asked again while it
    waits is the same request (not counted again)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    _open_for_phones(event)
    cleaned = clean_name(name)
    key = name_key(cleaned)
    entered = event.entries.filter(withdrawn=False).values_list("player__name", flat=True)
    for known in entered:
        if name_key(known) == key:
            raise TournamentError("newcomer_entered", name=known)
    waiting = list(selectors.waiting(event))
    for request in waiting:
        if name_key(request.name) == key:
            return request
    if len(waiting) >= MAX_WAITING:
        raise RequestsBlocked("newcomer_blocked", minutes=WINDOW_SECONDS // 60)
    counted = REQUESTS.count(address=address, event=event.pk)
    if not counted.within:
        if counted.just_past:  # one line a window, not one a refused request
            log.warning(
                "newcomer requests refused for event %s (%s from one address, %s for the "
                "event in %ss)",
                event.pk,
                counted["address"],
                counted["event"],
                WINDOW_SECONDS,
            )
        raise RequestsBlocked("newcomer_blocked", minutes=WINDOW_SECONDS // 60)
    request = NewcomerRequest.objects.create(event=event, name=cleaned)
    log_action(event, "", "newcomer_asked", name=cleaned)
    return request


def _waiting(request: NewcomerRequest) -> NewcomerRequest:
    found = NewcomerRequest.objects.select_for_update().filter(pk=request.pk).first()
    if found is not None and found.entry_id is not None:
        found = None
    if found is None:
        raise NotAllowed("newcomer_answered", name=request.name)
    return found


@transaction.atomic
def newcomer_accept(*, request: NewcomerRequest, actor: str = "", by=None) -> Entry:
    """Enter the newcomer (players_register: a name the club knows is that member) and check
    them in; the request is answered and gone. `by` must run the event. Refused for the name
    of a player who withdrew from the event (the organiser reinstates them, or declines)."""
    request = _waiting(request)
    event = request.event
    entry = players_register(event=event, names=[request.name], actor=actor, by=by)[0]
    if entry.withdrawn:  # the name of a player who withdrew: reinstate them, or decline
        raise NotAllowed("player_withdrawn", name=entry.player.name)
    if not entry.checked_in:
        fields = checked_in_by(ORGANISER)
        Entry.objects.filter(pk=entry.pk).update(**fields)
        for name, value in fields.items():
            setattr(entry, name, value)
    request.entry = entry  # kept until the phone that asked comes for it (newcomer_collect)
    request.save(update_fields=["entry"])
    log_action(event, actor, "newcomer_accepted", player=entry.player_id, name=entry.player.name)
    return entry


@transaction.atomic
def newcomer_collect(*, event: Event, request_id: int) -> NewcomerRequest:
    """The phone that asked (its signed cookie names `request_id`) comes back. Once the
    organiser accepted, the request's `entry` is whom the phone is proven as, once (the
    request is gone); while it waits, `entry` is None. NotAllowed("newcomer_gone") once it
    was declined or collected."""
    # Locked alone: PostgreSQL locks no row of an outer join's nullable side (the entry).
    request = NewcomerRequest.objects.select_for_update().filter(pk=request_id, event=event).first()
    if request is None:
        raise NotAllowed("newcomer_gone")
    if request.entry_id is not None:
        request.entry = Entry.objects.select_related("player").get(pk=request.entry_id)
        request.delete()
        log_action(event, "", "newcomer_phone_proven", player=request.entry.player_id)
    return request


@transaction.atomic
def newcomer_decline(*, request: NewcomerRequest, actor: str = "") -> str:
    """Decline the request (no one by that name is coming, or it was a joke): it is gone.
    Returns the name asked."""
    request = _waiting(request)
    request.delete()
    log_action(request.event, actor, "newcomer_declined", name=request.name)
    return request.name
