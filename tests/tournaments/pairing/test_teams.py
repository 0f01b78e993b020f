"""Three teams of equal size m, for every m from 1 to 33: triangular tables every round in
every mode, and in no-repeat the most distinct opponents (m rounds without a repeat
wherever `teams.latin_pair` has squares: every m but 2, 6 (none exist) and 14, 18, 22, 26
(none stored yet))."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from tournaments.pairing import Mode, pair
from tournaments.pairing.simulation import Event
from tournaments.pairing.teams import latin_pair, most_rounds, three_teams, triangular_design

TEAM_SIZES = range(1, 34)
#: The team sizes up to 33 without a pair of orthogonal squares here.
WITHOUT = {2, 6, 14, 18, 22, 26}


def is_latin(square) -> bool:
    m = len(square)
    return all(sorted(row) == list(range(m)) for row in square) and all(
        sorted(col) == list(range(m)) for col in zip(*square, strict=True)
    )


@pytest.mark.parametrize("m", TEAM_SIZES)
def test_orthogonal_squares_for_every_order_but_a_few_2_mod_4(m):
    squares = latin_pair(m)
    if m in WITHOUT:
        assert squares is None
        return
    first, second = squares
    assert is_latin(first) and is_latin(second)
    cells = {(first[i][j], second[i][j]) for i in range(m) for j in range(m)}
    assert len(cells) == m * m  # every pair of symbols once: orthogonal


@pytest.mark.parametrize("m", TEAM_SIZES)
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
