"""Team standings (tournaments.standings.teams): golden examples worked by hand, the refusals,
and properties over any event: order independence, the team total is its players' own total,
every tie explained."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    TEAM_TIE_BREAKS,
    Bye,
    Config,
    GameResult,
    StandingsConfigError,
    StandingsInputError,
    TeamConfig,
    build_standings,
    build_team_standings,
)
from tournaments.standings.teams import team_lot

from .strategies import events

TEAMS = {10: [1, 2], 20: [3, 4], 30: [5, 6]}
PLAYERS = [1, 2, 3, 4, 5, 6]
# Worked by hand (docs/team-standings.md has the same example).
RESULTS = [
    GameResult(1, 1, (1, 3, 5), (10, 5, -2), (1, 3, 5)),
    GameResult(1, 2, (2, 4, 6), (3, 8, 1), (4, 2, 6)),
    GameResult(2, 1, (1, 4, 6), (4, -1, 7), (6, 1, 4)),
    GameResult(2, 2, (2, 3, 5), (0, 2, 6), (5, 3, 2)),
]


def by_team(rows):
    return {row.team: row for row in rows}


def test_placing_scoring_level_teams_split_by_round_wins_then_game_points():
    rows = build_team_standings(TEAMS, PLAYERS, RESULTS, config=TeamConfig())
    table = by_team(rows)
    # Round 1: A 2+1, B 1+2, C 0+0; round 2: A 1+0, B 0+1, C 2+2.
    assert [table[t].per_round for t in (10, 20, 30)] == [(3, 1), (3, 1), (0, 4)]
    assert [table[t].points for t in (10, 20, 30)] == [4, 4, 4]
    # Each team topped one round (A and B share round 1).
    assert [table[t].metrics["round_wins"] for t in (10, 20, 30)] == [1, 1, 1]
    # Game points: A 10+3+4+0, B 5+8-1+2, C -2+1+7+6.
    assert [table[t].metrics["score"] for t in (10, 20, 30)] == [17, 14, 12]
    assert [(row.rank, row.team, row.decided_by) for row in rows] == [
        (1, 10, None),
        (2, 20, "score"),
        (3, 30, "score"),
    ]
    assert table[10].members == (1, 2)


def test_game_points_scoring_ranks_by_the_game_totals():
    config = TeamConfig(scoring="game_points")
    rows = build_team_standings(TEAMS, PLAYERS, RESULTS, config=config)
    assert [(row.team, row.points, row.per_round) for row in rows] == [
        (10, 17, (13, 4)),
        (20, 14, (13, 1)),
        (30, 12, (-1, 13)),
    ]
    assert [row.decided_by for row in rows] == [None, None, None]  # the total separates them
    assert [row.metrics["round_wins"] for row in rows] == [1, 1, 1]


def test_head_to_head_that_cycles_leaves_the_lot_to_decide():
    # Each pair of teams placed above the other twice and below it twice: no one beat anyone.
    config = TeamConfig(precedence=("head_to_head",), seed=7)
    rows = build_team_standings(TEAMS, PLAYERS, RESULTS, config=config)
    assert all(row.metrics["head_to_head"] == 0 for row in rows)
    assert [row.team for row in rows] == sorted(TEAMS, key=lambda t: -team_lot(7, t))
    assert [row.decided_by for row in rows] == [None, "lot", "lot"]


def test_head_to_head_decides_between_teams_level_on_points():
    results = [
        GameResult(1, 1, (1, 3, 5), (0, 0, 0), (3, 1, 5)),  # B's 3 above A's 1
        GameResult(1, 2, (2, 4, 6), (0, 0, 0), (6, 2, 4)),  # A's 2 above B's 4
        GameResult(2, 1, (1, 3, 6), (0, 0, 0), (6, 3, 1)),  # B's 3 above A's 1 again
        GameResult(2, 2, (2, 4, 5), (0, 0, 0), (5, 4, 2)),  # B's 4 above A's 2
    ]
    teams = {10: [1, 2], 20: [3, 4]}
    config = TeamConfig(placing_points=(1, 1, 1), precedence=("head_to_head",))
    rows = build_team_standings(teams, PLAYERS, results, config=config)
    assert [row.points for row in rows] == [4, 4]
    assert [(row.team, row.metrics["head_to_head"], row.decided_by) for row in rows] == [
        (20, 1, None),
        (10, 0, "head_to_head"),
    ]


def test_byes_and_void_tables_count_for_a_member_as_they_count_individually():
    results = [GameResult(1, 1, (1, 3, 5), (6, 3, 0), (1, 3, 5))]
    byes = [Bye(1, 2), Bye(1, 4, policy="zero"), Bye(2, 2, policy="average")]
    config = TeamConfig(bye_policy="second")
    rows = by_team(build_team_standings(TEAMS, PLAYERS, results, byes, config))
    # A: 1 first (2) + 2's bye worth a second (1); round 2: 2's average of no games is 0.
    assert rows[10].per_round == (3, 0)
    assert rows[20].per_round == (1, 0)  # 3 second (1) + 4's void table as "no result"
    assert rows[30].per_round == (0, 0)
    assert rows[30].rank == 3  # 5 played: the team took part
    assert rows[10].metrics["round_wins"] == 2  # alone on top in round 1, shared in round 2


def test_a_team_none_of_whose_players_took_part_is_not_ranked():
    teams = {**TEAMS, 40: [7], 50: []}
    rows = build_team_standings(teams, [*PLAYERS, 7], RESULTS)
    assert [(row.team, row.rank, row.decided_by) for row in rows[-2:]] == [
        (40, None, None),
        (50, None, None),
    ]
    assert [row.rank for row in rows[:3]] == [1, 2, 3]


def test_no_results_no_ranks_and_as_dict_is_plain_json():
    rows = build_team_standings(TEAMS, PLAYERS, [])
    assert all(row.rank is None and row.per_round == () for row in rows)
    row = build_team_standings(TEAMS, PLAYERS, RESULTS)[0].as_dict()
    assert row == {
        "rank": 1,
        "team": 10,
        "points": 4,
        "per_round": [3, 1],
        "metrics": row["metrics"],
        "decided_by": None,
        "members": [1, 2],
    }
    assert set(row["metrics"]) == {"points", *TEAM_TIE_BREAKS}


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"scoring": "firsts"}, "team_scoring_invalid"),
        ({"precedence": ("points",)}, "metric_unknown"),  # the total is never a tie-break
        ({"precedence": ("opponents",)}, "metric_unknown"),
        ({"precedence": ("score", "score")}, "metric_twice"),
        ({"precedence": ("lot", "score")}, "lot_not_last"),
        ({"precedence": "score"}, "precedence_invalid"),
        ({"placing_points": (0, 1, 2)}, "placing_points_order"),
        ({"bye_policy": "half"}, "bye_policy_invalid"),
    ],
)
def test_configs_refused(kwargs, code):
    with pytest.raises(StandingsConfigError) as refused:
        TeamConfig(**kwargs)
    assert refused.value.code == code


def test_inputs_refused():
    with pytest.raises(StandingsInputError) as refused:
        build_team_standings({10: [1, 2], 20: [2, 3]}, PLAYERS, RESULTS)
    assert refused.value.code == "team_member_twice"
    assert refused.value.params == {"player": 2, "team": 20, "other": 10}
    with pytest.raises(StandingsInputError) as refused:
        build_team_standings({"a": [1]}, PLAYERS, RESULTS)
    assert refused.value.code == "team_not_int"
    with pytest.raises(StandingsInputError) as refused:  # the individual checks hold too
        build_team_standings(TEAMS, PLAYERS, [*RESULTS, RESULTS[0]])
    assert refused.value.code == "table_twice"


# --- properties --------------------------------------------------------------------------------


@st.composite
def team_events(draw):
    players, results, byes = draw(events(max_players=12, max_rounds=4))
    pool = draw(st.permutations(players))
    pool = pool[: draw(st.integers(0, len(pool)))]
    count = draw(st.integers(0, 5))
    ids = draw(st.lists(st.integers(-50, 500), min_size=count, max_size=count, unique=True))
    teams = {team: [] for team in ids}
    if ids:
        for player in pool:
            teams[draw(st.sampled_from(ids))].append(player)
    precedence = draw(
        st.lists(st.sampled_from([m for m in TEAM_TIE_BREAKS if m != "lot"]), unique=True)
    )
    points = sorted(draw(st.lists(st.integers(-2, 5), min_size=3, max_size=3)), reverse=True)
    config = TeamConfig(
        scoring=draw(st.sampled_from(["placing", "game_points"])),
        precedence=tuple(precedence),
        placing_points=tuple(points),
        bye_policy=draw(st.sampled_from(["zero", "second", "average"])),
        seed=draw(st.integers(0, 2**40)),
    )
    return teams, players, results, byes, config


@settings(max_examples=150, deadline=None)
@given(team_events(), st.randoms(use_true_random=False))
def test_order_independence(event, rnd: random.Random):
    teams, players, results, byes, config = event
    rows = build_team_standings(teams, players, results, byes, config)
    shuffled = list(teams.items())
    rnd.shuffle(shuffled)
    teams2 = {team: rnd.sample(members, len(members)) for team, members in shuffled}
    players2, results2, byes2 = (rnd.sample(x, len(x)) for x in (players, results, byes))
    assert build_team_standings(teams2, players2, results2, byes2, config) == rows


@settings(max_examples=150, deadline=None)
@given(team_events())
def test_a_team_scores_what_its_players_score_individually(event):
    teams, players, results, byes, config = event
    individual = build_standings(
        players,
        results,
        byes,
        Config(config.placing_points, config.bye_policy, seed=config.seed),
    )
    mine = {row.player: row.metrics for row in individual}
    metric = "placing_points" if config.scoring == "placing" else "score"
    for row in build_team_standings(teams, players, results, byes, config):
        members = teams[row.team]
        assert row.points == sum(mine[p][metric] for p in members) == sum(row.per_round)
        for name in ("placing_points", "score", "firsts"):
            assert row.metrics[name] == sum(mine[p][name] for p in members)
        took_part = any(mine[p]["games"] or any(b.player == p for b in byes) for p in members)
        assert (row.rank is not None) == took_part


@settings(max_examples=200, deadline=None)
@given(team_events())
def test_every_tie_is_explained(event):
    teams, players, results, byes, config = event
    rows = build_team_standings(teams, players, results, byes, config)
    ranked = [row for row in rows if row.rank is not None]
    assert [row.rank for row in ranked] == list(range(1, len(ranked) + 1))
    assert all(row.rank is None for row in rows[len(ranked) :])
    order = config.order
    for above, row in zip(ranked, ranked[1:], strict=False):
        if row.decided_by is None:
            assert above.points > row.points
            continue
        position = order.index(row.decided_by)
        for name in order[:position]:
            assert above.metrics[name] == row.metrics[name]
        if row.decided_by == "lot" and above.metrics["lot"] == row.metrics["lot"]:
            assert above.team < row.team
        else:
            assert above.metrics[row.decided_by] > row.metrics[row.decided_by]
    team_of = {p: t for t, members in teams.items() for p in members}
    took_part = {(r.round, p) for r in results for p in r.players} | {
        (b.round, b.player) for b in byes
    }
    rounds_with_teams = {r for r, p in took_part if p in team_of}
    # Each such round has a top team (or several sharing it): at least one win a round.
    assert sum(row.metrics["round_wins"] for row in rows) >= len(rounds_with_teams)
