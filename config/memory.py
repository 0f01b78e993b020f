"""The few latest values a process keeps in its own memory, by key.

For what is cheaper kept here than fetched from the shared cache (a write to the venue
laptop's file cache, a 450 KB read from Redis) and whose key names its own version, so that
a kept value is never out of date: the oldest is forgotten past `limit`, which only bounds
the memory. Safe across a gunicorn process's threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator


class Recent:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._values: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable):
        """The value kept under `key` (now the latest used), or None."""
        with self._lock:
            value = self._values.get(key)
            if value is not None:
                self._values.move_to_end(key)
            return value

    def get_or_fetch(self, key: Hashable, fetch: Callable[[], object]):
        """The value kept under `key`; else what `fetch()` finds (the same value from the
        shared cache, fetched once per process), kept from now on; None if neither has it."""
        value = self.get(key)
        if value is None:
            value = fetch()
            if value is not None:
                self.put(key, value)
        return value

    def put(self, key: Hashable, value: object) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.limit:
                self._values.popitem(last=False)

    __setitem__ = put

    def forget(self, key: Hashable) -> None:
        with self._lock:
            self._values.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._values

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Hashable]:
        """The keys, the oldest used first."""
        with self._lock:
            return iter(list(self._values))
