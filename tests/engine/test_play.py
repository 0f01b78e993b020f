"""Legal cards and trick winners (engine.md §6), Blato's trumping duties included."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RuleError, Suit, legal_cards, parse_cards, trick_winner


def legal(hand, trick="", trump=Suit.HEARTS, strict=True):
    return " ".join(map(str, legal_cards(parse_cards(hand), parse_cards(trick), trump, strict)))


@pytest.mark.parametrize(
    ("hand", "trick", "expected", "why"),
    [
        ("AS 2H 5C", "", "AS 2H 5C", "leading: any card"),
        ("AS 2S 5H", "KS", "AS 2S", "follow suit, no need to go higher"),
        ("2H 5C 9H", "KS", "2H 9H", "void in the led suit: must trump"),
        ("5C 7D", "KS", "5C 7D", "void and no trumps: any card"),
        ("2H 9H QH 5C", "10H", "QH", "trumps led: beat the highest trump"),
        ("2H 9H 5C", "10H", "2H 9H", "trumps led, can't beat: any trump"),
        ("5C 7D", "10H", "5C 7D", "trumps led, no trumps: any card"),
        ("2H 9H 5C", "KS 5H", "9H", "someone trumped a plain lead: over-trump"),
        ("2H 3H 5C", "KS 5H", "2H 3H 5C", "can't over-trump: any card"),
        ("2S 9H", "KS 5H", "2S", "following suit comes before over-trumping"),
        ("2H QH 5C", "KS 10H", "QH", "over-trump the highest trump in the trick"),
    ],
)
def test_blato_trump_contract(hand, trick, expected, why):
    assert legal(hand, trick) == expected, why


@pytest.mark.parametrize(
    ("hand", "trick", "trump", "strict", "expected"),
    [
        ("2H 5C 9H", "KS", None, True, "2H 5C 9H"),  # Blato no-trump: only follow suit
        ("2H 5C 9H", "KS", Suit.HEARTS, False, "2H 5C 9H"),  # 3-5-8: no duty to trump
        ("2H 9H 5C", "10H", Suit.HEARTS, False, "2H 9H"),  # no duty to beat a trump lead
        ("2S 5C", "KS 5H", Suit.HEARTS, False, "2S"),
    ],
)
def test_only_following_suit_is_compulsory_elsewhere(hand, trick, trump, strict, expected):
    assert legal(hand, trick, trump, strict) == expected


def test_the_hand_keeps_its_order():
    assert legal("9H 5C 2H", "KS") == "9H 2H"


@pytest.mark.parametrize(
    ("hand", "trick", "message"),
    [
        ("", "", "empty"),
        ("AS", "KS QS JS", "three cards"),
        ("AS", "AS", "both in the hand and in the trick"),
    ],
)
def test_impossible_positions_are_errors(hand, trick, message):
    with pytest.raises(RuleError, match=message):
        legal(hand, trick)


@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        ("KS 2H AS", Suit.HEARTS, 1),
        ("KS QS AS", Suit.HEARTS, 2),
        ("5H KC 10H", None, 2),
        ("5D 2S 3S", Suit.HEARTS, 0),  # off-suit discards never win
        ("2H AH KH", Suit.HEARTS, 1),
        ("10D JD", None, 1),
    ],
)
def test_trick_winner(trick, trump, winner):
    assert trick_winner(parse_cards(trick), trump) == winner


deck = [f"{rank}{suit}" for rank in "A K Q J 10 9 8 7 6 5 4 3 2".split() for suit in "SHDC"]


@given(
    st.lists(st.sampled_from(deck), min_size=4, max_size=19, unique=True),
    st.integers(0, 2),
    st.sampled_from([None, *Suit]),
    st.booleans(),
)
def test_legal_cards_are_a_nonempty_subset_and_follow_suit_when_possible(
    cards, played, trump, strict
):
    trick, hand = parse_cards(cards[:played]), parse_cards(cards[played:])
    legal_now = legal_cards(hand, trick, trump, strict)
    assert legal_now and set(legal_now) <= set(hand)
    if trick and any(card.suit == trick[0].suit for card in hand):
        assert all(card.suit == trick[0].suit for card in legal_now)
    full = parse_cards(cards[:3])
    winner = trick_winner(full, trump)
    assert all(full[winner].suit == trump or card.suit != trump for card in full)
