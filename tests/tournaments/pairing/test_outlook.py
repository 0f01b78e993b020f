"""`outlook`: at most how many rounds a field can still play with nobody meeting twice and
every rule kept, this draft included; never below the truth, found by brute force on small
fields."""

from __future__ import annotations

from functools import cache
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import Outlook, outlook
from tournaments.pairing.outlook import _most_rounds

from .helpers import partitions


def rounds_of(field: list[int]) -> list[frozenset[tuple[int, int]]]:
    """Every round of `field` (N mod 3 sitting out), as the pairs it seats together."""
    out = []
    for byes in combinations(field, len(field) % 3):
        seated = [p for p in field if p not in byes]
        for tables in partitions(seated):
            out.append(frozenset(pair for t in tables for pair in combinations(sorted(t), 2)))
    return out


@cache
def _rounds(field: tuple[int, ...]) -> tuple[frozenset[tuple[int, int]], ...]:
    return tuple(rounds_of(list(field)))


def most_rounds(field: list[int], barred: set[tuple[int, int]], enough: int) -> int:
    """The most rounds that can follow with no pair of `barred` at a table and no pair twice
    (the search stops at `enough`)."""
    open_rounds = [r for r in _rounds(tuple(field)) if not r & barred]
    best = 0

    def grow(start: int, used: frozenset, depth: int) -> None:
        nonlocal best
        best = max(best, depth)
        if best >= enough:
            return
        for index in range(start, len(open_rounds)):
            if not open_rounds[index] & used:
                grow(index + 1, used | open_rounds[index], depth + 1)
                if best >= enough:
                    return

    grow(0, frozenset(), 0)
    return best


def pairs_of(tables) -> set[tuple[int, int]]:
    return {pair for t in tables for pair in combinations(sorted(t), 2)}


# --- what it says ------------------------------------------------------------------------------


def test_nine_players_after_their_first_round_have_three_more_as_kirkman_gives():
    tables = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    seen = outlook(range(1, 10), tables, met=())
    assert seen == Outlook(rounds=4, player=1, left=6)
    assert seen.more == 3 == most_rounds(list(range(1, 10)), pairs_of(tables), 9)


def test_fifteen_players_have_seven_rounds_as_kirkman_s_schoolgirls():
    tables = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12), (13, 14, 15)]
    assert outlook(range(1, 16), tables, met=()).rounds == 7


def test_the_player_with_fewest_people_left_limits_it():
    field = list(range(1, 10))
    tables = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    met = {(1, 4), (1, 5), (1, 6), (1, 7)}  # player 1 has met four more
    seen = outlook(field, tables, met)
    assert (seen.player, seen.left, seen.more) == (1, 2, 1)


def test_a_repeat_or_a_broken_rule_in_this_draft_ends_the_rounds_without_repeat():
    field, tables = list(range(1, 7)), [(1, 2, 3), (4, 5, 6)]
    assert outlook(field, tables, met={(2, 3): (1,)}).rounds == 0
    assert outlook(field, tables, met=(), apart={(1, 3)}).rounds == 0
    assert outlook(field, tables, met=(), teams={4: 7, 6: 7}) == Outlook(0)
    # rules and meetings elsewhere in the field leave this draft clean
    assert outlook(field, tables, met={(1, 4): (1,)}, apart={(2, 5)}, teams={3: 1, 6: 1}).rounds


