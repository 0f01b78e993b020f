"""Who may run what. The club is the boundary:

- a club's organisers (``Club.organisers``) run the club — its members, settings, seasons,
  casual games and ratings — and every event of the club;
- an event's listed organisers (``Event.organisers``) run that event only: its players (a new
  name they enter becomes a member of the club, as a night needs its players), rounds,
  tables and results; not the club, not its other events;
- only a club's organisers create an event in the club or list an event's organisers, so an
  event's organisers are always the club's choice;
- superusers (the site's staff) pass everywhere, by Django's own rule.

Two ways to ask the same rule. Views and the API ask Django —
``user.has_perm("tournaments.change_event", event)``, ``("tournaments.change_club", club)``
or ``("scoring.change_game", game)`` — answered by `EventOrganiserBackend`. The services that
cross into a club (creating an event in it, entering its players or members, listing an
event's organisers, its seasons and their nights, its members, settings and casual games)
take the acting account as ``by`` and call `require_club` / `require_event`, which ask the
same ``has_perm`` and refuse with `tournaments.common.errors.Forbidden` (the API's 403), so pages,
API, commands and tasks all get one answer. ``by=None`` is the site's own code or an operator
at the shell (a management command, a task following a write already allowed): no account
to check. The scoring app never imports this module: it only asks ``has_perm``.
"""

from __future__ import annotations

from django.contrib.auth.backends import BaseBackend

from scoring.models import Game
from tournaments.common.errors import Forbidden
from tournaments.models import Club, Event

EVENT_PERMS = {"tournaments.change_event", "tournaments.view_event"}
GAME_PERMS = {"scoring.change_game", "scoring.view_game"}
CLUB_PERMS = {"tournaments.change_club", "tournaments.view_club"}
CHANGE_CLUB = "tournaments.change_club"
CHANGE_EVENT = "tournaments.change_event"


def _active(user) -> bool:
    return bool(user is not None and user.is_active and user.is_authenticated)


def runs_club(user, club: Club) -> bool:
    """True for an active organiser of this club (superusers are let in by Django itself)."""
    if not _active(user):
        return False
    return club.organisers.filter(pk=user.pk).exists()


def listed_on_event(user, event: Event) -> bool:
    """True for an active organiser listed on this event (not its club's: see runs_event)."""
    if not _active(user):
        return False
    return event.organisers.filter(pk=user.pk).exists()


def runs_event(user, event: Event) -> bool:
    """True for the event's own organisers and its club's (superusers: Django)."""
    if not _active(user):
        return False
    return (
        listed_on_event(user, event)
        or Club.organisers.through.objects.filter(club_id=event.club_id, user_id=user.pk).exists()
    )


def require_club(by, club: Club) -> None:
    """Refuse (Forbidden) an account that does not run this club; None: no account to check."""
    if by is not None and not by.has_perm(CHANGE_CLUB, club):
        raise Forbidden("club_not_yours", club=club.name)


def require_event(by, event: Event) -> None:
    """Refuse (Forbidden) an account that does not run this event; None: nothing to check."""
    if by is not None and not by.has_perm(CHANGE_EVENT, event):
        raise Forbidden("event_not_yours", event=event.name)


def game_event(game: Game) -> Event | None:
    """The event whose table owns this game, if any (standalone games have none)."""
    return Event.objects.filter(rounds__tables__game=game).first()


class EventOrganiserBackend(BaseBackend):
    """Object permissions only; authentication stays with ModelBackend."""

    def has_perm(self, user_obj, perm, obj=None):
        if obj is None or not _active(user_obj):
            return False
        if perm in EVENT_PERMS and isinstance(obj, Event):
            return runs_event(user_obj, obj)
        if perm in CLUB_PERMS and isinstance(obj, Club):
            return runs_club(user_obj, obj)
        if perm in GAME_PERMS and isinstance(obj, Game):
            event = game_event(obj)
            return event is not None and runs_event(user_obj, event)
        return False
