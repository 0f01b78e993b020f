"""The engine's refusals in the page's language.

The engine is pure Python and speaks English: a RuleError carries a sentence (and the deal it
is about), not a code. The pages never show that sentence. Each template the engine words a
refusal with is listed here once, beside what a person reads instead (through gettext, so in
Bulgarian too); the values the engine put in are read back out of its sentence and shown the
page's way: seats as the players' names, calls and games by their translated names.
tests/scoring/test_rule_words.py checks that every RuleError the engine can raise is here.
The JSON API keeps the engine's own sentence, which its contract promises.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine

from .presenters.numbering import deal_name, deal_title
from .words import call_label, ruleset_label

if TYPE_CHECKING:
    from .errors import ScoringError

_NAME = re.compile(r"\\\{(\w+)\\\}")


@dataclass(frozen=True)
class Wording:
    source: str  # the engine's sentence, with {name} where it puts a value
    text: Promise  # what the page says, with %(name)s for the same values

    @cached_property
    def pattern(self) -> re.Pattern:
        return re.compile(_NAME.sub(r"(?P<\1>.+?)", re.escape(self.source)) + r"\Z", re.S)


def _w(source: str, text: Promise) -> Wording:
    return Wording(source, text)


WORDINGS: tuple[Wording, ...] = (
    # engine/auction.py
    _w(
        "{call} comes after {after}: no more calls in this deal",
        gettext_lazy("The calls of this deal are over: no more calls."),
    ),
    _w("{ruleset} has no pass", gettext_lazy("%(ruleset)s has no pass.")),
    _w("seat {seat} has no pass left", gettext_lazy("%(seat)s has no pass left.")),
    _w("{call} is not a call in {ruleset}", gettext_lazy("%(call)s is not a call in %(ruleset)s.")),
    _w(
        "seat {seat} has already called {call} in this game",
        gettext_lazy("%(seat)s has already called %(call)s in this game."),
    ),
    _w("calls must be a non-empty list", gettext_lazy("Choose a call.")),
    _w(
        "the calls stop before a contract or a redeal: seat {seat} has yet to call",
        gettext_lazy("The calls are not finished: %(seat)s has yet to call."),
    ),
    # engine/cards.py
    _w(
        "{text} is not a card: write rank then suit, e.g. 10H or AS",
        gettext_lazy("%(text)s is not a card: write the rank, then the suit, e.g. 10H or AS."),
    ),
    _w(
        "{card} appears twice: a deck has one of each card",
        gettext_lazy("A card is written twice: a deck has one of each."),
    ),
    # engine/record.py
    _w("a game record must be a JSON object", gettext_lazy("The game's record is malformed.")),
    _w("the record has no ruleset", gettext_lazy("The game's record is malformed.")),
    _w("deals must be a list", gettext_lazy("The game's record is malformed.")),
    _w("a deal must be a JSON object", gettext_lazy("The game's record is malformed.")),
    _w("the deal has no calls", gettext_lazy("Choose a call.")),
    _w("{name} is not JSON", gettext_lazy("The data sent is not valid JSON.")),
    _w("malformed JSON: {error}", gettext_lazy("The data sent is not valid JSON.")),
    # engine/rulesets.py
    _w("options must be an object", gettext_lazy("The game's options are malformed.")),
    _w(
        "unknown option {name} (options are: {known})",
        gettext_lazy("%(name)s is not an option of this game."),
    ),
    _w(
        "option {name} must be a positive whole number or null, not {value}",
        gettext_lazy("The option “%(name)s” must be a whole number above 0, or left empty."),
    ),
    _w(
        "option targets must be three whole numbers ≥ 0 summing to 16 or 17, not {value}",
        gettext_lazy("The targets must be three whole numbers, 0 or more, adding up to 16 or 17."),
    ),
    _w(
        "option pass_turns must be true or false, not {value}",
        gettext_lazy("The option “after a pass” must be on or off."),
    ),
    _w(
        "option pass_turns needs a ruleset with passes; {ruleset} has none",
        gettext_lazy("%(ruleset)s has no pass."),
    ),
    _w(
        'option exchange_order must be "target" or "points", not {value}',
        gettext_lazy("Choose who gives first in the exchange: the higher target, or more points."),
    ),
    _w(
        "unknown ruleset {name} (rulesets are: {known})",
        gettext_lazy("%(name)s is not a game this site knows."),
    ),
    # engine/game.py
    _w(
        "tricks must be three whole numbers, one per seat, not {value}",
        gettext_lazy("Enter the tricks as three whole numbers, one for each player."),
    ),
    _w("tricks cannot be negative: {tricks}", gettext_lazy("Tricks cannot be fewer than 0.")),
    _w(
        "tricks must add up to {total}, not {sum}: {tricks}",
        gettext_lazy("The tricks add up to %(sum)s; they must add up to %(total)s."),
    ),
    _w(
        "last_tricks must be a list of seats (0, 1, 2), not {value}",
        gettext_lazy("The winners of the last tricks must be players at this table."),
    ),
    _w(
        "last_tricks names seat {seat} {named} times but it took {took} tricks",
        gettext_lazy(
            "%(seat)s is named as the winner of %(named)s of the last tricks but took "
            "%(took)s tricks in that hand."
        ),
    ),
    _w(
        "first_dealer must be 0, 1 or 2, not {value}",
        gettext_lazy("The first dealer must be one of the three players."),
    ),
    _w(
        "the game is already finished: no more deals",
        gettext_lazy("The game is already over: no more deals."),
    ),
    _w(
        "a redeal has no tricks: everyone entitled to call passed",
        gettext_lazy("A redeal has no tricks: everyone who could call passed."),
    ),
    _w(
        "tricks are missing: {call} was called",
        gettext_lazy("The tricks are missing: %(call)s was called."),
    ),
    # engine/calls.py
    _w("{name} is not a call (calls are: {known})", gettext_lazy("%(name)s is not a call.")),
    # engine/play.py
    _w("the trick already has three cards", gettext_lazy("A trick has at most three cards.")),
    _w("a trick has at most three cards", gettext_lazy("A trick has at most three cards.")),
    _w(
        "{card} is both in the hand and in the trick",
        gettext_lazy("%(card)s is both in your cards and in the trick."),
    ),
    _w("the hand is empty", gettext_lazy("Write at least one card.")),
    _w("the trick is empty", gettext_lazy("The trick has no cards yet.")),
)

OPTION_NAMES = {
    "hands": gettext_lazy("Number of hands"),
    "goal": gettext_lazy("Points to win"),
}


def _value(key: str, raw: str, names: list[str] | None) -> str:
    """One value read out of the engine's sentence, as the page shows it."""
    if key == "seat" and raw.isdigit():
        seat = int(raw)
        if names and 0 <= seat < len(names):
            return names[seat]
        return _("seat %(n)s") % {"n": seat + 1}
    if key == "call":
        return call_label(raw)
    if key == "ruleset":
        return ruleset_label(raw)
    if key == "name" and raw in OPTION_NAMES:
        return str(OPTION_NAMES[raw])
    return raw