def test_teammates_and_keep_apart_pairs_are_nobody_to_meet():
    """Three teams of three, a triangular round: each player may meet the four players of
    the other teams they did not meet, so two more rounds, as the triangular plan gives."""
    teams = {p: (p - 1) // 3 for p in range(1, 10)}
    tables = [(1, 4, 7), (2, 5, 8), (3, 6, 9)]
    seen = outlook(range(1, 10), tables, met=(), teams=teams)
    assert (seen.rounds, seen.left) == (3, 4)
    seen = outlook(range(1, 10), tables, met=(), apart={(1, 5)}, teams=teams)
    assert (seen.rounds, seen.player, seen.left) == (2, 1, 3)


def test_a_player_who_can_sit_out_does_not_end_it():
    """Player 1 has met everyone else, but two sit out each round of five: one more round can
    follow (2, 4 and 5 at a table), which counting player 1 alone would deny."""
    field, tables = [1, 2, 3, 4, 5], [(1, 2, 3)]
    seen = outlook(field, tables, met={(1, 4), (1, 5)})
    assert (seen.player, seen.left, seen.more) == (1, 0, 1)
    assert most_rounds(field, {(1, 4), (1, 5)} | pairs_of(tables), 5) == 1


def test_fewer_than_three_players_play_no_more_rounds():
    assert outlook([1, 2], [], met=()) == Outlook(1)
    assert outlook([], [], met=()) == Outlook(1)


# --- never below the truth -------------------------------------------------------------------


@st.composite
def fields(draw):
    """A small field with a history, keep-apart pairs and teams, and a draft of it: most of
    the time one that keeps every rule and repeats nobody, when there is one."""
    n = draw(st.integers(3, 9))
    field = list(range(1, n + 1))
    everyone = list(combinations(field, 2))
    met = set(draw(st.lists(st.sampled_from(everyone), max_size=n * 2)))
    apart = set(draw(st.lists(st.sampled_from(everyone), max_size=2)))
    teams = draw(st.dictionaries(st.sampled_from(field), st.integers(1, 3), max_size=n))
    barred = met | apart | {(a, b) for a, b in everyone if a in teams and teams[a] == teams.get(b)}
    rounds = _rounds(tuple(field))
    clean = [r for r in rounds if not r & barred]
    pool = clean if clean and draw(st.integers(0, 4)) else rounds
    drawn = draw(st.sampled_from(pool))
    return field, sorted(drawn), met, apart, teams, barred


def tables_of(pairs: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The tables (triangles) of a round's pairs."""
    neighbours: dict[int, set[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, {a}).add(b)
        neighbours.setdefault(b, {b}).add(a)
    return sorted({tuple(sorted(group)) for group in neighbours.values()})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_the_bound_is_never_below_the_rounds_a_field_can_really_play(case):
    field, drawn, met, apart, teams, barred = case
    tables = tables_of(drawn)
    seen = outlook(field, tables, met, apart, teams)
    if set(drawn) & barred:
        assert seen.rounds == 0
        return
    assert seen.rounds >= 1
    truth = most_rounds(field, barred | set(drawn), seen.more + 1)
    assert truth <= seen.more
    # and the player named has as few people left as anyone
    assert seen.player in field


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 40), st.randoms(use_true_random=False))
def test_without_byes_the_bound_is_the_fewest_people_left_halved(n, rng):
    """With N divisible by 3 everyone sits at a table every round: the bound is the plain
    ⌊k/2⌋ of the player with the fewest people k left, and that player is named."""
    n -= n % 3
    field = list(range(1, n + 1))
    rng.shuffle(field)
    tables = [tuple(field[i : i + 3]) for i in range(0, n, 3)]
    met = {pair for pair in combinations(range(1, n + 1), 2) if rng.random() < 0.2}
    met -= pairs_of(tables)
    seen = outlook(field, tables, met)
    left = {p: n - 1 - sum(1 for pair in met | pairs_of(tables) if p in pair) for p in field}
    fewest = min(left.values())
    assert (seen.left, seen.more) == (fewest, fewest // 2)
    assert left[seen.player] == fewest


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 20), min_size=3, max_size=30), st.integers(0, 2))
def test_the_rounds_fit_are_the_largest_by_the_sum_of_rounds_sat_out(seatings, byes):
    """The one pass finds the largest R whose rounds sat out fit into R · byes byes (none
    fits beyond 20 · 30: more rounds than seatings in all, over players less byes)."""
    fits = [r for r in range(0, 20 * 30 + 2) if sum(max(0, r - s) for s in seatings) <= r * byes]
    assert _most_rounds(seatings, byes) == max(fits)
