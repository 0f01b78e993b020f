"""Every refusal of the engine is typed: a code and plain params, worded in English from one
catalogue (engine.errors.MESSAGES).

Each code is reached here by real input, through the Python API or `python -m engine`, and
its English is pinned word for word: it is the text of `python -m engine`'s JSON error, which
outside tools read (../shared/spec/engine.md), so rendering it from a code must not change a
byte of it.
"""

from __future__ import annotations

import contextlib
import io
import json
import pickle
import string
import sys
from unittest import mock

import pytest

from engine import Game, RuleError, Rules, parse_cards, replay
from engine.cli import main
from engine.errors import MESSAGES
from engine.play import legal_cards, trick_winner
from engine.record import loads


def _cli(*argv: str, stdin: str = "") -> dict:
    """`python -m engine` in process: its JSON error (exit status 2)."""
    out = io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()))),
        contextlib.redirect_stdout(out),
    ):
        assert main(list(argv)) == 2
    return json.loads(out.getvalue())["error"]


def _deals(ruleset: str, *calls: list, options: dict | None = None, **record) -> dict:
    deals = [{"calls": c, "tricks": t} if t else {"calls": c} for c, t in calls]
    return {"ruleset": ruleset, "options": options or {}, "deals": deals, **record}


BLATO_HAND = (["hearts"], [4, 7, 5])

