"""Who may run what: an event's organisers run that event and its tables' games, a club's
organisers (``Club.organisers``) run the club (its members, settings, seasons), no other.

An authentication backend answering object permissions, so every view asks Django the same
question — ``user.has_perm("tournaments.change_event", event)``,
``user.has_perm("tournaments.change_club", club)`` or
``user.has_perm("scoring.change_game", game)`` — and a superuser passes by Django's own rule.
The scoring app never imports this module: it only asks ``has_perm``.
"""

from __future__ import annotations

from django.contrib.auth.backends import BaseBackend

from scoring.models import Game

from .models import Club, Event

EVENT_PERMS = {"tournaments.change_event", "tournaments.view_event"}
GAME_PERMS = {"scoring.change_game", "scoring.view_game"}
CLUB_PERMS = {"tournaments.change_club", "tournaments.view_club"}


def organises(user, event: Event) -> bool:
    """True for an active organiser of this event (superusers are let in by Django itself)."""
    if not (user.is_active and user.is_authenticated):
        return False
    return event.organisers.filter(pk=user.pk).exists()


def runs_club(user, club: Club) -> bool:
    """True for an active organiser of this club (superusers are let in by Django itself)."""
    if not (user.is_active and user.is_authenticated):
        return False
    return club.organisers.filter(pk=user.pk).exists()


def game_event(game: Game) -> Event | None:
    """The event whose table owns this game, if any (standalone games have none)."""
    return Event.objects.filter(rounds__tables__game=game).first()


class EventOrganiserBackend(BaseBackend):
    """Object permissions only; authentication stays with ModelBackend."""

    def has_perm(self, user_obj, perm, obj=None):
        if obj is None or not (user_obj.is_active and user_obj.is_authenticated):
            return False
        if perm in EVENT_PERMS and isinstance(obj, Event):
            return organises(user_obj, obj)
        if perm in CLUB_PERMS and isinstance(obj, Club):
            return runs_club(user_obj, obj)
        if perm in GAME_PERMS and isinstance(obj, Game):
            event = game_event(obj)
            return event is not None and organises(user_obj, event)
        return False
