"""The running score sheet: one row per deal (redeals included, numbered by the hand they
dealt again: presenters.numbering), one column per player.

Built here as plain values, each cell's HTML made once, and laid out by one small template
(scoring/sheet_table.html): the sheet is rendered for every new version of every game a phone
watches, the busiest render of an evening, and a general table library's per-cell machinery
cost more than the rest of the sheet partial (docs/performance.md, cost per request).

The rendered table is kept per game version and language (``sheet_html``): one render a
version serves the watchers' page and their poll, another (its number cells link to correct
each deal) the keeper's page and partials however often they are asked. It is kept in each
process's memory, not the shared cache: a write to the venue laptop's file cache costs
~0.6 ms of CPU, more than the ~0.5 ms render it saves, and the watchers' poll keeps its whole
partial in the shared cache already (scoring.views.watch)."""

from __future__ import annotations

from dataclasses import dataclass

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from config.memory import Recent
from config.release import RELEASE
from scoring.presenters.numbering import hand_name

TEMPLATE = "scoring/sheet_table.html"

#: How many rendered sheets a process keeps, the latest used (a few KB each). Each key names
#: the game's version (and save time), so a kept sheet never goes out of date; this only
#: bounds the memory: a 100-table evening's current versions (watchers' and keeper's) fit.
KEPT_SHEETS = 512

_kept = Recent(KEPT_SHEETS)


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


def _number(record: dict, correct_game: int | None) -> SafeString | int:
    """The hand's number as the players count it (a redeal: the hand dealt again,
    presenters.numbering); for the keeper, a link to correct that deal (no JavaScript)."""
    hand = record["hand"]
    if correct_game is None:
        return hand
    label = gettext("Correct %(deal)s") % {"deal": hand_name(hand, record["redeal"])}
    return format_html(
        '<a class="correct-link" href="{}" aria-label="{}" title="{}">{}'
        '<span class="correct-mark" aria-hidden="true">✎</span></a>',
        reverse("scoring:correct", args=[correct_game, record["number"]]),
        label,
        label,
        hand,
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
        number=_number(record, correct_game),
        call=call,
        redeal=record["redeal"],
        cells=tuple(_cell(record[f"seat{seat}"]) for seat in range(3)),
    )


def sheet_key(game) -> str:
    """What the rendered sheet depends on: the game (its id, version and save time: every
    deal, undo, correction, confirmation, void, substitution and reopening moves the version,
    and the save time tells apart a restored database that repeats both), the language and the
    code served."""
    saved = game.updated_at.timestamp() if game.updated_at else ""
    return f"sheet-table:{game.pk}:{game.version}:{saved}:{get_language() or ''}:{RELEASE}"


def sheet_html(view, *, correct: bool = False) -> SafeString:
    """The score sheet of a presenters.TableView as HTML, rendered once per version, language
    and reader (in each process) and then kept. `correct`: the keeper's copy, each deal's
    number a link to correct it."""
    key = f"{sheet_key(view.game)}:{'keeper' if correct else 'watcher'}"
    html = _kept.get(key)
    if html is None:
        html = render_to_string(TEMPLATE, {"sheet": sheet_table(view, correct=correct)})
        _kept.put(key, html)
    return mark_safe(html)  # noqa: S308 (rendered by the autoescaping template)


def forget_sheets() -> None:
    """Drop every sheet this process keeps (tests, and a benchmark's "nothing kept")."""
    _kept.clear()


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
