"""The plain values the standings are built from and made of (their refusals: errors.py).

Everything is a small frozen dataclass of ints and strings so that a Celery task can build
standings from stored results and the site can store the rows as JSON, with nothing in
between that knows about Django. Each value checks what it can check alone when it is made;
what needs the whole event (a player at two tables in one round, ...) is checked by the build.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import StandingsConfigError, StandingsInputError

#: Every metric the build computes, in the order a row's `metrics` lists them.
METRICS = (
    "placing_points",
    "score",
    "firsts",
    "opponents",
    "head_to_head",
    "games",
    "lot",
)

BYE_POLICIES = ("zero", "second", "average")

DEFAULT_PRECEDENCE = ("placing_points", "score", "firsts", "opponents", "head_to_head", "lot")


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True as a player id or a score is always a mistake.
    return isinstance(value, int) and not isinstance(value, bool)


def _three_ints(value: object) -> bool:
    return isinstance(value, tuple) and len(value) == 3 and all(_is_int(v) for v in value)


@dataclass(frozen=True)
class GameResult:
    """One finished and confirmed game: seats, totals by seat, and placings first to last.

    `placings` come from the rules engine (which breaks equal totals by its own tie-breaks),
    so they are taken as given and not re-derived from `totals`. Lists are accepted and kept
    as tuples, so results read from JSON can be passed straight in.
    """

    round: int
    table: int
    players: tuple[int, int, int]
    totals: tuple[int, int, int]
    placings: tuple[int, int, int]

    def __post_init__(self) -> None:
        for name in ("players", "totals", "placings"):
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, name, value)
            if not _three_ints(value):
                raise StandingsInputError(
                    "result_not_three", round=self.round, table=self.table, field=name, value=value
                )
        if not (_is_int(self.round) and _is_int(self.table)):
            raise StandingsInputError("result_round_table", round=self.round, table=self.table)
        if len(set(self.players)) != 3:
            raise StandingsInputError(
                "result_seated_twice", round=self.round, table=self.table, players=self.players
            )
        if sorted(self.placings) != sorted(self.players):
            raise StandingsInputError(
                "result_placings",
                round=self.round,
                table=self.table,
                placings=self.placings,
                players=self.players,
            )


@dataclass(frozen=True)
class Bye:
    """A round a player sat out: by the pairing's choice, or at a void table.

    What it is worth is the config's bye_policy, unless `policy` (one of BYE_POLICIES) says
    otherwise: a void table's players get the event's void policy this way ("no result" is
    "zero", "average" is "average", "what a bye scores" leaves `policy` None).
    """

    round: int
    player: int
    policy: str | None = None

    def __post_init__(self) -> None:
        if not (_is_int(self.round) and _is_int(self.player)):
            raise StandingsInputError("bye_not_ints", round=self.round, player=self.player)
        if self.policy is not None and self.policy not in BYE_POLICIES:
            raise StandingsInputError(
                "bye_policy_unknown", policy=self.policy, known=list(BYE_POLICIES)
            )


@dataclass(frozen=True)
class Config:
    """How an event ranks its players; checked when made, so a bad one never reaches a build.

    placing_points: points for first, second and third place (non-increasing: a config that
        pays second more than first is a typo, not a format).
    bye_policy: what a bye is worth: "zero" (nothing), "second" (no game points and the
        placing points of a second place) or "average" (the player's own average game points
        and placing points per game played, each rounded half away from zero; 0 with no games).
    precedence: the metrics that order the table, most important first. "lot" always ends
        it: it is added when left out (so the ranked players' ranks are always 1..K), and
        anything after it could never decide, so that is refused.
    seed: the event's seed for the lot.
    """

    placing_points: tuple[int, int, int] = (2, 1, 0)
    bye_policy: str = "second"
    precedence: tuple[str, ...] = DEFAULT_PRECEDENCE
    seed: int = 0

    def __post_init__(self) -> None:
        points = self.placing_points
        if isinstance(points, list):
            points = tuple(points)
            object.__setattr__(self, "placing_points", points)
        if not _three_ints(points):
            raise StandingsConfigError("placing_points_three", value=points)
        if not points[0] >= points[1] >= points[2]:
            raise StandingsConfigError("placing_points_order", points=points)
        if self.bye_policy not in BYE_POLICIES:
            raise StandingsConfigError(
                "bye_policy_invalid", value=self.bye_policy, known=list(BYE_POLICIES)
            )
        if not _is_int(self.seed):
            raise StandingsConfigError("seed_not_int", value=self.seed)
        precedence = self.precedence
        if isinstance(precedence, str) or not isinstance(precedence, tuple | list):
            raise StandingsConfigError("precedence_invalid", value=precedence)
        precedence = tuple(precedence)
        object.__setattr__(self, "precedence", precedence)
        unknown = [name for name in precedence if name not in METRICS]
        if unknown:
            raise StandingsConfigError("metric_unknown", unknown=unknown, known=list(METRICS))
        if len(set(precedence)) != len(precedence):
            raise StandingsConfigError("metric_twice", precedence=precedence)
        if "lot" in precedence and precedence[-1] != "lot":
            raise StandingsConfigError("lot_not_last", precedence=precedence)

    @property
    def order(self) -> tuple[str, ...]:
        """The precedence the build follows: `precedence`, with "lot" added if left out."""
        return self.precedence if "lot" in self.precedence else (*self.precedence, "lot")


@dataclass(frozen=True)
class Row:
    """One line of the standings.

    metrics holds every metric in METRICS (not only those in the precedence), so the site
    can show them all. rank is None for a player not ranked (no game, no bye: build's
    "Who is ranked"), whose rows come last. decided_by names the metric that put this row
    below the one above, or is None for the first row, for rows the first metric of the
    precedence already separates (only tie-breaks need explaining) and for unranked rows.
    """

    rank: int | None  # None: took part in no round yet (build's "Who is ranked")
    player: int
    score: int
    metrics: dict[str, int]
    decided_by: str | None

    def as_dict(self) -> dict:
        """The row as JSON-ready plain values (the standings snapshot and API format)."""
        return {
            "rank": self.rank,
            "player": self.player,
            "score": self.score,
            "metrics": dict(self.metrics),
            "decided_by": self.decided_by,
        }
