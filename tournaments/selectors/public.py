"""Reads for the public pages, the events API and the standings: few queries, whatever the
field's size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    When,
)
from django.db.models.functions import Coalesce

from scoring.models import DealEntry
from scoring.names import name_key
from scoring.names import search as search_names
from tournaments import bridge
from tournaments.models import PUBLIC_ROUND_STATUSES, Bye, Event, Player, Round, Standings, Table


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


def standings_newest(event: Event) -> tuple[Standings | None, bool]:
    """The newest stored standings, and whether they are stale (standings_stale), in one
    query: the event's version is read with the snapshot, not from a copy held since."""
    snapshot = event.standings.annotate(event_version=F("event__results_version")).first()
    return snapshot, snapshot is None or snapshot.results_version != snapshot.event_version


def standings_current(event: Event) -> Standings | None:
    """The newest snapshot if it is current (built from every change so far), else None:
    what a script waiting for a build (the simulator, a benchmark) asks."""
    snapshot, stale = standings_newest(event)
    return None if stale else snapshot


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
PUBLIC_ROUNDS = PUBLIC_ROUND_STATUSES


def published_rounds(event: Event):
    return event.rounds.filter(status__in=PUBLIC_ROUNDS)


# --- the public pages ---------------------------------------------------------------------------


def stale_standings(events: QuerySet[Event]) -> QuerySet[Event]:
    """Those of `events` whose standings are stale: the one rule of staleness. An event's
    results_version goes up with every write that changes what its standings are built from
    (services.standings_changed); a snapshot keeps the version it was built from; the
    standings are stale while the newest snapshot's differs (or there is none)."""
    newest = Standings.objects.filter(event=OuterRef("pk")).order_by("-built_at", "-pk")
    seen = Subquery(newest.values("results_version")[:1])
    return events.annotate(seen=seen).filter(Q(seen__isnull=True) | ~Q(seen=F("results_version")))


@dataclass(frozen=True)
class StandingsHead:
    """What a poll needs to tell whether the standings changed: no rows, no names."""

    snapshot_id: int | None
    built_at: datetime | None
    stale: bool


def standings_head(event: Event) -> StandingsHead:
    """The newest snapshot's id and time, and whether it is stale, in one small query."""
    latest = (
        event.standings.annotate(event_version=F("event__results_version"))
        .values("pk", "built_at", "results_version", "event_version")
        .first()
    )
    if latest is None:
        return StandingsHead(None, None, True)
    stale = latest["results_version"] != latest["event_version"]
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
    return names_matching(player_names(event), text)


def names_matching(names: dict[int, str], text: str) -> tuple[NamedIds, NamedIds]:
    """players_matching among `names` (id → name) already read."""
    found = search_names(text, names)

    def named(ids) -> NamedIds:
        return sorted(((pid, names[pid]) for pid in ids), key=lambda p: (name_key(p[1]), p[0]))

    return named(found.exact), named(found.exact) + named(found.partial)
