"""Downloads of an event's standings, pairings and deals as CSV, XLSX or JSON.

The tables are tournaments.tables' django-tables2 tables; django-tables2's TableExport turns
them into files (tablib, with openpyxl for XLSX). The URL names the data and the format, so a
link can be shared between organisers; the files are never stored by a shared cache.
"""

from __future__ import annotations

import codecs

from django.http import Http404
from django.views.decorators.http import require_GET
from django_tables2.export import TableExport

from ..models import Event
from ..tables import EXPORTS, FORMATS
from ..web.access import organiser_required, private


@organiser_required
@require_GET
def export(request, event: Event, what: str, fmt: str):
    if what not in EXPORTS or fmt not in FORMATS:
        raise Http404
    table = EXPORTS[what](event)
    exporter = TableExport(fmt, table, dataset_kwargs={"title": what})
    response = exporter.response(filename=f"{event.slug}-{what}.{fmt}")
    if fmt == "csv":
        # Excel reads a CSV file without a byte order mark in the computer's old code page,
        # so Cyrillic names came out garbled; with the mark it reads UTF-8 (and other
        # programs skip the mark).
        response.content = codecs.BOM_UTF8 + response.content
    return private(response, no_store=True)
