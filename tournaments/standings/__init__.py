"""The standings of an event, built from plain values: pure Python, no Django, no database.

The tournaments app gathers an event's players, confirmed game results and byes, calls
`build_standings` (and for its teams `build_team_standings`, teams.py), and stores the rows
as a snapshot; the metrics and their exact meaning are
in `build`'s docstring, the knobs in `Config`.
"""

from .build import build_standings, lot
from .errors import StandingsConfigError, StandingsError, StandingsInputError
from .teams import (
    DEFAULT_TEAM_PRECEDENCE,
    TEAM_METRICS,
    TEAM_SCORINGS,
    TEAM_TIE_BREAKS,
    TeamConfig,
    TeamRow,
    build_team_standings,
)
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
    "DEFAULT_TEAM_PRECEDENCE",
    "METRICS",
    "Bye",
    "Config",
    "GameResult",
    "Row",
    "TEAM_METRICS",
    "TEAM_SCORINGS",
    "TEAM_TIE_BREAKS",
    "TeamConfig",
    "TeamRow",
    "StandingsConfigError",
    "StandingsError",
    "StandingsInputError",
    "build_standings",
    "build_team_standings",
    "lot",
]
