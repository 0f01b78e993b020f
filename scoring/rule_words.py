"""The engine's refusals in the page's language.

The engine is pure Python and speaks English, but its refusals are typed: a RuleError carries
a code and plain params (and the deal it is about). The pages never show its English: WORDINGS
gives each code what a person reads instead (through gettext, so in Bulgarian too), filled in
with the same params shown the page's way: seats as the players' names, calls and games by
their translated names, what the sender wrote as the engine quotes it.
tests/scoring/test_rule_words.py checks that every code of engine.errors.MESSAGES is here.
The JSON API keeps the engine's own sentence, which its contract promises.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import engine
from scoring.presenters.numbering import deal_name, deal_title
from scoring.words import call_label, ruleset_label

if TYPE_CHECKING:
    from django.utils.functional import Promise

    from scoring.errors import ScoringError

_CALLS_OVER = gettext_lazy("The calls of this deal are over: no more calls.")
_NO_PASS = gettext_lazy("%(ruleset)s has no pass.")
_NOT_A_CALL_HERE = gettext_lazy("%(call)s is not a call in %(ruleset)s.")
_CHOOSE_A_CALL = gettext_lazy("Choose a call.")
_RECORD = gettext_lazy("The game's record is malformed.")
_JSON = gettext_lazy("The data sent is not valid JSON.")
_THREE_CARDS = gettext_lazy("A trick has at most three cards.")
_NOT_TEXT = gettext_lazy("The data sent holds a character that is not text.")

#: engine code -> what a page says, with %(param)s for the error's params (by the same name).
WORDINGS: dict[str, Promise] = {
    # engine/auction.py
    "call_after_contract": _CALLS_OVER,
    "call_after_redeal": _CALLS_OVER,
    "no_pass_in_ruleset": _NO_PASS,
    "no_pass_left": gettext_lazy("%(seat)s has no pass left."),
    "call_not_in_ruleset": _NOT_A_CALL_HERE,
    "call_made_already": gettext_lazy("%(seat)s has already called %(call)s in this game."),
    "calls_not_a_list": _CHOOSE_A_CALL,
    "calls_unfinished": gettext_lazy("The calls are not finished: %(seat)s has yet to call."),
    # engine/calls.py
    "call_unknown": gettext_lazy("%(name)s is not a call."),
    # engine/cards.py
    "card_unreadable": gettext_lazy(
        "%(text)s is not a card: write the rank, then the suit, e.g. 10H or AS."
    ),
    "card_twice": gettext_lazy("A card is written twice: a deck has one of each."),
    # engine/record.py
    "record_not_object": _RECORD,
    "record_no_ruleset": _RECORD,
    "deals_not_a_list": _RECORD,
    "deal_not_object": _RECORD,
    "deal_no_calls": _CHOOSE_A_CALL,
    "json_constant": _JSON,
    "json_malformed": _JSON,
    # engine/rulesets.py
    "options_not_object": gettext_lazy("The game's options are malformed."),
    "option_unknown": gettext_lazy("%(name)s is not an option of this game."),
    "option_not_positive": gettext_lazy(
        "The option “%(name)s” must be a whole number above 0, or left empty."
    ),
    "option_targets": gettext_lazy(
        "The targets must be three whole numbers, 0 or more, adding up to 16 or 17."
    ),
    "option_pass_turns": gettext_lazy("The option “after a pass” must be on or off."),
    "pass_turns_without_passes": _NO_PASS,
    "option_exchange_order": gettext_lazy(
        "Choose who gives first in the exchange: the higher target, or more points."
    ),
    "ruleset_unknown": gettext_lazy("%(name)s is not a game this site knows."),
    # engine/game.py
    "tricks_not_three": gettext_lazy(
        "Enter the tricks as three whole numbers, one for each player."
    ),
    "tricks_negative": gettext_lazy("Tricks cannot be fewer than 0."),
    "tricks_sum": gettext_lazy("The tricks add up to %(sum)s; they must add up to %(total)s."),
    "last_tricks_not_seats": gettext_lazy(
        "The winners of the last tricks must be players at this table."
    ),
    "last_tricks_too_many": gettext_lazy(
        "%(seat)s is named as the winner of %(named)s of the last tricks but took "
        "%(took)s tricks in that hand."
    ),
    "first_dealer": gettext_lazy("The first dealer must be one of the three players."),
    "game_finished": gettext_lazy("The game is already over: no more deals."),
    "redeal_with_tricks": gettext_lazy("A redeal has no tricks: everyone who could call passed."),
    "tricks_missing": gettext_lazy("The tricks are missing: %(call)s was called."),
    # engine/play.py
    "trick_full": _THREE_CARDS,
    "trick_too_long": _THREE_CARDS,
    "card_in_hand_and_trick": gettext_lazy("%(card)s is both in your cards and in the trick."),
    "hand_empty": gettext_lazy("Write at least one card."),
    "trick_empty": gettext_lazy("The trick has no cards yet."),
    # engine/cli.py: the command line's own, worded should a page ever meet one
    "arguments": gettext_lazy("The command is incomplete or not understood."),
    "pass_not_contract": gettext_lazy("A pass is not a contract."),
    "contract_not_in_ruleset": _NOT_A_CALL_HERE,
    "surrogate_in_record": _NOT_TEXT,
    "surrogate_in_command_line": _NOT_TEXT,
    "file_unreadable": gettext_lazy("The file cannot be read."),
    "no_given_card": gettext_lazy("Write at least one card."),
    "internal": gettext_lazy("The rules could not be checked: something went wrong."),
}

OPTION_NAMES = {
    "hands": gettext_lazy("Number of hands"),
    "goal": gettext_lazy("Points to win"),
}


def _value(error: engine.RuleError, key: str, names: list[str] | None) -> object:
    """One param of the engine's refusal, as the page shows it."""
    raw = error.params.get(key)
    if key == "seat" and isinstance(raw, int):
        if names and 0 <= raw < len(names):
            return names[raw]
        return _("seat %(n)s") % {"n": raw + 1}
    if key == "call" and isinstance(raw, str):
        return call_label(raw)
    if key == "ruleset" and isinstance(raw, str):
        return ruleset_label(raw)
    text = error.texts.get(key, "" if raw is None else str(raw))
    if key == "name" and text in OPTION_NAMES:
        return str(OPTION_NAMES[text])
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else text


def rule_text(error: engine.RuleError, names: list[str] | None = None) -> str:
    """The engine's refusal in the page's language; never its English sentence."""
    wording = WORDINGS.get(error.code)
    if wording is None:
        return _("The rules do not allow this.")
    text = str(wording)
    if "%(" not in text:
        return text
    keys = {*error.params, *error.texts}
    return text % {key: _value(error, key, names) for key in keys}


def refusal(error: ScoringError, names: list[str] | None = None) -> str:
    """What a page says for a service's refusal (either app's): the engine's reason behind it
    (`error.rule`) worded with the players' names, else the error's message in the page's
    language."""
    rule = getattr(error, "rule", None)
    if rule is not None:
        return rule_text(rule, names)
    return str(error.message)


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
