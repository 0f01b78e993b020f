"""What an address names, read for every feature: a club or an event by its slug, a round by
its number."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournaments.common.errors import TournamentError
from tournaments.models import Club, Event, Round


def event_by_slug(slug: str) -> Event:
    return Event.objects.select_related("club").get(slug=slug)


def round_by_number(event: Event, number: int) -> Round:
    return event.rounds.get(number=number)


def club_by_slug(slug: str) -> Club:
    return Club.objects.get(slug=slug)


def active_user_named(username: object):
    """The active account with this username, the one a club's or an event's organisers add;
    refused (user_unknown) when there is none."""
    user_model = get_user_model()
    username = str(username).strip()
    user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None or not user.is_active:
        raise TournamentError("user_unknown", name=username)
    return user
