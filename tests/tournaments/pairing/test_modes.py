"""Each mode on hand-made cases, and no-repeat over whole simulated events."""

import time
from itertools import combinations

import pytest

from tournaments.pairing import Entrant, FlagCode, Request, meetings, pair
from tournaments.pairing.simulation import Event

from .helpers import cost, seated


def ranked(n, first=1):
    return tuple(Entrant(first + i, rank=i + 1) for i in range(n))


def groups(pairing):
    return [sorted(t.seats) for t in pairing.tables]


# random


def test_random_is_reproducible_from_the_seed():
    """Pinned: the same request draws the same tables in any process, on any machine."""
    request = Request(entrants=ranked(9), mode="random", seed=7, round_number=1)
    assert groups(pair(request)) == groups(pair(request))
    assert groups(pair(request)) == [[1, 3, 6], [2, 4, 9], [5, 7, 8]]


def test_random_draws_a_new_round_from_the_same_seed():
    draws = {
        tuple(map(tuple, groups(pair(Request(entrants=ranked(12), mode="random", round_number=r)))))
        for r in range(1, 6)
    }
    assert len(draws) == 5


# swiss


def test_swiss_without_history_is_the_standings_cut_into_threes_top_table_first():
    pairing = pair(Request(entrants=ranked(12)[::-1], mode="swiss"))
    assert groups(pairing) == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    assert [t.number for t in pairing.tables] == [1, 2, 3, 4]
    assert pairing.all_flags == ()


def test_swiss_moves_as_little_as_it_can_to_avoid_a_repeat():
    request = Request(entrants=ranked(6), mode="swiss", met={(1, 2): (1,)})
    pairing = pair(request)
    assert pairing.repeats() == 0
    assert cost(request, [t.seats for t in pairing.tables]) == (0, 7)


def test_swiss_seats_the_leader_as_high_as_the_history_allows():
    """The leader has met the 2nd: of the draws as good (no repeat, spread 7), the one with
    the leader beside the 3rd and 4th at the top table, not sent down to the 5th and 6th
    while the 2nd, 3rd and 4th sit together."""
    for n in (6, 9, 12):
        pairing = pair(Request(entrants=ranked(n), mode="swiss", met={(1, 2): (1,)}))
        assert groups(pairing)[:2] == [[1, 3, 4], [2, 5, 6]]
        assert pairing.tables[0].seats.count(1) == 1


def test_swiss_sends_the_leader_down_only_when_that_costs_less_spread():
    # Met the 2nd and the 3rd: with the 4th and 5th (4 + 4 places) is worse than with the
    # 5th and 6th beside the 2nd, 3rd and 4th (5 + 2), so the leader goes down, explained.
    pairing = pair(Request(entrants=ranked(9), mode="swiss", met={(1, 2): (1,), (1, 3): (1,)}))
    assert groups(pairing) == [[1, 5, 6], [2, 3, 4], [7, 8, 9]]


def test_swiss_breaks_equal_ranks_by_the_rounds_lot():
    entrants = tuple(Entrant(i, rank=1) for i in range(1, 10))
    first = pair(Request(entrants=entrants, mode="swiss", seed=1))
    assert first == pair(Request(entrants=entrants, mode="swiss", seed=1))
    others = {
        tuple(map(tuple, groups(pair(Request(entrants=entrants, mode="swiss", seed=s)))))
        for s in range(2, 8)
    }
    assert len(others) > 1


def test_swiss_keeps_repeats_it_cannot_avoid_and_says_so():
    request = Request(entrants=ranked(3), mode="swiss", met={(1, 2): (1,), (1, 3): (2,)})
    table = pair(request).tables[0]
    assert [(f.code, f.players, f.rounds) for f in table.flags] == [
        (FlagCode.REPEAT, (1, 2), (1,)),
        (FlagCode.REPEAT, (1, 3), (2,)),
    ]
    assert pair(request).flags == ()  # proven unavoidable: no search_limit


def test_swiss_flags_a_table_stretched_across_the_standings():
    """Player 1 has met everyone down to 12th, so their table reaches at least 13th."""
    request = Request(
        entrants=ranked(30), mode="swiss", met={(1, other): (1,) for other in range(2, 13)}
    )
    pairing = pair(request)
    assert pairing.repeats() == 0
    top = pairing.tables[0]
    assert 1 in top.seats
    spread = [f for f in top.flags if f.code is FlagCode.SPREAD]
    assert len(spread) == 1
    assert spread[0].players[0] == 1 and spread[0].amount >= 12 and spread[0].limit == 8
    assert spread[0].players == tuple(sorted(top.seats))
    others = [f for t in pairing.tables[1:] for f in t.flags]
    assert all(f.code is FlagCode.SPREAD for f in others)


def test_swiss_does_not_flag_neighbours_in_a_large_tie():
    """Twenty players share 1st and twenty share 21st: a table across the boundary is a
    table of neighbours, whatever the rank difference."""
    entrants = tuple(Entrant(i, rank=1 if i <= 20 else 21) for i in range(1, 43))
    extra = (Entrant(43, rank=41), Entrant(44, rank=41), Entrant(45, rank=41))
    pairing = pair(Request(entrants=entrants + extra, mode="swiss"))
    assert not [f for f in pairing.all_flags if f.code is FlagCode.SPREAD]


