"""What every service module shares: the audit trail, slugs, and marking standings stale."""

from __future__ import annotations

from django.db.models import F
from django.utils.text import slugify

from scoring.names import in_latin
from tournaments.common.queue import enqueue_on_commit
from tournaments.models import Club, ClubLog, Event, EventLog


def log_action(event: Event, actor: str, action: str, reason: str = "", **data) -> None:
    """One line of the event's audit trail (EventLog): its one writer."""
    EventLog.objects.create(event=event, actor=actor, action=action, data=data, reason=reason)


def log_club_action(club: Club, actor: str, action: str, **data) -> None:
    """One line of the club's audit trail (ClubLog): its one writer."""
    ClubLog.objects.create(club=club, actor=actor, action=action, data=data)


def unique_slug(model, text: str) -> str:
    """The one address rule for clubs and events: the name in Latin letters (Bulgarian
    Cyrillic by the official system, scoring.names.in_latin), as a slug, at most 40
    characters, numbered -2, -3… when taken; a name with no letters is named by its kind.
    A slug once given never changes (addresses on printed posters and slips keep working)."""
    base = slugify(in_latin(text))[:40].strip("-") or model._meta.model_name
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def standings_changed(event: Event | int) -> None:
    """What the standings are built from has changed: bump the event's results_version (the
    one test of staleness: a snapshot is current while it has the event's value) in the
    caller's transaction, and enqueue a build once it commits. Every write that changes a
    result, a bye, a void table, the entries, the rounds closed or a standings setting calls
    this; a lost enqueue is redone by the sweep, which looks for the same difference."""
    event_id = event if isinstance(event, int) else event.pk
    Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
    if isinstance(event, Event):
        event.refresh_from_db(fields=["results_version"])
    enqueue_on_commit("build_standings", event_id)
