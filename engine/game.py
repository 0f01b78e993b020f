"""A game of 3-5-8 as a sequence of deals, and the state the rules give after them.

`Game` takes deals one at a time and refuses any the rules do not allow, leaving itself
unchanged; `GameState` is what the site, the API and the command line show: targets,
who calls, passes left, the exchange due, totals, the end and the placings.
"""

from __future__ import annotations

from dataclasses import dataclass

from .auction import Auction, CallMade, Entitlements
from .calls import Call
from .errors import RuleError
from .exchange import Transfer, transfers
from .placings import Outcome, place
from .rulesets import ExchangeTiming, Rules
from .seats import next_seat

Trio = tuple[int, int, int]


@dataclass(frozen=True)
class Deal:
    """One deal as played: a hand (contract, tricks, points) or a redeal."""

    number: int
    hand: int | None
    dealer: int
    targets: Trio
    caller: int
    calls: tuple[CallMade, ...]
    contract: Call | None
    declarer: int | None
    exchange: tuple[Transfer, ...]
    tricks: Trio | None
    points: Trio | None
    totals: Trio
    last_tricks: tuple[int, ...] = ()

    @property
    def redeal(self) -> bool:
        return self.contract is None


@dataclass(frozen=True)
class NextDeal:
    number: int
    hand: int
    dealer: int
    targets: Trio
    caller: int
    allowed_calls: tuple[Call, ...]
    exchange: tuple[Transfer, ...]


@dataclass(frozen=True)
class GameState:
    rules: Rules
    first_dealer: int
    deals: tuple[Deal, ...]
    totals: Trio
    passes_left: Trio
    end: str | None  # "instant_win", "goal", "hands" or "calls"; None while in play
    next: NextDeal | None
    outcome: Outcome | None

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def placings(self) -> tuple[int, ...] | None:
        return self.outcome.placings if self.outcome else None

    @property
    def needs_last_tricks(self) -> int | None:
        return self.outcome.needs_last_tricks if self.outcome else None

    @property
    def hands(self) -> tuple[Deal, ...]:
        return tuple(deal for deal in self.deals if not deal.redeal)


def points_of(contract: Call, targets: Trio, tricks: Trio) -> Trio:
    """tricks − target per seat; target − tricks when the contract inverts (miz)."""
    sign = -1 if contract.inverts_points else 1
    return tuple(sign * (taken - target) for taken, target in zip(tricks, targets, strict=True))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_tricks(tricks: object, per_hand: int) -> Trio:
    if not (isinstance(tricks, list | tuple) and len(tricks) == 3 and all(map(_is_int, tricks))):
        raise RuleError("tricks_not_three", value=tricks)
    if any(taken < 0 for taken in tricks):
        raise RuleError("tricks_negative", tricks=list(tricks))
    if sum(tricks) != per_hand:
        raise RuleError("tricks_sum", total=per_hand, sum=sum(tricks), tricks=list(tricks))
    return tuple(tricks)


def check_last_tricks(winners: object, tricks: Trio) -> tuple[int, ...]:
    if winners is None:
        return ()
    if not isinstance(winners, list | tuple) or not all(
        _is_int(seat) and 0 <= seat <= 2 for seat in winners
    ):
        raise RuleError("last_tricks_not_seats", value=winners)
    for seat in range(3):
        named = sum(1 for winner in winners if winner == seat)
        if named > tricks[seat]:
            raise RuleError("last_tricks_too_many", seat=seat, named=named, took=tricks[seat])
    return tuple(winners)


