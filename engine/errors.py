"""The one error the engine raises for bad input, and the English it is worded in.

A refusal is typed, like python-chess's `IllegalMoveError`: `RuleError("tricks_sum", total=16,
sum=17, tricks=[4, 7, 6])`. The code names what is wrong, the params are the plain values
involved (numbers, seats, call and ruleset names, what the sender wrote); no raise site
words anything. The English is rendered from MESSAGES, the one catalogue, when the error is
made: it is the `message` of `python -m engine`'s JSON error and of the HTTP API, whose
contracts promise it (../shared/spec/engine.md). The site words the code in the reader's
language instead (scoring.rule_words), with the same params.

Every rejection also carries the 1-based index of the offending deal (or None when the
record as a whole is at fault), so the command line, the API and the pages can all point at
the same place.

A template names each param by `{name}`; `{name!j}` writes a value as the JSON its sender
wrote, shortened (`shown`), and `{name!l}` a list as its items separated by commas.
"""

from __future__ import annotations

import json
import string

#: code -> the English template of that refusal (the text of `python -m engine`'s errors).
MESSAGES: dict[str, str] = {
    # auction.py: the calls of a deal
    "call_after_contract": "{call} comes after the contract: no more calls in this deal",
    "call_after_redeal": "{call} comes after the redeal: no more calls in this deal",
    "no_pass_in_ruleset": "{ruleset} has no pass",
    "no_pass_left": "seat {seat} has no pass left",
    "call_not_in_ruleset": "{call} is not a call in {ruleset}",
    "call_made_already": "seat {seat} has already called {call} in this game",
    "calls_not_a_list": "calls must be a non-empty list",
    "calls_unfinished": (
        "the calls stop before a contract or a redeal: seat {seat} has yet to call"
    ),
    # calls.py
    "call_unknown": "{name!j} is not a call (calls are: {known!l})",
    # cards.py
    "card_unreadable": "{text!j} is not a card: write rank then suit, e.g. 10H or AS",
    "card_twice": "{card} appears twice: a deck has one of each card",
    # record.py: the record and its JSON
    "record_not_object": "a game record must be a JSON object",
    "record_no_ruleset": "the record has no ruleset",
    "deals_not_a_list": "deals must be a list",
    "deal_not_object": "a deal must be a JSON object",
    "deal_no_calls": "the deal has no calls",
    "json_constant": "{name} is not JSON",
    "json_malformed": "malformed JSON: {error}",
    # rulesets.py: rulesets and options
    "options_not_object": "options must be an object",
    "option_unknown": "unknown option {name!j} (options are: {known!l})",
    "option_not_positive": ("option {name} must be a positive whole number or null, not {value!j}"),
    "option_targets": (
        "option targets must be three whole numbers ≥ 0 summing to 16 or 17, not {value!j}"
    ),
    "option_pass_turns": "option pass_turns must be true or false, not {value!j}",
    "pass_turns_without_passes": (
        "option pass_turns needs a ruleset with passes; {ruleset} has none"
    ),
    "option_exchange_order": 'option exchange_order must be "target" or "points", not {value!j}',
    "ruleset_unknown": "unknown ruleset {name!j} (rulesets are: {known!l})",
    # game.py: a deal's tricks, the game
    "tricks_not_three": "tricks must be three whole numbers, one per seat, not {value!j}",
    "tricks_negative": "tricks cannot be negative: {tricks}",
    "tricks_sum": "tricks must add up to {total}, not {sum}: {tricks}",
    "last_tricks_not_seats": "last_tricks must be a list of seats (0, 1, 2), not {value!j}",
    "last_tricks_too_many": (
        "last_tricks names seat {seat} {named} times but it took {took} tricks"
    ),
    "first_dealer": "first_dealer must be 0, 1 or 2, not {value!j}",
    "game_finished": "the game is already finished: no more deals",
    "redeal_with_tricks": "a redeal has no tricks: everyone entitled to call passed",
    "tricks_missing": "tricks are missing: {call} was called",
    # play.py: card play
    "trick_full": "the trick already has three cards",
    "trick_too_long": "a trick has at most three cards",
    "card_in_hand_and_trick": "{card} is both in the hand and in the trick",
    "hand_empty": "the hand is empty",
    "trick_empty": "the trick is empty",
    # cli.py: the command line's own
    "arguments": "{reason}",  # argparse's own words about the arguments
    "pass_not_contract": "pass is not a contract",
    "contract_not_in_ruleset": "{call} is not a contract in {ruleset}",
    "surrogate_in_record": "the record holds a lone surrogate (not a character): use UTF-8 text",
    "surrogate_in_command_line": (
        "the command line holds a lone surrogate (not a character): use UTF-8 text"
    ),
    "file_unreadable": "cannot read {file}: {why}",
    "no_given_card": "give at least one card",
    "internal": "internal error: {error}",
}


def shown(value: object, limit: int = 60) -> str:
    """A value as the JSON its sender wrote, shortened: for error messages."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _convert(value: object, conversion: str | None) -> str:
    if conversion == "j":
        return shown(value)
    if conversion == "l":
        return ", ".join(str(item) for item in value)
    return str(value)


class RuleError(ValueError):
    """Input that the rules (or the record format) do not allow: `code` says what, `params`
    hold the values, `message` is the English (MESSAGES), `deal` the deal at fault."""

    def __init__(self, code: str, /, *, deal: int | None = None, **params: object):
        if code not in MESSAGES:
            raise LookupError(f"the engine has no refusal {code!r}")
        self.code = code
        self.params = params
        self.deal = deal
        parts = list(string.Formatter().parse(MESSAGES[code]))
        #: Each param the English names, as it writes it.
        self.texts = {
            field: _convert(params[field], conversion)
            for _text, field, _spec, conversion in parts
            if field is not None
        }
        #: The refusal in English, as `python -m engine` prints it.
        self.message = "".join(
            text + ("" if field is None else self.texts[field]) for text, field, _s, _c in parts
        )
        super().__init__(self.message)

    def at_deal(self, deal: int) -> RuleError:
        """The same error, pinned to a deal (keeps a deal already set)."""
        return self if self.deal is not None else RuleError(self.code, deal=deal, **self.params)

    def as_json(self) -> dict:
        return {"error": {"deal": self.deal, "message": self.message}}

    def __reduce__(self):  # pickled (a task's result) by code and params, not by its text
        return _rebuilt, (self.code, self.deal, self.params)

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, deal={self.deal!r}, **{self.params!r})"


def _rebuilt(code: str, deal: int | None, params: dict) -> RuleError:
    return RuleError(code, deal=deal, **params)
