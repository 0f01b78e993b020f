"""The standings of an event, built from plain values: pure Python, no Django, no database.

The tournaments app gathers an event's players, confirmed game results and byes, calls
`build_standings`, and stores the rows as a snapshot; the metrics and their exact meaning are
in `build`'s docstring, the knobs in `Config`.
"""

from .build import build_standings, lot
from .errors import StandingsConfigError, StandingsError, StandingsInputError
from .values import (
    BYE_POLICIES,
    DEFAULT_PRECEDENCE,
    METRICS,
    Bye,
    Config,
    GameResult,
    Row,
)

__all__ = [
    "BYE_POLICIES",
    "DEFAULT_PRECEDENCE",
    "METRICS",
    "Bye",
    "Config",
    "GameResult",
    "Row",
    "StandingsConfigError",
    "StandingsError",
    "StandingsInputError",
    "build_standings",
    "lot",
]
