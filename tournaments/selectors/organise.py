"""Reads for the organiser pages and the round rules the services refuse by (ROUND_ACTIONS)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Count,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import DealEntry, Game
from tournaments import bridge
from tournaments.models import SETTLED_RESULTS, Club, Entry, Event, EventLog, Round, Table
from tournaments.selectors.public import published_rounds


def events_organised_by(user):
    """The events this user runs (listed on the event, or running its club), newest first;
    a superuser sees every event (tournaments.permissions)."""
    events = Event.objects.select_related("club").order_by("-created_at", "-pk")
    if user.is_superuser:
        return events
    return events.filter(Q(organisers=user) | Q(club__organisers=user)).distinct()


def clubs_by_name():
    return Club.objects.order_by("name")


def clubs_run_by(user):
    """The clubs this user may make an event in (tournaments.permissions): the clubs they
    run; a superuser, every club."""
    clubs = clubs_by_name()
    return clubs if user.is_superuser else clubs.filter(organisers=user)


@dataclass(frozen=True)
class EntryCounts:
    entered: int
    checked_in: int
    withdrawn: int


def entry_counts(event: Event) -> EntryCounts:
    counts = event.entries.aggregate(
        entered=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True, withdrawn=False)),
        withdrawn=Count("pk", filter=Q(withdrawn=True)),
    )
    return EntryCounts(**counts)


def event_entries(event: Event, name_contains: str = "") -> list[Entry]:
    entries = event.entries.select_related("player").order_by("player__name", "pk")
    if name_contains:
        entries = entries.filter(player__name__icontains=name_contains)
    return list(entries)


def entry_of(event: Event, entry_id: int) -> Entry:
    return event.entries.select_related("player", "event").get(pk=entry_id)


FINISHED = (Game.Result.FINISHED, Game.Result.CONFIRMED)


@dataclass(frozen=True)
class RoundProgress:
    """A round and how far its tables' results have come."""

    round: Round
    tables: int
    finished: int  # finished or confirmed
    confirmed: int
    void: int = 0  # set aside: settled without a result

    @property
    def settled(self) -> int:
        """Tables whose outcome is final: confirmed or void (a round closes once all are)."""
        return self.confirmed + self.void

    @property
    def all_settled(self) -> bool:
        return bool(self.tables) and self.settled == self.tables


def rounds_progress(event: Event) -> list[RoundProgress]:
    """Every round of the event with its results counted, in two queries."""
    counts = {
        row["round_id"]: row
        for row in Table.objects.filter(round__event=event)
        .values("round_id")
        .annotate(
            tables=Count("pk"),
            finished=Count("pk", filter=Q(game__result__in=FINISHED)),
            confirmed=Count("pk", filter=Q(game__result=Game.Result.CONFIRMED)),
            void=Count("pk", filter=Q(game__result=Game.Result.VOID)),
        )
        .order_by()
    }
    progress = []
    for round_ in event.rounds.order_by("number"):
        row = counts.get(round_.pk, {})
        progress.append(
            RoundProgress(
                round=round_,
                tables=row.get("tables", 0),
                finished=row.get("finished", 0),
                confirmed=row.get("confirmed", 0),
                void=row.get("void", 0),
            )
        )
    return progress


def round_tables_activity(round_: Round) -> list[Table]:
    """round_tables, each with `deals` (its game's live deals) and `last_entry` (when the
    newest of them was entered, None before the first): the organiser's per-table progress,
    in the same one query."""
    live = DealEntry.objects.filter(game=OuterRef("game"), undone_at__isnull=True).order_by()
    count = live.values("game").annotate(count=Count("pk")).values("count")
    newest = live.order_by("-entered_at").values("entered_at")[:1]
    tables = round_.tables.select_related("seat_0", "seat_1", "seat_2", "game")
    tables = tables.annotate(deals=Coalesce(Subquery(count), 0), last_entry=Subquery(newest))
    tables = list(tables.order_by("number"))
    for table in tables:
        table.round = round_  # read already: no query per table for its round
    return tables


