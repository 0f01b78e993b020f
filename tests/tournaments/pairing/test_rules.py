"""Keep-apart rules and teams in every mode: never at one table while any seating avoids
it, flagged with the reason when none does; for every field of 3 to 60 players."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings

from tournaments.pairing import Entrant, FlagCode, Mode, Request, pair, review
from tournaments.pairing.simulation import Event
from tournaments.pairing.values import RuleReason

from .helpers import partitions, requests, seated

SIZES = range(3, 61)
MODES = [mode.value for mode in Mode]


def fewest_pairs(group: int, tables: int) -> int:
    """The fewest pairs of one group at shared tables: its players spread as evenly as the
    tables of three allow."""
    if tables == 0:
        return 0
    each, more = divmod(group, tables)
    return more * comb(each + 1, 2) + (tables - more) * comb(each, 2)


def together(pairing, pairs) -> list[tuple[int, int]]:
    return [p for t in pairing.tables for p in combinations(sorted(t.seats), 2) if p in pairs]


def flagged(pairing, code) -> dict[tuple[int, ...], object]:
    return {f.players: f.reason for f in pairing.all_flags if f.code is code}


def check_group(pairing, group: set[int], code, pairs) -> None:
    """The group's pairs at one table: the fewest possible, each flagged, unavoidable."""
    at_tables = set(seated(pairing)) & group
    shared = together(pairing, pairs)
    assert len(shared) == fewest_pairs(len(at_tables), len(pairing.tables))
    reasons = flagged(pairing, code)
    assert set(reasons) == set(shared)
    assert all(reason is RuleReason.UNAVOIDABLE for reason in reasons.values())


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("mode", MODES)
def test_keep_apart_pairs_and_groups_in_every_field(n, mode):
    """Round 2 of an event (a history to avoid too): disjoint pairs (always avoidable from
    two tables), a group of a third of the field (just avoidable), one of a third plus one
    (one pair at a table, no more)."""
    event = Event(n, mode, seed=n)
    event.play(pair(event.request()))
    ids = sorted(event.players)
    pairs = frozenset((a, b) for a, b in zip(ids[::2], ids[1::2], strict=False))
    pairing = pair(event.request(apart=pairs))
    if len(pairing.tables) >= 2:
        assert not together(pairing, pairs)
    for size in (n // 3, n // 3 + 1):
        group = set(ids[-size:])
        apart = frozenset(combinations(sorted(group), 2))
        check_group(pair(event.request(apart=apart)), group, FlagCode.APART, apart)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("mode", MODES)
def test_teammates_apart_in_every_field(n, mode):
    """Teams of four (and the rest without a team): no teammates together from four tables
    on (12 players); below, the fewest there can be."""
    event = Event(n, mode, seed=n)
    teams = {p: (p - 1) // 4 for p in event.players}
    pairing = pair(event.request(teams=teams))
    mates = {(a, b) for a, b in combinations(sorted(teams), 2) if teams[a] == teams[b]}
    shared = together(pairing, mates)
    if len(pairing.tables) >= 4:
        assert not shared
    assert set(flagged(pairing, FlagCode.TEAMMATES)) == set(shared)


def test_keep_apart_comes_before_teammates_which_come_before_repeats():
    """Teams {1, 2}, {3, 4}, {5, 6}: two triangular tables exist, but 1 is kept apart from
    3 and 4, so 3 and 4 sit together, and 1 with 2 or with 5 and 6: two teammate pairs,
    flagged as unavoidable (given the keep-apart rules). And a repeat is taken rather than
    teammates."""
    entrants = tuple(Entrant(i, rank=i) for i in range(1, 7))
    teams = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
    for mode in MODES:
        request = Request(entrants=entrants, mode=mode, teams=teams, apart={(1, 3), (1, 4)})
        pairing = pair(request)
        assert not flagged(pairing, FlagCode.APART)
        reasons = flagged(pairing, FlagCode.TEAMMATES)
        assert list(reasons.values()) == [RuleReason.UNAVOIDABLE] * 2
        assert not flagged(pair(replace(request, apart=frozenset())), FlagCode.TEAMMATES)
        if mode == "random":
            continue  # random ignores the history
        # 1 has met 3, 4, 5 and 6: two repeats at any triangular table, one beside 2
        met = {(1, 3): (1,), (1, 5): (1,), (1, 4): (1,), (1, 6): (1,)}
        pairing = pair(Request(entrants=entrants, mode=mode, teams=teams, met=met))
        assert all(len({teams[p] for p in t.seats}) == 3 for t in pairing.tables)
        assert pairing.repeats() == 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(max_players=11, rules=True))
def test_the_fewest_rule_pairs_there_can_be(request):
    """Against every partition of the players seated: the fewest keep-apart pairs at
    tables, then the fewest teammates; every one flagged, once."""
    pairing = pair(request)
    players = sorted(set(request.ids) - set(pairing.byes))
    teams = request.teams

    def count(tables):
        apart = mates = 0
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                if (a, b) in request.apart:
                    apart += 1
                elif a in teams and teams.get(b) == teams[a]:
                    mates += 1
        return apart, mates

    ours = count(t.seats for t in pairing.tables)
    assert ours == min(count(tables) for tables in partitions(players))
    flags = [f for f in pairing.all_flags if f.code in (FlagCode.APART, FlagCode.TEAMMATES)]
    assert (
        sum(f.code is FlagCode.APART for f in flags),
        sum(f.code is FlagCode.TEAMMATES for f in flags),
    ) == ours
    assert len({f.players for f in flags}) == len(flags)
    if ours[0]:
        assert {f.reason for f in flags if f.code is FlagCode.APART} == {RuleReason.UNAVOIDABLE}


def test_a_hand_edited_draft_is_flagged_by_hand_or_unavoidable():
    entrants = tuple(Entrant(i, rank=i) for i in range(1, 7))
    request = Request(entrants=entrants, apart={(1, 2)}, teams={3: 9, 4: 9})
    table_flags, _, _ = review(request, [(1, 2, 3), (4, 5, 6)], [])
    assert table_flags[0] == (pair_flag(FlagCode.APART, 1, 2, RuleReason.BY_HAND),)
    table_flags, _, _ = review(request, [(1, 5, 6), (2, 3, 4)], [])
    assert table_flags[1] == (pair_flag(FlagCode.TEAMMATES, 3, 4, RuleReason.BY_HAND),)
    # three of one group and two tables: one pair must share a table
    crowded = replace(request, apart=frozenset(combinations((1, 2, 3), 2)), teams={})
    table_flags, _, _ = review(crowded, [(1, 2, 4), (3, 5, 6)], [])
    assert table_flags[0] == (pair_flag(FlagCode.APART, 1, 2, RuleReason.UNAVOIDABLE),)


def pair_flag(code, a, b, reason):
    from tournaments.pairing import Flag

    return Flag.rule(code, a, b, reason)


def test_flags_and_drafts_store_the_reason_and_the_rounds_left():
    entrants = tuple(Entrant(i, rank=i) for i in range(1, 4))
    pairing = pair(Request(entrants=entrants, apart={(1, 2)}))
    (flag,) = pairing.tables[0].flags
    assert flag.as_dict() == {"code": "apart", "players": [1, 2], "reason": "unavoidable"}
    assert "rounds_without_repeat" not in pairing.as_dict()
    planned = pair(Request(entrants=entrants, mode="no-repeat", planned_field=(1, 2, 3)))
    assert planned.rounds_without_repeat == 1
    assert planned.as_dict()["rounds_without_repeat"] == 1


def test_a_no_repeat_plan_leaves_the_rounds_that_break_a_rule_to_the_end():
    """Fifteen players, a Kirkman plan of 7 rounds in which every pair meets once: a
    keep-apart pair is put by the plan's labels into one round, played last (searched,
    as the plan's round would break the rule), the 6 others first."""
    event = Event(15, Mode.NO_REPEAT, seed=4)
    apart = frozenset({(1, 2), (3, 4)})
    lefts = []
    for _ in range(7):
        pairing = pair(event.request(apart=apart))
        assert not together(pairing, apart)
        lefts.append(pairing.rounds_without_repeat)
        event.play(pairing)
    assert lefts[:6] == [6, 5, 4, 3, 2, 1]
    assert lefts[6] is None


def test_a_swiss_float_for_a_rule_says_so():
    """Six players, all level: the plain cut is 1-2-3 and 4-5-6, but 1 and 2 are kept apart,
    so someone floats, and the explanation names the rule, not a repeat."""
    entrants = tuple(Entrant(i, rank=i, points=(2 if i <= 3 else 0)) for i in range(1, 7))
    pairing = pair(Request(entrants=entrants, apart={(1, 2)}))
    reasons = {f.reason.value for t in pairing.tables for f in t.why.floats}
    assert reasons == {"rule"}
    assert not together(pairing, {(1, 2)})


def test_a_rule_left_for_want_of_budget_is_flagged_not_found():
    """With no budget at all, the random draw's cut leaves a keep-apart pair that a seating
    avoids (1-3-5, 2-4-6): not proven unavoidable, so `not_found`."""
    entrants = tuple(Entrant(i, rank=i) for i in range(1, 7))
    apart = frozenset({(1, 2), (3, 4)})
    request = Request(entrants=entrants, mode="random", seed=0, budget=0, apart=apart)
    reasons = flagged(pair(request), FlagCode.APART)
    assert list(reasons.values()) == [RuleReason.NOT_FOUND]
    assert not together(pair(replace(request, budget=10_000)), apart)