class Game:
    """A game in progress. `play` adds a deal or raises RuleError and changes nothing."""

    def __init__(self, rules: Rules, first_dealer: object = 0):
        if not _is_int(first_dealer) or first_dealer not in (0, 1, 2):
            raise RuleError("first_dealer", value=first_dealer)
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.deals: list[Deal] = []
        self.totals: Trio = (0, 0, 0)
        self.hands_played = 0
        self.entitlements = Entitlements.fresh(rules)
        self.end: str | None = None

    @property
    def last_hand(self) -> Deal | None:
        return next((deal for deal in reversed(self.deals) if not deal.redeal), None)

    @property
    def caller(self) -> int:
        return next_seat(self.dealer, self.rules.ruleset.caller_position)

    def auction(self) -> Auction:
        """The calling phase of the next deal, for entering calls one by one."""
        return Auction(self.rules, self.dealer, self.entitlements)

    def exchange_due(self, contract: Call | None = None) -> tuple[Transfer, ...]:
        """Transfers before the next hand (with `contract` None: due if a suit is called)."""
        ruleset = self.rules.ruleset
        last = self.last_hand
        if ruleset.exchange is ExchangeTiming.NEVER or last is None:
            return ()
        if contract in ruleset.exchange_skipped_after:
            return ()
        return transfers(last.points, last.targets, self.rules.options.exchange_order)

    def play(self, calls: object, tricks: object = None, last_tricks: object = None) -> Deal:
        if self.end:
            raise RuleError("game_finished")
        auction = Auction.run(self.rules, self.dealer, self.entitlements, calls)
        common = dict(
            number=len(self.deals) + 1,
            dealer=self.dealer,
            targets=self.rules.targets_by_seat(self.dealer),
            caller=auction.caller,
            calls=auction.calls,
        )
        if auction.redeal:
            if tricks is not None:
                raise RuleError("redeal_with_tricks")
            check_last_tricks(last_tricks, (0, 0, 0))
            deal = Deal(
                **common,
                hand=None,
                contract=None,
                declarer=None,
                exchange=(),
                tricks=None,
                points=None,
                totals=self.totals,
            )
        else:
            if tricks is None:
                raise RuleError("tricks_missing", call=auction.contract.call.name)
            taken = check_tricks(tricks, self.rules.tricks_per_hand)
            contract = auction.contract
            points = points_of(contract.call, common["targets"], taken)
            totals = tuple(
                total + gained for total, gained in zip(self.totals, points, strict=True)
            )
            deal = Deal(
                **common,
                hand=self.hands_played + 1,
                contract=contract.call,
                declarer=contract.seat,
                exchange=self.exchange_due(contract.call),
                tricks=taken,
                points=points,
                totals=totals,
                last_tricks=check_last_tricks(last_tricks, taken),
            )
        self._commit(deal, auction.entitlements)
        return deal

    def _commit(self, deal: Deal, entitlements: Entitlements) -> None:
        self.deals.append(deal)
        self.entitlements = entitlements
        if deal.redeal:
            return  # the same dealer deals again
        self.totals = deal.totals
        self.hands_played += 1
        self.dealer = next_seat(self.dealer)
        self.end = self._end_after(deal)

    def _end_after(self, deal: Deal) -> str | None:
        options = self.rules.options
        if (
            options.instant_win_tricks is not None
            and max(deal.tricks) >= options.instant_win_tricks
        ):
            return "instant_win"
        if options.goal is not None and max(deal.totals) >= options.goal:
            return "goal"
        if options.hands is not None and deal.hand >= options.hands:
            return "hands"
        if self.rules.ruleset.each_call_once and self.entitlements.exhausted(self.rules):
            return "calls"
        return None

    def state(self) -> GameState:
        last = self.last_hand
        outcome = next_deal = None
        if self.end:
            outcome = place(
                self.totals,
                last.points,
                last.tricks,
                last.last_tricks,
                self.rules.tricks_per_hand,
                self.rules.options.instant_win_tricks,
            )
        else:
            next_deal = NextDeal(
                number=len(self.deals) + 1,
                hand=self.hands_played + 1,
                dealer=self.dealer,
                targets=self.rules.targets_by_seat(self.dealer),
                caller=self.caller,
                allowed_calls=self.entitlements.allowed_calls(self.rules, self.caller),
                exchange=self.exchange_due(),
            )
        return GameState(
            rules=self.rules,
            first_dealer=self.first_dealer,
            deals=tuple(self.deals),
            totals=self.totals,
            passes_left=self.entitlements.passes_left,
            end=self.end,
            next=next_deal,
            outcome=outcome,
        )