@pytest.mark.parametrize("players", [30, 45])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_swiss_avoids_repeats_over_a_whole_event_of_thirty_or_more(players, seed):
    event = Event(players, "swiss", seed=seed)
    event.run(9)
    assert sum(p.repeats() for p in event.rounds) == 0


# byes and changing fields


@pytest.mark.parametrize("mode", ["random", "swiss", "no-repeat"])
def test_byes_go_round_the_field_before_anyone_has_a_second(mode):
    event = Event(5, mode, seed=1)  # two byes a round
    event.run(5)
    assert sorted(p.byes for p in event.players.values()) == [2, 2, 2, 2, 2]
    byes_by_round = [set(r.byes) for r in event.rounds]
    assert set().union(*byes_by_round[:2]) | byes_by_round[2] == set(event.players)
    second = [f for f in event.rounds[2].flags if f.code is FlagCode.SECOND_BYE]
    assert [f.amount for f in second] == [2]


@pytest.mark.parametrize("mode", ["random", "swiss", "no-repeat"])
def test_withdrawals_and_late_entries_never_break_a_round(mode):
    def changes(event):
        if event.round_number == 3:
            event.withdraw(4)
        if event.round_number == 4:
            event.join(100)
            event.join(101)
        if event.round_number == 5:
            event.withdraw(100)

    event = Event(15, mode, seed=2)
    event.run(7, before_round=changes)
    for pairing, field_size in zip(event.rounds, [15, 15, 14, 16, 15, 15, 15], strict=True):
        assert len(seated(pairing)) + len(pairing.byes) == field_size
        assert len(pairing.byes) == field_size % 3


# no-repeat


@pytest.mark.parametrize(("players", "rounds"), [(9, 4), (12, 4), (15, 7), (18, 8), (21, 10)])
def test_no_repeat_reaches_the_most_rounds_possible(players, rounds):
    started = time.perf_counter()
    event = Event(players, "no-repeat", seed=5)
    event.run(rounds)
    assert sum(p.repeats() for p in event.rounds) == 0
    assert not [f for p in event.rounds for f in p.all_flags]
    if players % 6 == 3:  # a Kirkman system: everyone has met everyone
        assert len(event.met) == players * (players - 1) // 2
    assert time.perf_counter() - started < 10


def test_after_the_plan_no_repeat_meets_each_pair_at_most_twice():
    event = Event(9, "no-repeat", seed=5)
    event.run(5)
    assert event.rounds[4].repeats() == 9  # every pair has met: every pair repeats
    assert all(len(rounds) <= 2 for rounds in event.met.values())


def test_the_plan_is_relabelled_by_the_seed():
    firsts = {tuple(map(tuple, groups(Event(15, "no-repeat", seed=s).run(1)[0]))) for s in range(5)}
    assert len(firsts) == 5


def test_no_repeat_leaves_the_plan_when_the_event_did():
    """A swap in round 2 breaks the plan; later rounds search and still avoid repeats."""
    event = Event(15, "no-repeat", seed=8)
    event.run(1)
    second = pair(event.request())
    a, b = second.tables[0], second.tables[1]
    swapped = {
        1: groups(event.rounds[0]),
        2: [[b.seats[0], *a.seats[1:]], [a.seats[0], *b.seats[1:]]] + groups(second)[2:],
    }
    request = event.request(met=meetings(swapped), round_number=3)
    assert pair(request).repeats() == 0


def test_no_repeat_searches_rounds_when_there_is_no_plan():
    event = Event(30, "no-repeat", seed=4)
    event.planned_field = None
    event.run(8)
    assert sum(p.repeats() for p in event.rounds) == 0


def test_no_repeat_flags_repeats_it_could_not_prove_unavoidable():
    """With no budget to search, it takes the lot's order and says the repeats may go."""
    players = ranked(21)
    met = {pair_: (1,) for pair_ in combinations(range(1, 7), 2)}
    request = Request(entrants=players, mode="no-repeat", met=met, budget=0, seed=2)
    pairing = pair(request)
    assert pairing.repeats() > 0
    limit = [f for f in pairing.flags if f.code is FlagCode.SEARCH_LIMIT]
    assert [f.amount for f in limit] == [pairing.repeats()]
    searched = pair(Request(entrants=players, mode="no-repeat", met=met, seed=2))
    assert searched.repeats() == 0 and searched.flags == ()


def test_no_repeat_finds_the_fewest_repeats_when_some_are_unavoidable():
    """Ten players who have all met, seven tables: three tables must seat two of them."""
    met = {pair_: (1,) for pair_ in combinations(range(1, 11), 2)}
    for seed in range(4):
        request = Request(entrants=ranked(21), mode="no-repeat", met=met, budget=50_000, seed=seed)
        assert pair(request).repeats() == 3


def test_repeats_from_bare_pairs_are_flagged_without_rounds():
    request = Request(entrants=ranked(3), mode="no-repeat", met=frozenset({(1, 2)}))
    flags = pair(request).tables[0].flags
    assert [(f.players, f.rounds) for f in flags] == [((1, 2), ())]
