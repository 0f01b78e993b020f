"""Rating batches of games in order, each game's players by their ranks.

A batch is the games that happened "at once" (one round of an event, or one casual game):
every game of a batch is rated from the ratings held before the batch, so the order of the
tables within a round changes nothing. Batches are rated in their key's order, and a player's
rating after a batch is the start of their next one. The model is `openskill`'s Plackett-Luce
at its library defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300), as the API promises.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from openskill.models import PlackettLuce

#: What the API calls the model.
MODEL_NAME = "openskill-plackett-luce"


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float
    #: The model's own rating object for these numbers, when this came from the model:
    #: reused as the next game's input (making one costs as much as a third of a rating).
    native: object = field(default=None, compare=False, repr=False)

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The conservative figure the leaderboard sorts by: mu - 3 sigma (openskill's own)."""
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game to rate: its players and their ranks (1 = first; equal ranks tie)."""

    game: int
    players: tuple[int, ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Batch:
    """Games rated together, from the same ratings; `key` orders the batches."""

    key: tuple
    games: tuple[RatedGame, ...]


@dataclass(frozen=True, slots=True)
class Rated:
    """One player's rating after one game, and the batch it belongs to."""

    key: tuple
    game: int
    player: int
    rank: int
    skill: Skill


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def initial() -> Skill:
    model = _model()
    return Skill(model.mu, model.sigma)


def rate_batch(
    batch: Batch, skills: Mapping[int, Skill], default: Skill | None = None
) -> list[Rated]:
    """Each game of the batch rated from `skills` (a player not in it starts at `default`,
    the model's own start unless given). `skills` is not changed."""
    model = _model()
    start = default or initial()
    out: list[Rated] = []
    for game in batch.games:
        teams = []
        for player in game.players:
            skill = skills.get(player, start)
            native = skill.native or model.create_rating([skill.mu, skill.sigma])
            teams.append([native])  # the model copies its inputs: sharing one is safe
        after = model.rate(teams, ranks=list(game.ranks))
        for player, rank, (new,) in zip(game.players, game.ranks, after, strict=True):
            out.append(Rated(batch.key, game.game, player, rank, Skill(new.mu, new.sigma, new)))
    return out


def rate_batches(
    batches: Iterable[Batch], skills: Mapping[int, Skill] | None = None
) -> tuple[list[Rated], dict[int, Skill]]:
    """Rate the batches in key order from `skills` (the ratings before the first; empty: all
    start at the model's default): every step, and each player's rating at the end."""
    current = dict(skills or {})
    steps: list[Rated] = []
    for batch in sorted(batches, key=lambda b: b.key):
        rated = rate_batch(batch, current)
        steps.extend(rated)
        for step in rated:
            current[step.player] = step.skill
    return steps, current
