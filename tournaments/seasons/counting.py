"""A season's standings from its nights' final places: pure, no Django.

Each night (an event of the season) gives every player who played there a place; the
season's `place_points` turn a place into season points (places beyond the list score 0).
A player's score is the sum of their best `best_nights` nights (all of them when None);
players who attended fewer than `min_nights` nights are listed below the ranked ones,
without a rank.

Ties on score are broken, in order, by more nights won, then the better best single place;
players still level share the rank (1, 2, 2, 4). `decided_by` names what put a row below the
one above it when their scores are equal, so the page can say it in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import NamedTuple

#: Season points for 1st, 2nd, ... place of a night when the season sets none.
DEFAULT_PLACE_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)

#: What can separate two rows level on score, in the order it is asked.
TIE_BREAKS = ("wins", "best_place")
#: decided_by of a row level with the one above on everything: it shares that row's rank.
SHARED = "shared"


class SeasonError(ValueError):
    """Counting settings or nights that cannot be one season."""


@dataclass(frozen=True)
class Counting:
    """How a season counts its nights; checked when made."""

    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS
    best_nights: int | None = None
    min_nights: int = 1

    def __post_init__(self) -> None:
        points = tuple(self.place_points) or DEFAULT_PLACE_POINTS
        object.__setattr__(self, "place_points", points)
        if any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in points):
            raise SeasonError("place points must be whole numbers of at least 0")
        if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
            raise SeasonError("a lower place cannot score more than a higher one")
        if self.best_nights is not None and self.best_nights < 1:
            raise SeasonError("best nights must be at least 1")
        if self.min_nights < 0:
            raise SeasonError("minimum nights cannot be negative")

    def points_for(self, place: int) -> int:
        return self.place_points[place - 1] if 1 <= place <= len(self.place_points) else 0


@dataclass(frozen=True)
class Night:
    """One night's final (or, while it runs, current) places: player id -> place, 1 = first."""

    key: int
    places: Mapping[int, int]


class NightScore(NamedTuple):
    """What one night gave a player (a named tuple: a season has thousands of them)."""

    night: int
    place: int
    points: int
    counted: bool


@dataclass(frozen=True)
class SeasonRow:
    """One player's line. rank is None below the attendance minimum."""

    rank: int | None
    player: int
    score: int
    nights: int
    counted: int
    wins: int
    best_place: int | None
    decided_by: str | None
    per_night: tuple[NightScore, ...] = field(default=())

    @property
    def ranked(self) -> bool:
        return self.rank is not None

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "player": self.player,
            "score": self.score,
            "nights": self.nights,
            "counted": self.counted,
            "wins": self.wins,
            "best_place": self.best_place,
            "decided_by": self.decided_by,
            "per_night": [
                {"night": s.night, "place": s.place, "points": s.points, "counted": s.counted}
                for s in self.per_night
            ],
        }


def _scores(attended: list[tuple[int, int]], counting: Counting) -> tuple[NightScore, ...]:
    """A player's nights as (night, place), in the season's order, scored and counted."""
    table, best = counting.place_points, counting.best_nights
    points = [table[place - 1] if place <= len(table) else 0 for _, place in attended]
    if best is None or best >= len(points):
        return tuple(
            NightScore(k, place, p, True) for (k, place), p in zip(attended, points, strict=True)
        )
    # The best nights count; between equal nights the earlier one is the one counted.
    counted = set(sorted(range(len(points)), key=lambda i: (-points[i], i))[:best])
    return tuple(
        NightScore(k, place, p, i in counted)
        for i, ((k, place), p) in enumerate(zip(attended, points, strict=True))
    )


def _sort_key(row: SeasonRow) -> tuple[int, int, int]:
    return (-row.score, -row.wins, row.best_place or 10**9)


def _decided_by(above: SeasonRow, row: SeasonRow) -> str | None:
    if above.score != row.score:
        return None
    if above.wins != row.wins:
        return "wins"
    if above.best_place != row.best_place:
        return "best_place"
    return SHARED


def season_standings(nights: Iterable[Night], counting: Counting) -> list[SeasonRow]:
    """Ranked rows first (rank 1..), then the players under the attendance minimum."""
    nights = list(nights)
    if len({n.key for n in nights}) != len(nights):
        raise SeasonError("a night is counted twice")
    attended: dict[int, list[tuple[int, int]]] = {}
    for night in nights:
        for player, place in night.places.items():
            attended.setdefault(player, []).append((night.key, place))
    raw = []
    for player in sorted(attended):
        per_night = _scores(attended[player], counting)
        places = [s.place for s in per_night]
        raw.append(
            SeasonRow(
                rank=None,
                player=player,
                score=sum(s.points for s in per_night if s.counted),
                nights=len(per_night),
                counted=sum(1 for s in per_night if s.counted),
                wins=places.count(1),
                best_place=min(places) if places else None,
                decided_by=None,
                per_night=per_night,
            )
        )
    raw.sort(key=lambda r: (_sort_key(r), r.player))
    ranked = [r for r in raw if r.nights >= counting.min_nights]
    unranked = [r for r in raw if r.nights < counting.min_nights]
    rows: list[SeasonRow] = []
    for position, row in enumerate(ranked, start=1):
        above = rows[-1] if rows else None
        why = _decided_by(above, row) if above else None
        rank = above.rank if why == SHARED else position
        rows.append(replace(row, rank=rank, decided_by=why))
    rows.extend(unranked)
    return rows
