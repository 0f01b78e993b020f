"""Game records and game states as JSON: the contract of `python -m engine replay`.

The shapes are fixed by `../shared/spec/engine.md`; outside tools and the HTTP API
depend on them, so the state carries exactly the keys listed there.
"""

from __future__ import annotations

import json

from .errors import RuleError
from .game import Deal, Game, GameState, NextDeal
from .rulesets import Rules


def game_from_record(record: object) -> Game:
    """Replay a game record (parsed JSON); RuleError names the offending deal, if any."""
    if not isinstance(record, dict):
        raise RuleError("record_not_object")
    if "ruleset" not in record:
        raise RuleError("record_no_ruleset")
    rules = Rules.build(record["ruleset"], record.get("options"))
    game = Game(rules, record.get("first_dealer", 0))
    deals = record.get("deals", [])
    if not isinstance(deals, list):
        raise RuleError("deals_not_a_list")
    for number, deal in enumerate(deals, start=1):
        try:
            if not isinstance(deal, dict):
                raise RuleError("deal_not_object")
            if "calls" not in deal:
                raise RuleError("deal_no_calls")
            game.play(deal["calls"], deal.get("tricks"), deal.get("last_tricks"))
        except RuleError as error:
            raise error.at_deal(number) from None
    return game


def replay(record: object) -> GameState:
    return game_from_record(record).state()


def loads(text: str | bytes) -> object:
    """Strict JSON: no NaN or Infinity, and any failure becomes a RuleError."""

    def reject_constant(name: str):
        raise RuleError("json_constant", name=name)

    try:
        return json.loads(text, parse_constant=reject_constant)
    except RuleError:
        raise
    except (ValueError, RecursionError) as error:
        raise RuleError("json_malformed", error=str(error)) from None


def _transfers(transfers) -> list[dict]:
    return [transfer.as_json() for transfer in transfers]


def _list(values) -> list | None:
    return None if values is None else list(values)


def deal_as_json(deal: Deal) -> dict:
    return {
        "deal": deal.number,
        "hand": deal.hand,
        "dealer": deal.dealer,
        "targets": list(deal.targets),
        "caller": deal.caller,
        "calls": [{"seat": made.seat, "call": made.call.name} for made in deal.calls],
        "contract": deal.contract.name if deal.contract else None,
        "declarer": deal.declarer,
        "redeal": deal.redeal,
        "exchange": _transfers(deal.exchange),
        "tricks": _list(deal.tricks),
        "points": _list(deal.points),
        "totals": list(deal.totals),
    }


def next_as_json(upcoming: NextDeal | None) -> dict | None:
    if upcoming is None:
        return None
    return {
        "deal": upcoming.number,
        "hand": upcoming.hand,
        "dealer": upcoming.dealer,
        "targets": list(upcoming.targets),
        "caller": upcoming.caller,
        "allowed_calls": [call.name for call in upcoming.allowed_calls],
        "exchange": _transfers(upcoming.exchange),
    }


def state_as_json(state: GameState) -> dict:
    needs = state.needs_last_tricks
    return {
        "ruleset": state.rules.ruleset.id,
        "deals": [deal_as_json(deal) for deal in state.deals],
        "totals": list(state.totals),
        "passes_left": list(state.passes_left),
        "finished": state.finished,
        "next": next_as_json(state.next),
        "placings": _list(state.placings),
        "needs": None if needs is None else {"last_tricks": needs},
    }
