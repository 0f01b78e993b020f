"""Who a phone has proven to be at an event: one identity for a player's confirmations, their
seat on "Where do I sit?" and (later) their check-in (docs/confirmations.md).

A player's entry has a personal code (`Entry.code`). A phone that showed it (typed, or the
printed slip's link, which carries a MAC of it rather than the code) keeps a cookie naming the
entry with a MAC of (entry, code) under the site's secret key: the phone cannot forge it for
another entry, and renewing the code ends every phone that proved with the old one. The
cookie is the identity; nothing about it is stored.
"""

from __future__ import annotations

import hmac

from django.urls import reverse
from django.utils.crypto import salted_hmac

from scoring.models import Game
from scoring.signals import Identity, Person
from tournaments.models import Entry, Event, Table

#: How long a phone stays proven: an evening, and the next club night of the same event.
IDENTITY_MAX_AGE = 14 * 24 * 3600
_PHONE = "tournaments.identity.phone"
_SLIP = "tournaments.identity.slip"


def identity_cookie(event: Event | int) -> str:
    """The cookie a phone keeps its identity at this event in (the seat page's "This is me")."""
    return f"me-{getattr(event, 'pk', event)}"


def _mac(salt: str, entry_id: int, code: str, length: int) -> str:
    return salted_hmac(salt, f"{entry_id}|{code}").hexdigest()[:length]


def identity_value(entry: Entry) -> str:
    """What the proven phone's cookie holds: the entry and a MAC of its current code."""
    return f"{entry.pk}.{_mac(_PHONE, entry.pk, entry.code, 32)}"


def slip_token(entry: Entry) -> str:
    """The secret part of the slip's link: a MAC of the code, so a photo of the QR is worth the
    code and no more, and a renewed code makes new slips."""
    return _mac(_SLIP, entry.pk, entry.code, 24)


def slip_entry(event: Event, entry_id: int, token: str) -> Entry | None:
    """The entry a slip's link proves, or None (no such entry, or a renewed code)."""
    entry = event.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None or not hmac.compare_digest(slip_token(entry), str(token)):
        return None
    return entry


def proven_entry(event: Event | int, value: object) -> Entry | None:
    """The entry this cookie value proves at the event, or None (none, forged, revoked)."""
    if not isinstance(value, str) or "." not in value:
        return None
    entry_id, _dot, mac = value.partition(".")
    if not entry_id.isdigit() or len(entry_id) > 12:
        return None
    event_id = getattr(event, "pk", event)
    entry = Entry.objects.select_related("player").filter(pk=entry_id, event_id=event_id).first()
    if entry is None or not hmac.compare_digest(identity_value(entry), value):
        return None
    return entry


def person_key(entry: Entry) -> str:
    """The one key of this player at this event: what their identity speaks for."""
    return f"entry:{entry.pk}"


def identity_at_table(game: Game, cookies) -> Identity | None:
    """Scoring's question (scoring.signals.seat_identity): who this phone has proven to be at
    the event whose table plays `game`, and their seat there now (a substitute's seat is the
    substitute's); None for a game no event owns."""
    table = Table.objects.select_related("round__event").filter(game=game).first()
    if table is None:
        return None
    event = table.round.event
    prove_url = reverse("tournaments:seat", args=[event.slug])
    entry = proven_entry(event, cookies.get(identity_cookie(event)))
    if entry is None:
        return Identity(person=None, prove_url=prove_url)
    seats = table.seat_ids
    seat = seats.index(entry.player_id) if entry.player_id in seats else None
    return Identity(Person(person_key(entry), entry.player.name, seat), prove_url)
