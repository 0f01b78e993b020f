"""The best swiss draw there is for one round, by integer programming (bench only).

Why: the ideal in `bench.pairing` ignores repeats, so when our spread is above it nobody can
tell from that alone whether a better draw exists. This solves the round exactly as a set
partition: every table of three whose places span at most `max_span` is a column costing
``repeats × REPEAT_COST + spread`` (repeats first, as the organiser's rule says); each player
sits at exactly one table. HiGHS (through SciPy, a development requirement only; the site
never imports this) proves the optimum within `max_span`. A draw with a wider table than
that is not considered, so the figure is the best among draws none of whose tables spans
more than `max_span` places; `bench.pairing` takes our own draw's widest table plus a margin.

Keep-apart rules (`apart`, pairs smaller id first) are a constraint: a table holding such a
pair is not a column at all, so the optimum is the best draw that honours every rule (and
there is none, an error, when no draw within the span does).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tournaments.pairing.search import Context

#: One more repeat outweighs any spread a field of up to 3000 players can have.
REPEAT_COST = 10_000


@dataclass(frozen=True)
class Optimum:
    repeats: int
    spread: int
    proven: bool  # False: the time limit ran out; the figures are the best found
    tables_considered: int
    seconds: float = 0.0


def optimum(
    ctx: Context,
    players: Sequence[int],
    max_span: int,
    time_limit: float = 300.0,
    apart: Collection[tuple[int, int]] = frozenset(),
) -> Optimum:
    """The fewest repeats, then the least total spread, of any draw of `players` that seats
    no pair of `apart` at one table."""
    import time

    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    by_rank = sorted(players, key=lambda p: ctx.rank[p])
    row = {p: i for i, p in enumerate(by_rank)}
    tables, costs = [], []
    for i, p in enumerate(by_rank):
        for j in range(i + 1, len(by_rank)):
            q = by_rank[j]
            if ctx.rank[q] - ctx.rank[p] > max_span:
                break
            for r in by_rank[j + 1 :]:
                if ctx.rank[r] - ctx.rank[p] > max_span:
                    break
                if apart and any(
                    (min(x, y), max(x, y)) in apart for x, y in ((p, q), (p, r), (q, r))
                ):
                    continue
                repeats, spread = ctx.cost((p, q, r))
                tables.append((p, q, r))
                costs.append(repeats * REPEAT_COST + spread)
    entries = [row[p] for table in tables for p in table]
    columns = [c for c, _ in enumerate(tables) for _ in range(3)]
    seats = coo_matrix(
        (np.ones(len(entries)), (entries, columns)), shape=(len(by_rank), len(tables))
    )
    started = time.perf_counter()
    answer = milp(
        c=np.array(costs, dtype=float),
        constraints=LinearConstraint(seats, 1, 1),
        integrality=np.ones(len(tables)),
        bounds=Bounds(0, 1),
        # No relative gap: with REPEAT_COST in the objective, HiGHS's default 0.01 % would
        # stop 14 places of spread short of the optimum once there are 14 repeats.
        options={"time_limit": time_limit, "mip_rel_gap": 0.0},
    )
    if answer.x is None:
        raise RuntimeError(f"no draw found within a span of {max_span}: {answer.message}")
    chosen = [tables[c] for c, value in enumerate(answer.x) if value > 0.5]
    repeats, spread = ctx.total(chosen)
    seconds = time.perf_counter() - started
    return Optimum(repeats, spread, answer.status == 0, len(tables), seconds)
