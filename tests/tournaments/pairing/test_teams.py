"""Three teams of equal size m: the orthogonal squares and the plan for every m from 1 to 99
but 2 and 6 (none exist); for every m from 1 to 33, events drawn through `pair`: triangular
tables every round in every mode, and in no-repeat m rounds without a repeat and every
player meeting all 2m players of the other teams."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from tournaments.pairing import Mode, pair
from tournaments.pairing.simulation import Event
from tournaments.pairing.teams import (
    _QDM,
    _has_pair,
    _qdm_pair,
    _wilson_pair,
    _wilson_split,
    check_qdm,
    latin_pair,
    most_rounds,
    qdm_rows,
    three_teams,
    triangular_design,
)

#: The team sizes of the events drawn here (each a whole event through `pair`).
TEAM_SIZES = range(1, 34)
#: The team sizes whose squares and plan are checked: every one up to 99.
ORDERS = range(1, 100)
#: The sizes without a pair of orthogonal squares: none exist.
WITHOUT = {2, 6}


def is_latin(square) -> bool:
    m = len(square)
    return all(sorted(row) == list(range(m)) for row in square) and all(
        sorted(col) == list(range(m)) for col in zip(*square, strict=True)
    )


def is_orthogonal_pair(squares) -> bool:
    first, second = squares
    m = len(first)
    cells = {(first[i][j], second[i][j]) for i in range(m) for j in range(m)}
    return is_latin(first) and is_latin(second) and len(cells) == m * m


@pytest.mark.parametrize("m", ORDERS)
def test_orthogonal_squares_for_every_order_but_2_and_6(m):
    squares = latin_pair(m)
    assert _has_pair(m) is (m not in WITHOUT)
    if m in WITHOUT:
        assert squares is None
        return
    assert len(squares[0]) == m
    assert is_orthogonal_pair(squares)  # every pair of symbols once


@pytest.mark.parametrize("n", sorted(_QDM))
def test_the_stored_quasi_difference_matrices_are_ones(n):
    """Each stored matrix checked as a QDM, not only through its squares; a matrix with one
    entry changed is not one (the check looks)."""
    rows = qdm_rows(n)
    assert check_qdm(rows, n)
    assert is_orthogonal_pair(_qdm_pair(n))
    broken = [list(row) for row in rows]
    broken[3][-1] = (broken[3][-1] + 1) % n
    assert not check_qdm(broken, n)
    blanks_together = [list(row) for row in rows]
    blanks_together[2][1], blanks_together[2][2] = None, blanks_together[2][1]
    assert not check_qdm(blanks_together, n)


@pytest.mark.parametrize("m", [18, 22, 26, 34, 38, 46, 58])
def test_wilsons_construction_where_it_is_the_only_one_and_where_a_qdm_is_stored(m):
    """From 34 the pairs ≡ 2 mod 4 that are no product come from Wilson's construction; it
    builds 18, 22, 26 too (where the QDMs are used): one check that it is right there."""
    k, t, u = _wilson_split(m)
    assert k * t + u == m and 0 <= u <= t and t % 2 and t % 3
    assert is_orthogonal_pair(_wilson_pair(k, t, u))


@pytest.mark.parametrize("m", ORDERS)
def test_the_triangular_design_meets_every_pair_of_two_teams_once(m):
    design = triangular_design(m)
    if m in WITHOUT:
        assert design is None
        return
    assert len(design) == m == most_rounds(m)
    met = set()
    for round_ in design:
        assert sorted(p for t in round_ for p in t) == list(range(3 * m))
        assert all(sorted(p // m for p in t) == [0, 1, 2] for t in round_)
        for t in round_:
            for pair_ in combinations(sorted(t), 2):
                assert pair_ not in met
                met.add(pair_)
    assert len(met) == 3 * m * m


def test_three_teams_of_14_play_14_rounds_without_a_repeat():
    """The smallest size whose plan comes from a quasi-difference matrix, drawn through `pair`
    with the teams as a club enters them (in blocks, not interleaved): 14 rounds, none with a
    repeat, each triangular, and everyone has met all 28 players of the other teams."""
    m = 14
    event = Event(3 * m, Mode.NO_REPEAT, seed=7)
    teams = {p: i // m for i, p in enumerate(sorted(event.players))}
    for number in range(1, m + 1):
        pairing = pair(event.request(teams=teams))
        assert all(len({teams[p] for p in t.seats}) == 3 for t in pairing.tables)
        assert not pairing.repeats()
        assert pairing.rounds_without_repeat == m - number + 1
        event.play(pairing)
    opponents = {p: set() for p in teams}
    for a, b in event.met:
        opponents[a].add(b)
        opponents[b].add(a)
    assert all(len(o) == 2 * m for o in opponents.values())


def test_two_players_a_team_cannot_play_a_second_triangular_round():
    """Brute force for m = 2: no two triangular rounds without a repeat (`most_rounds`)."""

    def rounds():
        for b, c in product([(2, 3), (3, 2)], [(4, 5), (5, 4)]):
            yield [(0, b[0], c[0]), (1, b[1], c[1])]

    def pairs(round_):
        return {p for t in round_ for p in combinations(sorted(t), 2)}

    assert all(pairs(x) & pairs(y) for x, y in combinations(list(rounds()), 2))
    assert most_rounds(2) == 1
    assert three_teams({0: 0, 1: 0, 2: 1, 3: 1, 4: 2, 5: 2}, range(6)) == [[0, 1], [2, 3], [4, 5]]
    assert three_teams({0: 0, 1: 0, 2: 1, 3: 1, 4: 2}, range(6)) is None  # 5 has no team


def team_event(m: int, mode: Mode) -> tuple[Event, dict[int, int]]:
    event = Event(3 * m, mode, seed=m)
    return event, {p: p % 3 for p in event.players}


@pytest.mark.parametrize("m", TEAM_SIZES)
def test_a_no_repeat_team_event_is_triangular_with_the_most_opponents(m):
    """Every round triangular; with a plan, m rounds without a repeat, the draft counting
    them down, and every player has met all 2m players of the other teams."""
    event, teams = team_event(m, Mode.NO_REPEAT)
    planned = triangular_design(m) is not None
    for number in range(1, (m if planned else min(m, 3)) + 1):
        pairing = pair(event.request(teams=teams))
        assert all(len({teams[p] for p in t.seats}) == 3 for t in pairing.tables)
        if planned:
            assert not pairing.repeats()
            assert pairing.rounds_without_repeat == m - number + 1
        event.play(pairing)
    if planned:
        opponents = {p: set() for p in teams}
        for a, b in event.met:
            opponents[a].add(b)
            opponents[b].add(a)
        assert all(len(o) == 2 * m for o in opponents.values())


@pytest.mark.parametrize("m", TEAM_SIZES)
@pytest.mark.parametrize("mode", [Mode.SWISS, Mode.RANDOM])
def test_swiss_and_random_team_rounds_are_triangular(m, mode):
    """Two rounds: teammates never share a table (the rule outranks repeats and swiss
    closeness), with no repeat in round 2 while m ≥ 3 leaves room (swiss)."""
    event, teams = team_event(m, mode)
    for _ in range(2):
        pairing = pair(event.request(teams=teams))
        assert all(len({teams[p] for p in t.seats}) == 3 for t in pairing.tables)
        assert not [f for f in pairing.all_flags if f.code.value == "teammates"]
        if mode is Mode.SWISS and m >= 3:
            assert not pairing.repeats()
        event.play(pairing)
