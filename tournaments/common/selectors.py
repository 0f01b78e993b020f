"""What an address names, read for every feature: an event by its slug, a round by its number."""

from __future__ import annotations

from tournaments.models import Event, Round


def event_by_slug(slug: str) -> Event:
    return Event.objects.select_related("club").get(slug=slug)


def round_by_number(event: Event, number: int) -> Round:
    return event.rounds.get(number=number)
