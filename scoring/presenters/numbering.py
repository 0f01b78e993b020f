"""The one numbering the players see: hands as played, redeals not counted.

The engine and the API number every deal, redeals included (a deal is cards dealt once;
a hand is a played deal: ../shared/spec/engine.md, "Words"). Players count hands: "Blato is
nine hands", and after a redeal the hand they play is still the third, not the fourth deal.
So every page that names a deal to the players says its hand: a played deal is "Hand 3";
a deal that was redealt (everyone passed) is named after the hand it came before, "Hand 3
(dealt again)". The services' refusals name a deal the same way (scoring/messages.py, from
the `hand` their errors carry), in the API's words too: they are read by people (the
offline keeper page shows them). Addresses, forms and the API's fields keep the deal's own
number.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from scoring.messages import hand_words
from scoring.selectors import from_hand, hand_of

__all__ = [
    "deal_name",
    "deal_title",
    "from_hand",
    "hand_name",
    "hand_of",
    "hand_title",
    "tricks_of",
]


def tricks_of(entries: Sequence) -> list[object]:
    """The tricks of each deal in order (live entries, LiveDeals or the engine's deals)."""
    return [getattr(entry, "tricks", None) for entry in entries]


def hand_title(hand: int, redeal: bool = False) -> str:
    """A deal as the players name it, at the start of a sentence: "Hand 3", or "Hand 3
    (dealt again)" for a redeal."""
    if redeal:
        return _("Hand %(n)s (dealt again)") % {"n": hand}
    return _("Hand %(n)s") % {"n": hand}


def hand_name(hand: int, redeal: bool = False) -> str:
    """The same inside a sentence: "hand 3", "hand 3 (dealt again)" (the words the service
    refusals name a deal with too: scoring.messages.hand_words)."""
    return hand_words(hand, redeal)


def _hand(entries: Sequence, number: int) -> tuple[int, bool]:
    tricks = tricks_of(entries)
    redeal = number <= len(tricks) and tricks[number - 1] is None
    return hand_of(tricks, number), redeal


def deal_title(entries: Sequence, number: int) -> str:
    """Deal `number` of these live entries as the players name it (hand_title); a number
    past them is the hand to come."""
    return hand_title(*_hand(entries, number))


def deal_name(entries: Sequence, number: int) -> str:
    """Deal `number` of these live entries inside a sentence (hand_name)."""
    return hand_name(*_hand(entries, number))
