"""No-repeat: as many rounds as possible before any two players meet a second time.

While the field is the one that started the event and we hold a design for its size
(`designs`), round r is round r of that design with the players put on its points in a
seeded order: the design was chosen as a whole, which is the only way to reach the most
rounds. Otherwise (a late entry, a withdrawal, byes, a size with no design, or a history
that left the plan) each round searches for a partition avoiding every earlier meeting, and
when there is none, or none found within the budget, for as few repeats as it can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .designs import design_for
from .lots import rng_for
from .search import (
    Budget,
    Context,
    Group,
    best_partition,
    consecutive,
    exact_cover,
    fewer_repeats,
)

#: Up to this many players, the fewest repeats are found exactly when none-at-all fails.
EXACT_UP_TO = 15


def planned_tables(
    ctx: Context,
    players: Sequence[int],
    planned_field: Sequence[int] | None,
    seed: int,
    round_number: int,
) -> list[Group] | None:
    """Round `round_number` of the event's plan, or None when the plan does not apply."""
    if planned_field is None or sorted(planned_field) != sorted(players):
        return None
    design = design_for(len(players))
    if design is None or round_number > len(design):
        return None
    rng = rng_for(seed, "plan", len(players))
    labels = sorted(players)
    rng.shuffle(labels)
    order = list(range(len(design)))
    rng.shuffle(order)
    tables = [[labels[p] for p in triple] for triple in design[order[round_number - 1]]]
    if any(ctx.repeats(t) for t in tables):
        return None  # the event left the plan (a swap, say): search instead
    return tables


def searched_tables(
    ctx: Context, players: Sequence[int], rng: random.Random, budget: Budget
) -> tuple[list[Group], bool]:
    """Tables for `players` (in lot order) with the fewest repeats the search finds, and
    whether that number is proven the fewest possible."""
    # The cover search may take most of the budget, not all: when there is no cover, the
    # search for fewest repeats needs some too.
    share = Budget(budget.left * 3 // 4)
    found, finished = exact_cover(ctx, players, rng, share)
    budget.left -= budget.left * 3 // 4 - max(share.left, 0)
    if found is not None:
        return found, True
    tables = consecutive(players)
    if len(players) <= EXACT_UP_TO:
        better, optimal = best_partition(ctx, players, budget, incumbent=tables)
        if better is not None:
            tables = better
        return tables, optimal
    fewer_repeats(ctx, tables, rng, budget)
    left = sum(ctx.repeats(t) for t in tables)
    return tables, finished and left == 1