#: code -> (input that the engine refuses, the exact English it answers)
CASES = {
    "call_after_contract": (
        lambda: replay(_deals("blato", (["hearts", "spades"], [4, 7, 5]))),
        "spades comes after the contract: no more calls in this deal",
    ),
    "call_after_redeal": (
        lambda: replay(_deals("blato", (["pass", "hearts"], None))),
        "hearts comes after the redeal: no more calls in this deal",
    ),
    "no_pass_in_ruleset": (
        lambda: replay(_deals("three-five-eight", (["pass"], None))),
        "three-five-eight has no pass",
    ),
    "no_pass_left": (
        lambda: replay(_deals("blato", (["pass"], None), (["pass"], None))),
        "seat 1 has no pass left",
    ),
    "call_not_in_ruleset": (
        lambda: replay(_deals("blato", (["miz"], [4, 7, 5]))),
        "miz is not a call in blato",
    ),
    "call_made_already": (
        lambda: replay(_deals("sergeant-major-alternate", *[(["hearts"], [8, 5, 3])] * 4)),
        "seat 0 has already called hearts in this game",
    ),
    "calls_not_a_list": (
        lambda: replay(_deals("blato", ([], None))),
        "calls must be a non-empty list",
    ),
    "calls_unfinished": (
        lambda: replay(_deals("blato", (["pass"], None), options={"pass_turns": True})),
        "the calls stop before a contract or a redeal: seat 2 has yet to call",
    ),
    "card_unreadable": (
        lambda: parse_cards("AH 1X"),
        '"1X" is not a card: write rank then suit, e.g. 10H or AS',
    ),
    "card_twice": (
        lambda: parse_cards("AH 10H ah"),
        "AH appears twice: a deck has one of each card",
    ),
    "record_not_object": (lambda: replay([]), "a game record must be a JSON object"),
    "record_no_ruleset": (lambda: replay({}), "the record has no ruleset"),
    "deals_not_a_list": (
        lambda: replay({"ruleset": "blato", "deals": {}}),
        "deals must be a list",
    ),
    "deal_not_object": (
        lambda: replay({"ruleset": "blato", "deals": [[]]}),
        "a deal must be a JSON object",
    ),
    "deal_no_calls": (
        lambda: replay({"ruleset": "blato", "deals": [{}]}),
        "the deal has no calls",
    ),
    "json_constant": (lambda: loads('{"x": NaN}'), "NaN is not JSON"),
    "json_malformed": (
        lambda: loads("{"),
        "malformed JSON: Expecting property name enclosed in double quotes: line 1 column 2 "
        "(char 1)",
    ),
    "options_not_object": (lambda: Rules.build("blato", []), "options must be an object"),
    "option_unknown": (
        lambda: Rules.build("blato", {"colour": "red"}),
        'unknown option "colour" (options are: targets, hands, goal, instant_win_tricks, '
        "pass_turns, exchange_order)",
    ),
    "option_not_positive": (
        lambda: Rules.build("blato", {"hands": 0}),
        "option hands must be a positive whole number or null, not 0",
    ),
    "option_targets": (
        lambda: Rules.build("blato", {"targets": [3, 8, "5"]}),
        'option targets must be three whole numbers ≥ 0 summing to 16 or 17, not [3, 8, "5"]',
    ),
    "option_pass_turns": (
        lambda: Rules.build("blato", {"pass_turns": "yes"}),
        'option pass_turns must be true or false, not "yes"',
    ),
    "pass_turns_without_passes": (
        lambda: Rules.build("three-five-eight", {"pass_turns": True}),
        "option pass_turns needs a ruleset with passes; three-five-eight has none",
    ),
    "option_exchange_order": (
        lambda: Rules.build("blato", {"exchange_order": "лъв"}),
        'option exchange_order must be "target" or "points", not "лъв"',
    ),
    "ruleset_unknown": (
        lambda: Rules.build("belot"),
        'unknown ruleset "belot" (rulesets are: blato, three-five-eight, sergeant-major, '
        "sergeant-major-alternate, nine-five-two)",
    ),
    "tricks_not_three": (
        lambda: replay(_deals("blato", (["hearts"], [4, 12]))),
        "tricks must be three whole numbers, one per seat, not [4, 12]",
    ),
    "tricks_negative": (
        lambda: replay(_deals("blato", (["hearts"], [-1, 12, 5]))),
        "tricks cannot be negative: [-1, 12, 5]",
    ),
    "tricks_sum": (
        lambda: replay(_deals("blato", (["hearts"], (4, 7, 6)))),
        "tricks must add up to 16, not 17: [4, 7, 6]",
    ),
    "last_tricks_not_seats": (
        lambda: Game(Rules.build("blato")).play(["hearts"], [4, 7, 5], [3]),
        "last_tricks must be a list of seats (0, 1, 2), not [3]",
    ),
    "last_tricks_too_many": (
        lambda: Game(Rules.build("blato")).play(["hearts"], [0, 11, 5], [0]),
        "last_tricks names seat 0 1 times but it took 0 tricks",
    ),
    "first_dealer": (
        lambda: replay({"ruleset": "blato", "first_dealer": "1", "deals": []}),
        'first_dealer must be 0, 1 or 2, not "1"',
    ),
    "game_finished": (
        lambda: replay(_deals("blato", *[BLATO_HAND] * 10)),
        "the game is already finished: no more deals",
    ),
    "redeal_with_tricks": (
        lambda: replay(_deals("blato", (["pass"], [4, 7, 5]))),
        "a redeal has no tricks: everyone entitled to call passed",
    ),
    "tricks_missing": (
        lambda: replay(_deals("blato", (["clubs"], None))),
        "tricks are missing: clubs was called",
    ),
    "call_unknown": (
        lambda: replay(_deals("blato", (["trumps"], None))),
        '"trumps" is not a call (calls are: spades, hearts, diamonds, clubs, no-trump, miz, pass)',
    ),
    "trick_full": (
        lambda: legal_cards(parse_cards("AS"), parse_cards("KS QS JS"), None, False),
        "the trick already has three cards",
    ),
    "trick_too_long": (
        lambda: trick_winner(parse_cards("KS QS JS 10S"), None),
        "a trick has at most three cards",
    ),
    "card_in_hand_and_trick": (
        lambda: legal_cards(parse_cards("AS 2H 3H"), parse_cards("3H 2H"), None, False),
        "2H is both in the hand and in the trick",
    ),
    "hand_empty": (
        lambda: legal_cards((), parse_cards("AS"), None, False),
        "the hand is empty",
    ),
    "trick_empty": (lambda: trick_winner((), None), "the trick is empty"),
}