def wording_of(message: str) -> tuple[Wording, dict[str, str]] | None:
    for wording in WORDINGS:
        match = wording.pattern.match(message)
        if match:
            return wording, match.groupdict()
    return None


def rule_text(error: engine.RuleError, names: list[str] | None = None) -> str:
    """The engine's refusal in the page's language; never its English sentence."""
    found = wording_of(error.message)
    if found is None:
        return _("The rules do not allow this.")
    wording, raw = found
    values = {key: _value(key, value, names) for key, value in raw.items()}
    return str(wording.text) % values if "%(" in str(wording.text) else str(wording.text)


def refusal(error: ScoringError, names: list[str] | None = None) -> str:
    """What a page says for a service's refusal: the engine's reason worded with the players'
    names, else the error's message in the page's language."""
    if error.rule is not None:
        return rule_text(error.rule, names)
    return error.message


def correction_refusal(
    error: ScoringError, number: int, names: list[str], entries: Sequence = ()
) -> str:
    """A correction the replay refuses: which deal fails (deal `number` itself, or a later
    one that no longer fits), and why; each named as the players count hands among the live
    `entries` (presenters.numbering)."""
    rule = error.rule
    if rule is None or rule.deal is None:
        return refusal(error, names)
    values = {
        "deal": deal_name(entries, rule.deal),
        "n": deal_name(entries, number),
        "why": rule_text(rule, names),
    }
    if rule.deal == number:
        return _("Nothing was saved. %(deal)s cannot be so: %(why)s") % {
            **values,
            "deal": deal_title(entries, rule.deal),
        }
    return (
        _(
            "Nothing was saved. With %(n)s corrected, %(deal)s no longer fits: "
            "%(why)s Correct %(deal)s first, then %(n)s."
        )
        % values
    )
