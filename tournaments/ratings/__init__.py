"""A club's ratings: OpenSkill's Plackett-Luce model rating batches of three-player games.
Pure, no Django.

What it reads lives in tournaments.clubs.selectors.ratings, what it writes in
tournaments.clubs.services.ratings (docs/ratings.md).
"""

from .rating import (
    MODEL_NAME,
    Batch,
    Rated,
    RatedGame,
    Skill,
    initial,
    ordinal,
    rate_batch,
    rate_batches,
)

__all__ = [
    "MODEL_NAME",
    "Batch",
    "Rated",
    "RatedGame",
    "Skill",
    "initial",
    "ordinal",
    "rate_batch",
    "rate_batches",
]
