"""The running score sheet: one row per deal (redeals included), one column per player."""

import django_tables2 as tables
from django.utils.html import format_html
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

    def render_call(self, value, record):
        return format_html(
            '<span class="call-text">{}</span><span class="detail">{}</span>',
            value,
            _("dealer: %(name)s") % {"name": record["dealer"]},
        )


def sheet_table(view) -> SheetTable:
    """The sheet for a presenters.TableView."""
    return SheetTable(
        view.rows,
        extra_columns=[
            (
                f"seat{seat}",
                SeatColumn(verbose_name=format_html("{}", name), total=view.totals[seat]),
            )
            for seat, name in enumerate(view.names)
        ],
    )
