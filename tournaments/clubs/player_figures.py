"""A player's figures over their games: targets made by target, calls, passes, points.

Pure (no Django): it reads the engine's replay of each game (`engine.GameState`: per deal the
targets of every seat, the calls with who made them, the contract, its declarer and the
points) and the seat(s) the player held. Nothing here knows the rules: which seat had which
target in a deal is what the engine says, never worked out again.

A player who left a table for a substitute, or came in as one, counts only the deals they
actually sat through (`Stint`, from `Table.substitutions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import engine

NO_TRUMP = "no-trump"


@dataclass(frozen=True)
class Stint:
    """A seat the player held from deal `first` to deal `last` (inclusive; None: the end)."""

    seat: int
    first: int = 1
    last: int | None = None

    def holds(self, deal: int) -> bool:
        return self.first <= deal and (self.last is None or deal <= self.last)


def stints(player_id: int, seat_ids: Sequence[int], substitutions: Sequence[dict]) -> list[Stint]:
    """The player's stints at a table whose seats now hold `seat_ids` and whose seats changed
    hands as `substitutions` says ({seat, left, joined, from_deal}, oldest first): the
    substitute sits from `from_deal` on, the player who left sat the deals before it."""
    found = []
    for seat in range(3):
        moves = [move for move in substitutions if move["seat"] == seat]
        holders = [move["left"] for move in moves] + [seat_ids[seat]]
        starts = [1] + [move["from_deal"] for move in moves]
        for index, holder in enumerate(holders):
            if holder != player_id:
                continue
            last = starts[index + 1] - 1 if index + 1 < len(starts) else None
            if last is None or last >= starts[index]:
                found.append(Stint(seat, starts[index], last))
    return found


@dataclass(frozen=True)
class Played:
    """One game as the engine replays it, and where the player sat in it."""

    state: engine.GameState
    stints: tuple[Stint, ...]

    def seat_at(self, deal: int) -> int | None:
        return next((stint.seat for stint in self.stints if stint.holds(deal)), None)


@dataclass(frozen=True)
class TargetFigure:
    target: int
    hands: int
    made: int


@dataclass(frozen=True)
class Figures:
    """What a player did over some games. `made` means the seat's points in the hand were not
    negative (the engine's points: tricks − target, the other way round under miz)."""

    games: int = 0
    hands: int = 0
    targets: tuple[TargetFigure, ...] = ()
    calls: int = 0
    calls_made: int = 0
    no_trumps: int = 0
    no_trumps_made: int = 0
    passes: int = 0
    points: int = 0

    @property
    def average_points(self) -> float | None:
        """Points per game the player sat in (only the deals they played count)."""
        return self.points / self.games if self.games else None


@dataclass
class _Tally:
    games: int = 0
    hands: int = 0
    by_target: dict[int, list[int]] = field(default_factory=dict)
    calls: int = 0
    calls_made: int = 0
    no_trumps: int = 0
    no_trumps_made: int = 0
    passes: int = 0
    points: int = 0

    def deal(self, deal: engine.Deal, seat: int) -> None:
        self.passes += sum(1 for made in deal.calls if made.seat == seat and made.call.is_pass)
        if deal.redeal:
            return
        self.hands += 1
        made = deal.points[seat] >= 0
        counts = self.by_target.setdefault(deal.targets[seat], [0, 0])
        counts[0] += 1
        counts[1] += made
        self.points += deal.points[seat]
        if deal.declarer == seat:
            self.calls += 1
            self.calls_made += made
            if deal.contract.name == NO_TRUMP:
                self.no_trumps += 1
                self.no_trumps_made += made

    def figures(self) -> Figures:
        targets = tuple(
            TargetFigure(target, hands, made)
            for target, (hands, made) in sorted(self.by_target.items(), reverse=True)
        )
        return Figures(
            games=self.games,
            hands=self.hands,
            targets=targets,
            calls=self.calls,
            calls_made=self.calls_made,
            no_trumps=self.no_trumps,
            no_trumps_made=self.no_trumps_made,
            passes=self.passes,
            points=self.points,
        )


def figures(games: Iterable[Played]) -> Figures:
    """The player's figures over these games, deal by deal from the engine's replays."""
    tally = _Tally()
    for game in games:
        sat = False
        for deal in game.state.deals:
            seat = game.seat_at(deal.number)
            if seat is None:
                continue
            sat = True
            tally.deal(deal, seat)
        tally.games += sat
    return tally.figures()
