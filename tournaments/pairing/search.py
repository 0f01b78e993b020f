"""The searches the modes share: partitions of a round's players into tables of three.

A table's cost is (repeats, spread): how many earlier meetings its pairs add up to, and how
far apart its players stand (highest rank − lowest). Swiss minimises both, repeats first;
no-repeat minimises repeats only (its `Context` has every rank equal, so spreads are 0).

Three tools, from cheap to thorough:

- local swaps between two tables (`repair`, `polish`): fast, and enough for large fields,
  where a repeat can almost always be traded away with a neighbouring table;
- `best_partition`: branch and bound over all partitions, for small fields and for windows of
  a few tables where the swaps left a repeat or more spread than needed;
- `exact_cover`: a most-constrained-first search for a partition without repeats, for
  no-repeat rounds where such partitions are rare.

All of them spend from a `Budget` of steps rather than watching the clock, so the same
request gives the same draw however busy the machine is.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

Group = list[int]


class OutOfBudget(Exception):
    pass


class Budget:
    """Steps a draw may still spend on search. Shared by every search of one round."""

    def __init__(self, steps: int):
        self.left = steps

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise OutOfBudget


class Context:
    """A round's players as the searches see them: ranks and who has met whom (how often).

    `extra` adds weight to pairs that should not share a table for other reasons (the
    keep-apart rules and teams, `rules.Rules.weights`): every search minimises the sum of
    `opp` weights at its tables first, so a weight larger than every repeat a draw could
    have puts that rule before the repeats, and `exact_cover` avoids those pairs too.
    """

    def __init__(
        self,
        rank: Mapping[int, int],
        met: Mapping[tuple[int, int], Sequence[int]],
        extra: Mapping[tuple[int, int], int] | None = None,
    ):
        self.rank = dict(rank)
        self.opp: dict[int, dict[int, int]] = {player: {} for player in self.rank}
        for (a, b), rounds in met.items():
            if a in self.opp and b in self.opp:
                weight = max(1, len(rounds))
                self.opp[a][b] = weight
                self.opp[b][a] = weight
        self.ruled = extra or {}
        for (a, b), weight in self.ruled.items():
            if a in self.opp and b in self.opp:
                self.opp[a][b] = self.opp[b][a] = self.opp[a].get(b, 0) + weight

    def repeats(self, table: Sequence[int]) -> int:
        a, b, c = table
        oa = self.opp[a]
        return oa.get(b, 0) + oa.get(c, 0) + self.opp[b].get(c, 0)

    def spread(self, table: Sequence[int]) -> int:
        rank = self.rank
        ra, rb, rc = rank[table[0]], rank[table[1]], rank[table[2]]
        return max(ra, rb, rc) - min(ra, rb, rc)

    def cost(self, table: Sequence[int]) -> tuple[int, int]:
        return self.repeats(table), self.spread(table)

    def total(self, tables: Iterable[Sequence[int]]) -> tuple[int, int]:
        repeats = spread = 0
        for table in tables:
            r, s = self.cost(table)
            repeats += r
            spread += s
        return repeats, spread


def consecutive(players: Sequence[int]) -> list[Group]:
    """Cut a list into consecutive triples. For players sorted by rank this is the grouping
    with the smallest total spread there is (swapping across two overlapping tables never
    lowers the sum of their ranges), the ideal swiss would be without history."""
    return [list(players[i : i + 3]) for i in range(0, len(players), 3)]


def ruled_cut(ctx: Context, players: Sequence[int]) -> list[Group]:
    """`consecutive`, except that a table passes over the players a rule keeps from those
    already at it (`Context.ruled`: keep-apart pairs, teammates), taking the next ones: the
    plain cut as near as the rules allow, so the swaps that follow have little to mend
    (three teams of 333: every table of the plain cut would need one)."""
    ruled = ctx.ruled
    if not ruled:
        return consecutive(players)
    left = list(players)
    tables = []
    while left:
        table = [left.pop(0)]
        i = 0
        while len(table) < 3 and i < len(left):
            q = left[i]
            if all((min(q, x), max(q, x)) not in ruled for x in table):
                table.append(left.pop(i))
            else:
                i += 1
        while len(table) < 3:
            table.append(left.pop(0))
        tables.append(table)
    return tables


def _best_swap(ctx: Context, ti: Group, tj: Group) -> tuple[int, int, int, int]:
    """The best exchange of one player between two tables: (Δrepeats, Δspread, i, j)."""
    ri, si = ctx.cost(ti)
    rj, sj = ctx.cost(tj)
    best = (0, 0, -1, -1)
    for x in range(3):
        px = ti[x]
        for y in range(3):
            py = tj[y]
            ti[x] = py
            tj[y] = px
            nri, nsi = ctx.cost(ti)
            nrj, nsj = ctx.cost(tj)
            ti[x] = px
            tj[y] = py
            move = (nri + nrj - ri - rj, nsi + nsj - si - sj, x, y)
            if move < best:
                best = move
    return best


def repair(ctx: Context, tables: list[Group], reach: Sequence[int] = (2, 6, 24)) -> None:
    """Trade each repeat away by one swap with a nearby table, looking further if needed.

    Tables are in standing order, so nearby means similar standing: the nearest swap that
    removes a repeat is also the one that costs least spread, most of the time.
    """
    count = len(tables)
    for i in range(count):
        while ctx.repeats(tables[i]):
            move = None
            for distance in (*reach, count):
                lo, hi = max(0, i - distance), min(count, i + distance + 1)
                for j in range(lo, hi):
                    if j == i:
                        continue
                    dr, ds, x, y = _best_swap(ctx, tables[i], tables[j])
                    # Prefer the nearer table on ties: smaller standing change elsewhere.
                    candidate = (dr, ds, abs(j - i), j, x, y)
                    if dr < 0 and (move is None or candidate < move):
                        move = candidate
                if move is not None:
                    break
            if move is None:
                break
            _, _, _, j, x, y = move
            tables[i][x], tables[j][y] = tables[j][y], tables[i][x]


def polish(ctx: Context, tables: list[Group], passes: int = 4, reach: int = 2) -> None:
    """Swaps between near tables that lower the spread without adding repeats."""
    count = len(tables)
    for _ in range(passes):
        improved = False
        for i in range(count):
            for j in range(i + 1, min(count, i + reach + 1)):
                dr, ds, x, y = _best_swap(ctx, tables[i], tables[j])
                if (dr, ds) < (0, 0):
                    tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
                    improved = True
        if not improved:
            return


def best_partition(
    ctx: Context, players: Sequence[int], budget: Budget, incumbent: list[Group] | None = None
) -> tuple[list[Group] | None, bool]:
    """The partition of `players` (sorted by standing) with the least (repeats, spread).

    Branch and bound: the best-standing player left is seated first, with each pair of
    others in order of cost; a branch is cut when its cost plus the ideal spread of the
    players left (consecutive triples, a lower bound) cannot beat the best found so far.
    Returns (the best partition found if it beats `incumbent`, else None; whether the
    search finished, which proves the answer optimal).
    """
    rank = ctx.rank
    opp = ctx.opp
    best_cost = ctx.total(incumbent) if incumbent else (1 << 60, 1 << 60)
    best: list[Group] | None = None

    def ideal(rest: Sequence[int]) -> int:
        return sum(rank[rest[k + 2]] - rank[rest[k]] for k in range(0, len(rest), 3))

    def dfs(rest: list[int], repeats: int, spread: int, chosen: list[Group]) -> None:
        nonlocal best, best_cost
        if not rest:
            if (repeats, spread) < best_cost:
                best_cost = (repeats, spread)
                best = [list(t) for t in chosen]
            return
        p, others = rest[0], rest[1:]
        op = opp[p]
        rp = rank[p]
        options = []
        for i, q in enumerate(others):
            wq = op.get(q, 0)
            oq = opp[q]
            for j in range(i + 1, len(others)):
                r = others[j]
                options.append((wq + op.get(r, 0) + oq.get(r, 0), rank[r] - rp, i, j))
        budget.spend(len(options))
        options.sort()
        for w, s, i, j in options:
            if repeats + w > best_cost[0]:
                break
            left = [x for k, x in enumerate(others) if k != i and k != j]
            if (repeats + w, spread + s + ideal(left)) >= best_cost:
                continue
            chosen.append([p, others[i], others[j]])
            dfs(left, repeats + w, spread + s, chosen)
            chosen.pop()

    try:
        dfs(list(players), 0, 0, [])
    except OutOfBudget:
        return best, False
    return best, True


def refine_windows(
    ctx: Context,
    tables: list[Group],
    budget: Budget,
    width: int = 5,
    step: int = 2,
    window_cap: int = 20_000,
) -> None:
    """Re-solve windows of `width` consecutive tables exactly, where they are not ideal.

    A window is ideal when it has no repeat and its spread is that of its own players cut
    into consecutive triples; otherwise branch and bound looks for something better than
    what it has. Overlapping windows (`step` < `width`) let players travel a little further
    than one swap takes them. Each window may spend at most `window_cap` steps, and the
    whole pass stops when the round's budget is spent.
    """
    rank = ctx.rank
    for lo in range(0, max(1, len(tables) - width + 1), step):
        if budget.left <= 0:
            return
        window = tables[lo : lo + width]
        players = sorted((p for t in window for p in t), key=lambda p: rank[p])
        repeats, spread = ctx.total(window)
        if not repeats and spread <= ctx.total(consecutive(players))[1]:
            continue
        allowance = Budget(min(window_cap, budget.left))
        found, _ = best_partition(ctx, players, allowance, incumbent=window)
        budget.left -= min(window_cap, budget.left) - max(allowance.left, 0)
        if found is not None:
            found.sort(key=lambda t: (min(rank[p] for p in t), sum(rank[p] for p in t)))
            tables[lo : lo + width] = found


def exact_cover(
    ctx: Context,
    players: Sequence[int],
    rng: random.Random,
    budget: Budget,
    by_standing: bool = False,
) -> tuple[list[Group] | None, bool]:
    """A partition of `players` with no two who have met at one table, or None.

    Depth first, always seating next the player with the fewest possible partners left
    (a dead end shows up at once). Partners are tried least damaging first: a table uses
    up three unmet pairs, and with them every fresh triangle through those pairs, and
    tables that spend the fewest of those leave later rounds the most room (in the
    benchmark this takes a field of 99 from 42 to 45 rounds before the first repeat). Ties
    go in a seeded random order; an attempt that runs long restarts with a new order and
    twice the allowance. Sets of players are bit masks, so a step is a few integer
    operations. With `by_standing`, partners are tried closest in standing first instead,
    for swiss. Returns (partition or None, whether the search finished: None with True
    proves no such partition exists).
    """
    n = len(players)
    opp = ctx.opp
    ranks = [ctx.rank[p] for p in players]
    compat = []
    for i, p in enumerate(players):
        mask = 0
        for j, q in enumerate(players):
            if j != i and q not in opp[p]:
                mask |= 1 << j
        compat.append(mask)

    def bits(mask: int) -> list[int]:
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    class Restart(Exception):
        pass

    allowance = 0

    def dfs(left: int) -> list[tuple[int, int, int]] | None:
        nonlocal allowance
        if not left:
            return []
        waiting = bits(left)
        allowance -= len(waiting)
        if allowance < 0:
            raise Restart
        budget.spend(len(waiting))
        chosen, fewest = -1, n + 1
        for i in waiting:
            count = (compat[i] & left).bit_count()
            if count < fewest:
                chosen, fewest = i, count
                if count < 2:
                    return None
        left ^= 1 << chosen
        partners = compat[chosen] & left
        cc = compat[chosen]
        options = []
        for q in bits(partners):
            cq = compat[q]
            shared_q = (cc & cq).bit_count()
            for r in bits(cq & partners & ~((2 << q) - 1)):
                if by_standing:
                    trio = (ranks[chosen], ranks[q], ranks[r])
                    loss = max(trio) - min(trio)
                else:
                    cr = compat[r]
                    loss = shared_q + (cc & cr).bit_count() + (cq & cr).bit_count()
                options.append((loss, rng.random(), q, r))
        options.sort()
        for _, _, q, r in options:
            rest = dfs(left & ~(1 << q) & ~(1 << r))
            if rest is not None:
                rest.append((chosen, q, r))
                return rest
        return None

    # Restarts with doubling allowances: a search that went wrong near the root rarely
    # recovers, and a fresh random order is cheaper than backtracking out of it.
    limit = 32 * n * n
    while True:
        allowance = limit
        try:
            found = dfs((1 << n) - 1)
            break
        except Restart:
            limit *= 2
        except OutOfBudget:
            return None, False
    if found is None:
        return None, True
    return [[players[i] for i in triple] for triple in reversed(found)], True


def met_pairs(ctx: Context, table: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs at `table` who have met before, smaller id first."""
    return [(min(a, b), max(a, b)) for a, b in combinations(table, 2) if ctx.opp[a].get(b, 0) > 0]
