"""Reads for the event pages and the events API: few queries, whatever the field's size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Case,
    Count,
    Exists,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
    When,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from scoring.models import DealEntry, Game, GameChange
from scoring.names import name_key
from scoring.names import search as search_names

from . import bridge
from .models import Club, Entry, Event, EventLog, Player, Round, Standings, Table


@dataclass(frozen=True)
class StandingsView:
    snapshot: Standings | None
    stale: bool
    names: dict[int, str]
    withdrawn: frozenset[int] = frozenset()  # marked in their rows, read live like the names


def event_by_slug(slug: str) -> Event:
    return Event.objects.select_related("club").get(slug=slug)


def player_names(event: Event) -> dict[int, str]:
    return dict(Player.objects.filter(entries__event=event).values_list("pk", "name"))


def standings_newest(event: Event) -> tuple[Standings | None, bool]:
    """The newest stored standings, and whether results have come in since (asked with
    results_newer_than's one query, not by recomputing the stamp)."""
    snapshot = event.standings.first()
    return snapshot, snapshot is None or results_newer_than(event, snapshot.built_at)


def standings_people(event: Event) -> tuple[dict[int, str], frozenset[int]]:
    """The event's players' names, and who has withdrawn, in one query (the standings rows
    name and mark them)."""
    rows = event.entries.values_list("player_id", "player__name", "withdrawn")
    names, withdrawn = {}, set()
    for player, name, gone in rows:
        names[player] = name
        if gone:
            withdrawn.add(player)
    return names, frozenset(withdrawn)


def standings_latest(event: Event) -> StandingsView:
    """standings_newest with the players' names and who has withdrawn."""
    return StandingsView(*standings_newest(event), *standings_people(event))


def round_by_number(event: Event, number: int) -> Round:
    return event.rounds.get(number=number)


def round_tables(round_: Round) -> list[Table]:
    return list(
        round_.tables.select_related("seat_0", "seat_1", "seat_2", "game").order_by("number")
    )


def round_byes(round_: Round) -> list:
    return list(round_.byes.select_related("player").order_by("player__name"))


#: The rounds the public may see: a draft may still change.
PUBLIC_ROUNDS = (Round.Status.PUBLISHED, Round.Status.CLOSED)


def published_rounds(event: Event):
    return event.rounds.filter(status__in=PUBLIC_ROUNDS)


# --- the public pages ---------------------------------------------------------------------------

#: The event settings the standings depend on (bridge.results_stamp hashes them too).
STANDINGS_SETTINGS = ["precedence", "placing_points", "bye_policy", "void_policy"]


def results_newer_than(event: Event, moment: datetime) -> bool:
    """Whether anything the standings are built from changed after `moment`, in one query.

    The exact test, bridge.results_stamp, reads every confirmed game, bye and entry of the
    event into Python and hashes them: right for deciding whether to build, too dear for
    every page view and every 15-second poll of every phone in the room. This asks the
    database instead whether a change that alters the stamp happened after the snapshot was
    built: a game confirmed or reopened (its GameChange row), a round closed, a round with
    byes published, a player entered, or a standings setting changed (the event log). Each
    changes the stamp, so the build that follows it (enqueued by the change, or by the sweep)
    stores a newer snapshot and the answer turns false again. A write that races the build
    itself may be missed for a moment; its own build follows.
    """
    games = GameChange.objects.filter(
        game__table__round__event=event,
        action__in=[
            GameChange.Action.CONFIRMED,
            GameChange.Action.REOPENED,
            GameChange.Action.VOIDED,  # a void table scores under the event's void policy
        ],
        at__gt=moment,
    )
    rounds = event.rounds.filter(
        Q(closed_at__gt=moment) | Q(published_at__gt=moment, byes__isnull=False)
    )
    entries = event.entries.filter(created_at__gt=moment)
    settings = event.log.filter(
        action="event_updated", at__gt=moment, data__changed__has_any_keys=STANDINGS_SETTINGS
    )
    changed = Exists(games) | Exists(rounds) | Exists(entries) | Exists(settings)
    return Event.objects.filter(pk=event.pk).filter(changed).exists()


@dataclass(frozen=True)
class StandingsHead:
    """What a poll needs to tell whether the standings changed: no rows, no names."""

    snapshot_id: int | None
    built_at: datetime | None
    stale: bool


def standings_head(event: Event) -> StandingsHead:
    latest = event.standings.values("pk", "built_at").first()
    if latest is None:
        return StandingsHead(None, None, True)
    stale = results_newer_than(event, latest["built_at"])
    return StandingsHead(latest["pk"], latest["built_at"], stale)


def standings_order(event: Event) -> tuple[str, ...]:
    """The metrics that rank this event's players, most important first (ending on "lot")."""
    return bridge.standings_config(event).order


def events_listed() -> list[Event]:
    """Running events first, then those taking entries, then closed ones; newest first."""
    listed = Case(
        When(status=Event.Status.RUNNING, then=0),
        When(status=Event.Status.REGISTRATION, then=1),
        default=2,
        output_field=IntegerField(),
    )
    events = Event.objects.select_related("club").annotate(listed=listed)
    return list(events.order_by("listed", "-created_at", "-pk"))


def published_round(event: Event, number: int) -> Round:
    """A round the public may see: published or closed (a draft may still change)."""
    return published_rounds(event).get(number=number)


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


def entered_player(event: Event, player_id: int) -> Player:
    return Player.objects.get(pk=player_id, entries__event=event)


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
    names = player_names(event)
    found = search_names(text, names)

    def named(ids) -> NamedIds:
        return sorted(((pid, names[pid]) for pid in ids), key=lambda p: (name_key(p[1]), p[0]))

    return named(found.exact), named(found.exact) + named(found.partial)


# --- the organiser pages ------------------------------------------------------------------------


def events_organised_by(user):
    """The events this user runs, newest first; a superuser sees every event."""
    events = Event.objects.select_related("club").order_by("-created_at", "-pk")
    return events if user.is_superuser else events.filter(organisers=user)


def clubs_by_name():
    return Club.objects.order_by("name")


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
