"""Pairing for 3-5-8 events: who plays whom, where they sit, and who deals first.

Pure Python on plain values; nothing here knows Django exists. The tournaments services
gather a round's players and history into a `Request`, call `pair`, and store the
`Pairing` it returns as a draft for the organiser to review (its flags say what to look at).

Modes: `random` (seeded), `swiss` (similar standing, no meeting twice while avoidable) and
`no-repeat` (as many rounds as possible before anyone meets twice, following a whole-event
design when the field allows). Tables are of exactly three; N mod 3 players sit out. Every
mode keeps apart the organiser's keep-apart pairs, then teammates, before it avoids repeats
(`rules`); three equal teams get triangular tables (`teams`). A draft that follows no plan
gets `outlook`: at most how many rounds the field can still play with nobody meeting twice.
"""

from .draw import pair, review
from .outlook import Outlook, outlook
from .values import (
    DEFAULT_BUDGET,
    DEFAULT_SPREAD_LIMIT,
    MODES,
    Entrant,
    Flag,
    FlagCode,
    Mode,
    Pairing,
    PairingError,
    Request,
    RuleReason,
    Table,
    meetings,
)
from .why import WHY_CODE, Float, FloatReason, Why

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SPREAD_LIMIT",
    "MODES",
    "WHY_CODE",
    "Entrant",
    "Flag",
    "FlagCode",
    "Float",
    "FloatReason",
    "Mode",
    "Outlook",
    "Pairing",
    "PairingError",
    "Request",
    "RuleReason",
    "Table",
    "Why",
    "meetings",
    "outlook",
    "pair",
    "review",
]
