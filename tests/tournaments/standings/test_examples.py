"""Small events worked out by hand: exact rows, every tie-break deciding, every bye policy."""

import json

from tournaments.standings import Bye, Config, GameResult, Row, build_standings, lot


def game(round_, table, players, totals, placings):
    return GameResult(round_, table, tuple(players), tuple(totals), tuple(placings))


def row(rank, player, pp, score, firsts, opponents, games, decided_by, h2h=0, seed=0):
    metrics = {
        "placing_points": pp,
        "score": score,
        "firsts": firsts,
        "opponents": opponents,
        "head_to_head": h2h,
        "games": games,
        "lot": lot(seed, player),
    }
    return Row(rank, player, score, metrics, decided_by)


def order_of(rows):
    return [r.player for r in rows]


def explained(rows):
    return [(r.player, r.decided_by) for r in rows]


# Six players, two rounds, default config. By hand (placing points 2/1/0):
#   1: 1st (+6), 3rd (-4)    pp 2  score  2  firsts 1  opponents (2+2)+(4+1) = 9
#   2: 2nd (-1), 2nd (+2)    pp 2  score  1  firsts 0  opponents (2+2)+(2+1) = 7
#   3: 3rd (-5), 1st (+2)    pp 2  score -3  firsts 1  opponents (2+2)+(2+1) = 7
#   4: 1st (+3), 1st (+5)    pp 4  score  8  firsts 2  opponents (1+1)+(2+1) = 5
#   5: 2nd (+2), 3rd (-4)    pp 1  score -2  firsts 0  opponents (4+1)+(2+2) = 9
#   6: 3rd (-5), 2nd (-1)    pp 1  score -6  firsts 0  opponents (4+1)+(2+4) = 11
SIX = [
    game(1, 1, (1, 2, 3), (6, -1, -5), (1, 2, 3)),
    game(1, 2, (4, 5, 6), (3, 2, -5), (4, 5, 6)),
    game(2, 1, (1, 4, 6), (-4, 5, -1), (4, 6, 1)),
    game(2, 2, (2, 3, 5), (2, 2, -4), (3, 2, 5)),  # equal totals: the engine put 3 first
]


def test_six_players_two_rounds_exact_rows():
    rows = build_standings(range(1, 7), SIX, [], Config())
    assert rows == [
        row(1, 4, 4, 8, 2, 5, 2, None),
        row(2, 1, 2, 2, 1, 9, 2, None),  # placing points separate: the first metric
        row(3, 2, 2, 1, 0, 7, 2, "score"),
        row(4, 3, 2, -3, 1, 7, 2, "score"),
        row(5, 5, 1, -2, 0, 9, 2, None),
        row(6, 6, 1, -6, 0, 11, 2, "score"),
    ]


def test_rows_as_json():
    rows = build_standings(range(1, 7), SIX, [], Config())
    first = json.loads(json.dumps(rows[0].as_dict()))
    assert first == {
        "rank": 1,
        "player": 4,
        "score": 8,
        "metrics": {
            "placing_points": 4,
            "score": 8,
            "firsts": 2,
            "opponents": 5,
            "head_to_head": 0,
            "games": 2,
            "lot": lot(0, 4),
        },
        "decided_by": None,
    }


def test_precedence_score_first():
    rows = build_standings(range(1, 7), SIX, [], Config(precedence=("score", "lot")))
    assert explained(rows) == [(4, None), (1, None), (2, None), (5, None), (3, None), (6, None)]


def test_firsts_decide_between_equal_points_and_score():
    # 1: 1st (+2), 3rd (-2); 2: 2nd (+1), 2nd (-1): both pp 2, score 0; 1 has a first.
    # 3: 3rd (-3), 1st (+4): pp 2, score 1, above both on score.
    results = [
        game(1, 1, (1, 2, 3), (2, 1, -3), (1, 2, 3)),
        game(1, 2, (4, 5, 6), (5, 0, -5), (4, 5, 6)),
        game(2, 1, (1, 4, 6), (-2, 3, -1), (4, 6, 1)),
        game(2, 2, (2, 3, 5), (-1, 4, -3), (3, 2, 5)),
    ]
    rows = build_standings(range(1, 7), results, [], Config())
    assert explained(rows) == [
        (4, None),
        (3, None),
        (1, "score"),
        (2, "firsts"),
        (5, None),
        (6, "score"),
    ]
    assert [r.metrics["firsts"] for r in rows] == [2, 1, 1, 0, 0, 0]


