"""What the watchers' phones ask for: the table's poll, and the QR code of its watch link."""

from __future__ import annotations

import io

import segno
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from config.release import RELEASE

from . import selectors
from .pages import game_or_404
from .table_page import render_table, revalidated

#: How long a watchers' partial is kept. It is keyed by the game's version (and save time),
#: so it never goes out of date; this only bounds the memory of finished games.
SHEET_SECONDS = 600


def _sheet_key(game_id: int, mark: tuple[int, float]) -> str:
    version, saved = mark
    return f"sheet:{game_id}:{version}:{saved}:{get_language() or ''}:{RELEASE}"


@require_GET
def sheet(request, game_id: int):
    """The watchers' poll: 204 while the game's version is unchanged (one query, for the
    version alone), else the partial for that version, rendered once per version and
    language and kept: a table's three phones each ask for every version."""
    mark = selectors.game_mark(game_id)
    if mark is None:
        raise Http404
    if request.GET.get("v") == str(mark[0]):
        response = HttpResponse(status=204)
        patch_cache_control(response, no_cache=True)
        return response
    html = cache.get(_sheet_key(game_id, mark))
    if html is None:
        game = game_or_404(game_id)  # may be newer still: kept under its own version
        response = render_table(request, game, keeper=False, partial=True)
        saved = (game.version, game.updated_at.timestamp())
        cache.set(_sheet_key(game.pk, saved), response.content, SHEET_SECONDS)
        return response
    return revalidated(HttpResponse(html))


@require_GET
def qr(request, game_id: int):
    """A QR code of the watch link, for the other players' phones."""
    game = game_or_404(game_id)
    url = request.build_absolute_uri(reverse("scoring:table", args=[game.id]))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=8, border=2, xmldecl=False, omitsize=True
    )
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    patch_cache_control(response, public=True, max_age=3600)
    return response
