"""A rating over time as the geometry of a small SVG chart: pure Python, no Django.

The page's template draws it (`templates/tournaments/club/_rating_chart.html`), so the chart
costs the phone no script and no plotting library: a line for the ordinal (μ − 3σ) and a pale
band for μ ± σ, over the games in the order they were rated. Coordinates are in the SVG's
own units (`width` × `height`); the SVG scales to the page's width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Room for the axis labels: left (the values), bottom (the game numbers), top and right.
LEFT, BOTTOM, TOP, RIGHT = 34, 26, 10, 12
MAX_TICKS = 6


@dataclass(frozen=True)
class RatingPoint:
    """The rating after one game."""

    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class Tick:
    at: float  # x or y in the SVG's units
    value: int


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    line: str  # the ordinal: "x,y x,y ..." for a polyline
    band: str  # μ ± σ: "x,y ..." for a polygon
    last_x: float
    last_y: float
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    first: float
    last: float
    low: float
    high: float
    games: int


def nice_step(span: float, ticks: int = MAX_TICKS) -> int:
    """A round step (1, 2, 5, 10, 20, 50, ...) giving at most `ticks` ticks over `span`."""
    step = 1
    while span / step > ticks - 1:
        magnitude = 10 ** int(math.log10(step))
        step = next(m * magnitude for m in (2, 5, 10) if m * magnitude > step)
    return step


def _fmt(x: float, y: float) -> str:
    return f"{x:.1f},{y:.1f}"


def rating_chart(points: Sequence[RatingPoint], width: int = 360, height: int = 220):
    """The chart of these ratings, oldest first; None when there is nothing to draw."""
    if not points:
        return None
    values = [p.ordinal for p in points] + [p.mu - p.sigma for p in points]
    values += [p.mu + p.sigma for p in points]
    step = nice_step(max(values) - min(values) or 1)
    floor = math.floor(min(values) / step) * step
    ceiling = math.ceil(max(values) / step) * step
    if ceiling == floor:
        ceiling += step
    left, right, top, bottom = LEFT, width - RIGHT, TOP, height - BOTTOM

    def y_of(value: float) -> float:
        return bottom - (value - floor) / (ceiling - floor) * (bottom - top)

    count = len(points)

    def x_of(index: int) -> float:
        if count == 1:
            return (left + right) / 2
        return left + index / (count - 1) * (right - left)

    line = " ".join(_fmt(x_of(i), y_of(p.ordinal)) for i, p in enumerate(points))
    upper = [_fmt(x_of(i), y_of(p.mu + p.sigma)) for i, p in enumerate(points)]
    lower = [_fmt(x_of(i), y_of(p.mu - p.sigma)) for i, p in reversed(list(enumerate(points)))]
    if count == 1:  # a band one game wide: give it some width to be seen
        only, x = points[0], x_of(0)
        upper = [_fmt(x - 4, y_of(only.mu + only.sigma)), _fmt(x + 4, y_of(only.mu + only.sigma))]
        lower = [_fmt(x + 4, y_of(only.mu - only.sigma)), _fmt(x - 4, y_of(only.mu - only.sigma))]
    y_ticks = tuple(
        Tick(round(y_of(value), 1), value) for value in range(int(floor), int(ceiling) + 1, step)
    )
    game_step = nice_step(count - 1 or 1, ticks=5)
    games = sorted({1, count, *range(1, count + 1, game_step)})
    if len(games) > 2 and games[-1] - games[-2] < game_step / 2:
        games.pop(-2)  # keep the last game's label clear of its neighbour's
    x_ticks = tuple(Tick(round(x_of(n - 1), 1), n) for n in games)
    ordinals = [p.ordinal for p in points]
    return RatingChart(
        width=width,
        height=height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        line=line,
        band=" ".join(upper + lower),
        last_x=round(x_of(count - 1), 1),
        last_y=round(y_of(points[-1].ordinal), 1),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        first=ordinals[0],
        last=ordinals[-1],
        low=min(ordinals),
        high=max(ordinals),
        games=count,
    )
