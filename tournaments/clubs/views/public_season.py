"""A club season's public pages: the standings, the projector's view of them, and their
downloads (CSV with a byte order mark for Excel, XLSX, JSON; the spreadsheets written by
config.spreadsheets). Built on read (tournaments.clubs.selectors.seasons); no script needed: the
projector reloads itself."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from config import spreadsheets
from tournaments.clubs.presenters import season as words
from tournaments.clubs.selectors import seasons as reads
from tournaments.common.web.public import MAX_ID, not_found
from tournaments.models import Season

PAGE = "tournaments/club/season.html"
PROJECTOR = "tournaments/club/season_projector.html"
#: How often the wall reloads the season's standings (a night's results come in slowly).
PROJECTOR_SECONDS = 60
FORMATS = spreadsheets.FORMATS


def _season(request, slug: str, season_id):
    try:
        season_id = int(season_id)
        if season_id > MAX_ID:
            raise Season.DoesNotExist
        return reads.season_of_club(slug, season_id), None
    except Season.DoesNotExist:
        return None, not_found(request, _("There is no such season."))


def _context(season: Season) -> dict:
    table = reads.season_table(season)
    lines = words.season_lines(table)
    return {
        "season": season,
        "club": season.club,
        "table": table,
        "nights": table.nights,
        "ranked": [line for line in lines if line.rank is not None],
        "unranked": [line for line in lines if line.rank is None],
        "counting": words.counting_words(table),
        "provisional": any(night.provisional for night in table.nights),
    }


def _short_lived(response: HttpResponse) -> HttpResponse:
    """A download holds nothing of the visitor's (the pages do: the language form's CSRF
    token), so any cache may keep it for half a minute."""
    patch_cache_control(response, public=True, max_age=30)
    return response


@require_GET
def season(request, slug: str, season_id: int):
    found, missing = _season(request, slug, season_id)
    if missing:
        return missing
    return render(request, PAGE, _context(found))


@require_GET
def season_projector(request, slug: str, season_id: int):
    found, missing = _season(request, slug, season_id)
    if missing:
        return missing
    context = {**_context(found), "reload_seconds": PROJECTOR_SECONDS}
    return render(request, PROJECTOR, context)


@require_GET
def season_export(request, slug: str, season_id: int, fmt: str):
    if fmt not in FORMATS:
        raise Http404
    found, missing = _season(request, slug, season_id)
    if missing:
        return missing
    table = reads.season_table(found)
    lines = words.season_lines(table)
    filename = f"{found.club.slug}-season-{found.pk}.{fmt}"
    if fmt == "json":
        body = json.dumps(words.season_body(table, lines), ensure_ascii=False, indent=1).encode()
        response = spreadsheets.attachment(body, fmt, filename)
    else:
        headers, rows = words.export_rows(table, lines)
        title = found.name or "season"
        response = spreadsheets.download(fmt, headers, rows, title=title, filename=filename)
    return _short_lived(response)
