"""The card exchange before a hand, and the card a receiver must return.

From the previous hand's points: a seat with + points gives one card per point to the
seats with − points. One giver gives each − seat what it is down, the − seats taken in
the direction of play from the giver; two givers each give their own points to the one
− seat, in the ruleset's exchange order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .rulesets import ExchangeOrder
from .seats import in_play_order


@dataclass(frozen=True)
class Transfer:
    giver: int
    receiver: int
    cards: int

    def as_json(self) -> dict:
        return {"from": self.giver, "to": self.receiver, "cards": self.cards}


def transfers(
    points: tuple[int, int, int], targets: tuple[int, int, int], order: ExchangeOrder
) -> tuple[Transfer, ...]:
    """The transfers due after a hand with these points and targets, in the order they happen."""
    givers = [seat for seat in range(3) if points[seat] > 0]
    if len(givers) == 1:
        giver = givers[0]
        return tuple(
            Transfer(giver, seat, -points[seat])
            for seat in in_play_order(giver)
            if points[seat] < 0
        )
    if len(givers) == 2:
        (receiver,) = (seat for seat in range(3) if points[seat] < 0)
        play_order = in_play_order(receiver)
        by_target = lambda seat: targets[seat]  # noqa: E731
        by_points = lambda seat: points[seat]  # noqa: E731
        first, second = (
            (by_target, by_points) if order is ExchangeOrder.TARGET else (by_points, by_target)
        )
        # Equal on both (only with custom targets): the giver nearer in the direction of play.
        givers.sort(key=lambda seat: (-first(seat), -second(seat), play_order.index(seat)))
        return tuple(Transfer(giver, receiver, points[giver]) for giver in givers)
    return ()


def card_to_return(hand: tuple[Card, ...], given: Card) -> Card:
    """Its strongest card of the given card's suit if that beats the given card, else the given."""
    same_suit = [card for card in hand if card.suit == given.suit]
    strongest = max(same_suit, key=lambda card: card.rank, default=given)
    return strongest if strongest.beats(given) else given


def cards_to_return(hand: tuple[Card, ...], given: tuple[Card, ...]) -> tuple[Card, ...]:
    """The card returned for each given card, in turn: each is answered on the hand the one
    before left (its given card in, its returned card out), as the cards arrive one by one."""
    returned = []
    for card in given:
        back = card_to_return(hand, card)
        returned.append(back)
        if back != card:
            hand = tuple(c for c in hand if c != back) + (card,)
    return tuple(returned)