# A=1 and B=2 end equal on placing points (3), score (4), firsts (1) and opponents (8): A
# placed above B in their one game, so head-to-head decides. Y=4 is equal with them on the
# first three but had weaker opponents (4).
A, B, X, Y, Z, W = 1, 2, 3, 4, 5, 6
MET_ONCE = [
    game(1, 1, (A, B, X), (4, 1, -5), (A, B, X)),
    game(1, 2, (Y, Z, W), (3, 0, -3), (Y, Z, W)),
    game(2, 1, (A, X, Z), (0, 2, -2), (X, A, Z)),
    game(2, 2, (B, Y, W), (3, 1, -4), (B, Y, W)),
]


def test_head_to_head_and_opponents_decide_with_the_default_precedence():
    rows = build_standings(range(1, 7), MET_ONCE, [], Config())
    assert rows == [
        row(1, A, 3, 4, 1, 8, 2, None, h2h=1),
        row(2, B, 3, 4, 1, 8, 2, "head_to_head"),
        row(3, Y, 3, 4, 1, 4, 2, "opponents"),
        row(4, X, 2, -3, 1, 10, 2, None),
        row(5, Z, 1, -2, 0, 8, 2, None),
        row(6, W, 0, -7, 0, 10, 2, None),
    ]


def test_head_to_head_is_the_same_whoever_sat_where():
    swapped = [
        game(1, 1, (X, B, A), (-5, 1, 4), (A, B, X)),
        *MET_ONCE[1:],
    ]
    assert build_standings(range(1, 7), swapped, [], Config()) == build_standings(
        range(1, 7), MET_ONCE, [], Config()
    )


def test_head_to_head_counts_shared_games_placed_above():
    # A and B met twice, one above the other once each: no beat. Both placed above Z twice.
    once_each = [
        game(1, 1, (A, B, Z), (2, 1, -3), (A, B, Z)),
        game(2, 1, (A, B, Z), (1, 2, -3), (B, A, Z)),
    ]
    config = Config(precedence=("head_to_head", "lot"))
    rows = build_standings([A, B, Z], once_each, [], config)
    assert {r.player: r.metrics["head_to_head"] for r in rows} == {A: 1, B: 1, Z: 0}
    assert order_of(rows) == [*sorted((A, B), key=lambda p: -lot(0, p)), Z]
    assert [r.decided_by for r in rows] == [None, "lot", None]

    # A third meeting, A above B again: 2 to 1, so A beat B.
    twice = [*once_each, game(3, 1, (Z, A, B), (-3, 2, 1), (A, B, Z))]
    rows = build_standings([A, B, Z], twice, [], config)
    assert [(r.player, r.metrics["head_to_head"]) for r in rows] == [(A, 2), (B, 1), (Z, 0)]


# Placing points alone (precedence placing_points, head_to_head, lot); fillers 10.. never
# reach the tied players' points.
def _three_tied():
    """A, B and C all on 3 placing points; A beat B in round 1, C beat A in round 2."""
    a, b, c = 1, 2, 3
    return [
        game(1, 1, (a, b, 10), (3, 1, -4), (a, b, 10)),
        game(1, 2, (c, 11, 12), (-3, 2, 1), (11, 12, c)),
        game(2, 1, (c, a, 13), (3, 1, -4), (c, a, 13)),
        game(2, 2, (b, 14, 15), (3, 1, -4), (b, 14, 15)),
        game(3, 1, (c, 16, 17), (1, 2, -3), (16, c, 17)),
        game(3, 2, (a, 18, 19), (-3, 2, 1), (18, 19, a)),
    ]


PP_H2H = Config(precedence=("placing_points", "head_to_head", "lot"), seed=5)
PLAYERS = [1, 2, 3, *range(10, 20)]


