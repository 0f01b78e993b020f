"""`python -m engine`: the engine's command-line contract (see ../shared/spec/engine.md).

Every failure, from a bad argument to a malformed record, exits with status 2 and prints
`{"error": {...}}` on standard output — never a traceback.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from . import calls as C
from .cards import format_cards, parse_cards
from .errors import RuleError
from .exchange import cards_to_return
from .play import legal_cards, trick_winner
from .record import loads, replay, state_as_json
from .rulesets import RULESETS, ruleset_named

_SURROGATE = re.compile("[\ud800-\udfff]")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse would print usage to stderr and exit 2
        raise RuleError("arguments", reason=message)


def _contract(name: str, ruleset=None) -> C.Call:
    call = C.call_named(name.strip().lower())
    if call.is_pass:
        raise RuleError("pass_not_contract")
    if ruleset is not None and call not in ruleset.calls:
        raise RuleError("contract_not_in_ruleset", call=call.name, ruleset=ruleset.id)
    return call


def cmd_rulesets(args) -> str:
    return json.dumps([ruleset.as_json() for ruleset in RULESETS.values()], ensure_ascii=False)


def _refuse_surrogates(value: object, code: str) -> None:
    """Input is text: a lone surrogate (a JSON escape such as "\\ud800", or an argument's bytes
    that are not UTF-8) is no character, so it is refused here, before any message could
    quote it (it cannot be written out as UTF-8)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise RuleError(code)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def cmd_replay(args) -> str:
    try:
        if args.file in (None, "-"):
            text = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as handle:
                text = handle.read()
    except OSError as error:
        raise RuleError("file_unreadable", file=args.file, why=error.strerror) from None
    record = loads(text)
    _refuse_surrogates(record, "surrogate_in_record")
    return json.dumps(state_as_json(replay(record)), ensure_ascii=False)


def cmd_return_card(args) -> str:
    """One card returned per given card, in the order given (engine.md)."""
    hand = parse_cards(args.hand)
    given = parse_cards(args.given)
    if not given:
        raise RuleError("no_given_card")
    return format_cards(cards_to_return(hand, given))


def cmd_legal(args) -> str:
    ruleset = ruleset_named(args.ruleset)
    contract = _contract(args.contract, ruleset)
    hand = parse_cards(args.hand)
    trick = parse_cards(args.trick or [])
    legal = legal_cards(hand, trick, contract.trump, ruleset.strict_trumping)
    return format_cards(legal)


def cmd_trick_winner(args) -> str:
    contract = _contract(args.contract)
    return str(trick_winner(parse_cards(args.trick), contract.trump))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="The rules of 3-5-8.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands.add_parser("rulesets", help="the built-in rulesets as JSON").set_defaults(
        run=cmd_rulesets
    )
    replay_cmd = commands.add_parser("replay", help="a game record (JSON) -> the game state")
    replay_cmd.add_argument("file", nargs="?", help="the record; standard input if left out")
    replay_cmd.set_defaults(run=cmd_replay)
    ret = commands.add_parser("return-card", help="the card a receiver must return")
    ret.add_argument("--hand", nargs="+", required=True, help="the receiver's cards")
    ret.add_argument(
        "--given", nargs="+", action="extend", required=True, help="the cards it was given"
    )
    ret.set_defaults(run=cmd_return_card)
    legal = commands.add_parser("legal", help="the cards that may be played")
    legal.add_argument("--ruleset", required=True)
    legal.add_argument("--contract", required=True)
    legal.add_argument("--hand", nargs="+", required=True)
    legal.add_argument("--trick", nargs="*", default=[])
    legal.set_defaults(run=cmd_legal)
    winner = commands.add_parser("trick-winner", help="index of the card that takes the trick")
    winner.add_argument("--contract", required=True)
    winner.add_argument("--trick", nargs="+", required=True)
    winner.set_defaults(run=cmd_trick_winner)
    return parser


def _error_json(error: RuleError) -> str:
    """The error as JSON; escaped (\\uXXXX) if its text cannot be written as UTF-8."""
    text = json.dumps(error.as_json(), ensure_ascii=False)
    return text if not _SURROGATE.search(text) else json.dumps(error.as_json())


def main(argv: list[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else argv
        _refuse_surrogates(argv, "surrogate_in_command_line")
        args = build_parser().parse_args(argv)
        output = args.run(args)
    except RuleError as error:
        print(_error_json(error))
        return 2
    except Exception as error:  # the contract: never a traceback, whatever the input
        print(json.dumps(RuleError("internal", error=repr(error)).as_json()))
        return 2
    print(output)
    return 0
