"""A round's reads: its tables and byes as published, its progress and the actions it allows
(ROUND_ACTIONS, the rules the services refuse by), and where a player sat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Count,
    Exists,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import DealEntry, Game
from scoring.names import name_key
from scoring.names import search as search_names
from tournaments.common import bridge
from tournaments.common.vocabulary import TableStatus
from tournaments.events.selectors.entries import player_names
from tournaments.models import PUBLIC_ROUND_STATUSES, Bye, Event, Round, Table


def seat_names_and_byes(
    event: Event, round_: Round | None
) -> tuple[dict[int, str], frozenset[int], frozenset[int]]:
    """The event's players' names, who of them has a bye in `round_` and who has withdrawn,
    in one query (what "where do I sit" matches names against)."""
    rows = event.entries.all()
    if round_ is not None:  # else no bye: the Exists would ask for round None's
        rows = rows.annotate(
            bye=Exists(Bye.objects.filter(round=round_, player=OuterRef("player")))
        )
    fields = ("player_id", "player__name", "withdrawn", *(("bye",) if round_ is not None else ()))
    names, byes, withdrawn = {}, set(), set()
    for pid, name, gone, *has_bye in rows.values_list(*fields):
        names[pid] = name
        if has_bye and has_bye[0]:
            byes.add(pid)
        if gone:
            withdrawn.add(pid)
    return names, frozenset(byes), frozenset(withdrawn)


def round_tables(round_: Round) -> list[Table]:
    return list(
        round_.tables.select_related("seat_0", "seat_1", "seat_2", "game").order_by("number")
    )


def round_byes(round_: Round) -> list:
    return list(round_.byes.select_related("player").order_by("player__name"))


#: The rounds the public may see: a draft may still change.
PUBLIC_ROUNDS = PUBLIC_ROUND_STATUSES


def published_rounds(event: Event):
    return event.rounds.filter(status__in=PUBLIC_ROUNDS)


def published_round(event: Event, number: int) -> Round:
    """A round the public may see: published or closed (a draft may still change), with
    `games_version` (as newest_published_round): what names its kept page."""
    rounds = published_rounds(event).filter(number=number)
    return rounds.annotate(games_version=Coalesce(Sum("tables__game__version"), 0)).get()


def newest_published_round(event: Event) -> Round | None:
    """The round players ask about, with `games_version`: the sum of its games' versions,
    which goes up with every change at any of its tables (what a poll compares)."""
    rounds = published_rounds(event).order_by("-number")
    return rounds.annotate(games_version=Coalesce(Sum("tables__game__version"), 0)).first()


def _with_deals(tables):
    """Tables with players and game, and `deals`: their game's live deals so far."""
    live = (
        DealEntry.objects.filter(game=OuterRef("game"), undone_at__isnull=True)
        .order_by()
        .values("game")
        .annotate(count=Count("pk"))
        .values("count")
    )
    related = tables.select_related("round", "seat_0", "seat_1", "seat_2", "game")
    return related.annotate(deals=Coalesce(Subquery(live), 0))


def round_tables_played(round_: Round) -> list[Table]:
    """The round's tables in order, each with its players, game and live deal count."""
    return list(_with_deals(round_.tables.all()).order_by("number"))


def player_tables(event: Event, player_id: int) -> list[Table]:
    """The player's tables in the event's published rounds, oldest round first."""
    sits = Q(seat_0_id=player_id) | Q(seat_1_id=player_id) | Q(seat_2_id=player_id)
    tables = Table.objects.filter(sits, round__in=published_rounds(event))
    return list(_with_deals(tables).order_by("round__number"))


def player_byes(event: Event, player_id: int) -> list:
    return list(bridge.counted_byes(event).filter(player_id=player_id).order_by("round__number"))


NamedIds = list[tuple[int, str]]


def players_matching(event: Event, text: str) -> tuple[NamedIds, NamedIds]:
    """The event's players a typed name may mean, by name (scoring.names.search: Latin or
    Cyrillic, no case or accents): (whose whole name it is, everyone it may mean)."""
    return names_matching(player_names(event), text)


def names_matching(names: dict[int, str], text: str) -> tuple[NamedIds, NamedIds]:
    """players_matching among `names` (id → name) already read."""
    found = search_names(text, names)

    def named(ids) -> NamedIds:
        return sorted(((pid, names[pid]) for pid in ids), key=lambda p: (name_key(p[1]), p[0]))

    return named(found.exact), named(found.exact) + named(found.partial)


# --- a table's state --------------------------------------------------------------------------

#: What each game result makes of a table, before how the organisers settled it counts.
STATUS_OF_RESULT = {
    Game.Result.IN_PLAY: TableStatus.PLAYING,
    Game.Result.FINISHED: TableStatus.FINISHED,
    Game.Result.CONFIRMED: TableStatus.CONFIRMED,
    Game.Result.VOID: TableStatus.VOID,
}
#: The states whose game is over (its result in, confirmed or not).
OVER = frozenset({TableStatus.FINISHED, TableStatus.CONFIRMED, TableStatus.ADJUSTED})
#: The states that settle a table: a round closes once each of its tables is in one.
SETTLED = frozenset({TableStatus.CONFIRMED, TableStatus.ADJUSTED, TableStatus.VOID})


