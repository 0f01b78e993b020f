"""Swiss: players of similar standing together, nobody twice while that can be helped.

Start from the ideal (the standings cut into consecutive triples; when more than a tenth of
its tables break a keep-apart or team rule, passing over the players a rule keeps from a
table instead: `ruled_cut`), then trade each repeat away by swapping a player with a nearby
table, then let neighbouring tables swap whatever lowers the spread. That is O(N log N) for
the sort and about linear after. Small fields, where one swap is a big change and repeats
may be unavoidable, are then solved exactly (branch and bound, the swaps' answer as the
bound to beat). In larger fields, overlapping windows of five tables that are not yet ideal
are, which takes 5-10% off the spread the swaps leave in late rounds, where most neighbours
in the standings have met. If a repeat is still left, a search for a partition without any
(trying partners close in standing first) decides: repeats come before spread, so when it
finds one, that is polished instead. Last, of draws as good (same repeats, same spread), the
one seating the best players highest (`top_down`): the spread alone cannot tell the leader
with the 3rd and 4th from the leader sent down to the 5th and 6th.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

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
    ruled_cut,
)

#: Fields up to this size are solved exactly (within the budget).
EXACT_UP_TO = 18


def swiss_tables(
    ctx: Context,
    players: Sequence[int],
    rng: random.Random,
    budget: Budget,
    no_cover: bool = False,
) -> tuple[list[Group], bool]:
    """Tables for `players` sorted by standing, and whether their repeats are proven the
    fewest possible. Of draws as good, the one seating the best players highest.
    `no_cover`: a draw without any weighted pair is known not to exist (`rules`)."""
    tables, proven = _searched(ctx, players, rng, budget, no_cover)
    top_down(ctx, tables, {p: place for place, p in enumerate(players)})
    return tables, proven


def _searched(
    ctx: Context, players: Sequence[int], rng: random.Random, budget: Budget, no_cover: bool
) -> tuple[list[Group], bool]:
    tables = consecutive(players)
    if ctx.ruled and 10 * sum(1 for t in tables if _ruled(ctx, t)) > len(tables):
        # Many tables of the plain cut break a rule (teams): start near it instead.
        tables = ruled_cut(ctx, players)
    _repaired(ctx, tables)
    polish(ctx, tables)
    if len(players) <= EXACT_UP_TO:
        found, finished = best_partition(ctx, players, budget, incumbent=tables)
        if found is not None:
            tables = found
        return tables, finished
    refine_windows(ctx, tables, budget)
    polish(ctx, tables)
    if no_cover:
        return tables, False
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


def top_down(ctx: Context, tables: list[Group], order: Mapping[int, int], reach: int = 2) -> None:
    """Among draws of equal (repeats, spread), the one that seats the best players highest.

    The spread counts only how far apart a table's players stand, so it cannot tell the
    leader at the top table with the 3rd and 4th (the 2nd having been met) from the leader
    sent down to the 5th and 6th while the 2nd, 3rd and 4th sit together: both cost the
    same. Swiss pairs from the top, so of such draws the one whose tables, each as its
    players' places in `order` (0 = best) sorted, come first in lexicographic order wins.
    Swaps between near tables that keep (repeats, spread) and put the pair of tables earlier
    in that order; each one makes the whole draw earlier, so this ends.
    """
    count = len(tables)

    def key(table: Sequence[int]) -> list[int]:
        return sorted(order[p] for p in table)

    improved = True
    while improved:
        improved = False
        for i in range(count):
            for j in range(i + 1, min(count, i + reach + 1)):
                ti, tj = tables[i], tables[j]
                oi, oj = [order[p] for p in ti], [order[p] for p in tj]
                if max(oi) < min(oj) or max(oj) < min(oi):
                    continue  # the better three together already: nothing comes earlier
                cost = ctx.total((ti, tj))
                before = sorted((key(ti), key(tj)))
                best = None
                for x in range(3):
                    for y in range(3):
                        ti[x], tj[y] = tj[y], ti[x]
                        if ctx.total((ti, tj)) == cost:
                            after = sorted((key(ti), key(tj)))
                            if after < before and (best is None or after < best[0]):
                                best = (after, x, y)
                        ti[x], tj[y] = tj[y], ti[x]
                if best is not None:
                    _, x, y = best
                    ti[x], tj[y] = tj[y], ti[x]
                    improved = True


def _ruled(ctx: Context, table: Sequence[int]) -> bool:
    a, b, c = sorted(table)
    return any(pair in ctx.ruled for pair in ((a, b), (a, c), (b, c)))


def _repaired(ctx: Context, tables: list[Group]) -> None:
    """`repair`, and with rules (`Context.ruled`) again while it helps: a swap that takes a
    rule pair off a later table may put it on one already repaired, for a repeat less."""
    repair(ctx, tables)
    for _ in range(3 if ctx.ruled else 0):
        before = ctx.total(tables)[0]
        if not before:
            return
        repair(ctx, tables)
        if ctx.total(tables)[0] == before:
            return


def improved(ctx: Context, tables: list[Group], budget: Budget) -> None:
    """Swiss's own search run on a seating found elsewhere (one that keeps the rules,
    `rules.honour`): swaps, then windows solved exactly, then swaps again. None of them
    takes a step that raises the (weighted) repeats, so what the seating keeps apart stays."""
    _repaired(ctx, tables)
    polish(ctx, tables)
    refine_windows(ctx, tables, budget)
    polish(ctx, tables)
