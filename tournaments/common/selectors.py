"""What an address names, read for every feature: a club or an event by its slug, a round by
its number."""

from __future__ import annotations

from tournaments.models import Club, Event, Round


def event_by_slug(slug: str) -> Event:
    return Event.objects.select_related("club").get(slug=slug)


def round_by_number(event: Event, number: int) -> Round:
    return event.rounds.get(number=number)


def club_by_slug(slug: str) -> Club:
    return Club.objects.get(slug=slug)
