"""What the scoring pages share (not a page itself): finding the game, the answers that are
never stored, the keeper's link and its QR code, and the one form → service → re-render step.

Every page that changes a game does the same four things: check the form, call one service,
turn a refusal into words in the page's language (and its status), and show the page again
with the form. ``submit`` is that step, once; the page decides only what to show after it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import segno
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.api import domain_status
from scoring import selectors
from scoring.errors import ScoringError
from scoring.models import Game
from scoring.rule_words import refusal

#: How long a keeper link's QR code is kept (keyed by a digest of the link, secret and all).
QR_SECONDS = 3600


def game_or_404(game_id: int) -> Game:
    try:
        return selectors.game_row(game_id)
    except Game.DoesNotExist:
        raise Http404 from None


def no_store(response: HttpResponse) -> HttpResponse:
    """Kept by no cache: the page shows what only this session may see."""
    patch_cache_control(response, no_store=True, private=True)
    return response


def not_keeper(request, game: Game) -> HttpResponse:
    """The 403 page for a change asked by a phone that does not keep this game's score."""
    return no_store(render(request, "scoring/not_keeper.html", {"game": game}, status=403))


def status_of(error: ScoringError) -> int:
    """The status a page answers a refusal with: the API's, by the error's kind."""
    return domain_status(error) or 400


def keeper_link(request, game: Game) -> tuple[str, str]:
    """The keeper's link and its QR code, drawn once per link and language, then kept.

    The cache key holds a digest of the link, never the link: it carries the secret, and a
    key shows up in logs and monitoring more readily than a value. A new secret is a new
    link, so a new key."""
    url = request.build_absolute_uri(reverse("scoring:keep", args=[game.id, game.secret]))
    digest = hashlib.sha256(url.encode()).hexdigest()[:32]
    key = f"keeper-qr:{game.pk}:{digest}:{get_language() or ''}"
    svg = cache.get(key)
    if svg is None:
        svg = segno.make(url, error="m").svg_inline(
            scale=4, border=2, omitsize=True, title=_("Keeper link")
        )
        cache.set(key, svg, QR_SECONDS)
    return url, svg


@dataclass
class Submitted:
    """What came of one submit: the service's answer, or the status to show the page with
    (400 for a form that does not validate, the refusal's status) and the refusal in words."""

    result: Any = None
    status: int = 200
    refused: ScoringError | None = None
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status == 200


def submit(
    form,
    write: Callable[[dict], Any],
    *,
    names: list[str] | None = None,
    words: Callable[[ScoringError, list[str] | None], str] = refusal,
    on_form: bool = True,
) -> Submitted:
    """The scoring pages' one form → service → catch step.

    A form that does not validate answers 400 with its own errors. Otherwise `write` gets its
    cleaned data and calls one service; its answer is ``result``. A refusal (ScoringError) is
    worded by `words` in the page's language, with the players' `names` for seats; it becomes
    the form's error (unless `on_form` is false: the page shows ``message`` itself), and the
    answer's status is the refusal's (400, or 409 when the game has moved on)."""
    if not form.is_valid():
        return Submitted(status=400)
    try:
        return Submitted(result=write(form.cleaned_data))
    except ScoringError as error:
        message = words(error, names)
        if on_form:
            form.add_error(None, message)
        return Submitted(status=status_of(error), refused=error, message=message)
