"""Slowing down whoever guesses table secrets, and writing each wrong guess down.

A secret has 256 bits, so guessing cannot succeed; the point is to notice and stop a client
that tries (a script walking the game ids, a leaked half-link). Wrong secrets are counted per
client address in Django's cache; past the limit within the window, that address gets 429
for every secret check until the window passes, and a right secret does not reset the count
(a guesser must not learn which try was right by being let through). A club's phones often
share one address behind the venue's router, hence a generous limit: a person never types a
secret (they scan it), so even a few wrong ones are unusual.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger("scoring.secrets")

FAILURES_ALLOWED = 20
WINDOW_SECONDS = 600


def client_address(request) -> str:
    """The client's address; behind our own proxy, the one that proxy saw (the last hop)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if getattr(settings, "SECURE_PROXY_SSL_HEADER", None) and forwarded:
        return forwarded.split(",")[-1].strip()
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(request) -> str:
    return f"secret-failures:{client_address(request)}"


def secret_blocked(request) -> bool:
    return (cache.get(_key(request)) or 0) >= FAILURES_ALLOWED


def secret_failed(request, game_id: int, via: str) -> None:
    key = _key(request)
    cache.add(key, 0, WINDOW_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW_SECONDS)
        count = 1
    log.warning(
        "wrong table secret for game %s via %s from %s (%s in %ss)",
        game_id,
        via,
        client_address(request),
        count,
        WINDOW_SECONDS,
    )
