"""Cards of the 52-card French deck, as small value types.

Strength within a suit: A K Q J 10 9 8 7 6 5 4 3 2. Cards are written rank then suit
(`10H`, `AS`; `T` is accepted for 10 and output always uses `10`).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .errors import RuleError


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def call_name(self) -> str:
        """The name of the call that makes this suit trumps."""
        return self.name.lower()


RANK_NAMES = {
    14: "A",
    13: "K",
    12: "Q",
    11: "J",
    10: "10",
    9: "9",
    8: "8",
    7: "7",
    6: "6",
    5: "5",
    4: "4",
    3: "3",
    2: "2",
}
_RANK_VALUES = {name: value for value, name in RANK_NAMES.items()} | {"T": 10}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


@dataclass(frozen=True, order=True)
class Card:
    """One card. Ordering compares rank first, which is only meaningful within a suit."""

    rank: int
    suit: Suit

    def __str__(self) -> str:
        return f"{RANK_NAMES[self.rank]}{self.suit.value}"

    def beats(self, other: Card) -> bool:
        """True if this card is stronger than `other` of the same suit."""
        return self.suit == other.suit and self.rank > other.rank

    @classmethod
    def parse(cls, text: str) -> Card:
        match = _CARD_RE.match(text.strip().upper())
        if not match:
            raise RuleError("card_unreadable", text=text)
        rank, suit = match.groups()
        return cls(_RANK_VALUES[rank], Suit(suit))


def parse_cards(texts: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Cards from space- or comma-separated text (or a list of such texts); no repeats."""
    if isinstance(texts, str):
        texts = [texts]
    words = [word for text in texts for word in re.split(r"[\s,]+", text) if word]
    cards = tuple(Card.parse(word) for word in words)
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise RuleError("card_twice", card=str(card))
        seen.add(card)
    return cards


def format_cards(cards) -> str:
    return " ".join(str(card) for card in cards)
