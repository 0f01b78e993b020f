"""The running score sheet: one row per deal (redeals included), one column per player."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class SeatColumn(tables.Column):
    """A player's cell: the running total, and below it the tricks and points of the deal."""

    def __init__(self, *, total: str, **kwargs):
        super().__init__(
            default="—",
            orderable=False,
            footer=total,
            attrs={"th": {"class": "seat"}, "td": {"class": "seat"}, "tf": {"class": "seat"}},
            **kwargs,
        )

    def render(self, value):
        return format_html(
            '<span class="total">{}</span><span class="detail">{} · {}</span>',
            value.total,
            value.tricks,
            value.points,
        )


class SheetTable(tables.Table):
    """Columns: the deal's number; its call (by whom) with its dealer; then each player."""

    number = tables.Column(
        verbose_name="#",
        orderable=False,
        attrs={"th": {"class": "number"}, "td": {"class": "number"}},
    )
    call = tables.Column(
        verbose_name=_("Call · dealer"),
        orderable=False,
        footer=_("Total"),
        attrs={"th": {"class": "call"}, "td": {"class": "call"}},
    )

    class Meta:
        template_name = "scoring/sheet_table.html"
        attrs = {"class": "sheet"}
        row_attrs = {"class": lambda record: "redeal" if record["redeal"] else None}
        empty_text = _("No deals yet.")
        sequence = ("number", "call", "...")
        orderable = False

    def __init__(self, *args, correct_game: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.correct_game = correct_game

    def render_number(self, value, record):
        """The deal's number; for the keeper, a link to correct that deal (no JavaScript)."""
        if self.correct_game is None:
            return value
        label = gettext("Correct deal %(n)s") % {"n": value}
        return format_html(
            '<a class="correct-link" href="{}" aria-label="{}" title="{}">{}'
            '<span class="correct-mark" aria-hidden="true">✎</span></a>',
            reverse("scoring:correct", args=[self.correct_game, value]),
            label,
            label,
            value,
        )

    def render_call(self, value, record):
        return format_html(
            '<span class="call-text">{}</span><span class="detail">{}</span>',
            value,
            _("dealer: %(name)s") % {"name": record["dealer"]},
        )


def _seat_heading(name: str, short: str):
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


def sheet_table(view, *, correct: bool = False) -> SheetTable:
    """The sheet for a presenters.TableView; `correct`: each deal's number links to its
    correction (the keeper's page, while the result is not confirmed)."""
    return SheetTable(
        view.rows,
        correct_game=view.game.pk if correct else None,
        extra_columns=[
            (
                f"seat{seat}",
                SeatColumn(verbose_name=_seat_heading(name, short), total=view.totals[seat]),
            )
            for seat, (name, short) in enumerate(zip(view.names, view.sheet_names, strict=True))
        ],
    )