@dataclass(frozen=True)
class TableState:
    """How far a table's result has come and how the organisers settled it (table_state
    decides; rounds.presenters.tables.state_words words it for every page and export)."""

    status: TableStatus  # the API's table "status"
    published: bool = True  # the table has its game (a draft's has none yet)
    deals: int | None = None  # its live deals, where the reader counted them
    placed: bool = True  # a finished game has its placings (else its last tricks are needed)
    ended_early: bool = False  # confirmed as it stood when a player left (walkouts)
    ended_at_time: bool = False  # confirmed as it stood when the round clock ran out (clock)

    @property
    def over(self) -> bool:
        return self.status in OVER

    @property
    def settled(self) -> bool:
        return self.status in SETTLED

    @property
    def confirmed(self) -> bool:
        return self.status in (TableStatus.CONFIRMED, TableStatus.ADJUSTED)

    @property
    def open(self) -> bool:
        """The organisers may still act on it after a walkout: in play or awaiting confirmation."""
        return self.published and self.status in (TableStatus.PLAYING, TableStatus.FINISHED)


def table_state(table: Table, deals: int | None = None) -> TableState:
    """The one decision of a table's state, from its game's result and its outcome."""
    game = table.game
    if table.outcome == Table.Outcome.VOID or (game is not None and game.result == "void"):
        return TableState(TableStatus.VOID, published=game is not None)
    if game is None:
        return TableState(TableStatus.PLAYING, published=False, deals=0)
    status = STATUS_OF_RESULT.get(game.result, TableStatus.PLAYING)
    confirmed = status == TableStatus.CONFIRMED
    if confirmed and table.outcome == Table.Outcome.ADJUSTED:
        status = TableStatus.ADJUSTED
    return TableState(
        status,
        deals=deals,
        placed=game.placings is not None,
        ended_early=confirmed and table.outcome == Table.Outcome.ENDED_EARLY,
        ended_at_time=confirmed and table.outcome == Table.Outcome.ENDED_AT_TIME,
    )


#: The game results of a table whose game is over (counted in the database: rounds_progress).
FINISHED = tuple(result for result, status in STATUS_OF_RESULT.items() if status in OVER)


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
        """Tables whose outcome is final: confirmed or void."""
        return self.confirmed + self.void

    @property
    def unsettled(self) -> int:
        return self.tables - self.settled

    @property
    def all_settled(self) -> bool:
        """Whether the round may close (the one rule: round_close asks it too): each of its
        tables is settled. A round with no tables has nothing to wait for."""
        return self.unsettled == 0


#: What a round's tables are counted by, in one query (rounds_progress, round_progress_of).
PROGRESS_COUNTS = {
    "tables": Count("pk"),
    "finished": Count("pk", filter=Q(game__result__in=FINISHED)),
    "confirmed": Count("pk", filter=Q(game__result=Game.Result.CONFIRMED)),
    "void": Count("pk", filter=Q(game__result=Game.Result.VOID)),
}


def rounds_progress(event: Event) -> list[RoundProgress]:
    """Every round of the event with its results counted, in two queries."""
    counts = {
        row["round_id"]: row
        for row in Table.objects.filter(round__event=event)
        .values("round_id")
        .annotate(**PROGRESS_COUNTS)
        .order_by()
    }
    progress = []
    for round_ in event.rounds.order_by("number"):
        row = counts.get(round_.pk, {})
        progress.append(
            RoundProgress(round=round_, **{key: row.get(key, 0) for key in PROGRESS_COUNTS})
        )
    return progress


def round_progress_of(round_: Round) -> RoundProgress:
    """One round's results counted, in one query."""
    return RoundProgress(round=round_, **round_.tables.aggregate(**PROGRESS_COUNTS))


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
    states = [table_state(table) for table in tables]
    return RoundProgress(
        round=round_,
        tables=len(tables),
        finished=sum(1 for state in states if state.over),
        confirmed=sum(1 for state in states if state.confirmed),
        void=sum(1 for state in states if state.status == TableStatus.VOID),
    )


def table_of(round_: Round, number: int) -> Table:
    return round_.tables.select_related("round__event", "game").get(number=number)


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
    Round.Status.CLOSED: frozenset(),  # over; the event moves on (a round more, or its end)
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


def round_to_build(event: Event, last: Round | None) -> int | None:
    """The number of the round the organiser can build now, given the event's newest round;
    None while a round is under way, once every planned round is played (the organiser adds
    a round or ends the event) or once the event is closed (one round at a time)."""
    if event.status == Event.Status.CLOSED:
        return None
    if last is None:
        return 1
    if last.status != Round.Status.CLOSED or last.number >= event.rounds_planned:
        return None
    return last.number + 1


# The round clock's reads (selectors.clock), where the rest of the round's are asked for.
from tournaments.rounds.selectors.clock import (  # noqa: E402, F401
    CLOCK_FIELDS,
    Clock,
    ClockStatus,
    clock_mark,
    clock_marks_of_games,
    clock_of,
    round_at_time,
    table_at_time,
    table_clock,
    table_place,
    tables_over_time,
)
