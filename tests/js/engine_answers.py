"""The engine's answers (and the table page's words) for many games, as the keeper's phone
must give them offline: tests/js/engine_answers.json.

Each case starts from the engine's state after some deals, as the page hands it to the phone
(scoring.presenters.offline.offline_state), takes the next deals as hands kept on the phone,
and holds what the engine answers after them: the state, the next deal (as `python -m engine
replay` prints it), each step of the next deal's calls (whose turn, the calls open, the
contract or the redeal, passes left, the exchange due) and the table page's view of the deal
(scoring.presenters.table, in English); and deals the engine refuses. The node tests
(tests/js/*.test.js) check static/js/offline/ against them; tests/scoring/test_offline_rules.py
checks that this file is what this script makes now (so a change of the engine or of the
page's words that the file does not hold fails) and runs the node tests.

Written again with: DJANGO_DEBUG=1 .venv/bin/python -m tests.js.engine_answers
"""

from __future__ import annotations

import json
import random
from pathlib import Path

FIXTURE = Path(__file__).with_name("engine_answers.json")
NAMES = ["Ana", "Boris", "Vera"]

#: The games played: every ruleset, each option that changes what the phone must say.
VARIANTS = [
    ("blato", None, 0),
    ("blato", None, 2),
    ("blato", {"pass_turns": True}, 1),
    ("blato", {"exchange_order": "points", "targets": [6, 5, 5]}, 0),
    ("three-five-eight", None, 0),
    ("three-five-eight", {"exchange_order": "points", "goal": 6}, 2),
    ("sergeant-major", None, 1),
    ("sergeant-major-alternate", None, 0),
    ("nine-five-two", {"hands": 5}, 0),
    ("nine-five-two", {"targets": [6, 6, 4], "instant_win_tricks": 9}, 1),
]
GAMES = 2  # per variant
#: Openings played before the random deals, for what chance seldom deals: two givers level on
#: target and points (the nearer to the receiver gives first).
OPENINGS = {("blato", 6): [{"calls": ["hearts"], "tricks": [4, 6, 6]}]}
CASES = 5  # per game
SEED = 358


def _tricks(rng: random.Random, per_hand: int) -> list[int]:
    if rng.random() < 0.15:  # now and then a hand one seat takes nearly all of
        seat = rng.randrange(3)
        big = rng.randint(per_hand - 4, per_hand)
        other = rng.randint(0, per_hand - big)
        tricks = [0, 0, 0]
        tricks[seat] = big
        tricks[(seat + 1) % 3] = other
        tricks[(seat + 2) % 3] = per_hand - big - other
        return tricks
    first = rng.randint(0, per_hand)
    second = rng.randint(0, per_hand - first)
    tricks = [first, second, per_hand - first - second]
    rng.shuffle(tricks)
    return tricks


def _calls(rng: random.Random, auction) -> list[str]:
    """A deal's calls, each one open at its turn: a pass now and then, else a contract."""
    calls = []
    while not auction.finished:
        allowed = [call.name for call in auction.allowed_calls()]
        contracts = [name for name in allowed if name != "pass"]
        if "pass" in allowed and (not contracts or rng.random() < 0.3):
            name = "pass"
        else:
            name = rng.choice(contracts)
        calls.append(name)
        auction = auction.call(name)
    return calls


def _game(engine, rng, rules, first_dealer, opening=()):
    """A whole game played at random after `opening`: its deals, as a record writes them."""
    game = engine.Game(rules, first_dealer)
    deals = []
    for deal in opening:
        game.play(deal["calls"], deal.get("tricks"))
        deals.append(deal)
    while not game.end:
        calls = _calls(rng, game.auction())
        tricks = None
        auction = game.auction()
        for name in calls:
            auction = auction.call(name)
        if auction.contract:
            tricks = _tricks(rng, rules.tricks_per_hand)
        game.play(calls, tricks)
        deals.append({"calls": calls, **({"tricks": tricks} if tricks else {})})
    return deals


def _played(engine, rules, first_dealer, deals):
    game = engine.Game(rules, first_dealer)
    for deal in deals:
        game.play(deal["calls"], deal.get("tricks"))
    return game


def _view(engine, table, played, calls):
    """The table page's view of the next deal with these calls, as the phone must say it."""
    state = played.state()
    if state.finished:
        return {"over": True}
    deal = table._deal_view(played, NAMES, calls, state.next.number)
    return {
        "number": deal.number,
        "hand": deal.hand,
        "heading": deal.heading,
        "seats": [
            {
                "name": seat.name,
                "short": seat.short,
                "target": seat.target,
                "total": seat.total,
                "dealer": seat.dealer,
                "caller": seat.caller,
                "to_call": seat.to_call,
                "passes_left": seat.passes_left,
            }
            for seat in deal.seats
        ],
        "calls_made": [made.sentence for made in deal.calls_made],
        "calls_value": deal.calls_value,
        "calls_error": bool(deal.calls_error),
        "exchange": {"note": deal.exchange.note, "sentences": deal.exchange.sentences},
        "contract": deal.contract.sentence if deal.contract else None,
        "to_call_name": deal.to_call_name,
        "choices": [
            {
                "value": choice.value,
                "label": choice.label,
                "symbol": choice.symbol,
                "red": choice.red,
                "is_pass": choice.is_pass,
            }
            for choice in deal.choices
        ],
    }


