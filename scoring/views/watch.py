"""What the watchers' phones ask for: the table's poll, and the QR code of its watch link."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

import segno
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from config.door import DoorAnswer
from config.memory import Recent
from config.release import RELEASE
from scoring import selectors
from scoring.presenters.place import clock_mark, clock_marks
from scoring.web.keeper import is_keeper
from scoring.web.pages import game_or_404, no_store
from scoring.web.table_page import render_table, revalidated
from scoring.words import calls_from_text

#: How long a watchers' partial is kept. It is keyed by the game's version (and save time),
#: so it never goes out of date; this only bounds the memory of finished games.
SHEET_SECONDS = 600
#: How many partials a process also keeps in its own memory: a table's other phones ask for
#: the version its first phone made within seconds of it, so the latest few hundred (a few
#: KB each) are plenty.
KEPT_IN_PROCESS = 256
_sheets = Recent(KEPT_IN_PROCESS)


def _sheet_key(game_id: int, mark: tuple[int, float], clock: str | None = None) -> str:
    version, saved = mark
    return f"sheet:{game_id}:{version}:{saved}:{clock or ''}:{get_language() or ''}:{RELEASE}"


@require_GET
def sheet(request, game_id: int):
    """The watchers' poll: 204 while the game's version is unchanged (one query, for the
    version), else the partial for that version, rendered once per version and language
    and kept: a table's three phones each ask for every version. On the site both the 204
    and a kept partial are answered before the middleware (SHEET_AT_DOOR below); this view
    sees the rest.

    The keeper's page asks the same check (`keeper=1`, with its step: the call chosen): a
    change it did not make (another phone's hand or "keep mine", an organiser's correction,
    a substitution) answers the keeper's partial as it is now, saying what changed since the
    version it showed; never kept, never a watcher's. (Not the table page's own address: the
    service worker keeps that one's answers as the page's offline copy.)"""
    asked = _asked(request, game_id)
    if asked is None:
        raise Http404
    mark, clock, unchanged = asked
    if unchanged:
        return _unchanged()
    if request.GET.get("keeper"):
        game = game_or_404(game_id)
        if is_keeper(request, game):
            return _keeper_partial(request, game)
    key = _sheet_key(game_id, mark, clock)
    html = _sheets.get_or_fetch(key, lambda: cache.get(key))  # another process may have made it
    if html is None:
        game = game_or_404(game_id)  # may be newer still: kept under its own version
        response = render_table(request, game, keeper=False, partial=True)
        made = _sheet_key(game.pk, (game.version, game.updated_at.timestamp()), clock)
        _sheets.put(made, response.content)
        cache.set(made, response.content, SHEET_SECONDS)
        return response
    return _partial(html)


def _asked(request, game_id: int) -> tuple[tuple[int, float], str | None, bool] | None:
    """What a poll is answered from: the game's mark (one query), the round clock's mark
    where the page shows one (`c`: an organiser's move is news too), and whether the page
    shows them both (`v`, `c`); None for no such game."""
    mark = selectors.game_mark(game_id)
    if mark is None:
        return None
    shown_clock = request.GET.get("c")
    clock = clock_mark(game_id) if shown_clock is not None else None
    return mark, clock, request.GET.get("v") == str(mark[0]) and shown_clock == clock


def _partial(html: bytes) -> HttpResponse:
    return revalidated(HttpResponse(html))


def _unchanged() -> HttpResponse:
    response = HttpResponse(status=204)
    patch_cache_control(response, no_cache=True)
    return response


def _sheet_at_door(request, game_id: str) -> HttpResponse | None:
    """The watchers' poll before the middleware (config.door), as `sheet` answers it from
    what is kept: the 204 while `v` is the game's version (and, where the page shows a round
    clock, `c` its mark); else, for a watcher, the partial of the version now when this
    process holds it. None otherwise (no `v`, the keeper's check, a partial not held):
    the view answers."""
    if request.GET.get("v") is None:
        return None
    game = int(game_id)
    asked = _asked(request, game)
    if asked is None:
        return None
    mark, clock, unchanged = asked
    if unchanged:
        return _unchanged()
    if request.GET.get("keeper"):
        return None
    html = _sheets.get(_sheet_key(game, mark, clock))
    return None if html is None else _partial(html)


def _sheets_watched(many: Sequence[dict[str, str]]) -> list[tuple[int | None, str | None]]:
    """What held sheet polls stand on: each game's version and its clock's mark (None: no
    such game, no clock), for all the held games at once: two statements a tick, however
    many."""
    ids = [int(parts["game_id"]) for parts in many]
    versions, clocks = selectors.game_versions(ids), clock_marks(ids)
    return [(versions.get(game_id), clocks.get(game_id)) for game_id in ids]


def _sheet_shown(query: dict[str, str], game_id: str) -> tuple[str | None, str | None]:
    """What a held sheet poll's page shows: its version (`v`) and, with a round clock, the
    clock's mark (`c`); the door has just found them current."""
    return query.get("v"), query.get("c")


def _sheet_moved(shown: tuple[str | None, str | None], now: tuple[int | None, str | None]):
    """Whether a page showing `shown` is behind the game `now`: another version (or none), or,
    where it shows a clock, another mark (a page without one never wakes for the clock)."""
    version, clock = now
    shown_version, shown_clock = shown
    return shown_version != str(version) or (shown_clock is not None and shown_clock != clock)


#: settings.DOOR_ANSWERS names it; the path is scoring.urls's "sheet". The watchers' page asks
#: it to wait (templates/scoring/table.html): held at the door of bin/serve, its answer comes
#: within a tick of a deal, not at the page's next poll. Holding it reads nothing more than
#: answering it: what the page shows is in its query.
SHEET_AT_DOOR = DoorAnswer(
    "scoring:sheet",
    re.compile(r"/games/(?P<game_id>[0-9]+)/sheet/"),
    _sheet_at_door,
    watch=_sheets_watched,
    shown=_sheet_shown,
    moved=_sheet_moved,
)


def _int(value: object) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _keeper_partial(request, game) -> HttpResponse:
    response = render_table(
        request,
        game,
        keeper=True,
        partial=True,
        calls=calls_from_text(request.GET.get("calls")),
        for_deal=_int(request.GET.get("deal")),
        since=_int(request.GET.get("v")),
    )
    patch_vary_headers(response, ("Cookie",))
    return no_store(response)


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
