"""Who sits where at a table, and who deals first.

Seats matter in 3-5-8 (play goes round in a fixed direction) and so does dealing first (the
dealer starts with the highest target), so over an event each player should sit in each
seat, and deal first, about equally often. The draw cannot choose tables for this (the mode
decides those); it chooses, per table, the best of the six seatings and the first dealer.
Over simulated events this keeps every player's seat counts within 3 of each other (within
2 nearly always) and first deals within 2 of a third of their games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations

from .values import Entrant


def seat(
    players: Sequence[int], entrants: Mapping[int, Entrant], lot: Mapping[int, int]
) -> tuple[tuple[int, int, int], int]:
    """The seating (ids by seat) and the first dealer's seat for one table.

    A seating is judged by how far above each player's least-used seat the seat it gives
    them is: the worst of those first, then their squares summed (two players one seat off
    beat one player two off), then the imbalance it leaves; the lot breaks what ties remain.
    The first dealer is whoever is furthest behind a third of their games (so a player who
    missed rounds is not pushed ahead), then by lot.
    """
    best_key, best = None, None
    for order in permutations(sorted(players, key=lambda p: lot[p])):
        over, left = [], []
        for seat_number, player in enumerate(order):
            counts = list(entrants[player].seat_counts)
            over.append(counts[seat_number] - min(counts))
            counts[seat_number] += 1
            left.append(max(counts) - min(counts))
        key = (max(over), sum(o * o for o in over), max(left), sum(left))
        if best_key is None or key < best_key:
            best_key, best = key, order
    assert best is not None

    def behind(seat_number: int) -> tuple[int, int]:
        entrant = entrants[best[seat_number]]
        return 3 * entrant.dealer_count - sum(entrant.seat_counts), lot[entrant.id]

    return (best[0], best[1], best[2]), min(range(3), key=behind)
