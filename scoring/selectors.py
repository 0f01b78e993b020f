"""Reads: a game's record and state, always the engine's replay of the live deals."""

import engine

from .models import DealEntry, Game, GameChange


def live_entries(game: Game) -> list[DealEntry]:
    return list(game.entries.filter(undone_at__isnull=True).order_by("number"))


def game_record(game: Game, entries: list[DealEntry] | None = None) -> dict:
    """The game as an engine game record (`../shared/spec/engine.md`)."""
    entries = live_entries(game) if entries is None else entries
    return {
        "ruleset": game.ruleset,
        "options": game.options,
        "first_dealer": game.first_dealer,
        "deals": [entry.as_record() for entry in entries],
    }


def engine_game(game: Game, entries: list[DealEntry] | None = None) -> engine.Game:
    """The game as the engine plays it on from its live deals (or these)."""
    return engine.game_from_record(game_record(game, entries))


def rules_of(game: Game) -> engine.Rules:
    """The game's rules: its ruleset with its options (tricks per hand, targets, ...)."""
    return engine.Rules.build(game.ruleset, game.options)


def deals_at_most(ruleset: str, options: dict) -> int | None:
    """How many deals a game under these rules can have at most, by the engine's rules: the
    last hand (by the hands option, or when each call may be made once) plus a redeal for
    every pass the players may make; None for a game that ends on points only (a paper
    sheet for it needs a count of its own)."""
    rules = engine.Rules.build(ruleset, options)
    bounds = []
    if rules.options.hands is not None:
        bounds.append(rules.options.hands)
    if rules.ruleset.each_call_once:
        bounds.append(3 * len(rules.ruleset.calls))
    if not bounds:
        return None
    return min(bounds) + 3 * rules.ruleset.passes_per_game


def game_state(game: Game, entries: list[DealEntry] | None = None) -> engine.GameState:
    return engine.replay(game_record(game, entries))


def game_state_json(game: Game, entries: list[DealEntry] | None = None) -> dict:
    """Exactly what `python -m engine replay` prints for this game."""
    return engine.state_as_json(game_state(game, entries))


def game_history(game: Game) -> list[GameChange]:
    """The whole history of a game, oldest first."""
    return list(game.changes.all())


def all_entries(game: Game) -> list[DealEntry]:
    """Every deal ever entered, undone ones included, in the order they were entered."""
    return list(game.entries.order_by("entered_at", "pk"))


def game_mark(game_id: int) -> tuple[int, float] | None:
    """What the watchers' poll compares, in one small query: the game's version, and when it
    was last saved (which tells games apart should a restored database repeat an id and a
    version); None for no such game."""
    found = Game.objects.filter(pk=game_id).values_list("version", "updated_at").first()
    return None if found is None else (found[0], found[1].timestamp())


def disputed_games(game_ids: list[int]) -> set[int]:
    """Which of these games a player disputes now (a "this is wrong" on the game's current
    version, not since replaced by their agreement): one query."""
    from django.db.models import F

    from .models import Verdict

    rows = Verdict.objects.filter(game_id__in=game_ids, version=F("game__version"))
    latest: dict[tuple[int, int | None], bool] = {}
    for game_id, seat, agrees in rows.order_by("at", "pk").values_list(
        "game_id", "seat", "agrees"
    ):
        latest[(game_id, seat)] = agrees
    return {game for (game, seat), agrees in latest.items() if seat is not None and not agrees}
