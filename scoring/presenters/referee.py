"""The referee's help: which card to return, which cards may be played, who takes the trick."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from scoring.words import SUIT_NAMES, CardView, card_text, card_view


@dataclass(frozen=True)
class Answer:
    headline: str
    cards: list[CardView] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def return_answer(hand: tuple[engine.Card, ...], given: engine.Card) -> Answer:
    card = engine.card_to_return(hand, given)
    values = {
        "card": card_text(card),
        "given": card_text(given),
        "suit": SUIT_NAMES[given.suit],
    }
    if card == given:
        line = _("You have no card in %(suit)s higher than %(given)s.") % values
        return Answer(_("Return the same card: %(card)s.") % values, [card_view(card)], [line])
    line = _("It is your strongest card in %(suit)s, higher than %(given)s.") % values
    return Answer(_("Return %(card)s.") % values, [card_view(card)], [line])


def play_answer(
    ruleset: engine.Ruleset,
    contract: str,
    hand: tuple[engine.Card, ...],
    trick: tuple[engine.Card, ...],
) -> Answer:
    trump = engine.call_named(contract).trump
    legal = engine.legal_cards(hand, trick, trump, ruleset.strict_trumping)
    if len(legal) == len(hand):
        headline = _("You may play any of your cards.")
    else:
        headline = ngettext(
            "You may play this card:", "You may play one of these %(n)s cards:", len(legal)
        ) % {"n": len(legal)}
    lines = []
    if trick:
        winner = engine.trick_winner(trick, trump)
        lines.append(
            _("So far the trick goes to %(card)s, card %(n)s in the order played.")
            % {"card": card_text(trick[winner]), "n": winner + 1}
        )
        lines.append(_("Led suit: %(suit)s.") % {"suit": SUIT_NAMES[trick[0].suit]})
    if trump is not None:
        lines.append(_("Trumps: %(suit)s.") % {"suit": SUIT_NAMES[trump]})
    else:
        lines.append(_("No trumps: only following suit is compulsory."))
    return Answer(headline, [card_view(card) for card in legal], lines)
