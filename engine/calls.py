"""The calls a player can make, as data.

A call either names trumps (a suit), names no trumps (`no-trump`, `miz`), or passes.
`miz` turns the scoring round: a seat's points are target − tricks.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Suit
from .errors import RuleError


@dataclass(frozen=True)
class Call:
    name: str
    trump: Suit | None = None
    is_pass: bool = False
    inverts_points: bool = False

    def __str__(self) -> str:
        return self.name


SPADES = Call("spades", Suit.SPADES)
HEARTS = Call("hearts", Suit.HEARTS)
DIAMONDS = Call("diamonds", Suit.DIAMONDS)
CLUBS = Call("clubs", Suit.CLUBS)
NO_TRUMP = Call("no-trump")
MIZ = Call("miz", inverts_points=True)
PASS = Call("pass", is_pass=True)

SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
#: Canonical order: every list of calls the engine prints follows it.
ALL_CALLS = (*SUITS, NO_TRUMP, MIZ, PASS)
_BY_NAME = {call.name: call for call in ALL_CALLS}


def call_named(name: object) -> Call:
    if not isinstance(name, str) or name not in _BY_NAME:
        raise RuleError("call_unknown", name=name, known=list(_BY_NAME))
    return _BY_NAME[name]
