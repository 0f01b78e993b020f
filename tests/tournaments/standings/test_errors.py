"""What the standings refuse: bad configs (StandingsConfigError) and impossible events."""

import pickle

import pytest

from tournaments.standings import (
    Bye,
    Config,
    GameResult,
    StandingsConfigError,
    StandingsError,
    StandingsInputError,
    TeamConfig,
    build_standings,
    build_team_standings,
)
from tournaments.standings.errors import MESSAGES


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        (
            {"precedence": ("placing_points", "elo", "lot")},
            "unknown metric(s) in precedence: 'elo'",
        ),
        ({"precedence": ("score", "score")}, "listed twice"),
        ({"precedence": ("lot", "score")}, "lot must come last"),
        ({"precedence": "score"}, "tuple of metric names"),
        ({"bye_policy": "half"}, "bye_policy must be one of zero, second, average"),
        ({"bye_policy": None}, "bye_policy"),
        ({"placing_points": (2, 1)}, "three ints"),
        ({"placing_points": (2, 1, 0, 0)}, "three ints"),
        ({"placing_points": (2.0, 1, 0)}, "three ints"),
        ({"placing_points": (True, False, False)}, "three ints"),
        ({"placing_points": "210"}, "three ints"),
        ({"placing_points": (0, 1, 2)}, "must not pay a lower place more"),
        ({"seed": "abc"}, "seed must be an int"),
    ],
)
def test_bad_configs_are_refused_when_made(kwargs, says):
    with pytest.raises(StandingsConfigError) as caught:
        Config(**kwargs)
    assert says in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_configs_that_are_fine():
    assert Config().order == (
        "placing_points",
        "score",
        "firsts",
        "opponents",
        "head_to_head",
        "lot",
    )
    assert Config(precedence=()).order == ("lot",)
    listed = Config(placing_points=[3, 1, -1], precedence=["games", "score"])
    assert listed.placing_points == (3, 1, -1)
    assert listed.precedence == ("games", "score")
    assert listed.order == ("games", "score", "lot")
    assert Config(placing_points=(1, 1, 0)).placing_points == (1, 1, 0)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ((1, 1, (1, 2), (0, 0, 0), (1, 2, 3)), "players must be three ints"),
        ((1, 1, (1, 2, 3), (0, 0), (1, 2, 3)), "totals must be three ints"),
        ((1, 1, (1, 2, 3), (0, 0, 0.5), (1, 2, 3)), "totals must be three ints"),
        ((1, 1, (1, 1, 3), (0, 0, 0), (1, 1, 3)), "a player sits twice"),
        ((1, 1, (1, 2, 3), (0, 0, 0), (1, 2, 4)), "are not the table's players"),
        ((1, 1, (1, 2, 3), (0, 0, 0), (1, 2, 2)), "are not the table's players"),
        (("1", 1, (1, 2, 3), (0, 0, 0), (1, 2, 3)), "round and table must be ints"),
    ],
)
def test_bad_game_results_are_refused_when_made(args, says):
    with pytest.raises(StandingsInputError) as caught:
        GameResult(*args)
    assert says in str(caught.value)


def test_bad_bye_is_refused_when_made():
    with pytest.raises(StandingsInputError, match="must be ints"):
        Bye(1, "7")


G1 = GameResult(1, 1, (1, 2, 3), (1, 0, -1), (1, 2, 3))


@pytest.mark.parametrize(
    ("players", "results", "byes", "says"),
    [
        ([1, 2, 3, 3], [G1], [], "player 3 is listed twice"),
        ([1, 2, "x"], [], [], "player ids must be ints"),
        ([1, 2], [G1], [], "round 1 table 1: player 3 is not in the event"),
        ([1, 2, 3], [G1, G1], [], "round 1 table 1 has two results"),
        (
            [1, 2, 3, 4, 5],
            [G1, GameResult(1, 2, (3, 4, 5), (0, 0, 0), (3, 4, 5))],
            [],
            "player 3 plays twice in round 1: table 1 and table 2",
        ),
        ([1, 2, 3], [G1], [Bye(1, 9)], "bye for player 9, who is not in the event"),
        ([1, 2, 3], [G1], [Bye(1, 2)], "player 2 has a bye in round 1 and also table 1"),
        ([1, 2, 3, 4], [G1], [Bye(2, 4), Bye(2, 4)], "and also a second bye"),
    ],
)
def test_impossible_events_are_refused(players, results, byes, says):
    with pytest.raises(StandingsInputError) as caught:
        build_standings(players, results, byes, Config())
    assert says in str(caught.value)
    assert isinstance(caught.value, StandingsError)


def test_the_same_table_number_in_another_round_is_fine():
    again = GameResult(2, 1, (1, 2, 3), (1, 0, -1), (1, 2, 3))
    assert len(build_standings([1, 2, 3], [G1, again], [], Config())) == 3


G2 = GameResult(1, 2, (3, 4, 5), (0, 0, 0), (3, 4, 5))

