"""Placings and the tie-breaks, with their reasons and lazy requests for trick winners."""

import pytest

from engine.placings import Reason, place

NAMES = ("Ana", "Boris", "Vera")


def settle(totals, points, tricks, winners=(), instant=None, per_hand=16):
    return place(totals, points, tricks, tuple(winners), per_hand, instant)


def sentences(outcome):
    return [reason.text(NAMES) for reason in outcome.reasons]


def test_different_totals_need_no_tie_break():
    outcome = settle((5, -2, -3), (1, 0, -1), (4, 8, 4))
    assert outcome.placings == (0, 1, 2)
    assert outcome.reasons == ()


def test_equal_totals_settled_by_the_last_hand_points():
    outcome = settle((2, 2, -4), (-1, 3, -2), (2, 11, 3))
    assert outcome.placings == (1, 0, 2)
    assert sentences(outcome) == ["Boris ahead of Ana: 3 points to -1 in the last hand"]


def test_two_level_seats_ask_for_the_last_trick_only_as_far_back_as_needed():
    tied = ((1, 1, -2), (0, 0, 0), (3, 8, 5))
    assert settle(*tied).needs_last_tricks == 1
    assert settle(*tied, winners=[2]).needs_last_tricks == 2
    assert settle(*tied, winners=[2, 2]).needs_last_tricks == 3
    outcome = settle(*tied, winners=[2, 2, 1, 0])
    assert outcome.placings == (1, 0, 2)
    assert sentences(outcome) == ["Boris ahead of Ana: won trick 14 of the last hand"]


def test_three_level_seats_the_last_trick_first_then_the_most_recent():
    tied = ((0, 0, 0), (0, 0, 0), (3, 8, 5))
    assert settle(*tied).needs_last_tricks == 1
    assert settle(*tied, winners=[2]).needs_last_tricks == 2
    outcome = settle(*tied, winners=[2, 2, 0])
    assert outcome.placings == (2, 0, 1)
    assert sentences(outcome) == [
        "Vera ahead of Ana: won trick 16 of the last hand",
        "Ana ahead of Boris: won trick 14 of the last hand",
    ]


def test_a_seat_that_took_no_trick_cannot_have_won_one_so_nobody_is_asked():
    outcome = settle((1, 1, -2), (-3, -3, 6), (0, 2, 14))
    assert outcome.placings == (1, 0, 2)
    assert sentences(outcome) == ["Boris ahead of Ana: Ana took no trick in the last hand"]


def test_a_seat_whose_tricks_are_all_accounted_for_wins_no_earlier_one():
    # Ana took one trick, trick 16; Boris must have won a later trick than anything Ana has left.
    outcome = settle((0, 0, 0), (0, 0, 0), (1, 7, 8), winners=[2, 0, 2], per_hand=16)
    assert outcome.placings == (2, 0, 1)
    outcome = settle((1, 1, -2), (0, 0, 0), (1, 8, 7), winners=[0])
    assert outcome.placings == (0, 1, 2)


def test_seats_level_on_everything_are_listed_by_seat_and_said_to_be_level():
    outcome = settle((1, 1, -2), (-4, -4, 8), (0, 0, 16), per_hand=16)
    assert outcome.placings == (0, 1, 2)
    assert outcome.reasons == (Reason(0, 1, "level"),)


def test_an_instant_winner_is_first_whatever_the_totals():
    outcome = settle((-2, 5, 3), (0, 4, -4), (3, 1, 12), instant=12)
    assert outcome.placings == (2, 1, 0)
    assert sentences(outcome) == ["Vera first: took 12 tricks in the last hand"]


def test_the_other_two_behind_an_instant_winner_use_the_tie_breaks():
    outcome = settle((1, 1, 9), (-2, -2, 4), (1, 3, 12), winners=[2, 1], instant=12)
    assert outcome.placings == (2, 1, 0)
    assert outcome.reasons[1] == Reason(1, 0, "trick", 15, None)


@pytest.mark.parametrize("per_hand", [16, 17])
def test_trick_numbers_count_back_from_the_last_trick(per_hand):
    outcome = settle((0, 0, 0), (0, 0, 0), (3, 8, per_hand - 11), winners=[1, 0], per_hand=per_hand)
    assert outcome.reasons[0].value == per_hand
