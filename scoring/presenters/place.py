"""Where am I: the words that place a game, for the heading of its table page and the list of
games kept on this phone. An event's table game is placed by whoever owns it (the tournaments
app answers scoring.signals.game_place); a game nobody owns is a casual one, named by number.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _

from engine.seats import next_seat
from scoring.models import Game
from scoring.signals import game_clock_marks, game_place
from scoring.words import ruleset_label


def place_of(game: Game) -> dict | None:
    """{"event", "round", "table"} for an event's table game, None for a casual game."""
    for _receiver, answer in game_place.send(sender=Game, game=game):
        if answer:
            return answer
    return None


def clock_marks(game_ids: list[int]) -> dict[int, str]:
    """The marks of the clocks these games are played against, by game; a game that plays
    against none is not in it (scoring.signals)."""
    marks: dict[int, str] = {}
    for _receiver, answer in game_clock_marks.send(sender=Game, game_ids=game_ids):
        marks.update(answer or {})
    return marks


def clock_mark(game_id: int) -> str | None:
    """The mark of the clock this game is played against, or None."""
    return clock_marks([game_id]).get(game_id)


def place_line(game: Game, place: dict | None) -> str:
    """event · round · table for an event's table game, else "game N"."""
    if place is None:
        return _("game %(number)s") % {"number": game.pk}
    return _("%(event)s · round %(round)s · table %(table)s") % place


@dataclass(frozen=True)
class KeptGame:
    """A casual game this phone keeps, as "My games on this phone" lists it."""

    number: int
    url: str
    ruleset: str
    players: str
    state: str
    finished: bool


def kept_game(game: Game) -> KeptGame:
    return KeptGame(
        number=game.pk,
        url=reverse("scoring:table", args=[game.pk]),
        ruleset=ruleset_label(game.ruleset),
        players=", ".join(game.players),
        state=str(Game.Result(game.result).label),
        finished=game.result != Game.Result.IN_PLAY,
    )


def again_dealer(game: Game) -> int:
    """Who deals first in the next game of the same players: the seat after this game's first
    dealer, in the direction of play, so that the first deal goes round as the games do."""
    return next_seat(game.first_dealer)