def _row(row: dict) -> dict:
    """A row of the table page's score sheet (presenters.table), as the phone must show it."""
    from django.utils.translation import gettext

    cells = None
    if not row["redeal"]:
        cells = [
            {"tricks": cell.tricks, "points": cell.points, "total": cell.total}
            for cell in (row[f"seat{seat}"] for seat in range(3))
        ]
    return {
        "number": row["hand"],  # the number the sheet shows: the hand (presenters.numbering)
        "call": row["call"],
        "dealer": gettext("dealer: %(name)s") % {"name": row["dealer"]},
        "redeal": row["redeal"],
        "cells": cells,
    }


def _step(engine, played, calls):
    """The engine's answer to the next deal's calls so far."""
    auction = played.auction()
    for name in calls:
        auction = auction.call(name)
    contract = auction.contract
    return {
        "calls": calls,
        "to_call": auction.to_call,
        "allowed": [call.name for call in auction.allowed_calls()],
        "contract": None
        if contract is None
        else {"seat": contract.seat, "call": contract.call.name},
        "redeal": auction.redeal,
        "passes_left": list(auction.entitlements.passes_left),
        "exchange": [t.as_json() for t in played.exchange_due(contract.call if contract else None)],
    }


def _refused(engine, rng, rules, played, real):
    """Deals the engine refuses after `played`: each a slip a keeper could make."""
    tricks = real.get("tricks") or _tricks(rng, rules.tricks_per_hand)
    calls = real["calls"]
    slips = [
        {"calls": calls, "tricks": [tricks[0] + 1, tricks[1], tricks[2]]},  # do not add up
        {"calls": calls, "tricks": [-1, tricks[1], tricks[2] + tricks[0] + 1]},
        {"calls": calls + ["spades"], **({"tricks": tricks} if real.get("tricks") else {})},
        {"calls": ["pass", "pass", "pass", "pass"]},
        {"calls": ["miz"], "tricks": tricks},
        {"calls": ["no-trump"], "tricks": tricks},
        {"calls": calls, **({} if real.get("tricks") else {"tricks": tricks})},
    ]
    refused = []
    for slip in slips:
        try:
            engine.Game.play(_copy(played), slip["calls"], slip.get("tricks"))
        except engine.RuleError:
            if slip not in refused:
                refused.append(slip)
    return refused


def _copy(played):
    import copy

    return copy.deepcopy(played)


def build() -> dict:
    """The answers, made afresh (deterministic: the same engine and words give the same)."""
    from django.utils import translation

    import engine
    from scoring.presenters import offline, table

    rng = random.Random(SEED)
    variants = []
    with translation.override("en"):
        for ruleset, options, first_dealer in VARIANTS:
            rules = engine.Rules.build(ruleset, options)
            cases = []
            opening = OPENINGS.get((ruleset, rules.options.targets[0]), [])
            for game_number in range(GAMES):
                deals = _game(engine, rng, rules, first_dealer, opening if game_number else ())
                for case_number in range(CASES):
                    start = rng.randint(0, len(deals))
                    stop = rng.randint(start, len(deals))
                    if game_number and opening and not case_number:
                        start, stop = 0, len(opening)
                    begun = _played(engine, rules, first_dealer, deals[:start])
                    played = _played(engine, rules, first_dealer, deals[:stop])
                    state = played.state()
                    sheet = table._sheet_rows(state, NAMES)[start:stop]
                    case = {
                        "start": offline.offline_state(begun.state()),
                        "hands": deals[start:stop],
                        "rows": [_row(row) for row in sheet],
                        "state": offline.offline_state(state),
                        "next": engine.record.next_as_json(state.next),
                    }
                    if stop < len(deals):
                        real = deals[stop]
                        walks = [real["calls"], _calls(rng, played.auction())]
                        steps, seen = [], set()
                        for walk in walks:
                            for end in range(len(walk) + 1):
                                key = tuple(walk[:end])
                                if key not in seen:
                                    seen.add(key)
                                    steps.append(_step(engine, played, list(key)))
                        case["steps"] = steps
                        case["views"] = [
                            {"calls": calls, "view": _view(engine, table, played, calls)}
                            for calls in (walks[0][:-1], walks[0], walks[1])
                        ]
                        case["refused"] = _refused(engine, rng, rules, played, real)
                    else:
                        case["views"] = [{"calls": [], "view": _view(engine, table, played, [])}]
                    cases.append(case)
            variants.append(
                {
                    "ruleset": ruleset,
                    "options": options,
                    "first_dealer": first_dealer,
                    "rules": offline.offline_rules(rules),
                    "words": offline.offline_words(rules, NAMES),
                    "cases": cases,
                }
            )
    return {"about": "made by tests/js/engine_answers.py; do not edit", "variants": variants}


def dumps(answers: dict) -> str:
    return json.dumps(answers, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    FIXTURE.write_text(dumps(build()), encoding="utf-8")
    print(f"wrote {FIXTURE}")
