"""Who sits out: with N players, N mod 3 of them get a bye each round.

The fewest byes so far first, so byes go round the field before anyone gets a second; then
the lowest ranked, who lose least by sitting out (and the top of the standings is decided
at the tables); then the round's seeded lot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .values import Entrant, Flag


def choose_byes(entrants: Sequence[Entrant], lot: Mapping[int, int]) -> tuple[int, ...]:
    """The ids getting a bye this round, in the order they were chosen."""
    count = len(entrants) % 3
    order = sorted(entrants, key=lambda e: (e.byes, -e.rank, lot[e.id]))
    return tuple(e.id for e in order[:count])


def bye_flags(entrants: Sequence[Entrant], byes: Sequence[int]) -> tuple[Flag, ...]:
    by_id = {e.id: e for e in entrants}
    return tuple(
        Flag.second_bye(player, by_id[player].byes + 1) for player in byes if by_id[player].byes
    )
