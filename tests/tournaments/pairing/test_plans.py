"""No-repeat plans for every field of 3 to 99 players, byes included: as many rounds without
a repeat as promised, and byes that go round the field."""

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from tournaments.pairing import Mode, pair
from tournaments.pairing.designs import best_rounds
from tournaments.pairing.norepeat import base_plan, plan_for
from tournaments.pairing.simulation import Event

SIZES = range(3, 100)


def promised(n: int) -> int:
    """The rounds a plan must have: the optimum for a multiple of 3; otherwise at least as
    many as for the multiple of 3 below (for n ≡ 2 mod 3 the plan has the optimum of n + 1)."""
    return best_rounds(n - n % 3) if n % 3 != 2 else best_rounds(n + 1)


@pytest.mark.parametrize("n", SIZES)
def test_every_field_has_a_plan_without_repeats_and_with_fair_byes(n):
    plan = base_plan(n)
    assert plan is not None
    assert len(plan) >= promised(n) >= best_rounds(n - n % 3)
    met: set[tuple[int, int]] = set()
    sat_out: Counter[int] = Counter()
    for tables, byes in plan:
        points = sorted([p for t in tables for p in t] + list(byes))
        assert points == list(range(n))
        assert all(len(t) == 3 for t in tables)
        assert len(byes) == n % 3
        for t in tables:
            for a, b in combinations(sorted(t), 2):
                assert (a, b) not in met
                met.add((a, b))
        sat_out.update(byes)
    # nobody sits out twice within the plan (so never before everyone sat out once)
    assert all(count == 1 for count in sat_out.values())


def test_the_seed_orders_the_rounds_only():
    assert sorted(plan_for(29, 1)) == sorted(plan_for(29, 2)) == sorted(base_plan(29))
    assert plan_for(29, 1) != plan_for(29, 2)


@pytest.mark.parametrize("n", SIZES)
def test_a_no_repeat_event_reaches_the_promised_rounds_through_pair(n):
    """The draw itself, round after round: no repeat in the promised rounds, the byes of
    each round among those who have sat out least."""
    event = Event(n, Mode.NO_REPEAT, seed=n)
    for _ in range(promised(n)):
        request = event.request()
        fewest = min(e.byes for e in request.entrants)
        pairing = pair(request)
        assert not pairing.repeats()
        assert len(pairing.byes) == n % 3
        byes_before = {e.id: e.byes for e in request.entrants}
        assert all(byes_before[p] == fewest for p in pairing.byes)
        event.play(pairing)


def test_a_bye_out_of_turn_leaves_the_plan_for_the_fair_choice():
    """When the history's byes are not the plan's (the organiser moved one), the draw does
    not give anyone a second bye while someone has none."""
    event = Event(14, Mode.NO_REPEAT, seed=3)
    event.play(pair(event.request()))
    request = event.request()
    planned = pair(request).byes
    # pretend one of this round's planned byes already sat out once
    changed = tuple(
        replace(e, byes=e.byes + 1) if e.id == planned[0] else e for e in request.entrants
    )
    fewest = min(e.byes for e in changed)
    pairing = pair(replace(request, entrants=changed))
    assert planned[0] not in pairing.byes
    assert all(e.byes == fewest for e in changed if e.id in pairing.byes)
