"""The shared cache (Redis) failing is a cache miss, never a 500.

Everything the site keeps in the shared cache can be had without it: the pages' rendered
parts and the polls' ETags are made again from the database, and the throttles' counts fall
back to each process's own memory (config.window_count). So the backend that
config.env.cache_from_env configures for a ``redis://`` address, ``SharedRedisCache``, is
Django's RedisCache with one difference: when Redis does not answer (refused, timed out, out
of memory, read-only, unable to persist) a read is a miss, a write is dropped and ``add``
answers True (nobody holds the key: the caller renders the page itself rather than waiting
for a render that no one makes). Django's own errors (a bad key, a value it cannot pickle)
and Redis's answers to a wrong command still raise: those are bugs, not an outage.

An outage is known per process and address (``Outage``): the first failure is logged once,
with the reason; for RETRY_SECONDS after a failure the calls do not try Redis at all (a host
that drops packets would otherwise hold every request for the connect timeout), then one
call tries, and the first answer ends the outage, logged once with how long it lasted. The
connection and each command have short timeouts (``OPTIONS``), so a hung Redis costs a
request at most that much. /healthz asks Redis itself through ``probe`` (config.health).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

log = logging.getLogger(__name__)

#: After a failure, calls skip Redis this long; then one tries it again.
RETRY_SECONDS = 1.0
#: Redis's connection and command time limits (redis-py's defaults are 5 s each).
OPTIONS = {"socket_connect_timeout": 1.0, "socket_timeout": 2.0}
#: Redis's refusals that mean the server cannot serve as a cache now, which redis-py raises
#: as a plain ResponseError (it has classes of its own for the others).
FAILING_REPLIES = ("MISCONF ",)


class Outage:
    """Whether this process finds a cache down, when it tries again, and the two log lines
    of an outage (its start, its end). Safe across a process's threads; `clock` is
    time.monotonic but for the tests."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.name = name
        self._clock = clock
        self._lock = threading.Lock()
        self.since: float | None = None
        self.missed = 0
        self._retry_at = 0.0

    @property
    def down(self) -> bool:
        return self.since is not None

    def skip(self) -> bool:
        """Whether a call should go without the cache at once. While it is down: yes, but once
        RETRY_SECONDS after the last failure one call (this one) is let through to try."""
        if self.since is None:
            return False
        with self._lock:
            if self.since is None:
                return False
            now = self._clock()
            if now < self._retry_at:
                self.missed += 1
                return True
            self._retry_at = now + RETRY_SECONDS  # the others wait for this one's answer
            return False

    def failed(self, error: Exception) -> None:
        with self._lock:
            self.missed += 1
            self._retry_at = self._clock() + RETRY_SECONDS
            if self.since is not None:
                return
            self.since = self._clock()
        log.warning(
            "the shared cache %s does not answer (%s: %s): pages are made from the database "
            "and each process counts the throttles itself until it does",
            self.name,
            type(error).__name__,
            error,
        )

    def answered(self) -> None:
        if self.since is None:
            return
        with self._lock:
            if self.since is None:
                return
            lasted, missed = self._clock() - self.since, self.missed
            self.since, self.missed = None, 0
        log.warning(
            "the shared cache %s answers again after %.1f s (%d calls went without it)",
            self.name,
            lasted,
            missed,
        )


_outages: dict[str, Outage] = {}
_outages_lock = threading.Lock()


def place(location: str) -> str:
    """Where a cache is, for the log: host, port and database, never a password."""
    parts = urlsplit(location)
    if parts.scheme == "unix":
        return parts.path
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        port = ""
    return f"{parts.hostname or ''}{port}{parts.path}"


def outage_of(servers: list[str]) -> Outage:
    """The one Outage of this process for the cache at these addresses (Django makes a
    backend per thread; they share it)."""
    name = ",".join(place(server) for server in servers)
    with _outages_lock:
        return _outages.setdefault(name, Outage(name))


