"""The scoring app's vocabulary: calls, suits, rulesets and cards by name, numbers and seats
as the pages write them. The one place each word is defined; presenters, forms, the engine's
refusals (rule_words) and the tournaments app all take their words from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

import engine
from scoring.templatetags.numbers import minus

#: What a player says at the calling phase (Bulgarian: the singular, as said at the table).
CALL_NAMES = {
    "spades": pgettext_lazy("call", "spades"),
    "hearts": pgettext_lazy("call", "hearts"),
    "diamonds": pgettext_lazy("call", "diamonds"),
    "clubs": pgettext_lazy("call", "clubs"),
    "no-trump": pgettext_lazy("call", "no-trump"),
    "miz": pgettext_lazy("call", "miz"),
    "pass": pgettext_lazy("call", "pass"),
}

#: A suit as a colour of cards (Bulgarian: the plural).
SUIT_NAMES = {
    engine.Suit.SPADES: pgettext_lazy("suit", "spades"),
    engine.Suit.HEARTS: pgettext_lazy("suit", "hearts"),
    engine.Suit.DIAMONDS: pgettext_lazy("suit", "diamonds"),
    engine.Suit.CLUBS: pgettext_lazy("suit", "clubs"),
}

SUIT_SYMBOLS = {
    engine.Suit.SPADES: "♠",
    engine.Suit.HEARTS: "♥",
    engine.Suit.DIAMONDS: "♦",
    engine.Suit.CLUBS: "♣",
}
RED_SUITS = {engine.Suit.HEARTS, engine.Suit.DIAMONDS}

RULESET_NAMES = {
    "blato": gettext_lazy("Blato"),
    "three-five-eight": gettext_lazy("3-5-8"),
    "sergeant-major": gettext_lazy("Sergeant Major"),
    "sergeant-major-alternate": gettext_lazy("Sergeant Major (alternate)"),
    "nine-five-two": gettext_lazy("9-5-2"),
}

DIRECTIONS = {
    "counter-clockwise": gettext_lazy("counter-clockwise"),
    "clockwise": gettext_lazy("clockwise"),
}


#: Who made a change to a game, when not an organiser (a username is shown as it is): the
#: table's keeper (scoring.web.keeper.ACTOR) and a script with the game's token (scoring.api.ACTOR).
#: Stored in English; a Bulgarian page showed "поправено от table".
ACTOR_NAMES = {
    "table": pgettext_lazy("who changed a game: its score-keeper", "table"),
    "api": pgettext_lazy("who changed a game: a script", "api"),
    "clock": pgettext_lazy("who changed a game: the tournament's round clock", "round clock"),
}


def actor_name(actor: str) -> str:
    """Who made a change, as the reader's language says it."""
    return str(ACTOR_NAMES.get(actor, actor))


def call_label(name: str) -> str:
    return str(CALL_NAMES.get(name, name))


def call_symbol(name: str) -> str:
    call = engine.call_named(name)
    return SUIT_SYMBOLS[call.trump] if call.trump else ""


def ruleset_label(ruleset_id: str) -> str:
    return str(RULESET_NAMES.get(ruleset_id, ruleset_id))


def signed(number: int | None) -> str:
    """+2, −1 (a true minus sign), 0."""
    if number is None:
        return ""
    return f"+{number}" if number > 0 else minus(number)


def direction_sentence(ruleset: engine.Ruleset) -> str:
    if ruleset.direction == "counter-clockwise":
        return _("Play goes counter-clockwise: the next player sits on the right.")
    return _("Play goes clockwise: the next player sits on the left.")


@dataclass(frozen=True)
class CardView:
    text: str  # as the engine writes it: 10H
    rank: str
    symbol: str
    suit_name: str
    red: bool


def card_view(card: engine.Card) -> CardView:
    text = str(card)
    return CardView(
        text=text,
        rank=text[:-1],
        symbol=SUIT_SYMBOLS[card.suit],
        suit_name=str(SUIT_NAMES[card.suit]),
        red=card.suit in RED_SUITS,
    )


def card_text(card: engine.Card) -> str:
    """A card as people write it: K♥, 10♠."""
    view = card_view(card)
    return f"{view.rank}{view.symbol}"


#: The longest name (in characters) a third of a phone's width shows whole.
SHORT_NAME = 10


def short_names(names: list[str]) -> list[str]:
    """The names as the score sheet's narrow columns show them: each player's first word
    ("Александра" for "Александра Константинова-Петрова"), with the initial of the last word
    where two first words are the same, and the whole name where even that is not enough.
    A first word longer than ten letters is cut to eight and a full stop ("Максимил."): three
    columns of them, the deal's number and its call fit 390 px. The page shows the full
    names at its top (the order of play) and to screen readers and as a tooltip."""

    def first(name: str) -> str:
        word = name.split()[0] if name.split() else name
        return word if len(word) <= SHORT_NAME else word[: SHORT_NAME - 2] + "."

    def with_initial(name: str) -> str:
        words = name.split()
        return first(name) if len(words) < 2 else f"{first(name)} {words[-1][0]}."

    for shorten in (first, with_initial):
        short = [shorten(name) for name in names]
        if len({s.casefold() for s in short}) == len(names):
            return short
    return list(names)


def calls_from_text(text: object) -> list[str]:
    """The calls so far as the page's hidden field carries them ("pass,hearts")."""
    if not isinstance(text, str) or not text.strip():
        return []
    return [name.strip() for name in text.split(",") if name.strip()][:3]


def trick_label(number: int, per_hand: int) -> str:
    if number == per_hand:
        return _("Trick %(n)s (the last)") % {"n": number}
    return _("Trick %(n)s") % {"n": number}


def calls_text(calls: object) -> str:
    if not isinstance(calls, list):
        return ""
    return ", ".join(call_label(call) if isinstance(call, str) else str(call) for call in calls)


def seats_text(values: object, names: list[str]) -> str:
    if not isinstance(values, list) or len(values) != len(names):
        return ""
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))


def winners_text(seats: object, names: list[str]) -> str:
    if not isinstance(seats, list):
        return "—"
    return ", ".join(names[seat] if seat in (0, 1, 2) else "?" for seat in seats) or "—"


def placings_text(seats: object, names: list[str]) -> str:
    """Placings are stored as seats, the winner's first: "1. Vera, 2. Ana, 3. Boris"."""
    if not isinstance(seats, list) or not all(seat in (0, 1, 2) for seat in seats):
        return "—"
    return ", ".join(f"{place}. {names[seat]}" for place, seat in enumerate(seats, start=1))
