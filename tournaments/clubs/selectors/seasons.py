"""What a season's pages, exports and API read: its nights' standings, in three queries.

A night counts as its newest standings snapshot stands: the final standings once the event
is closed, the current ones while it runs (marked on the page as still running). A player
attended a night when they played at least one game in it; a night with no standings yet
counts for nobody. The season's standings are built on read (tournaments.seasons): the
bench (bench/seasons.py) shows that costs a few milliseconds for a whole year of a club.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.db.models import OuterRef, Subquery

from tournaments.models import Club, Event, Player, Season, Standings, Team
from tournaments.seasons import Counting, Night, SeasonRow, season_standings


class NightTeam(NamedTuple):
    """A team's line in its night's team standings (docs/team-standings.md)."""

    rank: int
    name: str
    points: int


@dataclass(frozen=True)
class SeasonNight:
    event: Event
    places: dict[int, int]
    has_standings: bool
    #: Still being played, or results newer than the standings: the places may change.
    provisional: bool
    #: The night's ranked teams, as its newest snapshot ranks them; () when it had none.
    teams: tuple[NightTeam, ...] = ()


@dataclass(frozen=True)
class SeasonTable:
    season: Season
    counting: Counting
    nights: list[SeasonNight]
    rows: list[SeasonRow]
    names: dict[int, str]

    @property
    def ranked(self) -> list[SeasonRow]:
        return [row for row in self.rows if row.ranked]

    @property
    def unranked(self) -> list[SeasonRow]:
        return [row for row in self.rows if not row.ranked]

    @property
    def team_nights(self) -> list[SeasonNight]:
        """The nights that had teams: each ranks its own (teams are made for one event)."""
        return [night for night in self.nights if night.teams]


def season_of_club(slug: str, season_id: int) -> Season:
    """The season by the URL's club slug and id (Season.DoesNotExist otherwise)."""
    return Season.objects.select_related("club").get(club__slug=slug, pk=season_id)


def club_seasons(club: Club) -> list[Season]:
    return list(club.seasons.all())


def club_events(club: Club) -> list[Event]:
    """The club's events, oldest first, each with its season (the organiser's pick list)."""
    return list(club.events.select_related("season").order_by("created_at", "pk"))


def counting_of(season: Season) -> Counting:
    return Counting(
        place_points=tuple(season.place_points or ()),
        best_nights=season.best_nights,
        min_nights=season.min_nights,
    )


def places_of(rows: list[dict]) -> dict[int, int]:
    """Player -> place from a standings snapshot's rows, for those who played a game: their
    order in the standings, counted among them only (1..K), so no one who sat the night out
    (a withdrawn entry, a late arrival, a bye alone; or, in a snapshot stored before such
    players went unranked, one placed among the players by lot) pushes a player down."""
    played = [row for row in rows if row.get("metrics", {}).get("games", 0) > 0]
    played.sort(key=lambda row: row["rank"] if row["rank"] is not None else len(rows) + 1)
    return {row["player"]: place for place, row in enumerate(played, start=1)}


def season_nights(season: Season) -> list[SeasonNight]:
    """The season's events, oldest first, each with its newest standings' places."""
    newest = Standings.objects.filter(event=OuterRef("pk")).order_by("-built_at", "-pk")
    events = list(
        season.events.annotate(
            snapshot_id=Subquery(newest.values("pk")[:1]),
            snapshot_version=Subquery(newest.values("results_version")[:1]),
        ).order_by("created_at", "pk")
    )
    ids = [event.snapshot_id for event in events if event.snapshot_id]
    read = Standings.objects.filter(pk__in=ids).values_list("pk", "rows", "team_rows")
    rows = {pk: (players, teams or []) for pk, players, teams in read}
    team_ids = {row["team"] for _players, teams in rows.values() for row in teams}
    names = dict(Team.objects.filter(pk__in=team_ids).values_list("pk", "name")) if team_ids else {}
    nights = []
    for event in events:
        found = event.snapshot_id in rows
        stale = not found or event.snapshot_version != event.results_version
        players, teams = rows[event.snapshot_id] if found else ([], [])
        nights.append(
            SeasonNight(
                event=event,
                places=places_of(players) if found else {},
                has_standings=found,
                provisional=event.status != Event.Status.CLOSED or stale,
                teams=tuple(
                    NightTeam(row["rank"], names.get(row["team"], "?"), row["points"])
                    for row in teams
                    if row["rank"] is not None
                ),
            )
        )
    return nights


def season_table(season: Season) -> SeasonTable:
    """The season's standings as they stand now, with the players' names."""
    counting = counting_of(season)
    nights = season_nights(season)
    rows = season_standings([Night(n.event.pk, n.places) for n in nights], counting)
    names = dict(Player.objects.filter(pk__in=[r.player for r in rows]).values_list("pk", "name"))
    return SeasonTable(season, counting, nights, rows, names)
