"""Random but valid deals, recorded through the same service the table page uses.

For the event simulator, the demo event and benchmarks: calls are drawn from what the
engine allows at each turn and tricks around the callers' targets, so every game reaches
every part of the rules (passes, redeals, tie-breaks) without a hand-written script.
"""

from __future__ import annotations

import random

import engine
from scoring import services
from scoring.models import Game
from scoring.selectors import game_record, game_state


def random_tricks(rng: random.Random, targets, per_hand: int) -> list[int]:
    """Tricks drawn around the targets: each trick goes to a seat in proportion to its target."""
    weights = [max(target, 1) for target in targets]
    tricks = [0, 0, 0]
    for seat in rng.choices(range(3), weights=weights, k=per_hand):
        tricks[seat] += 1
    return tricks


def next_deal(rules_game: engine.Game, rng: random.Random) -> dict:
    """One deal as the API takes it: calls the engine allows, tricks if a contract stands."""
    calling = rules_game.auction()
    while not calling.finished:
        allowed = calling.allowed_calls()
        contracts = [call for call in allowed if not call.is_pass]
        use_pass = len(contracts) < len(allowed) and rng.random() < 0.15
        pick = next(c for c in allowed if c.is_pass) if use_pass else rng.choice(contracts)
        calling = calling.call(pick.name)
    deal = {"calls": [made.call.name for made in calling.calls], "tricks": None}
    if calling.contract:
        targets = rules_game.rules.targets_by_seat(calling.dealer)
        deal["tricks"] = random_tricks(rng, targets, rules_game.rules.tricks_per_hand)
    return deal


def play(game: Game, rng: random.Random, *, deals: int | None = None, actor: str = "") -> None:
    """Record up to `deals` more deals (all of them when None), and when the game ends, the
    last trick winners any tie-break asks for."""
    played = 0
    while deals is None or played < deals:
        rules_game = engine.game_from_record(game_record(game))
        if rules_game.end:
            break
        deal = next_deal(rules_game, rng)
        services.deal_record(game_id=game.pk, number=len(rules_game.deals) + 1, actor=actor, **deal)
        played += 1
    state = game_state(game)
    if state.needs_last_tricks:
        last = state.hands[-1]
        winners = [seat for seat in range(3) for _ in range(last.tricks[seat])]
        rng.shuffle(winners)  # one order of the last tricks, given as far back as asked
        while state.needs_last_tricks:
            services.last_tricks_add(
                game_id=game.pk,
                number=len(state.deals),
                actor=actor,
                last_tricks=winners[: state.needs_last_tricks],
            )
            state = game_state(game)