#: code -> (what the standings refuse, the exact English they say)
REFUSALS = {
    "placing_points_three": (
        lambda: Config(placing_points=(2, 1)),
        "placing_points must be three ints (first, second, third), not (2, 1)",
    ),
    "placing_points_order": (
        lambda: Config(placing_points=[0, 1, 2]),
        "placing_points must not pay a lower place more than a higher one: (0, 1, 2)",
    ),
    "bye_policy_invalid": (
        lambda: Config(bye_policy="half"),
        "bye_policy must be one of zero, second, average, not 'half'",
    ),
    "seed_not_int": (lambda: Config(seed="abc"), "seed must be an int, not 'abc'"),
    "precedence_invalid": (
        lambda: Config(precedence="score"),
        "precedence must be a tuple of metric names, not 'score'",
    ),
    "metric_unknown": (
        lambda: Config(precedence=["elo", "score", "fide"]),
        "unknown metric(s) in precedence: 'elo', 'fide'; known: placing_points, score, "
        "firsts, opponents, head_to_head, games, lot",
    ),
    "metric_twice": (
        lambda: Config(precedence=["score", "score"]),
        "a metric is listed twice in precedence: ('score', 'score')",
    ),
    "lot_not_last": (
        lambda: Config(precedence=("lot", "score")),
        "lot must come last in precedence (it separates everyone): ('lot', 'score')",
    ),
    "result_not_three": (
        lambda: GameResult(1, 2, (1, 2, 3), [0, 0], (1, 2, 3)),
        "round 1 table 2: totals must be three ints, not (0, 0)",
    ),
    "result_round_table": (
        lambda: GameResult("1", None, (1, 2, 3), (0, 0, 0), (1, 2, 3)),
        "a game's round and table must be ints, not '1', None",
    ),
    "result_seated_twice": (
        lambda: GameResult(1, 1, (1, 1, 3), (0, 0, 0), (1, 1, 3)),
        "round 1 table 1: a player sits twice: (1, 1, 3)",
    ),
    "result_placings": (
        lambda: GameResult(1, 1, (1, 2, 3), (0, 0, 0), (1, 2, 4)),
        "round 1 table 1: placings (1, 2, 4) are not the table's players (1, 2, 3)",
    ),
    "bye_not_ints": (lambda: Bye(1, "7"), "a bye's round and player must be ints, not 1, '7'"),
    "bye_policy_unknown": (
        lambda: Bye(1, 7, "half"),
        "a bye's policy must be one of zero, second, average, not 'half'",
    ),
    "player_not_int": (
        lambda: build_standings([1, 2, "x"], []),
        "player ids must be ints, not 'x'",
    ),
    "player_twice": (
        lambda: build_standings([1, 2, 3, 3], [G1]),
        "player 3 is listed twice",
    ),
    "table_twice": (
        lambda: build_standings([1, 2, 3], [G1, G1]),
        "round 1 table 1 has two results",
    ),
    "seated_stranger": (
        lambda: build_standings([1, 2], [G1]),
        "round 1 table 1: player 3 is not in the event",
    ),
    "plays_at_two_tables": (
        lambda: build_standings([1, 2, 3, 4, 5], [G1, G2]),
        "player 3 plays twice in round 1: table 1 and table 2",
    ),
    "bye_stranger": (
        lambda: build_standings([1, 2, 3], [G1], [Bye(1, 9)]),
        "round 1: bye for player 9, who is not in the event",
    ),
    "bye_twice": (
        lambda: build_standings([1, 2, 3, 4], [G1], [Bye(2, 4), Bye(2, 4)]),
        "player 4 has a bye in round 2 and also a second bye",
    ),
    "bye_and_table": (
        lambda: build_standings([1, 2, 3], [G1], [Bye(1, 2)]),
        "player 2 has a bye in round 1 and also table 1",
    ),
    # the teams (tournaments.standings.teams)
    "team_scoring_invalid": (
        lambda: TeamConfig(scoring="wins"),
        "a team's scoring must be one of placing, game_points, not 'wins'",
    ),
    "team_not_int": (
        lambda: build_team_standings({"red": [1]}, [1, 2, 3], [G1]),
        "team ids must be ints, not 'red'",
    ),
    "team_member_twice": (
        lambda: build_team_standings({1: [1, 2], 2: [2]}, [1, 2, 3], [G1]),
        "player 2 is in team 1 and also in team 2",
    ),
}


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_has_its_code_params_and_english(code):
    refuse, english = REFUSALS[code]
    with pytest.raises(StandingsError) as caught:
        refuse()
    assert str(caught.value) == english
    assert caught.value.message == english
    assert caught.value.code == code
    assert caught.value.params


def test_every_code_in_the_catalogue_is_reached():
    assert set(MESSAGES) == set(REFUSALS)


def test_a_refusal_carries_the_values_not_a_sentence_about_them():
    with pytest.raises(StandingsConfigError) as caught:
        Config(precedence=("lot", "score"))
    assert (caught.value.code, caught.value.params) == (
        "lot_not_last",
        {"precedence": ("lot", "score")},
    )
    again = pickle.loads(pickle.dumps(caught.value))
    assert (type(again), again.code, again.params, str(again)) == (
        StandingsConfigError,
        "lot_not_last",
        {"precedence": ("lot", "score")},
        str(caught.value),
    )
