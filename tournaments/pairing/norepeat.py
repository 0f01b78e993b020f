"""No-repeat: as many rounds as possible before any two players meet a second time.

While the field is the one that started the event, each round is a round of its plan
(`plan_for`): a design of `designs` with the players put on its points in a seeded order and
its rounds in a seeded order (an unplayed one, as `plans.follow_plan` chooses). The design
was chosen as a whole, which is the only way to reach the most rounds. Every field of 3 to
99 players has a plan:

- N divisible by 3: the design for N, ⌊(N−1)/2⌋ rounds (1 for 6 players, 4 for 12).
- N ≡ 2 mod 3: the design for N + 1 with one point left empty; the two players at its table
  sit out. That point meets every other at most once, so nobody sits out twice in the plan.
- N ≡ 1 mod 3: the design for N − 1 and one extra player who, each round, takes the seat of
  the player sitting out (a different one each round, chosen so that the extra player meets
  nobody twice; 10 players have a plan of their own).

So a field with byes gets at least the rounds of the multiple of 3 below it, and byes go
round the field: the plan's byes are taken only while they fall on players with the fewest
byes so far. Which round of the plan a draw plays (`plans.follow_plan`): an unplayed one
that breaks no keep-apart or team rule, byes on the lowest ranked first. Otherwise (a late
entry, a withdrawal, the plan used up, or a history or byes that left the plan) byes are
chosen as in every mode (`byes`) and each round searches for a partition avoiding every
earlier meeting, and when there is none, or none found within the budget, for as few repeats
as it can.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from .designs import design_for
from .lots import rng_for
from .search import (
    Budget,
    Context,
    Group,
    OutOfBudget,
    best_partition,
    consecutive,
    exact_cover,
)

#: A plan's rounds: the tables on points 0..N−1, and the points sitting out.
Plan = tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]

#: Up to this many players, the fewest repeats are found exactly when none-at-all fails.
EXACT_UP_TO = 15


def plan_for(n: int, seed: int) -> Plan | None:
    """The rounds of the plan for `n` players: each round its tables (on points 0..n−1) and
    its byes; the rounds of `base_plan` in a seeded order. None when there is no design."""
    base = base_plan(n)
    if base is None:
        return None
    order = list(range(len(base)))
    rng_for(seed, "plan order", n).shuffle(order)
    return tuple(base[i] for i in order)


@cache
def base_plan(n: int) -> Plan | None:
    """The plan for `n` players before the event's seed orders its rounds: the design for
    `n` (n ≡ 0 mod 3), for n + 1 with one point empty (n ≡ 2), or for n − 1 with one extra
    player (n ≡ 1). The same for every event (a fixed seed), so computed once."""
    if n % 3 == 0:
        design = design_for(n)
        return None if design is None else tuple((round_, ()) for round_ in design)
    if n == 10:
        return _TEN
    rng = random.Random(n)
    if n % 3 == 2:
        return _with_phantom(n, rng)
    if n > EXTRA_UP_TO:
        return None  # a search, proven quick (by the tests) only this far
    return _with_extra(n, rng)


#: The largest field with one bye a round that gets a plan (`_with_extra`).
EXTRA_UP_TO = 100


#: Ten players, four rounds, a different player sitting out each (found by an exhaustive
#: search: the design for 9 has no choice of four players sitting out whose partners the
#: extra player could take without meeting anyone twice).
_TEN: Plan = (
    (((1, 2, 3), (4, 5, 6), (7, 8, 9)), (0,)),
    (((0, 4, 7), (2, 5, 8), (3, 6, 9)), (1,)),
    (((0, 5, 9), (1, 6, 7), (3, 4, 8)), (2,)),
    (((0, 1, 8), (2, 4, 9), (3, 5, 7)), (6,)),
)


def _with_phantom(n: int, rng: random.Random) -> Plan | None:
    """N ≡ 2 mod 3: the design for N + 1 with its last point empty. The two who would sit
    with nobody at its table sit out; the design meets that point with every other at most
    once, so nobody sits out twice in the plan's ⌊N/2⌋ rounds."""
    design = design_for(n + 1)
    if design is None:
        return None
    order = list(range(len(design)))
    rng.shuffle(order)
    plan = []
    for i in order:
        tables = tuple(t for t in design[i] if n not in t)
        (empty,) = (t for t in design[i] if n in t)
        plan.append((tables, tuple(p for p in empty if p != n)))
    return tuple(plan)