def test_head_to_head_that_does_not_separate_cleanly_leaves_it_to_the_lot():
    # Counts: A beat B, C beat A -> A 1, C 1, B 0; but C never met B, so not clean.
    rows = build_standings(PLAYERS, _three_tied(), [], PP_H2H)
    top = rows[:3]
    assert {r.player for r in top} == {1, 2, 3}
    assert all(r.metrics["placing_points"] == 3 for r in top)
    assert all(r.metrics["head_to_head"] == 0 for r in top)
    assert [r.player for r in top] == sorted((1, 2, 3), key=lambda p: -lot(5, p))
    assert [r.decided_by for r in top] == [None, "lot", "lot"]
    assert rows[3].metrics["placing_points"] < 3


def test_head_to_head_separates_cleanly_in_part():
    # A beat B (round 1) and C (round 2); B and C never met: A above both, then the lot.
    a, b, c = 1, 2, 3
    results = [
        game(1, 1, (a, b, 10), (3, 1, -4), (a, b, 10)),
        game(1, 2, (c, 11, 12), (-3, 2, 1), (11, c, 12)),
        game(2, 1, (a, c, 13), (3, 1, -4), (a, c, 13)),
        game(2, 2, (b, 14, 15), (3, 1, -4), (b, 14, 15)),
        game(3, 1, (b, 16, 17), (1, 2, -3), (16, b, 17)),
        game(3, 2, (c, 18, 19), (3, 1, -4), (c, 18, 19)),
    ]
    rows = build_standings(PLAYERS, results, [], PP_H2H)
    top = rows[:3]
    assert [r.metrics["placing_points"] for r in top] == [4, 4, 4]
    assert top[0].player == a and top[0].metrics["head_to_head"] == 2
    assert top[0].decided_by is None
    assert [r.player for r in top[1:]] == sorted((b, c), key=lambda p: -lot(5, p))
    assert [(r.metrics["head_to_head"], r.decided_by) for r in top[1:]] == [
        (0, "head_to_head"),
        (0, "lot"),
    ]


def byes_for(players, round_=1):
    return [Bye(round_, p) for p in players]


def test_lot_decides_between_players_level_on_everything():
    rows = build_standings([5, 6, 7, 8], [], byes_for([5, 6, 7, 8]), Config(seed=42))
    assert order_of(rows) == sorted([5, 6, 7, 8], key=lambda p: -lot(42, p))
    assert [r.decided_by for r in rows] == [None, "lot", "lot", "lot"]
    orders = {
        tuple(order_of(build_standings([5, 6, 7, 8], [], byes_for([5, 6, 7, 8]), Config(seed=s))))
        for s in range(10)
    }
    assert len(orders) > 1  # the seed matters


def test_lot_values_are_fixed():
    # Stored snapshots and the site's explanations depend on these not changing between
    # versions: a change here reorders every event decided by lot.
    assert lot(0, 1) == 8520058715446414
    assert lot(0, 2) == 7295219962561363
    assert lot(7, 1) == 2711723243675278
    assert all(0 <= lot(s, p) < 2**53 for s in range(5) for p in range(50))


def test_games_played_decides_when_asked():
    # 2 was second in a game; 4 got a bye worth a second place: level on placing points.
    results = [game(1, 1, (1, 2, 3), (4, 0, -4), (1, 2, 3))]
    config = Config(precedence=("placing_points", "games"))
    rows = build_standings([1, 2, 3, 4], results, [Bye(1, 4)], config)
    assert explained(rows) == [(1, None), (2, None), (4, "games"), (3, None)]
    assert config.order == ("placing_points", "games", "lot")


# Byes: 1 sits out round 2, 4 sits out round 1.
BYE_RESULTS = [
    game(1, 1, (1, 2, 3), (5, 0, -5), (1, 2, 3)),
    game(2, 1, (2, 3, 4), (7, -2, -5), (2, 3, 4)),
]
BYES = [Bye(1, 4), Bye(2, 1)]


def metrics_by_player(config):
    rows = build_standings([1, 2, 3, 4], BYE_RESULTS, BYES, config)
    return {
        r.player: (
            r.metrics["placing_points"],
            r.score,
            r.metrics["firsts"],
            r.metrics["games"],
            r.metrics["opponents"],
        )
        for r in rows
    }


