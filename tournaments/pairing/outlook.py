"""How many rounds a field can still play with nobody meeting twice and every rule kept: an
upper bound for a draft that follows no plan (a plan counts its own rounds exactly:
`Pairing.rounds_without_repeat`).

At a table of three a player meets two people, and in a round with nobody meeting twice
both are people they have not met (this draft included) and may sit with (no keep-apart
pair, no teammate). Those people are used up: a player with k of them left can be seated in
at most ⌊k/2⌋ more rounds. Without byes (N divisible by 3) everyone is seated every round,
so the player with the fewest people left bounds the rounds. With b = N mod 3 byes a round
a player may sit some rounds out, so R more rounds need, summed over the players, at least
max(0, R − ⌊k/2⌋) rounds sat out each, and only R · b are there: the bound is the largest R
for which that sum fits (the same as the fewest ⌊k/2⌋ when b = 0).

It is a bound, not a promise: the people a player has left must also fit into whole tables
with each other, which a count cannot see. It reads the field of this round as the field of
the rounds to come (a player who joins or leaves changes it).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .values import Pair


@dataclass(frozen=True)
class Outlook:
    """`rounds`: at most this many rounds, this one included, with nobody meeting twice and
    every rule kept; 0 when this draft already seats a pair who met before, or who must be
    kept apart (a keep-apart pair, teammates). `player`: who has the fewest people left to
    meet after this draft (the smallest id among equals), and `left` how many: the reason
    the bound is what it is; None and 0 when the draft already broke it, or nobody plays."""

    rounds: int
    player: int | None = None
    left: int = 0

    @property
    def more(self) -> int:
        """The rounds that can follow this one at most."""
        return max(0, self.rounds - 1)


def outlook(
    players: Iterable[int],
    tables: Iterable[Sequence[int]],
    met: Collection[Pair] | Mapping[Pair, object],
    apart: Collection[Pair] = (),
    teams: Mapping[int, int] | None = None,
) -> Outlook:
    """The bound for a draft: `players` are the round's field (seated and sitting out),
    `tables` this draft's tables, `met` the pairs (smaller id first) who met before this
    round, `apart` the keep-apart pairs (smaller id first), `teams` player id → team."""
    tables = [tuple(table) for table in tables]
    field = sorted({*players, *(p for table in tables for p in table)})
    teams = teams or {}
    barred = {_pair(a, b) for a, b in met} | {_pair(a, b) for a, b in apart}
    members: dict[int, list[int]] = {}
    for p in field:
        if p in teams:
            members.setdefault(teams[p], []).append(p)
    barred.update(pair for team in members.values() for pair in combinations(team, 2))
    drawn = {_pair(a, b) for table in tables for a, b in combinations(table, 2)}
    if drawn & barred:
        return Outlook(0)
    if len(field) < 3:
        return Outlook(1)  # no table can follow
    barred |= drawn
    left = {p: len(field) - 1 for p in field}
    for a, b in barred:
        if a in left and b in left:
            left[a] -= 1
            left[b] -= 1
    player = min(field, key=lambda p: (left[p], p))
    return Outlook(
        1 + _most_rounds([k // 2 for k in left.values()], len(field) % 3), player, left[player]
    )


def _most_rounds(seatings: list[int], byes: int) -> int:
    """The largest R with sum(max(0, R − s) for s in seatings) <= R · byes: each player
    seated at most s more rounds, `byes` players sitting out each round. From R to R + 1 the
    left side less the right grows by (players with s <= R) − byes, which never shrinks (and
    ends above 0, as there are more players than byes): from 0 it stays at most 0 up to the
    answer, and above 0 after it. One pass over the seatings in order."""
    ordered = sorted(seatings)
    rounds = short = below = 0  # short: the left side less the right at R = rounds
    while True:
        while below < len(ordered) and ordered[below] <= rounds:
            below += 1
        if short + below - byes > 0:
            return rounds
        short += below - byes
        rounds += 1


def _pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)
