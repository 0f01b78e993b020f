"""A club's season standings, counted from its nights' places: pure, no Django.

What it reads lives in tournaments.clubs.selectors.seasons, what it writes in
tournaments.clubs.services.seasons (docs/seasons.md).
"""

from .counting import (
    DEFAULT_PLACE_POINTS,
    SHARED,
    TIE_BREAKS,
    Counting,
    Night,
    NightScore,
    SeasonError,
    SeasonRow,
    season_standings,
)

__all__ = [
    "DEFAULT_PLACE_POINTS",
    "SHARED",
    "TIE_BREAKS",
    "Counting",
    "Night",
    "NightScore",
    "SeasonError",
    "SeasonRow",
    "season_standings",
]