#: The command line's own refusals: code -> (argv, standard input, the exact English).
CLI_CASES = {
    "arguments": (
        ["deal"],
        "",
        "argument command: invalid choice: 'deal' (choose from "
        "'rulesets', 'replay', 'return-card', 'legal', 'trick-winner')",
    ),
    "pass_not_contract": (
        ["trick-winner", "--contract", "pass", "--trick", "AH"],
        "",
        "pass is not a contract",
    ),
    "contract_not_in_ruleset": (
        ["legal", "--ruleset", "three-five-eight", "--contract", "miz", "--hand", "AH"],
        "",
        "miz is not a contract in three-five-eight",
    ),
    "surrogate_in_record": (
        ["replay"],
        '{"ruleset": "\\ud800"}',
        "the record holds a lone surrogate (not a character): use UTF-8 text",
    ),
    "surrogate_in_command_line": (
        ["legal", "--ruleset", "\ud800", "--contract", "hearts", "--hand", "2H"],
        "",
        "the command line holds a lone surrogate (not a character): use UTF-8 text",
    ),
    "file_unreadable": (
        ["replay", "/nonexistent/record.json"],
        "",
        "cannot read /nonexistent/record.json: No such file or directory",
    ),
    "no_given_card": (["return-card", "--hand", "AH", "--given", ""], "", "give at least one card"),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_refusal_has_its_code_and_its_english(code):
    refuse, english = CASES[code]
    with pytest.raises(RuleError) as caught:
        refuse()
    assert caught.value.message == english
    assert str(caught.value) == english
    assert caught.value.code == code


@pytest.mark.parametrize("code", sorted(CLI_CASES))
def test_each_command_line_refusal_has_its_english(code):
    argv, stdin, english = CLI_CASES[code]
    assert _cli(*argv, stdin=stdin) == {"deal": None, "message": english}


def test_every_code_in_the_catalogue_is_reached():
    """A code no input reaches is a refusal nobody can get (or one this file forgot)."""
    assert set(MESSAGES) == set(CASES) | set(CLI_CASES) | {"internal"}


def test_params_are_plain_values_and_the_message_is_rendered_from_them():
    with pytest.raises(RuleError) as caught:
        replay(_deals("blato", BLATO_HAND, (["hearts"], [4, 7, 6])))
    error = caught.value
    assert (error.code, error.deal, error.params) == (
        "tricks_sum",
        2,
        {"total": 16, "sum": 17, "tricks": [4, 7, 6]},
    )
    assert error.as_json() == {
        "error": {"deal": 2, "message": "tricks must add up to 16, not 17: [4, 7, 6]"}
    }
    assert RuleError("tricks_sum", total=16, sum=17, tricks=[4, 7, 6]).message == error.message


def test_a_deal_pinned_later_keeps_the_code_and_params():
    error = RuleError("no_pass_left", seat=1)
    pinned = error.at_deal(3)
    assert (pinned.code, pinned.params, pinned.deal, pinned.message) == (
        "no_pass_left",
        {"seat": 1},
        3,
        "seat 1 has no pass left",
    )
    assert pinned.at_deal(4) is pinned


def test_what_the_sender_wrote_is_quoted_as_json_and_shortened():
    """The params keep the value as sent; the English quotes it as JSON, cut at 60."""
    long = "x" * 100
    error = RuleError("ruleset_unknown", name=long, known=["blato"])
    assert error.params["name"] == long
    assert error.texts["name"] == '"' + "x" * 58 + "…"
    assert error.message == f"unknown ruleset {error.texts['name']} (rulesets are: blato)"


def test_an_unknown_code_is_a_programming_error():
    with pytest.raises(LookupError):
        RuleError("no such code")


def test_an_internal_error_is_typed_too():
    with mock.patch("engine.cli.cmd_rulesets", side_effect=ZeroDivisionError("x")):
        error = _cli("rulesets")
    assert error == {"deal": None, "message": "internal error: ZeroDivisionError('x')"}


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_template_names_only_fields_the_formatter_knows(code):
    for _text, field, _spec, conversion in string.Formatter().parse(MESSAGES[code]):
        if field is not None:
            assert field.isidentifier(), (code, field)
            assert conversion in (None, "j", "l"), (code, conversion)


def test_a_refusal_survives_pickling_by_its_code():
    """Pickled (a Celery result, a worker's exception) and read back as the same refusal."""
    error = RuleError("tricks_missing", deal=4, call="clubs")
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.deal, again.params, again.message) == (
        "tricks_missing",
        4,
        {"call": "clubs"},
        "tricks are missing: clubs was called",
    )
