"""The running score sheet: one row per deal (redeals included), one column per player.

Built here as plain values, each cell's HTML made once, and laid out by one small template
(scoring/sheet_table.html): the sheet is rendered for every new version of every game a phone
watches, the busiest render of an evening, and a general table library's per-cell machinery
cost more than the rest of the sheet partial (docs/performance.md, cost per request)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext


@dataclass(frozen=True)
class SheetRow:
    number: SafeString | int  # the keeper's correction link, or the bare number
    call: SafeString  # the call by whom, and the dealer
    redeal: bool
    cells: tuple[SafeString, ...]  # each player's total, and the deal's tricks and points


@dataclass(frozen=True)
class Sheet:
    headings: tuple[SafeString, ...]
    rows: tuple[SheetRow, ...]
    totals: tuple[str, ...]


def _seat_heading(name: str, short: str) -> SafeString:
    """A column's heading: the short name shown, the full one read out (and as a tooltip)."""
    if short == name:
        return format_html('<span class="seat-heading">{}</span>', name)
    return format_html(
        '<span class="seat-heading" aria-hidden="true" title="{}">{}</span>'
        '<span class="visually-hidden">{}</span>',
        name,
        short,
        name,
    )


def _number(number: int, correct_game: int | None) -> SafeString | int:
    """The deal's number; for the keeper, a link to correct that deal (no JavaScript)."""
    if correct_game is None:
        return number
    label = gettext("Correct deal %(n)s") % {"n": number}
    return format_html(
        '<a class="correct-link" href="{}" aria-label="{}" title="{}">{}'
        '<span class="correct-mark" aria-hidden="true">✎</span></a>',
        reverse("scoring:correct", args=[correct_game, number]),
        label,
        label,
        number,
    )


def _cell(cell) -> SafeString:
    if cell is None:
        return format_html("{}", "—")
    return format_html(
        '<span class="total">{}</span><span class="detail">{} · {}</span>',
        cell.total,
        cell.tricks,
        cell.points,
    )


def _row(record: dict, correct_game: int | None) -> SheetRow:
    call = format_html(
        '<span class="call-text">{}</span><span class="detail">{}</span>',
        record["call"],
        gettext("dealer: %(name)s") % {"name": record["dealer"]},
    )
    return SheetRow(
        number=_number(record["number"], correct_game),
        call=call,
        redeal=record["redeal"],
        cells=tuple(_cell(record[f"seat{seat}"]) for seat in range(3)),
    )


def sheet_table(view, *, correct: bool = False) -> Sheet:
    """The sheet for a presenters.TableView; `correct`: each deal's number links to its
    correction (the keeper's page, while the result is not confirmed)."""
    correct_game = view.game.pk if correct else None
    return Sheet(
        headings=tuple(
            _seat_heading(name, short)
            for name, short in zip(view.names, view.sheet_names, strict=True)
        ),
        rows=tuple(_row(record, correct_game) for record in view.rows),
        totals=tuple(view.totals),
    )