def test_bye_zero():
    assert metrics_by_player(Config(bye_policy="zero")) == {
        1: (2, 5, 1, 1, 3 + 1),
        2: (3, 7, 1, 2, (2 + 1) + (1 + 0)),
        3: (1, -7, 0, 2, (2 + 3) + (3 + 0)),
        4: (0, -5, 0, 1, 3 + 1),
    }


def test_bye_second():
    assert metrics_by_player(Config(bye_policy="second")) == {
        1: (3, 5, 1, 1, 3 + 1),
        2: (3, 7, 1, 2, (3 + 1) + (1 + 1)),
        3: (1, -7, 0, 2, (3 + 3) + (3 + 1)),
        4: (1, -5, 0, 1, 3 + 1),
    }


def test_bye_average():
    assert metrics_by_player(Config(bye_policy="average")) == {
        1: (4, 10, 1, 1, 3 + 1),
        2: (3, 7, 1, 2, (4 + 1) + (1 + 0)),
        3: (1, -7, 0, 2, (4 + 3) + (3 + 0)),
        4: (0, -10, 0, 1, 3 + 1),
    }


def test_bye_average_rounds_halves_away_from_zero():
    # 1: 1st (+2), 2nd (+3): averages 2.5 and 1.5 -> a bye worth 3 and 2.
    # 3: 2nd (-2), 3rd (-3): averages -2.5 and 0.5 -> a bye worth -3 and 1.
    # 7: a bye and no games: worth nothing.
    results = [
        game(1, 1, (1, 2, 3), (2, -5, -2), (1, 3, 2)),
        game(1, 2, (4, 5, 6), (1, 0, -1), (4, 5, 6)),
        game(2, 1, (1, 3, 4), (3, -3, 5), (4, 1, 3)),
        game(2, 2, (2, 5, 6), (0, 0, 0), (2, 5, 6)),
    ]
    byes = [Bye(3, 1), Bye(3, 3), Bye(1, 7)]
    rows = build_standings(range(1, 8), results, byes, Config(bye_policy="average"))
    got = {r.player: (r.score, r.metrics["placing_points"]) for r in rows}
    assert got[1] == (2 + 3 + 3, 2 + 1 + 2)
    assert got[3] == (-2 - 3 - 3, 1 + 0 + 1)
    assert got[7] == (0, 0)


def test_every_bye_of_a_player_is_worth_the_same_average():
    results = [game(1, 1, (1, 2, 3), (4, 0, -4), (1, 2, 3))]
    byes = [Bye(2, 1), Bye(3, 1)]
    rows = build_standings([1, 2, 3], results, byes, Config(bye_policy="average"))
    assert (rows[0].player, rows[0].score, rows[0].metrics["placing_points"]) == (1, 12, 6)


def test_players_without_games_are_listed_after_the_ranked_with_no_rank():
    # 2 ends third with -2: a player who never played (0 and 0) is still not placed above
    # him, by score or by lot; those who took part in no round come last, by id.
    results = [game(1, 1, (1, 2, 3), (-1, -2, 3), (3, 1, 2))]
    rows = build_standings([9, 1, 2, 3, 8], results, [], Config())
    assert order_of(rows) == [3, 1, 2, 8, 9]
    assert [r.decided_by for r in rows] == [None, None, None, None, None]
    assert [r.rank for r in rows] == [1, 2, 3, None, None]
    assert [r.metrics["games"] for r in rows] == [1, 1, 1, 0, 0]


def test_no_players_no_rows():
    assert build_standings([], [], [], Config()) == []


def test_inputs_may_be_lists_and_generators():
    as_lists = [
        GameResult(g.round, g.table, list(g.players), list(g.totals), list(g.placings)) for g in SIX
    ]
    rows = build_standings((p for p in range(1, 7)), iter(as_lists), iter([]), Config())
    assert rows == build_standings(range(1, 7), SIX, [], Config())


def test_config_defaults_to_the_default_config():
    assert build_standings(range(1, 7), SIX) == build_standings(range(1, 7), SIX, [], Config())
