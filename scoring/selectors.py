"""Reads: a game's record and state, always the engine's replay of the live deals."""

import engine

from .models import DealEntry, Game


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


def game_state(game: Game, entries: list[DealEntry] | None = None) -> engine.GameState:
    return engine.replay(game_record(game, entries))


def game_state_json(game: Game, entries: list[DealEntry] | None = None) -> dict:
    """Exactly what `python -m engine replay` prints for this game."""
    return engine.state_as_json(game_state(game, entries))


def game_history(game: Game):
    return game.changes.all()
