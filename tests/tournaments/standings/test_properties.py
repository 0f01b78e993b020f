"""Properties over random events and configs, against a slow, literal reading of the rules.

The reference below is written straight from the definitions in tournaments/standings/build.py
(per player, per pair, no shortcuts), so the fast build must agree with it on every event.
"""

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from bench.standings import random_event
from tournaments.standings import METRICS, Config, build_standings, lot

from .strategies import configs, events


def half_away(value: Fraction) -> int:
    magnitude = int(abs(value) + Fraction(1, 2))  # floor of |x| + 1/2
    return magnitude if value >= 0 else -magnitude


def bye_worth(player, results, config):
    """(game points, placing points) of one bye, from the config's words."""
    if config.bye_policy == "zero":
        return 0, 0
    if config.bye_policy == "second":
        return 0, config.placing_points[1]
    mine = [g for g in results if player in g.players]
    if not mine:
        return 0, 0
    score = sum(g.totals[g.players.index(player)] for g in mine)
    placing = sum(config.placing_points[g.placings.index(player)] for g in mine)
    return half_away(Fraction(score, len(mine))), half_away(Fraction(placing, len(mine)))


def reference(players, results, byes, config):
    """Every metric of every player, the slow way."""
    m = {p: dict.fromkeys(METRICS, 0) for p in players}
    for p in players:
        mine = [g for g in results if p in g.players]
        m[p]["games"] = len(mine)
        m[p]["firsts"] = sum(1 for g in mine if g.placings[0] == p)
        m[p]["score"] = sum(g.totals[g.players.index(p)] for g in mine)
        m[p]["placing_points"] = sum(config.placing_points[g.placings.index(p)] for g in mine)
        m[p]["lot"] = lot(config.seed, p)
    for bye in byes:
        score, placing = bye_worth(bye.player, results, config)
        m[bye.player]["score"] += score
        m[bye.player]["placing_points"] += placing
    for p in players:
        m[p]["opponents"] = sum(
            m[q]["placing_points"] for g in results if p in g.players for q in g.players if q != p
        )
    if "head_to_head" in config.order:
        before = config.order[: config.order.index("head_to_head")]
        groups = {}
        for p in (p for p in players if m[p]["games"]):  # who has met anyone
            groups.setdefault(tuple(m[p][x] for x in before), []).append(p)
        for group in groups.values():
            counts = reference_head_to_head(group, results)
            for p, count in counts.items():
                m[p]["head_to_head"] = count
    return m


def reference_head_to_head(group, results):
    def beat(a, b):
        shared = [g for g in results if a in g.placings and b in g.placings]
        above = sum(1 for g in shared if g.placings.index(a) < g.placings.index(b))
        return above > len(shared) - above

    counts = {p: sum(1 for q in group if q != p and beat(p, q)) for p in group}
    clean = all(
        beat(p, q) if counts[p] > counts[q] else True for p in group for q in group if p != q
    )
    return counts if clean else dict.fromkeys(group, 0)


def shuffled(seq, rnd):
    seq = list(seq)
    rnd.shuffle(seq)
    return seq


@given(events(), configs())
def test_every_metric_agrees_with_the_literal_definitions(event, config):
    players, results, byes = event
    rows = build_standings(players, results, byes, config)
    expected = reference(players, results, byes, config)
    assert {r.player: r.metrics for r in rows} == expected
    assert all(r.score == r.metrics["score"] for r in rows)


