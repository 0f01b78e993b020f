"""The benchmark's exact solver (bench.pairing_optimum) agrees with brute force.

It is what docs/performance.md uses to show that no swiss draw beats ours, so it is tested
like code: on small fields with random histories, against every partition there is.
"""

from __future__ import annotations

import random

import pytest

from bench.pairing_optimum import optimum
from tournaments.pairing.search import Context


def partitions(players: list[int]):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            left = [p for k, p in enumerate(rest) if k not in (i, j)]
            for tail in partitions(left):
                yield [(first, rest[i], rest[j]), *tail]


@pytest.mark.parametrize("seed", range(6))
def test_the_optimum_is_the_best_partition_by_repeats_then_spread(seed):
    rng = random.Random(seed)
    players = list(range(9))
    ranks = {p: rng.randrange(6) for p in players}
    met = {
        (a, b): [1] * rng.randint(1, 2)
        for a in players
        for b in players
        if a < b and rng.random() < 0.45
    }
    ctx = Context(ranks, met)
    brute = min(ctx.total(tables) for tables in partitions(players))
    found = optimum(ctx, players, max_span=10)
    assert (found.repeats, found.spread) == brute and found.proven


def test_a_narrow_span_limit_can_rule_out_the_best_draw():
    ctx = Context({0: 0, 1: 1, 2: 2, 3: 10, 4: 11, 5: 12}, {(0, 1): [1], (3, 4): [1]})
    assert (optimum(ctx, list(range(6)), max_span=20).repeats) == 0
    assert (optimum(ctx, list(range(6)), max_span=2).repeats) == 2


@pytest.mark.parametrize("seed", range(4))
def test_the_optimum_with_keep_apart_pairs_is_the_best_partition_honouring_them(seed):
    rng = random.Random(seed)
    players = list(range(9))
    ranks = {p: rng.randrange(6) for p in players}
    met = {(a, b): [1] for a in players for b in players if a < b and rng.random() < 0.3}
    apart = {(a, b) for a in players for b in players if a < b and rng.random() < 0.2}
    ctx = Context(ranks, met)

    def honours(tables):
        return not any((min(x, y), max(x, y)) in apart for t in tables for x in t for y in t)

    brute = min(ctx.total(t) for t in partitions(players) if honours(t))
    found = optimum(ctx, players, max_span=10, apart=apart)
    assert (found.repeats, found.spread) == brute and found.proven
