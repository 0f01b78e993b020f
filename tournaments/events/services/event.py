"""Writes to clubs and events: creating an event, changing its settings, its organisers."""

from __future__ import annotations

from django.db import transaction

import engine
from scoring.models import Game
from tournaments.common import event_settings
from tournaments.common.errors import NotAllowed, RulesRefused, TournamentError
from tournaments.common.permissions import require_club
from tournaments.common.selectors import active_user_named
from tournaments.common.services import log_action, standings_changed, unique_slug
from tournaments.models import Club, Event, Round


@transaction.atomic
def club_create(*, name: str, slug: str | None = None, creator=None) -> Club:
    """A new club; whoever creates it runs it (``Club.organisers``)."""
    name = event_settings.titled(name, "club")
    club = Club.objects.create(name=name, slug=slug or unique_slug(Club, name))
    if creator is not None and creator.is_authenticated:
        club.organisers.add(creator)
    return club


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    ruleset: str = "blato",
    options: dict | None = None,
    organisers=(),
    seed: int | None = None,
    actor: str = "",
    by=None,
    **settings,
) -> Event:
    """A new event in `club`, made `by` one of the club's organisers (common.permissions;
    None: an operator's command): its rules are checked by the engine, its settings (any of
    event_settings.SETTING_NAMES, the rest take their defaults) by event_settings."""
    require_club(by, club)
    try:
        engine.Rules.build(ruleset, options or {})
    except engine.RuleError as error:
        raise RulesRefused(error) from None
    event = Event(club=club, ruleset=ruleset, options=options or {})
    values = {**event_settings.defaults(), **settings, "name": name}
    event_settings.apply(event, values)
    event.slug = unique_slug(Event, event.name)
    if seed is not None:
        event.seed = seed
    event.save()
    event.organisers.set(organisers)
    log_action(event, actor, "event_created")
    return event


def quorum_follow(event: Event) -> int:
    """The event's quorum for the games not yet confirmed (or void): a game being confirmed
    now follows the new rule; a locked result stays locked. How many games changed."""
    open_games = Game.objects.filter(table__round__event=event).exclude(
        result__in=(Game.Result.CONFIRMED, Game.Result.VOID)
    )
    return open_games.update(quorum=event.confirm_quorum)


@transaction.atomic
def event_update(*, event: Event, actor: str = "", **settings) -> Event:
    """Change a running event's settings (any of event_settings.SETTING_NAMES; those not
    given stay). Rounds already built keep their pairing mode; the standings are rebuilt
    when a setting they depend on changed."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("event_closed")
    built = event.rounds.count()
    planned = settings.get("rounds_planned", event.rounds_planned)
    if isinstance(planned, int) and planned < built:
        raise TournamentError("rounds_fewer_than_built", n=built)
    changed = event_settings.apply(event, settings)
    if not changed:
        return event
    event.save()
    log_action(event, actor, "event_updated", changed={s: getattr(event, s) for s in changed})
    if "confirm_quorum" in changed:
        quorum_follow(event)
    if event_settings.standings_changed(changed):
        standings_changed(event)
    return event


def _open(event: Event) -> Event:
    """The event, row-locked; refused once it is over (its organisers may reopen it)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("event_closed")
    return event


@transaction.atomic
def event_round_add(*, event: Event, actor: str = "") -> Event:
    """One round more than planned, decided on the night: the next round can then be built.
    Closing the last planned round never ends the event by itself (docs/rounds.md)."""
    event = _open(event)
    event.rounds_planned += 1
    event.save(update_fields=["rounds_planned"])
    log_action(event, actor, "round_added", rounds=event.rounds_planned)
    return event


@transaction.atomic
def event_end(*, event: Event, actor: str = "") -> Event:
    """End the event on purpose (after its last planned round, or earlier): its settings,
    players and rounds are then final, and a season counts its standings as final. Refused
    while a round is under way: close it (or delete a draft) first."""
    event = _open(event)
    last = event.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise NotAllowed("round_not_closed", n=last.number)
    event.status = Event.Status.CLOSED
    event.save(update_fields=["status"])
    log_action(event, actor, "event_ended", rounds=event.rounds.count())
    return event


@transaction.atomic
def event_reopen(*, event: Event, actor: str = "") -> Event:
    """Reopen an event that is over (ended too soon, a round more after all): it runs
    again, and a season counts its standings as provisional until it ends again."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.status != Event.Status.CLOSED:
        raise NotAllowed("event_not_closed")
    published = event.rounds.exclude(status__in=(Round.Status.PENDING, Round.Status.FAILED))
    event.status = Event.Status.RUNNING if published.exists() else Event.Status.REGISTRATION
    event.save(update_fields=["status"])
    log_action(event, actor, "event_reopened")
    return event


@transaction.atomic
def organiser_add(*, event: Event, username: str, actor: str = "", by=None):
    """Let another user run this event (its players, rounds and results; not its club). Only
    the club's organisers choose who runs its nights (tournaments.common.permissions)."""
    require_club(by, event.club)
    user = active_user_named(username)
    if event.organisers.filter(pk=user.pk).exists():
        raise TournamentError("organiser_already", name=user.get_username())
    event.organisers.add(user)
    log_action(event, actor, "organiser_added", username=user.get_username())
    return user