@given(events(), configs())
def test_rows_follow_the_precedence_and_say_what_decided(event, config):
    players, results, byes = event
    everyone = build_standings(players, results, byes, config)
    assert sorted(r.player for r in everyone) == sorted(players)  # everyone, games or not
    took_part = {p for g in results for p in g.players} | {b.player for b in byes}
    rows = [r for r in everyone if r.player in took_part]
    unranked = everyone[len(rows) :]
    assert everyone[: len(rows)] == rows  # the ranked first, 1..K
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    assert [r.player for r in unranked] == sorted(set(players) - took_part)
    assert all(r.rank is None and r.decided_by is None for r in unranked)
    keys = [tuple(r.metrics[m] for m in config.order) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for above, below, key_above, key_below in zip(rows, rows[1:], keys, keys[1:], strict=False):
        first_difference = next(
            (i for i, (a, b) in enumerate(zip(key_above, key_below, strict=True)) if a != b), None
        )
        if first_difference is None:
            assert below.decided_by == "lot" and above.player < below.player
        elif first_difference == 0:
            assert below.decided_by is None
        else:
            assert below.decided_by == config.order[first_difference]
    if rows:
        assert rows[0].decided_by is None


@given(events(), configs(), st.randoms(use_true_random=False))
def test_the_order_of_the_input_does_not_matter(event, config, rnd):
    players, results, byes = event
    rows = build_standings(players, results, byes, config)
    again = build_standings(
        shuffled(players, rnd), shuffled(results, rnd), shuffled(byes, rnd), config
    )
    assert again == rows


@given(events(), configs())
def test_building_twice_gives_the_same_rows(event, config):
    players, results, byes = event
    assert build_standings(players, results, byes, config) == build_standings(
        players, results, byes, config
    )


@given(events(), configs())
def test_scores_add_up_to_the_games_and_the_byes(event, config):
    players, results, byes = event
    rows = build_standings(players, results, byes, config)
    bye_points = [bye_worth(b.player, results, config) for b in byes]
    assert sum(r.score for r in rows) == sum(sum(g.totals) for g in results) + sum(
        s for s, _ in bye_points
    )
    assert sum(r.metrics["placing_points"] for r in rows) == len(results) * sum(
        config.placing_points
    ) + sum(p for _, p in bye_points)
    assert sum(r.metrics["games"] for r in rows) == 3 * len(results)
    assert sum(r.metrics["firsts"] for r in rows) == len(results)


@given(events(), configs(), st.integers(20_000, 30_000))
def test_a_new_player_changes_no_one_elses_lot(event, config, newcomer):
    players, results, byes = event
    before = {r.player: r.metrics["lot"] for r in build_standings(players, results, byes, config)}
    after = build_standings([*players, newcomer], results, byes, config)
    assert {r.player: r.metrics["lot"] for r in after if r.player != newcomer} == before


@given(events())
def test_a_bye_under_zero_is_the_same_as_sitting_out(event):
    # Worth nothing, but taken part in: it may rank a player who played no game, after
    # the same order of everyone else.
    players, results, byes = event
    config = Config(bye_policy="zero")
    with_byes = build_standings(players, results, byes, config)
    without = build_standings(players, results, [], config)
    assert {r.player: r.metrics for r in with_byes} == {r.player: r.metrics for r in without}
    played = {p for g in results for p in g.players}
    assert [r.player for r in with_byes if r.player in played] == [
        r.player for r in without if r.player in played
    ]


@settings(max_examples=20)
@given(events(max_players=9), st.sampled_from(["second", "average"]))
def test_a_bye_never_counts_as_a_game_a_first_or_an_opponent(event, policy):
    players, results, byes = event
    config = Config(bye_policy=policy)
    with_byes = {r.player: r.metrics for r in build_standings(players, results, byes, config)}
    without = {r.player: r.metrics for r in build_standings(players, results, [], config)}
    for p in players:
        assert with_byes[p]["games"] == without[p]["games"]
        assert with_byes[p]["firsts"] == without[p]["firsts"]
    for p in {b.player for b in byes} - {p for g in results for p in g.players}:
        assert with_byes[p]["opponents"] == 0


def test_a_large_event_with_many_ties_and_head_to_head_first():
    # Everyone one group for head_to_head: still linear, and still agrees with order-independence.
    players, results, byes = random_event(600, 5, seed=2)
    config = Config(precedence=("head_to_head", "firsts", "lot"), placing_points=(1, 0, 0))
    rows = build_standings(players, results, byes, config)
    rnd = random.Random(3)
    assert build_standings(shuffled(players, rnd), shuffled(results, rnd), byes, config) == rows
    assert [r.rank for r in rows] == list(range(1, 601))


H2H_CONFIGS = st.builds(
    Config,
    precedence=st.sampled_from(
        [("head_to_head",), ("placing_points", "head_to_head"), ("firsts", "head_to_head")]
    ),
    bye_policy=st.sampled_from(["zero", "second", "average"]),
)


@settings(max_examples=300)
@given(events(max_players=7, max_rounds=6), H2H_CONFIGS)
def test_head_to_head_in_small_groups_that_meet_often(event, config):
    # The general events rarely tie players who met; these (few players, many rounds, an
    # early head_to_head) make groups that met often, cleanly ordered or not.
    players, results, byes = event
    rows = build_standings(players, results, byes, config)
    expected = reference(players, results, byes, config)
    assert {r.player: r.metrics["head_to_head"] for r in rows} == {
        p: expected[p]["head_to_head"] for p in players
    }