def round_progress(round_: Round, tables: list[Table]) -> RoundProgress:
    """How far the results of the round's tables (already fetched with their games) have come."""
    return RoundProgress(
        round=round_,
        tables=len(tables),
        finished=sum(1 for t in tables if t.game and t.game.result in FINISHED),
        confirmed=sum(1 for t in tables if t.game and t.game.confirmed),
        void=sum(1 for t in tables if t.game and t.game.result == Game.Result.VOID),
    )


def table_of(round_: Round, number: int) -> Table:
    return round_.tables.select_related("round__event", "game").get(number=number)


def event_log(event: Event, limit: int | None = None) -> list[EventLog]:
    entries = event.log.order_by("-at", "-pk")
    return list(entries[:limit] if limit else entries)


def event_tables(event: Event, *, with_deals: bool = False) -> list[Table]:
    """Every table of the event's published rounds, by round and number, with its players
    and game; with_deals adds each game's live deals (as `game.live_entries`) in one query."""
    tables = (
        Table.objects.filter(round__in=published_rounds(event))
        .select_related("round", "seat_0", "seat_1", "seat_2", "game")
        .order_by("round__number", "number")
    )
    if with_deals:
        live = DealEntry.objects.filter(undone_at__isnull=True).order_by("number")
        tables = tables.prefetch_related(Prefetch("game__entries", live, to_attr="live_entries"))
    return list(tables)


def event_byes(event: Event) -> list:
    return list(
        bridge.counted_byes(event)
        .select_related("player")
        .order_by("round__number", "player__name")
    )


#: How long a round may be "being built" before the page says the build seems lost and
#: offers to build it again: pairing takes well under a second (docs/performance.md), so a
#: minute means no worker took the task (stopped, or the broker lost the message).
STUCK_SECONDS = 60

#: What the organiser can do to a round in each state (docs/rounds.md). The one rule: the
#: services refuse what is not listed here, and the pages offer only what is.
ROUND_ACTIONS = {
    Round.Status.PENDING: frozenset(),  # the worker builds it; stuck: see round_actions
    Round.Status.FAILED: frozenset({"retry", "delete"}),
    Round.Status.DRAFT: frozenset({"swap", "publish", "retry", "delete"}),
    Round.Status.PUBLISHED: frozenset({"close"}),
    Round.Status.CLOSED: frozenset(),  # over; the event moves on to the next round
}


def round_stuck(round_: Round, now: datetime | None = None) -> bool:
    """Whether the round has been waiting for its build longer than STUCK_SECONDS."""
    if round_.status != Round.Status.PENDING:
        return False
    waited = (now or timezone.now()) - round_.requested_at
    return waited.total_seconds() > STUCK_SECONDS


def round_actions(round_: Round, now: datetime | None = None) -> frozenset[str]:
    """The actions the round's state allows now; a stuck build may be retried or deleted.
    ("close" is offered for a published round; round_close itself decides whether every
    table is settled.)"""
    if round_stuck(round_, now):
        return frozenset({"retry", "delete"})
    return ROUND_ACTIONS[round_.status]


def round_field_size(event: Event, number: int) -> int:
    """How many players round `number` would pair now (bridge.round_field's rule)."""
    return bridge.round_field(event, number).count()


def joining_round(event: Event) -> int:
    """The first round a player entered now can play: the next one not built yet (a round
    being built, failed or deleted takes them when it is built)."""
    built = (Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.CLOSED)
    return event.rounds.filter(status__in=built).count() + 1


def round_to_build(event: Event, last: Round | None) -> int | None:
    """The number of the round the organiser can build now, given the event's newest round;
    None while a round is under way or once the event is closed (one round at a time)."""
    if event.status == Event.Status.CLOSED:
        return None
    if last is None:
        return 1
    return last.number + 1 if last.status == Round.Status.CLOSED else None


def open_table_of(event: Event, player_id: int) -> Table | None:
    """The table of a published round where the player still sits and whose result is not
    settled (neither confirmed nor void): what a withdrawal leaves for the organiser."""
    sits = Q(seat_0_id=player_id) | Q(seat_1_id=player_id) | Q(seat_2_id=player_id)
    return (
        Table.objects.filter(sits, round__event=event, round__status=Round.Status.PUBLISHED)
        .exclude(game__result__in=SETTLED_RESULTS)
        .select_related("round")
        .order_by("-round__number", "number")
        .first()
    )
