"""Properties every draw must have, on random fields, standings and histories."""

from collections import Counter
from dataclasses import replace
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import FlagCode, pair

from .helpers import cost, partitions, requests, seated

quick = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(requests(max_players=40))
def test_every_player_is_at_one_table_or_has_a_bye(request):
    pairing = pair(request)
    everyone = seated(pairing) + list(pairing.byes)
    assert sorted(everyone) == sorted(request.ids)
    assert all(len(set(table.seats)) == 3 for table in pairing.tables)
    assert len(pairing.byes) == len(request.entrants) % 3
    assert [t.number for t in pairing.tables] == list(range(1, len(pairing.tables) + 1))
    assert all(table.first_dealer in (0, 1, 2) for table in pairing.tables)


@quick
@given(requests(max_players=20))
def test_byes_go_to_the_fewest_byes_then_the_lowest_ranked(request):
    """Always to the fewest byes; then to the lowest ranked, except in a round that follows
    a no-repeat plan (`rounds_without_repeat` set): each player sits out in a round the plan
    fixes, so the plan gives the bye to the lowest ranked of the rounds still to come
    (test_plans), which keeps every round of the plan free of repeats."""
    pairing = pair(request)
    by_id = {e.id: e for e in request.entrants}
    if pairing.rounds_without_repeat is not None:
        fewest = min(e.byes for e in request.entrants)
        assert all(by_id[bye].byes == fewest for bye in pairing.byes)
        return
    for bye in pairing.byes:
        for player in seated(pairing):
            sitting_out, playing = by_id[bye], by_id[player]
            assert (sitting_out.byes, -sitting_out.rank) <= (playing.byes, -playing.rank)


@quick
@given(requests(max_players=20))
def test_a_second_bye_is_flagged(request):
    pairing = pair(request)
    by_id = {e.id: e for e in request.entrants}
    flagged = {f.players[0]: f.amount for f in pairing.flags if f.code is FlagCode.SECOND_BYE}
    assert flagged == {p: by_id[p].byes + 1 for p in pairing.byes if by_id[p].byes}


@quick
@given(requests(max_players=30), st.randoms(use_true_random=False))
def test_same_request_same_draw_whatever_the_order_of_the_input(request, rnd):
    entrants = list(request.entrants)
    rnd.shuffle(entrants)
    met = list(request.met.items())
    rnd.shuffle(met)
    flipped = {(b, a) if rnd.random() < 0.5 else (a, b): rounds for (a, b), rounds in met}
    shuffled = replace(request, entrants=tuple(entrants), met=flipped)
    assert pair(shuffled) == pair(request)


@quick
@given(requests(max_players=30))
def test_every_repeat_at_a_table_is_flagged_with_its_rounds(request):
    pairing = pair(request)
    for table in pairing.tables:
        flagged = {f.players: f.rounds for f in table.flags if f.code is FlagCode.REPEAT}
        met = {
            (a, b): request.met[(a, b)]
            for a, b in combinations(sorted(table.seats), 2)
            if (a, b) in request.met
        }
        assert flagged == met


@quick
@given(requests(max_players=12, modes=["swiss"]))
def test_swiss_is_optimal_in_small_fields(request):
    """Against every partition: the fewest repeats, then the smallest spread."""
    pairing = pair(request)
    players = sorted(set(request.ids) - set(pairing.byes))
    best = min(cost(request, tables) for tables in partitions(players))
    assert cost(request, [t.seats for t in pairing.tables]) == best
    assert not any(f.code is FlagCode.SEARCH_LIMIT for f in pairing.flags)


@quick
@given(requests(max_players=12, modes=["no-repeat"]))
def test_no_repeat_has_the_fewest_repeats_possible_in_small_fields(request):
    pairing = pair(request)
    players = sorted(set(request.ids) - set(pairing.byes))
    fewest = min(cost(request, tables)[0] for tables in partitions(players))
    assert cost(request, [t.seats for t in pairing.tables])[0] == fewest


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests(min_players=30, max_players=60, modes=["swiss", "no-repeat"]))
def test_swiss_and_no_repeat_avoid_repeats_when_the_history_is_sparse(request):
    """Each player has met a few others: a repeat-free draw always exists in fields this size,
    and the search must find it."""
    thin = {}
    counts = Counter()
    for (a, b), rounds in request.met.items():
        if counts[a] < 6 and counts[b] < 6:
            thin[(a, b)] = rounds
            counts[a] += 1
            counts[b] += 1
    pairing = pair(replace(request, met=thin))
    assert pairing.repeats() == 0


@quick
@given(requests(min_players=6, max_players=20, modes=["random"]))
def test_random_draws_differ_from_seed_to_seed(request):
    def tables(seed):
        return sorted(tuple(sorted(t.seats)) for t in pair(replace(request, seed=seed)).tables)

    assert len({tuple(tables(seed)) for seed in range(8)}) > 1


@quick
@given(requests(max_players=30, rules=True), st.randoms(use_true_random=False))
def test_with_rules_too_the_same_request_gives_the_same_draw(request, rnd):
    entrants = list(request.entrants)
    rnd.shuffle(entrants)
    apart = {(b, a) if rnd.random() < 0.5 else (a, b) for a, b in request.apart}
    teams = dict(reversed(list(request.teams.items())))
    shuffled = replace(request, entrants=tuple(entrants), apart=frozenset(apart), teams=teams)
    pairing = pair(request)
    assert pair(shuffled) == pairing
    everyone = seated(pairing) + list(pairing.byes)
    assert sorted(everyone) == sorted(request.ids)
