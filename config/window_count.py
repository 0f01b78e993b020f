"""The one counter behind every throttle: how often something happened for a key within a
window of time (wrong table secrets, new games, seat claims, wrong table PINs).

It lives in the shared cache, so every process of the site counts together (a file or Redis
cache: docs/deploy.md), and the window starts with the key's first count (a fixed window, not
a sliding one: cheap, and enough to slow a script down).
"""

from __future__ import annotations

import ipaddress

from django.core.cache import cache


def count(key: str, window_seconds: int) -> int:
    """Add one to `key`'s count and return it; the count is forgotten `window_seconds` after
    its first one."""
    cache.add(key, 0, window_seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window_seconds)
        return 1


def is_loopback(address: str) -> bool:
    """The machine itself (the operator's scripts, the test client): never throttled. Behind
    our nginx no visitor has a loopback address."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
