"""An event's public pages in words: the list of events, an event's home and its rounds.

The templates get labels and flags from here, never a stored status to compare."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from scoring.names import near_pairs
from tournaments.club_models import NewcomerRequest
from tournaments.events.selectors.check_in import missing_entries, newcomers_waiting
from tournaments.events.selectors.entries import EntryCounts, entry_counts
from tournaments.models import Entry, Event, Round
from tournaments.rounds.presenters.tables import round_over
from tournaments.rounds.selectors import RoundProgress, round_to_build
from tournaments.rounds.services.pins import pins_open
from tournaments.rounds.services.rounds import too_few_players

#: An event's state on its home page, after "Status".
EVENT_STATES = {
    Event.Status.RUNNING: gettext_lazy("being played"),
    Event.Status.REGISTRATION: gettext_lazy("taking entries"),
    Event.Status.CLOSED: pgettext_lazy("the event has ended", "over"),
}
#: The headings of the list of events, one group per state.
EVENT_GROUPS = {
    Event.Status.RUNNING: gettext_lazy("Being played"),
    Event.Status.REGISTRATION: gettext_lazy("Taking entries"),
    Event.Status.CLOSED: pgettext_lazy("events that have ended", "Over"),
}


@dataclass(frozen=True)
class EventGroup:
    key: str  # for the heading's id
    heading: str
    events: list[Event]


def event_groups(events: list[Event]) -> list[EventGroup]:
    """The events (already in their order: selectors.events_listed) under their states."""
    groups: list[EventGroup] = []
    for event in events:
        if not groups or groups[-1].key != event.status:
            groups.append(EventGroup(event.status, str(EVENT_GROUPS[event.status]), []))
        groups[-1].events.append(event)
    return groups


def running(events: list[Event]) -> list[Event]:
    return [event for event in events if event.status == Event.Status.RUNNING]


@dataclass(frozen=True)
class RoundLink:
    """A public round on the event's home: its number and whether it is over."""

    number: int
    over: bool


def round_state(progress: RoundProgress | None, event: Event) -> str:
    """The newest round's state in a sentence, for the event's home page."""
    if progress is None:
        return _("No round has been drawn yet.")
    round_, number = progress.round, progress.round.number
    if round_.status == Round.Status.PUBLISHED:
        return ngettext(
            "Round %(number)s is being played: %(done)s of %(total)s table has a confirmed result.",
            "Round %(number)s is being played: %(done)s of %(total)s tables have a confirmed "
            "result.",
            progress.tables,
        ) % {"number": number, "done": progress.confirmed, "total": progress.tables}
    if round_.status == Round.Status.CLOSED:
        if event.status == Event.Status.CLOSED:
            return _("Round %(number)s is over, and so is the event.") % {"number": number}
        if number >= event.rounds_planned:
            return _("Round %(number)s, the last planned round, is over.") % {"number": number}
        return _("Round %(number)s is over; the next round has not been drawn yet.") % {
            "number": number
        }
    return _("Round %(number)s is being drawn.") % {"number": number}


def event_home(event: Event, progress: list[RoundProgress]) -> dict:
    """The event's home page: its state, how many rounds are over, the public rounds."""
    published = [p.round for p in progress if p.round.is_public]
    return {
        "state": EVENT_STATES[event.status],
        "rounds_played": sum(1 for p in progress if round_over(p.round)),
        "round_state": round_state(progress[-1] if progress else None, event),
        "published": [RoundLink(r.number, round_over(r)) for r in published],
        "current": published[-1] if published else None,
        # the PIN entry only while a PIN can open a table (not between rounds, not after)
        "pin_open": pins_open(event, published[-1] if published else None),
    }


@dataclass(frozen=True)
class Alike:
    """Two entries whose names look alike ("Ivan Petrof" beside "Ivan Petrov"): one person
    entered twice? The page offers to delete those that never played, and to merge."""

    first: Entry
    second: Entry
    deletable: list[Entry]


def names_alike(entries: list[Entry], seated: set[int]) -> list[Alike]:
    """The pairs of the event's entries whose names are near (scoring.names.near), the newer
    entry first (the likelier mistake); `seated`: the players who have played (not deletable)."""
    by_name = {entry.player.name: entry for entry in sorted(entries, key=lambda e: e.pk)}
    pairs = near_pairs(list(by_name), [])
    alike = []
    for name, other in pairs:
        newer, older = by_name[name], by_name[other]
        if newer.pk < older.pk:
            newer, older = older, newer
        both = [newer, older]
        alike.append(Alike(newer, older, [e for e in both if e.player_id not in seated]))
    return alike


def check_in_what(action: str, values: dict) -> str:
    """The log's words for self check-in (tournaments.events.services.check_in; "" for any
    other action); `values` holds the player's or the newcomer's name as "name"."""
    if action == "self_check_in_opened":
        return _("Self check-in opened: players check in from their phones.")
    if action == "self_check_in_closed":
        return _("Self check-in closed.")
    if action == "self_checked_in":
        return _("%(name)s checked in from their phone.") % values
    if action == "check_in_undone":
        return _("%(name)s's check-in from their phone undone.") % values
    if action == "newcomer_asked":
        return _("%(name)s asked to be entered.") % values
    if action == "newcomer_accepted":
        return _("%(name)s's request accepted: entered and checked in.") % values
    if action == "newcomer_declined":
        return _("%(name)s's request declined.") % values
    if action == "newcomer_phone_proven":
        return _("%(name)s's phone, which asked to be entered, now speaks for them.") % values
    return ""


# --- the players page: the counts, and who is arriving --------------------------------------


def counts_context(event: Event, counts: EntryCounts | None = None) -> dict:
    """The players page's counts line and the step after check-in: building the next round,
    once enough players are checked in for a table (round_create's rule, too_few_players) and
    no round is under way."""
    counts = counts or entry_counts(event)
    next_number = round_to_build(event, event.rounds.order_by("-number").first())
    ready = next_number is not None and too_few_players(counts.checked_in) is None
    return {"counts": counts, "next_number": next_number if ready else None}


@dataclass(frozen=True)
class Arrivals:
    """Who is arriving, on the organiser's players page (polled while self check-in is open):
    whether players check themselves in, the counts (how many from their phones), who has not
    arrived yet and the newcomers waiting for an answer."""

    open: bool
    counts: EntryCounts
    missing: list[Entry]
    newcomers: list[NewcomerRequest]
    #: When this was read (seconds since the epoch): the next poll asks for what came since.
    as_of: float = field(default_factory=time.time)

    @property
    def polled(self) -> bool:
        """Polled while phones may check in or newcomers wait."""
        return self.open or bool(self.newcomers)


def arrivals(
    event: Event, counts: EntryCounts | None = None, entries: list[Entry] | None = None
) -> Arrivals:
    """The arrivals; `counts` and every entry of the event (`entries`), where the page has
    read them already, are not read again."""
    missing = (
        missing_entries(event)
        if entries is None
        else [e for e in entries if not e.checked_in and not e.withdrawn]
    )
    return Arrivals(
        open=event.self_check_in and not event.is_closed,
        counts=counts or entry_counts(event),
        missing=missing,
        newcomers=newcomers_waiting(event),
    )
