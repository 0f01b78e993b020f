"""The one counter behind every throttle: how often something happened for a key within a
window of time (wrong table secrets, new games, seat claims, wrong table PINs).

It lives in the shared cache, so every process of the site counts together (a file or Redis
cache: docs/deploy.md), and the window starts with the key's first count (a fixed window, not
a sliding one: cheap, and enough to slow a script down).

When the shared cache does not answer (config.shared_cache), each process counts in its own
memory instead, so an outage never lifts a limit: a guesser gets at most the limit once per
process until the cache is back. What a process counted then is asked with the shared count
until its window ends, so a cache that comes back empty (a restarted Redis) does not start
the guessing over either.
"""

from __future__ import annotations

import ipaddress
import threading
import time

from django.core.cache import cache

from config.memory import Recent
from config.shared_cache import reachable

#: How many keys a process counts by itself during an outage (the least recently counted go
#: first: the keys a guesser keeps hitting stay).
LOCAL_KEYS = 10_000

_local = Recent(LOCAL_KEYS)  # key → (window's end on time.monotonic, count)
_local_lock = threading.Lock()


def _shared_count(key: str, window_seconds: int) -> int:
    cache.add(key, 0, window_seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, window_seconds)
        return 1


def _local_count(key: str, window_seconds: int) -> int:
    now = time.monotonic()
    with _local_lock:
        found = _local.get(key)
        ends, counted = found if found is not None and found[0] > now else (now + window_seconds, 0)
        _local.put(key, (ends, counted + 1))
    return counted + 1


def _local_current(key: str) -> int:
    found = _local.get(key)
    return found[1] if found is not None and found[0] > time.monotonic() else 0


def count(key: str, window_seconds: int) -> int:
    """Add one to `key`'s count and return it; the count is forgotten `window_seconds` after
    its first one."""
    shared = _shared_count(key, window_seconds)
    if not reachable():
        return _local_count(key, window_seconds)
    return max(shared, _local_current(key))


def current(key: str) -> int:
    """`key`'s count now, without adding to it (0 when nothing was counted in the window)."""
    shared = cache.get(key) or 0
    return max(shared, _local_current(key))


def forget() -> None:
    """Drop what this process counted by itself (for the tests)."""
    _local.clear()


def is_loopback(address: str) -> bool:
    """The machine itself (the operator's scripts, the test client): never throttled. Behind
    our nginx no visitor has a loopback address."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