def _with_extra(n: int, rng: random.Random) -> Plan | None:
    """N ≡ 1 mod 3: the design for N − 1 and one extra player, point N − 1. Each round one
    player of the design sits out, each a different one, and the extra player takes their
    seat: chosen so that the extra player's partners are new every round (the two partners
    of the players sitting out, all distinct)."""
    design = design_for(n - 1)
    if design is None:
        return None
    order = list(range(len(design)))
    rng.shuffle(order)
    rounds = [design[i] for i in order]
    partners = [{p: tuple(q for q in t if q != p) for t in round_ for p in t} for round_ in rounds]
    chosen: dict[int, int] = {}
    met: set[int] = set()

    def options(k: int) -> list[int]:
        taken = set(chosen.values())
        return [p for p in range(n - 1) if p not in taken and met.isdisjoint(partners[k][p])]

    def extend() -> bool:
        left = [k for k in range(len(rounds)) if k not in chosen]
        if not left:
            return True
        # the round with the fewest choices first
        k, choices = min(((k, options(k)) for k in left), key=lambda kc: len(kc[1]))
        rng.shuffle(choices)
        for p in choices:
            chosen[k] = p
            met.update(partners[k][p])
            if extend():
                return True
            del chosen[k]
            met.difference_update(partners[k][p])
        return False

    if not extend():
        return None
    plan = []
    for k, round_ in enumerate(rounds):
        out = chosen[k]
        tables = tuple(tuple(n - 1 if p == out else p for p in t) for t in round_)
        plan.append((tables, (out,)))
    return tuple(plan)


def searched_tables(
    ctx: Context,
    players: Sequence[int],
    rng: random.Random,
    budget: Budget,
    no_cover: bool = False,
    floor: int = 0,
) -> tuple[list[Group], bool]:
    """Tables for `players` (in lot order) with the fewest repeats the search finds, and
    whether that number is proven the fewest possible. `no_cover`: a seating without any
    weighted pair is known not to exist (a rule that cannot be kept, `rules`); `floor`: the
    least weight any seating has (`rules.Rules.floor`)."""
    # The cover search may take most of the budget, not all: when there is no cover, the
    # search for fewest repeats needs some too.
    found, finished = None, True
    if not no_cover:
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
    fewer_repeats(ctx, tables, rng, budget, floor)
    left = sum(ctx.repeats(t) for t in tables)
    return tables, finished and left == 1


def fewer_repeats(
    ctx: Context, tables: list[Group], rng: random.Random, budget: Budget, floor: int = 0
) -> None:
    """Local search for the fewest repeats when no partition avoids them all.

    Takes a table with a repeat, makes the best swap with any other table (sideways moves
    allowed, recently moved players left alone for a while so it does not cycle) and keeps
    the best partition seen. Stops when the budget runs out or the repeats are down to
    `floor` (a proven least: none, or what rules no seating keeps must cost).
    """
    count = len(tables)
    if count < 2:
        return
    best = [list(t) for t in tables]
    best_repeats = current = sum(ctx.repeats(t) for t in tables)
    tabu: dict[int, int] = {}
    step = 0
    try:
        while current > floor:
            step += 1
            bad = [i for i in range(count) if ctx.repeats(tables[i])]
            i = rng.choice(bad)
            move = None
            budget.spend(9 * (count - 1))
            for j in range(count):
                if j == i:
                    continue
                for x, y, delta in _swaps_by_repeats(ctx, tables[i], tables[j]):
                    if tabu.get(tables[i][x], 0) > step or tabu.get(tables[j][y], 0) > step:
                        if current + delta >= best_repeats:
                            continue
                    candidate = (delta, rng.random(), j, x, y)
                    if move is None or candidate < move:
                        move = candidate
            if move is None:
                continue
            delta, _, j, x, y = move
            a, b = tables[i][x], tables[j][y]
            tables[i][x], tables[j][y] = b, a
            tabu[a] = tabu[b] = step + 2 + rng.randrange(count + 3)
            current += delta
            if current < best_repeats:
                best_repeats = current
                best = [list(t) for t in tables]
    except OutOfBudget:
        pass
    tables[:] = best


def _swaps_by_repeats(ctx: Context, ti: Group, tj: Group) -> Iterable[tuple[int, int, int]]:
    before = ctx.repeats(ti) + ctx.repeats(tj)
    for x in range(3):
        for y in range(3):
            ni = list(ti)
            nj = list(tj)
            ni[x], nj[y] = tj[y], ti[x]
            yield x, y, ctx.repeats(ni) + ctx.repeats(nj) - before
