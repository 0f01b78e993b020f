"""Placings at the end of a game, with the tie-breaks of 000, 001 and 002.

Among seats with equal totals: (1) more points in the last hand ranks higher; (2)/(3)
the seat that won a trick most recently in the last hand ranks higher (the last
trick's winner first when all three are level). A seat that took `instant_win_tricks`
in the last hand is first whatever the totals.

Trick winners are asked for lazily: only when a tie needs them, and only as far back
as needed. A seat that has already won every trick it took (or took none) cannot win
an earlier one, so such ties settle without asking.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    """Why `above` is placed ahead of `below` (or, for an instant win, first of all).

    rule: "instant_win" (value: tricks taken), "last_hand_points" (value: points of
    `above`, other_value: of `below`), "trick" (value: the trick `above` won most
    recently; other_value: the trick `below` won most recently, or None if none), or
    "level" (nothing separates them; listed by seat).
    """

    above: int
    below: int | None
    rule: str
    value: int | None = None
    other_value: int | None = None

    def text(self, names: tuple[str, str, str] = ("Seat 0", "Seat 1", "Seat 2")) -> str:
        """An English sentence for the score sheet; the site builds its own translations."""
        a = names[self.above]
        b = names[self.below] if self.below is not None else ""
        if self.rule == "instant_win":
            return f"{a} first: took {self.value} tricks in the last hand"
        if self.rule == "last_hand_points":
            return f"{a} ahead of {b}: {self.value} points to {self.other_value} in the last hand"
        if self.rule == "trick" and self.value is not None:
            return f"{a} ahead of {b}: won trick {self.value} of the last hand"
        if self.rule == "trick" and self.other_value is None:
            return f"{a} ahead of {b}: {b} took no trick in the last hand"
        if self.rule == "trick":
            return f"{a} ahead of {b}: {b} won no trick after trick {self.other_value}"
        return f"{a} and {b} are level on every tie-break; listed by seat"


@dataclass(frozen=True)
class Outcome:
    """Placings (None while a tie waits for trick winners), what is needed, and why."""

    placings: tuple[int, ...] | None
    needs_last_tricks: int | None
    reasons: tuple[Reason, ...]


class _NeedsTricks(Exception):
    def __init__(self, count: int):
        self.count = count


def place(
    totals: tuple[int, int, int],
    last_points: tuple[int, int, int],
    last_tricks: tuple[int, int, int],
    winners: tuple[int, ...],
    tricks_per_hand: int,
    instant_win_tricks: int | None,
) -> Outcome:
    """Seats from first to last; `winners` are the last hand's trick winners, latest first."""
    order: list[int] = []
    reasons: list[Reason] = []
    seats = [0, 1, 2]
    if instant_win_tricks is not None:
        for seat in seats:
            if last_tricks[seat] >= instant_win_tricks:
                order.append(seat)
                reasons.append(Reason(seat, None, "instant_win", last_tricks[seat]))
                seats.remove(seat)
                break
    recency = _Recency(last_tricks, winners, tricks_per_hand)
    try:
        for total in sorted({totals[seat] for seat in seats}, reverse=True):
            level = [seat for seat in seats if totals[seat] == total]
            upper: list[int] = []
            for points in sorted({last_points[seat] for seat in level}, reverse=True):
                group = [seat for seat in level if last_points[seat] == points]
                if upper:
                    above, below = upper[-1], group[0]
                    reasons.append(
                        Reason(above, below, "last_hand_points", last_points[above], points)
                    )
                upper = recency.order(group, reasons)
                order.extend(upper)
    except _NeedsTricks as needs:
        return Outcome(None, needs.count, ())
    return Outcome(tuple(order), None, tuple(reasons))


class _Recency:
    """Orders level seats by who won a trick most recently in the last hand."""

    def __init__(self, tricks: tuple[int, int, int], winners: tuple[int, ...], per_hand: int):
        self.tricks = tricks
        self.winners = winners
        self.per_hand = per_hand

    def _trick_number(self, index: int) -> int:
        return self.per_hand - index

    def _latest_win(self, seat: int) -> int | None:
        for index, winner in enumerate(self.winners):
            if winner == seat:
                return self._trick_number(index)
        return None

    def order(self, group: list[int], reasons: list[Reason]) -> list[int]:
        """The group from first to last, adding a reason for each neighbouring pair."""
        ordered: list[int] = []
        remaining = sorted(group)
        wins_seen = [0, 0, 0]
        won_at: dict[int, int | None] = {}  # placed seat -> trick it won (None: inferred)
        index = 0
        while len(remaining) > 1:
            can_still_win = [s for s in remaining if self.tricks[s] > wins_seen[s]]
            if len(can_still_win) == 1:
                seat = can_still_win[0]
                won_at[seat] = None
            elif not can_still_win:
                break  # nothing can separate the rest
            elif index >= len(self.winners):
                raise _NeedsTricks(index + 1)
            else:
                seat = self.winners[index]
                wins_seen[seat] += 1
                index += 1
                if seat not in remaining:
                    continue
                won_at[seat] = self._trick_number(index - 1)
            remaining.remove(seat)
            ordered.append(seat)
        result = ordered + remaining
        for above, below in zip(result, result[1:], strict=False):
            if above in won_at:
                reasons.append(
                    Reason(above, below, "trick", won_at[above], self._latest_win(below))
                )
            else:
                reasons.append(Reason(above, below, "level"))
        return result
