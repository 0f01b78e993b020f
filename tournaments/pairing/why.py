"""Why each table of a swiss draw is what it is, as plain data the site puts in words.

A swiss table is explained against the plain cut: the standings (the draw's own order, the
lot breaking ties) cut into consecutive threes, which is the draw there would be without
history. Its players' score groups (`Entrant.points`, the standings' first measure), whether
it mixes groups, and who floated: a player above the table's middle group floated down,
below it up. Why they floated: their table in the plain cut already mixed groups, because the
groups above do not split into threes (or would, with the players having a bye put back);
or it did
not, and the draw moved them to keep players apart who have met (`REPEAT`) or whom a rule
keeps apart (`RULE`: a keep-apart pair, teammates). The pairs a table
keeps apart (met before, together in the plain cut) are listed with the table.

`explain` is called by `draw.pair` and `draw.review` (an organiser's swap), so a table's
explanation always matches its players.
"""

from __future__ import annotations

import enum
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .search import Context, consecutive

#: The `code` a table's explanation is stored under among its flags (`Why.as_dict`).
WHY_CODE = "why"


class FloatReason(enum.StrEnum):
    """Why a player sits with players of another score group."""

    #: The score groups down to theirs do not split into tables of three.
    UNEVEN = "uneven"
    #: They would, but for the players of the group having a bye this round.
    BYE = "bye"
    #: Their group's table in the plain cut had players who have met: moved to avoid it.
    REPEAT = "repeat"
    #: Seated so by the organiser's swap, with no repeat kept apart anywhere.
    MOVED = "moved"
    #: Their table in the plain cut held a keep-apart or teammate pair (`Request.apart`,
    #: `Request.teams`), which the draw split.
    RULE = "rule"


@dataclass(frozen=True)
class Float:
    """A player seated with another score group: `up` (to players with more points) or down."""

    player: int
    up: bool
    reason: FloatReason


@dataclass(frozen=True)
class Why:
    """One swiss table explained: `players` best first, `points` theirs in that order."""

    players: tuple[int, int, int]
    points: tuple[int, int, int]
    floats: tuple[Float, ...] = ()
    #: Pairs who have met before and would have sat together in the plain cut, one of them
    #: here: the draw kept them apart. Smaller id first.
    avoided: tuple[tuple[int, int], ...] = ()

    @property
    def mixed(self) -> bool:
        """Whether the table mixes score groups."""
        return len(set(self.points)) > 1

    def as_dict(self) -> dict:
        """As stored with the table's flags. Every player id is in `players` (the table's
        three best first, then any partner kept apart from another table), so a backup's
        renumbering reaches them; floats and pairs refer to them by index."""
        ids = list(self.players)
        for pair in self.avoided:
            ids.extend(p for p in pair if p not in ids)
        return {
            "code": WHY_CODE,
            "players": ids,
            "points": list(self.points),
            "floats": [
                [ids.index(f.player), "up" if f.up else "down", f.reason.value] for f in self.floats
            ],
            "avoided": [[ids.index(a), ids.index(b)] for a, b in self.avoided],
        }


def explain(
    ctx: Context,
    tables: Iterable[Sequence[int]],
    order: Sequence[int],
    points: Mapping[int, int],
    byes: Iterable[int] = (),
    by_hand: bool = False,
    ruled: Callable[[int, int], bool] | None = None,
) -> tuple[Why, ...]:
    """The explanation of each of `tables`, given the standing `order` of the players seated
    (best first), everyone's `points` (byes included) and who has a bye. The draw leaves
    the plain cut only to keep apart players who have met; tables `by_hand` (an organiser's
    swap) may for no such reason, and a float then is `MOVED`. `ruled(p, q)`: whether p and q
    must not share a table (keep-apart, teammates); a float from a plain-cut table holding
    such a pair, now split, is `RULE`."""
    tables = [tuple(t) for t in tables]
    place = {p: i for i, p in enumerate(order)}
    plain = {p: cut for cut in consecutive(order) for p in cut}
    seated = sorted(points[p] for p in order)
    resting = sorted(points[p] for p in byes)

    def above(values: list[int], v: int) -> int:
        return len(values) - bisect_right(values, v)

    def but_for_byes(cut: Sequence[int]) -> bool:
        """Whether each group boundary inside this plain table would fall between tables
        with the players having a bye put back."""
        inside = sorted({points[q] for q in cut})[:-1]
        return bool(resting) and all(
            (above(seated, v) + above(resting, v)) % 3 == 0 for v in inside
        )

    at = {p: t for t in tables for p in t}
    kept_apart = any(
        ctx.opp[p].get(q, 0) and at[p] is not at[q]
        for cut in consecutive(order)
        for p in cut
        for q in cut
        if p < q
    )

    def split_rule(cut: Sequence[int]) -> bool:
        return ruled is not None and any(
            ruled(p, q) and at[p] is not at[q] for p in cut for q in cut if p < q
        )

    # A float from a plain table that needed no change: moved for the repeats kept apart
    # elsewhere, else for a rule split elsewhere, else (by hand) by the swap.
    if kept_apart:
        moved = FloatReason.REPEAT
    elif any(split_rule(cut) for cut in consecutive(order)):
        moved = FloatReason.RULE
    else:
        moved = FloatReason.MOVED if by_hand else FloatReason.REPEAT

    out = []
    for table in tables:
        players = tuple(sorted(table, key=lambda p: place[p]))
        pts = tuple(points[p] for p in players)
        middle = pts[1]
        floats = []
        for player, own in zip(players, pts, strict=True):
            if own == middle:
                continue
            if len({points[q] for q in plain[player]}) == 1:
                reason = FloatReason.RULE if split_rule(plain[player]) else moved
            elif but_for_byes(plain[player]):
                reason = FloatReason.BYE
            else:
                reason = FloatReason.UNEVEN
            floats.append(Float(player, own < middle, reason))
        avoided = sorted(
            {
                (min(p, q), max(p, q))
                for p in players
                for q in plain[p]
                if q not in players and ctx.opp[p].get(q, 0)
            }
        )
        out.append(Why(players, pts, tuple(floats), tuple(avoided)))  # type: ignore[arg-type]
    return tuple(out)
