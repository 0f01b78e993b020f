"""Reading a table's game from a backup: a restored game shows what its table saw.

The stored result must be the engine's replay of the live deals, as it is on the site, or
the backup is refused. A table the organisers settled after a walkout (void, adjusted, ended
early) keeps their result instead: its deals must still replay, and its result must be one
such a table has.
"""

from __future__ import annotations

import engine
from scoring.models import DealEntry, Game, GameChange
from tournaments.backup.fields import bad, items, nobody, row_in
from tournaments.models import Table


def read_game(value: object, where: str, plan, secrets: set[str], outcome: str) -> Game:
    """The game, its deals and changes added to `plan`; `secrets` are the file's so far."""
    game, obj = row_in(Game, value, where, nobody, more=("deals", "changes"))
    names = game.players
    if not isinstance(names, list) or len(names) != 3:
        raise bad("game_players", f"{where}.players")
    if not all(isinstance(name, str) and name for name in names):
        raise bad("game_players", f"{where}.players")
    if not game.secret or game.secret in secrets:
        raise bad("secret_twice", f"{where}.secret")
    secrets.add(game.secret)
    plan.add(game)
    live = []
    for item, here in items(obj, "deals", where):
        deal, _ = row_in(DealEntry, item, here, nobody)
        plan.add(deal, game=game)
        if deal.undone_at is None:
            live.append(deal)
    for item, here in items(obj, "changes", where):
        change, _ = row_in(GameChange, item, here, nobody)
        plan.add(change, game=game)
    check_game(game, sorted(live, key=lambda deal: deal.number), where, outcome)
    return game


def check_game(game: Game, live: list[DealEntry], where: str, outcome: str) -> None:
    numbers = [deal.number for deal in live]
    if numbers != list(range(1, len(live) + 1)):
        raise bad("live_deals", f"{where}.deals", numbers=str(numbers))
    record = {
        "ruleset": game.ruleset,
        "options": game.options,
        "first_dealer": game.first_dealer,
        "deals": [deal.as_record() for deal in live],
    }
    try:
        state = engine.replay(record)
    except engine.RuleError as error:
        raise bad("deals_refused", where, why=error.message) from None
    if outcome != Table.Outcome.PLAYED:
        _check_settled(game, outcome, where)
        return
    placings = list(state.placings) if state.placings is not None else None
    if game.totals != list(state.totals) or game.placings != placings:
        raise bad("totals_not_deals", where)
    if game.result == Game.Result.CONFIRMED:
        fits = state.finished and placings is not None
    else:
        fits = game.result == (Game.Result.FINISHED if state.finished else Game.Result.IN_PLAY)
    if not fits:
        raise bad("result_not_deals", where, result=game.result)
    _check_confirmed_at(game, where)


def _check_settled(game: Game, outcome: str, where: str) -> None:
    if (outcome == "void") != (game.result == Game.Result.VOID):
        raise bad("result_not_outcome", where, result=game.result, outcome=outcome)
    totals = game.totals
    three = isinstance(totals, list) and len(totals) == 3
    if not three or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise bad("totals_not_three", where)
    if outcome != "void" and game.result != Game.Result.IN_PLAY:
        if not isinstance(game.placings, list) or sorted(game.placings) != [0, 1, 2]:
            raise bad("placings_not_seats", where)
    _check_confirmed_at(game, where)


def _check_confirmed_at(game: Game, where: str) -> None:
    if (game.result == Game.Result.CONFIRMED) != (game.confirmed_at is not None):
        raise bad("confirmed_at", where, result=game.result)
