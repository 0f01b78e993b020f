"""A game with a result its sheet does not decide: ended as it stood (after a walkout, or by
a tournament's round clock at time) or adjusted by its organisers; the sheet says why in one
sentence and shows the game's own result (presenters.table)."""

from __future__ import annotations

from django.utils.translation import gettext as _

import engine
from scoring.models import Game, GameChange

#: The history's marks of a result set by hand (scoring.services.base.SETTLED_BY_HAND).
SETTLED_BY_HAND_ACTIONS = (GameChange.Action.ENDED_EARLY, GameChange.Action.RESULT_ADJUSTED)


def settled_by_hand(game: Game, state: engine.GameState) -> str:
    """Why a game whose sheet is not played out has a result all the same, in one sentence:
    ended as it stood (by the round clock, at time) or adjusted by its organisers; "" for a
    game its rules decide (or one still in play)."""
    if state.finished or game.placings is None:
        return ""
    if game.result not in (Game.Result.FINISHED, Game.Result.CONFIRMED):
        return ""
    change = (
        game.changes.filter(action__in=SETTLED_BY_HAND_ACTIONS)
        .order_by("-pk")
        .only("action", "data")
        .first()
    )
    if change is None:
        return ""
    if change.action == GameChange.Action.RESULT_ADJUSTED:
        return _("The organisers adjusted the result.")
    if (change.data or {}).get("at_time"):
        return _("Time is up: the round clock ended the game as it stood.")
    return _("The game was ended as it stood.")