def forget() -> None:
    """Forget every outage this process knows of (for the tests)."""
    with _outages_lock:
        _outages.clear()


def _true() -> bool:
    return True


def _false() -> bool:
    return False


def _none() -> None:
    return None


def _empty() -> dict:
    return {}


def _not_there() -> int:
    raise ValueError("the shared cache does not answer; the key counts as not there")


class ForgivingClient(RedisCacheClient):
    """Django's Redis client with every call guarded: a failing Redis gives the miss; and
    one redis-py client kept per connection pool.

    Django makes a new redis-py client for every call, and a client builds its table of
    reply parsers (a few hundred entries, each name upper-cased) as it is made: 0.2 ms of
    CPU, more than the round trip of the read it then sends (docs/performance.md, cost per
    request). A redis-py client holds no connection of its own (each command borrows one
    from the pool) and may be shared between threads, so one per pool serves every call."""

    outage: Outage

    def __init__(self, servers, **options) -> None:
        super().__init__(servers, **options)
        self._kept: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._kept.get(id(pool))
        if client is None:
            client = self._kept.setdefault(id(pool), self._client(connection_pool=pool))
        return client

    def _failing(self, error: Exception) -> bool:
        errors = self._lib.exceptions
        trouble = (
            errors.ConnectionError,  # refused, lost, loading, a wrong password, too many clients
            errors.TimeoutError,
            errors.OutOfMemoryError,
            errors.ReadOnlyError,  # a replica
            errors.MasterDownError,
        )
        if isinstance(error, trouble):
            return True
        return isinstance(error, errors.ResponseError) and str(error).startswith(FAILING_REPLIES)

    def _guard(self, miss: Callable, call: Callable, *args):
        if self.outage.skip():
            return miss()
        try:
            answer = call(*args)
        except self._lib.RedisError as error:
            if not self._failing(error):
                raise
            self.outage.failed(error)
            return miss()
        self.outage.answered()
        return answer

    def add(self, key, value, timeout):
        return self._guard(_true, super().add, key, value, timeout)

    def get(self, key, default):
        return self._guard(lambda: default, super().get, key, default)

    def set(self, key, value, timeout):
        return self._guard(_none, super().set, key, value, timeout)

    def touch(self, key, timeout):
        return self._guard(_false, super().touch, key, timeout)

    def delete(self, key):
        return self._guard(_false, super().delete, key)

    def get_many(self, keys):
        return self._guard(_empty, super().get_many, keys)

    def has_key(self, key):
        return self._guard(_false, super().has_key, key)

    def incr(self, key, delta):
        return self._guard(_not_there, super().incr, key, delta)

    def set_many(self, data, timeout):
        return self._guard(_none, super().set_many, data, timeout)

    def delete_many(self, keys):
        return self._guard(_none, super().delete_many, keys)

    def clear(self):
        return self._guard(_false, super().clear)

    def ping(self) -> None:
        """Ask Redis, whatever the outage says; raise if it does not answer."""
        try:
            self.get_client(write=True).ping()
        except self._lib.RedisError as error:
            if self._failing(error):
                self.outage.failed(error)
            raise
        self.outage.answered()


class SharedRedisCache(RedisCache):
    """Django's RedisCache whose failures are misses (ForgivingClient)."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = ForgivingClient
        self.outage = outage_of(self._servers)

    @cached_property
    def _cache(self) -> ForgivingClient:
        client = self._class(self._servers, **self._options)
        client.outage = self.outage
        return client

    def probe(self) -> None:
        """For /healthz: does Redis answer now? Raises if not."""
        self._cache.ping()


def reachable(alias: str = "default") -> bool:
    """False while this process finds the cache down (only a SharedRedisCache can be: the
    other backends raise their errors, or live in the process itself)."""
    outage = getattr(caches[alias], "outage", None)
    return outage is None or not outage.down
