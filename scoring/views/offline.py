"""The keeper's page as an installable web app that keeps working when the connection drops.

Three pieces: the web app manifest of a table (its keeper page is the app's start), the
service worker, and what the page's offline script needs to know (offline_context). The
service worker is served from the site's root so that its scope covers every table page;
it keeps a copy of the table pages and the static files only (the keeper page's script
asks for its own page and files to be copied at once, as the first visit is not yet the
worker's) (network first, the copy when
the network fails), never a keeper link (its secret is in the address), the API or any
organiser page. The hands entered offline wait on the phone and go through the JSON API,
whose resend rules (the same deal again is recorded once, a different one is refused) make
sending them again safe.
"""

from __future__ import annotations

import json
import re

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.offline_tags import CACHE_NAME
from scoring.web.pages import game_or_404

#: The only pages the service worker keeps a copy of: a table's own page (no secret in its
#: address). Written once here and given to the worker's script, so the tests read the rule.
CACHED_PAGE = r"^/games/\d+/$"


@require_GET
def service_worker(request) -> HttpResponse:
    """The service worker's script, from the site's root so its scope covers /games/."""
    response = render(
        request,
        "scoring/service_worker.js",
        {"config": json.dumps({"cache": CACHE_NAME, "page": CACHED_PAGE})},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    # Browsers check for a new worker at most daily anyway; never keep an old one longer.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request, game_id: int) -> JsonResponse:
    """The web app manifest of a table: installed, the app opens this table's page."""
    game = game_or_404(game_id)
    page = reverse("scoring:table", args=[game.id])
    names = ", ".join(game.players)
    body = {
        "id": page,
        "name": _("3-5-8 score sheet: %(names)s") % {"names": names},
        "short_name": _("3-5-8"),
        "description": _("The score sheet of a game of 3-5-8, also when the connection drops."),
        "lang": request.LANGUAGE_CODE,
        "start_url": page,
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d3b2a",
        "icons": [
            {"src": static("icons/app.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static("icons/app-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/app-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


def is_cached_page(path: str) -> bool:
    """Whether the service worker keeps a copy of this address (the rule in CACHED_PAGE)."""
    return re.match(CACHED_PAGE, path) is not None
