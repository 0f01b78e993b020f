"""The whole-event plans of no-repeat: each design is what it claims to be."""

from itertools import combinations

import pytest

from tournaments.pairing import kirkman
from tournaments.pairing.designs import (
    affine_design,
    best_rounds,
    design_for,
    is_kirkman,
    problems,
    ray_chaudhuri_wilson,
    sizes_stored,
    tripled,
    upper_bound,
)

#: Every field size a design is promised for, 3 to 99 players.
MULTIPLES_OF_3 = range(3, 100, 3)


@pytest.mark.parametrize("n", MULTIPLES_OF_3)
def test_every_multiple_of_3_up_to_99_has_a_design_at_the_known_optimum(n):
    design = design_for(n)
    assert design is not None
    assert problems(n, design) == []
    assert len(design) == best_rounds(n)
    expected = {6: 1, 12: 4}.get(n, (n - 1) // 2)
    assert best_rounds(n) == expected


@pytest.mark.parametrize("n", [n for n in MULTIPLES_OF_3 if n % 6 == 3])
def test_sizes_3_mod_6_have_kirkman_triple_systems(n):
    design = design_for(n)
    assert is_kirkman(n, design)
    assert len(design) == upper_bound(n)


@pytest.mark.parametrize("n", [n for n in MULTIPLES_OF_3 if n % 6 == 0 and n >= 18])
def test_sizes_0_mod_6_have_nearly_kirkman_systems(n):
    """(N−2)/2 rounds, and the pairs that never meet are a perfect matching."""
    design = design_for(n)
    met = {pair for round_ in design for t in round_ for pair in combinations(t, 2)}
    unmet = [pair for pair in combinations(range(n), 2) if pair not in met]
    assert len(design) == (n - 2) // 2
    assert sorted(p for pair in unmet for p in pair) == list(range(n))


def test_the_stored_sizes():
    assert sizes_stored() == (12, 15, 18, 21)
    assert [n for n in range(3, 100) if design_for(n)] == list(MULTIPLES_OF_3)


@pytest.mark.parametrize("path", sorted(kirkman.DATA.glob("*.txt")), ids=lambda p: p.stem)
def test_a_searched_design_is_rebuilt_from_its_seed(path):
    """Each file in design_data is what the command on its first line writes: its seed,
    searched with its step limit, gives the same base round."""
    n = int(path.stem)
    text = path.read_text()
    seed = int(text.split("seed ")[1].split(".")[0])
    steps = int(text.split("--steps ")[1].split()[0]) if "--steps" in text else 200_000
    build = kirkman.kts_cyclic if n % 6 == 3 else kirkman.nkts_cyclic
    assert build(n, seed, steps).text(seed, steps) == text


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_affine_geometry_gives_a_kirkman_system_on_3_to_the_k_points(k):
    n = 3**k
    design = affine_design(k)
    assert len(design) == (n - 1) // 2
    assert is_kirkman(n, design)


def test_problems_finds_a_repeat_and_a_bad_round():
    design = design_for(9)
    broken = (design[0], design[0])
    assert any("pair" in p for p in problems(9, broken))
    assert any("partition" in p for p in problems(9, (((0, 1, 2), (0, 4, 5), (6, 7, 8)),)))
    assert not is_kirkman(9, design[:3])


def _rounds_of(used, n, order_after=None, first_table=None):
    """Every round (partition into triples) of 0..n−1 that repeats no pair in `used`."""

    def extend(left):
        if not left:
            yield []
            return
        p, rest = left[0], left[1:]
        for q, r in combinations(rest, 2):
            if {(p, q), (p, r), (q, r)} & used:
                continue
            for tail in extend([x for x in rest if x not in (q, r)]):
                yield [(p, q, r), *tail]

    for round_ in extend(list(range(n))):
        if first_table is not None and round_[0] != first_table:
            continue
        if order_after is not None and round_ <= order_after:
            continue
        yield round_


def test_twelve_players_cannot_have_five_rounds_without_a_repeat():
    """Exhaustive, up to symmetry: round 1 is fixed, and so is the table of player 0 in the
    earliest (lexicographically) of the other rounds, {0, 3, 6} (any two partners of 0 come
    from two other round-1 tables, which relabelling makes these). So 4 is the most."""

    def pairs(round_):
        return {pair for t in round_ for pair in combinations(t, 2)}

    first = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (9, 10, 11)]

    def longest(used, played, last):
        best = played
        first_table = (0, 3, 6) if played == 1 else None
        for round_ in _rounds_of(used, 12, last, first_table):
            best = max(best, longest(used | pairs(round_), played + 1, round_))
        return best

    assert longest(pairs(first), 1, None) == 4 == len(design_for(12))


@pytest.mark.parametrize("v", [3, 9, 15, 21, 33])
def test_tripling_a_kirkman_system_gives_one_three_times_as_large(v):
    design = tripled(design_for(v))
    assert is_kirkman(3 * v, design)
    assert len(design) == upper_bound(3 * v)


@pytest.mark.parametrize("q", [7, 13, 19, 31, 37, 43])
def test_ray_chaudhuri_wilson_gives_a_kirkman_system_on_2q_plus_1_points(q):
    design = ray_chaudhuri_wilson(q)
    assert is_kirkman(2 * q + 1, design)
    assert len(design) == q
