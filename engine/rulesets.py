"""The built-in rulesets and their options, as data.

A ruleset is everything that differs between the 3-5-8 family's forms (see
`../shared/spec/engine.md`); the engine's code reads these fields and has no branch
on a ruleset's id. Adding a form of the game means adding a `Ruleset` here.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace

from . import calls as C
from .calls import Call
from .errors import RuleError


class ExchangeTiming(enum.Enum):
    """When cards change hands before a hand is played."""

    NEVER = "never"
    BEFORE_CALL = "before the call"
    AFTER_CALL = "after the call"


class ExchangeOrder(enum.Enum):
    """With two givers, who gives first."""

    TARGET = "target"  # the higher target in the previous hand (000, 001, 002)
    POINTS = "points"  # the more points in the previous hand (pagat's Sergeant Major)


@dataclass(frozen=True)
class Options:
    """What a game record may override. `None` switches an end condition off."""

    targets: tuple[int, int, int]
    hands: int | None = None
    goal: int | None = None
    instant_win_tricks: int | None = None
    pass_turns: bool = False
    exchange_order: ExchangeOrder = ExchangeOrder.TARGET

    def as_json(self) -> dict:
        return {
            "targets": list(self.targets),
            "hands": self.hands,
            "goal": self.goal,
            "instant_win_tricks": self.instant_win_tricks,
            "pass_turns": self.pass_turns,
            "exchange_order": self.exchange_order.value,
        }


OPTION_NAMES = tuple(field.name for field in fields(Options))


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    sources: tuple[str, ...]
    caller_position: int  # 0: the dealer calls; 1: the seat after the dealer
    calls: tuple[Call, ...]  # contracts that may be called (passing is `passes_per_game`)
    passes_per_game: int  # passes each player may make in a game
    each_call_once: bool  # a player may make each call only once per game
    exchange: ExchangeTiming
    exchange_skipped_after: tuple[Call, ...]  # contracts after which nobody exchanges
    strict_trumping: bool  # void players must trump and over-trump (Blato's card play)
    direction: str  # how the seats sit around the table; seat numbers already follow it
    defaults: Options

    @property
    def call_names(self) -> list[str]:
        names = [call.name for call in self.calls]
        return names + ([C.PASS.name] if self.passes_per_game else [])

    def options(self, overrides: object = None) -> Options:
        """This ruleset's options with a record's overrides applied and checked."""
        if overrides is None:
            return self.defaults
        if not isinstance(overrides, dict):
            raise RuleError("options_not_object")
        changes = {}
        for name, value in overrides.items():
            if name not in OPTION_NAMES:
                raise RuleError("option_unknown", name=name, known=list(OPTION_NAMES))
            changes[name] = _OPTION_CHECKS[name](self, value)
        return replace(self.defaults, **changes)

    def as_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "sources": list(self.sources),
            "targets": list(self.defaults.targets),
            "caller": self.caller_position,
            "calls": self.call_names,
            "passes": self.passes_per_game,
            "each_call_once": self.each_call_once,
            "exchange": self.exchange.value,
            "exchange_skipped_after": [call.name for call in self.exchange_skipped_after],
            "strict_trumping": self.strict_trumping,
            "direction": self.direction,
            "tricks": sum(self.defaults.targets),
            **self.defaults.as_json(),
            "options": self.defaults.as_json(),
        }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive_or_null(name: str):
    def check(ruleset: Ruleset, value: object) -> int | None:
        if value is None or (_is_int(value) and value > 0):
            return value
        raise RuleError("option_not_positive", name=name, value=value)

    return check


def _check_targets(ruleset: Ruleset, value: object) -> tuple[int, int, int]:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or not all(_is_int(target) and target >= 0 for target in value)
        or sum(value) not in (16, 17)
    ):
        raise RuleError("option_targets", value=value)
    return tuple(value)


def _check_pass_turns(ruleset: Ruleset, value: object) -> bool:
    if not isinstance(value, bool):
        raise RuleError("option_pass_turns", value=value)
    if value and not ruleset.passes_per_game:
        raise RuleError("pass_turns_without_passes", ruleset=ruleset.id)
    return value


def _check_exchange_order(ruleset: Ruleset, value: object) -> ExchangeOrder:
    try:
        return ExchangeOrder(value)
    except ValueError:
        raise RuleError("option_exchange_order", value=value) from None


_OPTION_CHECKS = {
    "targets": _check_targets,
    "hands": _positive_or_null("hands"),
    "goal": _positive_or_null("goal"),
    "instant_win_tricks": _positive_or_null("instant_win_tricks"),
    "pass_turns": _check_pass_turns,
    "exchange_order": _check_exchange_order,
}

_NO_EXCHANGE_SKIP: tuple[Call, ...] = ()

BLATO = Ruleset(
    id="blato",
    name="Blato",
    sources=("000", "002"),
    caller_position=1,
    calls=(*C.SUITS, C.NO_TRUMP),
    passes_per_game=1,
    each_call_once=False,
    exchange=ExchangeTiming.AFTER_CALL,
    exchange_skipped_after=(C.NO_TRUMP,),
    strict_trumping=True,
    direction="counter-clockwise",
    defaults=Options(targets=(3, 8, 5), hands=9),
)
THREE_FIVE_EIGHT = Ruleset(
    id="three-five-eight",
    name="3-5-8",
    sources=("001",),
    caller_position=0,
    calls=C.SUITS,
    passes_per_game=0,
    each_call_once=False,
    exchange=ExchangeTiming.BEFORE_CALL,
    exchange_skipped_after=_NO_EXCHANGE_SKIP,
    strict_trumping=False,
    direction="clockwise",
    defaults=Options(targets=(8, 5, 3), goal=10),
)
SERGEANT_MAJOR = replace(
    THREE_FIVE_EIGHT,
    id="sergeant-major",
    name="Sergeant Major",
    sources=("003",),
    defaults=Options(targets=(8, 5, 3), instant_win_tricks=12),
)
SERGEANT_MAJOR_ALTERNATE = replace(
    THREE_FIVE_EIGHT,
    id="sergeant-major-alternate",
    name="Sergeant Major alternate",
    sources=("003",),
    calls=(*C.SUITS, C.NO_TRUMP, C.MIZ),
    each_call_once=True,
    exchange=ExchangeTiming.NEVER,
    defaults=Options(targets=(8, 5, 3)),
)
NINE_FIVE_TWO = replace(
    SERGEANT_MAJOR,
    id="nine-five-two",
    name="9-5-2",
    defaults=Options(targets=(9, 5, 2), instant_win_tricks=12),
)

RULESETS = {
    ruleset.id: ruleset
    for ruleset in (
        BLATO,
        THREE_FIVE_EIGHT,
        SERGEANT_MAJOR,
        SERGEANT_MAJOR_ALTERNATE,
        NINE_FIVE_TWO,
    )
}


def ruleset_named(name: object) -> Ruleset:
    if not isinstance(name, str) or name not in RULESETS:
        raise RuleError("ruleset_unknown", name=name, known=list(RULESETS))
    return RULESETS[name]


@dataclass(frozen=True)
class Rules:
    """A ruleset with its options settled: what one game is played by."""

    ruleset: Ruleset
    options: Options

    @classmethod
    def build(cls, ruleset: object, options: object = None) -> Rules:
        chosen = ruleset_named(ruleset)
        return cls(chosen, chosen.options(options))

    @property
    def tricks_per_hand(self) -> int:
        return sum(self.options.targets)

    def targets_by_seat(self, dealer: int) -> tuple[int, int, int]:
        """Each seat's target when `dealer` deals: position p sits at seat dealer + p."""
        by_position = self.options.targets
        return tuple(by_position[(seat - dealer) % 3] for seat in range(3))
