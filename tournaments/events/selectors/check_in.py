"""Self check-in, read: whom a phone may look for, who has not arrived yet, the newcomers
waiting for the organiser's answer (tournaments.events.services.check_in)."""

from __future__ import annotations

from datetime import datetime

from tournaments.club_models import NewcomerRequest
from tournaments.common.vocabulary import CHECK_IN_BY_PHONE
from tournaments.models import Entry, Event


def check_in_names(event: Event) -> dict[int, str]:
    """The players a phone may check in (player id → name): everyone entered, not withdrawn."""
    rows = event.entries.filter(withdrawn=False).values_list("player_id", "player__name")
    return dict(rows)


def missing_entries(event: Event) -> list[Entry]:
    """The players entered, not withdrawn and not checked in yet, by name."""
    entries = event.entries.filter(checked_in=False, withdrawn=False).select_related("player")
    return list(entries.order_by("player__name", "pk"))


def checked_in_from_phones_since(event: Event, moment: datetime) -> list[Entry]:
    """The players who checked themselves in from their phones at `moment` or later."""
    entries = event.entries.filter(checked_in=True, checked_in_by=CHECK_IN_BY_PHONE)
    entries = entries.filter(withdrawn=False, checked_in_at__gte=moment)
    return list(entries.select_related("player").order_by("pk"))


def newcomers_waiting(event: Event) -> list[NewcomerRequest]:
    """The newcomers' requests waiting for the organiser's answer, oldest first."""
    return list(waiting(event).order_by("asked_at", "pk"))


def newcomer_of(event: Event, request_id: int) -> NewcomerRequest:
    """The event's waiting request by id (NewcomerRequest.DoesNotExist: answered or none)."""
    return waiting(event).select_related("event").get(pk=request_id)


def waiting(event: Event):
    """The event's requests not answered yet (an accepted one names its entry)."""
    return event.newcomers.filter(entry__isnull=True)


def entry_of_player(event: Event, player_id: int) -> Entry | None:
    """The player's entry in the event, or None."""
    return event.entries.select_related("player").filter(player_id=player_id).first()
