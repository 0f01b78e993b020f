"""Card play: which cards are legal, and who wins a trick.

Everywhere: follow suit if you can. With `strict_trumping` (Blato, in a trump contract)
a void player must trump, a trump lead must be beaten with a higher trump when possible,
and once someone has trumped a non-trump lead a void player must over-trump if able.
"""

from __future__ import annotations

from .cards import Card, Suit
from .errors import RuleError


def _check_trick(trick: tuple[Card, ...], hand: tuple[Card, ...] = ()) -> None:
    if len(trick) > 2 and hand:
        raise RuleError("trick_full")
    if len(trick) > 3:
        raise RuleError("trick_too_long")
    shared = set(trick) & set(hand)
    if shared:
        raise RuleError("card_in_hand_and_trick", card=str(min(shared)))


def legal_cards(
    hand: tuple[Card, ...], trick: tuple[Card, ...], trump: Suit | None, strict_trumping: bool
) -> tuple[Card, ...]:
    """The cards of `hand` that may be played to `trick`, in the order of `hand`."""
    if not hand:
        raise RuleError("hand_empty")
    _check_trick(trick, hand)
    if not trick:
        return hand
    led = trick[0].suit
    following = tuple(card for card in hand if card.suit == led)
    strict = strict_trumping and trump is not None
    if not strict:
        return following or hand
    trumps = tuple(card for card in hand if card.suit == trump)
    top_trump = max((card.rank for card in trick if card.suit == trump), default=None)
    overtrumps = tuple(card for card in trumps if top_trump is None or card.rank > top_trump)
    if led == trump:
        return overtrumps or trumps or hand
    if following:
        return following
    if top_trump is not None:  # someone has trumped a plain lead: over-trump if you can
        return overtrumps or hand
    return trumps or hand


def trick_winner(trick: tuple[Card, ...], trump: Suit | None) -> int:
    """Index, in the order played, of the card that takes the trick (so far)."""
    if not trick:
        raise RuleError("trick_empty")
    _check_trick(trick)
    lead = trick[0].suit if trump is None or not any(c.suit == trump for c in trick) else trump
    return max(
        (index for index, card in enumerate(trick) if card.suit == lead),
        key=lambda index: trick[index].rank,
    )
