"""Downloads of an event's standings, pairings and deals as CSV, XLSX or JSON.

The tables are tournaments.results.exports' django-tables2 tables; config.spreadsheets writes their
values as files (and keeps the names players typed from becoming formulas). The URL names
the data and the format, so a link can be shared between organisers; the files are never
stored by a shared cache.
"""

from __future__ import annotations

from django.http import Http404
from django.views.decorators.http import require_GET

from config import spreadsheets
from tournaments.common.web.access import organiser_required, private
from tournaments.models import Event
from tournaments.results.exports import EXPORTS, FORMATS


@organiser_required
@require_GET
def export(request, event: Event, what: str, fmt: str):
    if what not in EXPORTS or fmt not in FORMATS:
        raise Http404
    headers, *rows = EXPORTS[what](event).as_values()
    response = spreadsheets.download(
        fmt, headers, rows, title=what, filename=f"{event.slug}-{what}.{fmt}"
    )
    return private(response)
