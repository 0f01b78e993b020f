"""Swiss: players of similar standing together, nobody twice while that can be helped.

Start from the ideal (the standings cut into consecutive triples), then trade each repeat
away by swapping a player with a nearby table, then let neighbouring tables swap whatever
lowers the spread. That is O(N log N) for the sort and about linear after. Small fields,
where one swap is a big change and repeats may be unavoidable, are then solved exactly
(branch and bound, the swaps' answer as the bound to beat). In larger fields, overlapping
windows of five tables that are not yet ideal are, which takes 5-10% off the spread the
swaps leave in late rounds, where most neighbours in the standings have met. If a repeat is
still left, a search for a partition without any (trying partners close in standing
first) decides: repeats come before spread, so when it finds one, that is polished instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .search import (
    Budget,
    Context,
    Group,
    best_partition,
    consecutive,
    exact_cover,
    polish,
    refine_windows,
    repair,
    top_down,
)

#: Fields up to this size are solved exactly (within the budget).
EXACT_UP_TO = 18


def swiss_tables(
    ctx: Context, players: Sequence[int], rng: random.Random, budget: Budget
) -> tuple[list[Group], bool]:
    """Tables for `players` sorted by standing, and whether their repeats are proven the
    fewest possible. Of draws as good, the one seating the best players highest."""
    tables, proven = _searched(ctx, players, rng, budget)
    top_down(ctx, tables, {p: place for place, p in enumerate(players)})
    return tables, proven


def _searched(
    ctx: Context, players: Sequence[int], rng: random.Random, budget: Budget
) -> tuple[list[Group], bool]:
    tables = consecutive(players)
    repair(ctx, tables)
    polish(ctx, tables)
    if len(players) <= EXACT_UP_TO:
        found, finished = best_partition(ctx, players, budget, incumbent=tables)
        if found is not None:
            tables = found
        return tables, finished
    refine_windows(ctx, tables, budget)
    polish(ctx, tables)
    if any(ctx.repeats(t) for t in tables):
        # The swaps are stuck; a partition without repeats may still exist. Look for one
        # near the standings, then let swaps and windows bring its spread down.
        cover, finished = exact_cover(ctx, players, rng, budget, by_standing=True)
        if cover is None:
            # None at all proven: a single repeat is then the fewest there can be.
            return tables, finished and ctx.total(tables)[0] == 1
        cover.sort(key=lambda t: (min(ctx.rank[p] for p in t), sum(ctx.rank[p] for p in t)))
        polish(ctx, cover)
        refine_windows(ctx, cover, budget)
        polish(ctx, cover)
        tables = cover
    return tables, False
