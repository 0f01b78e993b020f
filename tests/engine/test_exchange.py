"""Who gives how many cards to whom, in what order, and which card comes back."""

import pytest

from engine import (
    ExchangeOrder,
    Transfer,
    card_to_return,
    cards_to_return,
    parse_cards,
    transfers,
)
from engine.cards import Card


@pytest.mark.parametrize(
    ("points", "targets", "order", "expected"),
    [
        ((0, 0, 0), (3, 8, 5), ExchangeOrder.TARGET, []),
        ((1, -1, 0), (3, 8, 5), ExchangeOrder.TARGET, [(0, 1, 1)]),
        # one giver, two receivers: in the direction of play from the giver
        ((2, -1, -1), (5, 3, 8), ExchangeOrder.TARGET, [(0, 1, 1), (0, 2, 1)]),
        ((-1, -4, 5), (5, 3, 8), ExchangeOrder.TARGET, [(2, 0, 1), (2, 1, 4)]),
        # two givers: the higher previous target first ...
        ((3, -4, 1), (3, 8, 5), ExchangeOrder.TARGET, [(2, 1, 1), (0, 1, 3)]),
        # ... or the more points first
        ((3, -4, 1), (3, 8, 5), ExchangeOrder.POINTS, [(0, 1, 3), (2, 1, 1)]),
        # equal points: then the higher target
        ((-2, 1, 1), (8, 5, 3), ExchangeOrder.POINTS, [(1, 0, 1), (2, 0, 1)]),
        # equal on both (custom targets): the giver next in play after the receiver
        ((1, 1, -2), (5, 5, 6), ExchangeOrder.TARGET, [(0, 2, 1), (1, 2, 1)]),
    ],
)
def test_transfers(points, targets, order, expected):
    assert transfers(points, targets, order) == tuple(Transfer(*t) for t in expected)


@pytest.mark.parametrize(
    ("hand", "given", "returned"),
    [
        ("AH 3H 9S", "10H", "AH"),  # a stronger card of that suit: the strongest
        ("QH KH 2C", "10H", "KH"),
        ("9H 3H 9S", "10H", "10H"),  # only weaker cards of the suit: the given card
        ("9S 3C", "10H", "10H"),  # none of the suit: the given card
        ("10H AS", "10H", "10H"),  # the given card already in the hand
        ("10H JH", "10H", "JH"),
    ],
)
def test_card_to_return(hand, given, returned):
    assert str(card_to_return(parse_cards(hand), Card.parse(given))) == returned


@pytest.mark.parametrize(
    ("hand", "given", "returned"),
    [
        ("AH 3H 9S", "10H", "AH"),  # one card: as card_to_return
        ("AH 3H 9S", "10H KH", "AH KH"),  # the ace went back: nothing beats the king now
        ("AH 3H", "10H 9H", "AH 10H"),  # the first given card is kept, then returned
        ("9S 3C", "10H 2D", "10H 2D"),  # nothing of either suit: each comes back
        ("KS 2S", "QS JS", "KS QS"),  # the second answer is the first given card
    ],
)
def test_cards_to_return_in_turn(hand, given, returned):
    assert " ".join(map(str, cards_to_return(parse_cards(hand), parse_cards(given)))) == returned
