"""The calling phase of one deal: who may call what, passes, redeals.

Used both to validate a whole deal's calls and, call by call, to tell a score-keeper
whose turn it is and which calls are open.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import calls as C
from .calls import Call
from .errors import RuleError
from .rulesets import Rules
from .seats import next_seat, position_of


@dataclass(frozen=True)
class CallMade:
    seat: int
    call: Call


@dataclass(frozen=True)
class Entitlements:
    """What each seat may still call over the rest of the game."""

    passes_left: tuple[int, int, int]
    calls_made: tuple[frozenset[str], frozenset[str], frozenset[str]]

    @classmethod
    def fresh(cls, rules: Rules) -> Entitlements:
        passes = rules.ruleset.passes_per_game
        return cls((passes, passes, passes), (frozenset(), frozenset(), frozenset()))

    def allowed_calls(self, rules: Rules, seat: int) -> tuple[Call, ...]:
        allowed = [
            call
            for call in rules.ruleset.calls
            if not (rules.ruleset.each_call_once and call.name in self.calls_made[seat])
        ]
        if self.passes_left[seat] > 0:
            allowed.append(C.PASS)
        return tuple(allowed)

    def after(self, made: CallMade) -> Entitlements:
        passes = list(self.passes_left)
        calls = list(self.calls_made)
        if made.call.is_pass:
            passes[made.seat] -= 1
        else:
            calls[made.seat] = calls[made.seat] | {made.call.name}
        return Entitlements(tuple(passes), tuple(calls))

    def exhausted(self, rules: Rules) -> bool:
        """True when no seat has a contract left to call (each-call-once rulesets)."""
        return all(call.is_pass for seat in range(3) for call in self.allowed_calls(rules, seat))


@dataclass(frozen=True)
class Auction:
    """The calls of one deal so far."""

    rules: Rules
    dealer: int
    entitlements: Entitlements
    calls: tuple[CallMade, ...] = field(default=())

    @property
    def caller(self) -> int:
        return next_seat(self.dealer, self.rules.ruleset.caller_position)

    @property
    def contract(self) -> CallMade | None:
        last = self.calls[-1] if self.calls else None
        return last if last and not last.call.is_pass else None

    @property
    def redeal(self) -> bool:
        """Everyone entitled to call passed: the cards are dealt again, nothing scored."""
        if not self.calls or not self.calls[-1].call.is_pass:
            return False
        if not self.rules.options.pass_turns:
            return True  # the caller's pass redeals at once (000)
        return position_of(self.calls[-1].seat, self.dealer) == 0  # the dealer passed too (002)

    @property
    def finished(self) -> bool:
        return self.contract is not None or self.redeal

    @property
    def to_call(self) -> int | None:
        """The seat whose turn it is to call, or None once the calling is over."""
        if self.finished:
            return None
        return self.caller if not self.calls else next_seat(self.calls[-1].seat)

    def allowed_calls(self) -> tuple[Call, ...]:
        seat = self.to_call
        return () if seat is None else self.entitlements.allowed_calls(self.rules, seat)

    def call(self, name: object) -> Auction:
        """This auction with one more call; RuleError if the call is not allowed now."""
        call = C.call_named(name)
        if self.finished:
            after = "call_after_contract" if self.contract else "call_after_redeal"
            raise RuleError(after, call=call.name)
        seat = self.to_call
        if call not in self.entitlements.allowed_calls(self.rules, seat):
            raise self._why_not(seat, call)
        made = CallMade(seat, call)
        return Auction(self.rules, self.dealer, self.entitlements.after(made), (*self.calls, made))

    def _why_not(self, seat: int, call: Call) -> RuleError:
        ruleset = self.rules.ruleset
        if call.is_pass:
            if not ruleset.passes_per_game:
                return RuleError("no_pass_in_ruleset", ruleset=ruleset.id)
            return RuleError("no_pass_left", seat=seat)
        if call not in ruleset.calls:
            return RuleError("call_not_in_ruleset", call=call.name, ruleset=ruleset.id)
        return RuleError("call_made_already", seat=seat, call=call.name)

    @classmethod
    def run(cls, rules: Rules, dealer: int, entitlements: Entitlements, names: object) -> Auction:
        """A whole deal's calls, which must end with a contract or a redeal."""
        if not isinstance(names, list) or not names:
            raise RuleError("calls_not_a_list")
        auction = cls(rules, dealer, entitlements)
        for name in names:
            auction = auction.call(name)
        if not auction.finished:
            raise RuleError("calls_unfinished", seat=auction.to_call)
        return auction
