"""What the standings read: the newest snapshot, whether it is stale, the people in it and
their order, in few queries whatever the field's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import (
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)

from tournaments.common import bridge
from tournaments.models import PUBLIC_ROUND_STATUSES, Event, Player, Round, Standings, Team


@dataclass(frozen=True)
class StandingsView:
    snapshot: Standings | None
    stale: bool
    names: dict[int, str]
    withdrawn: frozenset[int] = frozenset()  # marked in their rows, read live like the names


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


def phone_state(slug: str) -> tuple | None:
    """What a player's waiting phone ("My next seat") shows depends on, in one small query:
    the event (its id, creation time and status), its newest public round (id, status,
    publication) and its newest standings snapshot, which every confirmed or reopened
    result, substitution, void table and withdrawal is followed by. None: no such event.
    Nothing a deal moves is in it: a phone asks again when a round is published or closed
    and when the standings are rebuilt, not with every deal of every table."""
    rounds = Round.objects.filter(event=OuterRef("pk"), status__in=PUBLIC_ROUND_STATUSES)
    rounds = rounds.order_by("-number")
    snapshots = Standings.objects.filter(event=OuterRef("pk")).order_by("-built_at", "-pk")
    row = (
        Event.objects.filter(slug=slug)
        .annotate(
            round_id=Subquery(rounds.values("pk")[:1]),
            round_status=Subquery(rounds.values("status")[:1]),
            round_at=Subquery(rounds.values("published_at")[:1]),
            snapshot_id=Subquery(snapshots.values("pk")[:1]),
        )
        .values_list(
            "pk", "created_at", "status", "round_id", "round_status", "round_at", "snapshot_id"
        )
        .first()
    )
    if row is None:
        return None
    pk, created, status, round_id, round_status, round_at, snapshot_id = row
    moment = round_at.timestamp() if round_at else None
    return (pk, created.timestamp(), status, round_id, round_status, moment, snapshot_id)


def standings_places(snapshot_id: int) -> dict[int, tuple[int | None, int]]:
    """Per player of a snapshot, their rank (None: not ranked yet) and how many are ranked,
    read from its rows alone (one query)."""
    rows = Standings.objects.filter(pk=snapshot_id).values_list("rows", flat=True).first() or []
    ranked = sum(1 for row in rows if row.get("rank") is not None)
    return {row["player"]: (row.get("rank"), ranked) for row in rows}


def team_names(event: Event) -> dict[int, str]:
    """The event's teams' names, by id (one query): read live like the players' names, so a
    renamed team shows its new name in the next writing of the standings."""
    return dict(Team.objects.filter(event=event).values_list("pk", "name"))


#: Under each team scoring, the metric that is the total itself: no column of its own.
TOTAL_OF_SCORING = {"placing": "placing_points", "game_points": "score"}


def team_columns(event: Event) -> list[str]:
    """The tie-breaks a team table shows after the total: the precedence's, less the lot (a
    draw's number means nothing to read) and the one the total already is."""
    same = TOTAL_OF_SCORING.get(event.team_scoring)
    return [name for name in team_order(event) if name not in ("points", "lot", same)]


def team_order(event: Event) -> tuple[str, ...]:
    """What ranks this event's teams: total, tie-breaks, lot (docs/team-standings.md)."""
    return bridge.team_config(event).order


@dataclass(frozen=True)
class TeamStandingsView:
    """The newest snapshot's team rows and what the API says of it, without its (possibly
    thousand) players' rows; the teams' and their players' names, read live."""

    team_rows: list[dict]
    rounds_complete: int
    built_at: datetime | None
    stale: bool
    teams: dict[int, str]
    names: dict[int, str]


def team_standings_newest(event: Event) -> TeamStandingsView:
    """Three small queries: the newest snapshot's team rows, the teams', the members' names."""
    found = (
        event.standings.annotate(event_version=F("event__results_version"))
        .values("team_rows", "rounds_complete", "built_at", "results_version", "event_version")
        .first()
    )
    if found is None:
        return TeamStandingsView([], 0, None, True, {}, {})
    rows = found["team_rows"] or []
    members = {p for row in rows for p in row.get("members", ())}
    names = dict(Player.objects.filter(pk__in=members).values_list("pk", "name"))
    stale = found["results_version"] != found["event_version"]
    teams = team_names(event) if rows else {}
    return TeamStandingsView(rows, found["rounds_complete"], found["built_at"], stale, teams, names)
