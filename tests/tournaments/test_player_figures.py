"""A player's figures from the engine's replay of a small recorded game of blato, worked out
by hand: blato's targets by position are 3 (dealer), 8 (next), 5 (the other), so

deal 1, dealer seat 0: targets by seat 3 8 5; seat 1 calls hearts, tricks 4 7 5 → +1 −1 0
deal 2, dealer seat 1: targets 5 3 8; seat 2 passes → redealt (the dealer stays)
deal 3, dealer seat 1: targets 5 3 8; seat 2 calls no-trump, tricks 5 4 7 → 0 +1 −1
deal 4, dealer seat 2: targets 8 5 3; seat 0 calls spades, tricks 9 4 3 → +1 −1 0
"""

import engine
from tournaments.clubs.player_figures import Figures, Played, Stint, TargetFigure, figures, stints

RECORD = {
    "ruleset": "blato",
    "first_dealer": 0,
    "deals": [
        {"calls": ["hearts"], "tricks": [4, 7, 5]},
        {"calls": ["pass"]},
        {"calls": ["no-trump"], "tricks": [5, 4, 7]},
        {"calls": ["spades"], "tricks": [9, 4, 3]},
    ],
}
STATE = engine.replay(RECORD)


def test_a_whole_game_from_seat_0():
    found = figures([Played(STATE, (Stint(0),))])
    assert found == Figures(
        games=1,
        hands=3,
        targets=(TargetFigure(8, 1, 1), TargetFigure(5, 1, 1), TargetFigure(3, 1, 1)),
        calls=1,
        calls_made=1,
        no_trumps=0,
        no_trumps_made=0,
        passes=0,
        points=2,
    )
    assert found.average_points == 2


def test_a_whole_game_from_seat_2_with_a_pass_and_a_lost_no_trump():
    found = figures([Played(STATE, (Stint(2),))])
    assert found.targets == (TargetFigure(8, 1, 0), TargetFigure(5, 1, 1), TargetFigure(3, 1, 1))
    assert (found.calls, found.calls_made) == (1, 0)
    assert (found.no_trumps, found.no_trumps_made) == (1, 0)
    assert found.passes == 1
    assert found.points == -1
    assert found.hands == 3


def test_a_seat_with_a_failed_call():
    found = figures([Played(STATE, (Stint(1),))])
    assert found.targets == (TargetFigure(8, 1, 0), TargetFigure(5, 1, 0), TargetFigure(3, 1, 1))
    assert (found.calls, found.calls_made, found.passes, found.points) == (1, 0, 0, -1)


SUBSTITUTION = [{"seat": 2, "left": 20, "joined": 30, "from_deal": 3}]
SEATS = (10, 11, 30)  # a table's seats hold whoever sits there now


def test_stints_of_a_substitution():
    assert stints(20, SEATS, SUBSTITUTION) == [Stint(2, 1, 2)]
    assert stints(30, SEATS, SUBSTITUTION) == [Stint(2, 3, None)]
    assert stints(10, SEATS, SUBSTITUTION) == [Stint(0, 1, None)]
    assert stints(99, SEATS, SUBSTITUTION) == []


def test_a_player_who_left_counts_only_the_deals_they_played():
    found = figures([Played(STATE, tuple(stints(20, SEATS, SUBSTITUTION)))])
    # deal 1 (target 5, 0 points: made) and the pass of deal 2; nothing of deals 3 and 4
    assert found == Figures(games=1, hands=1, targets=(TargetFigure(5, 1, 1),), passes=1, points=0)


def test_the_substitute_counts_from_their_first_deal():
    found = figures([Played(STATE, tuple(stints(30, SEATS, SUBSTITUTION)))])
    assert found.targets == (TargetFigure(8, 1, 0), TargetFigure(3, 1, 1))
    assert (found.calls, found.calls_made, found.no_trumps, found.passes) == (1, 0, 1, 0)
    assert found.points == -1
    assert found.average_points == -1


def test_a_seat_taken_back_later_gives_two_stints():
    moves = SUBSTITUTION + [{"seat": 2, "left": 30, "joined": 20, "from_deal": 4}]
    assert stints(20, (10, 11, 20), moves) == [Stint(2, 1, 2), Stint(2, 4, None)]
    assert stints(30, (10, 11, 20), moves) == [Stint(2, 3, 3)]
    found = figures([Played(STATE, tuple(stints(20, (10, 11, 20), moves)))])
    assert found.hands == 2  # deals 1 and 4
    assert found.targets == (TargetFigure(5, 1, 1), TargetFigure(3, 1, 1))


def test_games_add_up_and_no_game_means_no_average():
    assert figures([]).average_points is None
    two = figures([Played(STATE, (Stint(0),)), Played(STATE, (Stint(2),))])
    assert (two.games, two.hands, two.points, two.average_points) == (2, 6, 1, 0.5)
    assert two.targets == (TargetFigure(8, 2, 1), TargetFigure(5, 2, 2), TargetFigure(3, 2, 2))
