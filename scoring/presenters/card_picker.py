"""The referee's card picker: a player taps cards instead of typing "AS KH 10H".

Each picked card is a checkbox (a radio button where one card is asked for) named after the
text field it fills, plus "-pick": without JavaScript the form sends both, and `CardsInput`
reads the typed words and the picked cards as one text, which the field then checks as if it
had all been typed (scoring.forms.referee). With JavaScript (static/js/card_picker.js) a tap
writes the card into the text field at once and the boxes stop being sent, so the text field
is the one thing the server reads. The page draws the deck by suit: a row of 13 cards a suit,
which wraps to two rows of at most 7 on a 390 px phone, each card at least 44 px square.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import forms
from django.utils.translation import pgettext

import engine
from scoring.words import SUIT_NAMES, SUIT_SYMBOLS, card_view

PICK_SUFFIX = "-pick"
_WORDS = re.compile(r"[\s,]+")
#: The suits in the order of the picker's rows (the suits alternate black and red).
SUIT_ORDER = (engine.Suit.SPADES, engine.Suit.HEARTS, engine.Suit.CLUBS, engine.Suit.DIAMONDS)
RANKS = tuple(range(14, 1, -1))  # A K Q J 10 … 2


class Picked(str):
    """The text the field checks (typed words, then picked cards not typed already) that
    still knows which part was typed and which picked, to draw both again as they were."""

    typed: str
    picked: tuple[str, ...]

    def __new__(cls, typed: str, picked: list[str]):
        typed_words = {word.upper() for word in _WORDS.split(typed) if word}
        extra = [card for card in picked if card.upper() not in typed_words]
        value = super().__new__(cls, " ".join(part for part in (typed.strip(), *extra) if part))
        value.typed = typed
        value.picked = tuple(picked)
        return value


class CardsInput(forms.TextInput):
    """A text field of cards that also reads the card picker drawn for it."""

    def value_from_datadict(self, data, files, name):
        typed = data.get(name, "") or ""
        sent = (
            data.getlist(name + PICK_SUFFIX)
            if hasattr(data, "getlist")
            else data.get(name + PICK_SUFFIX) or []
        )
        sent = [sent] if isinstance(sent, str) else sent
        picked = [card for card in sent if isinstance(card, str)]
        if not picked:
            return data.get(name)
        return Picked(typed, [card[:3] for card in picked[:52]])

    def use_required_attribute(self, initial):
        """Never `required` in the page: the cards may all be ticked, the text left empty (the
        field itself still refuses no cards at all)."""
        return False

    def format_value(self, value):
        if isinstance(value, Picked):
            return value.typed
        return super().format_value(value)


@dataclass(frozen=True)
class PickCard:
    code: str  # as the engine reads it: 10H
    rank: str
    symbol: str
    name: str  # for screen readers: "10 of hearts"
    red: bool
    checked: bool


@dataclass(frozen=True)
class SuitRow:
    symbol: str
    name: str
    red: bool
    cards: list[PickCard]


@dataclass(frozen=True)
class Picker:
    name: str  # the form field's html name; the boxes are name + "-pick"
    target: str  # the text field's id, which the script fills
    single: bool  # one card (radio buttons) or several (checkboxes)
    legend: str
    rows: list[SuitRow]

    @property
    def input_name(self) -> str:
        return self.name + PICK_SUFFIX


def _checked(bound: forms.BoundField) -> set[str]:
    """The cards to draw as picked: those picked (without JavaScript the typed ones stay in
    the text field, so that unticking a card takes it out), or those the text holds (the
    script writes every tap into it)."""
    value = bound.value() if bound.form.is_bound else None
    if not value:
        return set()
    words = value.picked if isinstance(value, Picked) else _WORDS.split(str(value))
    codes = set()
    for word in words:
        try:
            codes.add(str(engine.Card.parse(word)))
        except engine.RuleError:
            continue
    return codes


def picker(bound: forms.BoundField, *, single: bool = False) -> Picker:
    """The deck by suit for one text field of cards, with what it holds picked."""
    checked = _checked(bound)
    rows = []
    for suit in SUIT_ORDER:
        cards = []
        for rank in RANKS:
            view = card_view(engine.Card(rank, suit))
            name = pgettext("a card, for screen readers", "%(rank)s of %(suit)s") % {
                "rank": view.rank,
                "suit": view.suit_name,
            }
            cards.append(
                PickCard(view.text, view.rank, view.symbol, name, view.red, view.text in checked)
            )
        red = suit in (engine.Suit.HEARTS, engine.Suit.DIAMONDS)
        rows.append(SuitRow(SUIT_SYMBOLS[suit], str(SUIT_NAMES[suit]), red, cards))
    legend = (
        pgettext("card picker", "Or tap the card")
        if single
        else pgettext("card picker", "Or tap the cards")
    )
    return Picker(bound.html_name, bound.auto_id, single, legend, rows)
