"""Polls held at the door until their answer changes (long-poll), and the gate of real work.

A phone waiting for a round asks "tell me when the version is no longer mine, or after a
while" (the wait marker, config.door). Answering at once and asking again every few seconds
costs a whole request each time (docs/performance.md, "My next seat"); holding the request
costs a sleeping thread and nothing else. So a process of the venue laptop (bin/serve: many
threads, a few of them working) **parks** such a poll here: its thread sleeps on an Event
until this process's **watcher**, one background thread that once a tick reads what the
parked polls stand on (their door answer's ``watch``, once a tick for all of that answer's
polls: one statement for every held game's sheet, one cache read for an event's version),
sees it move, or until the poll's deadline.

Python runs one thread of a process at a time, and four processes of two threads got
through a round's burst in half the time eight threads did (bin/serve's comment); a
hundred threads working at once would be worse. So every request that is not parked passes
the **gate** (``working`` at once, in the order they came: ``Gate``) for its work; a parked
poll leaves it while it sleeps. At most ``threads - working`` polls park at once: the rest
are answered at once, as before, and their page polls at its plain pace.

Only a worker that says how many threads it serves with parks (``serve_with_threads``,
config.gunicorn_workers.ThreadWorker); a sync worker (the PostgreSQL deploy's), a server of
two threads, or a Django test client never park and have no gate: nothing changes there.
"""

from __future__ import annotations

import logging
import operator
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from django.conf import settings

log = logging.getLogger(__name__)

#: What a watch that failed reads as: never equal to a parked value, so its polls wake and
#: go on to Django, which answers (and logs) as it always did.
UNREADABLE = object()

#: What a group's polls stand on now: called with the items of the group's parked polls (each
#: once), it answers what each stands on, in their order.
ReadAll = Callable[[Sequence[Hashable]], Sequence[object]]


class Gate:
    """At most `places` threads inside at once, let in in the order they came, as gunicorn's
    queue of requests let them in when a process had only its few threads. Not
    threading.Semaphore: a thread it wakes must win the semaphore again against the threads
    that just arrived, so at a round's burst (hundreds of requests waiting on a process's
    threads) one request could lose again and again while later ones went through. Here a
    place that is freed is handed to the longest-waiting thread."""

    def __init__(self, places: int) -> None:
        self._free = places
        self._lock = threading.Lock()
        self._waiting: deque[threading.Lock] = deque()

    def __enter__(self) -> None:
        with self._lock:
            if self._free > 0:
                self._free -= 1
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append(turn)
        turn.acquire()  # released by the thread that hands its place over

    def __exit__(self, *exc_info) -> None:
        with self._lock:
            if self._waiting:
                self._waiting.popleft().release()
            else:
                self._free += 1


@dataclass(eq=False)
class _Spot:
    value: object
    woken: threading.Event = field(default_factory=threading.Event)


class Parking:
    """One process's parked polls, their watcher and the gate. `threads`: how many the
    server may run at once; `working`: how many of them may do work at once (the gate);
    `tick`: seconds between two looks of the watcher."""

    def __init__(self, threads: int, working: int, tick: float = 1.0) -> None:
        self.room = max(0, threads - working)
        self.gate = Gate(max(1, working))
        self.tick = tick
        self._lock = threading.Lock()
        # group -> (its read, its moved, item -> the spots parked on that item)
        self._parked: dict[Hashable, tuple[ReadAll, Callable, dict[Hashable, set[_Spot]]]] = {}
        self._count = 0
        self._watcher: threading.Thread | None = None

    @property
    def parked(self) -> int:
        return self._count

    def has_room(self) -> bool:
        return self._count < self.room

    def park(
        self,
        group: Hashable,
        item: Hashable,
        read: ReadAll,
        value: object,
        seconds: float,
        moved: Callable[[object, object], bool] = operator.ne,
    ):
        """Sleep until what `item` stands on has moved from `value` (`moved(value, now)`:
        True), or `seconds` passed (False); None at once when no room is left. The polls of
        one `group` (a door answer) are read together, once a tick: `read` gets every item
        parked in it (a game's id, an event's slug; each once, however many polls hold it)
        and answers each one's value; `moved` is the group's, as `read` is."""
        spot = _Spot(value)
        with self._lock:
            if self._count >= self.room:
                return None
            self._count += 1
            items = self._parked.setdefault(group, (read, moved, {}))[2]
            items.setdefault(item, set()).add(spot)
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="door-watcher")
                self._watcher.daemon = True
                self._watcher.start()
        try:
            return spot.woken.wait(seconds)
        finally:
            with self._lock:
                self._count -= 1
                items = self._parked[group][2]
                items[item].discard(spot)
                if not items[item]:
                    del items[item]
                if not items:
                    del self._parked[group]

    def _watch(self) -> None:
        while True:
            time.sleep(self.tick)
            self.look()

    def look(self) -> None:
        """One look: read what each group's parked polls stand on, once for the group, and
        wake those it moved for."""
        with self._lock:
            watched = [
                (read, moved, [(item, list(spots)) for item, spots in items.items()])
                for read, moved, items in self._parked.values()
            ]
        if not watched:
            return
        for read, moved, parked in watched:
            try:
                values = list(read([item for item, _ in parked]))
                if len(values) != len(parked):
                    raise ValueError("a watch answered another number of values")
            except Exception:  # noqa: BLE001 - the polls go on to Django, which answers it
                log.debug("a parked poll's watch failed", exc_info=True)
                values = [UNREADABLE] * len(parked)
            for (_item, spots), now in zip(parked, values, strict=True):
                for spot in spots:
                    if now is UNREADABLE or moved(spot.value, now):
                        spot.woken.set()
        release_connections()  # a watch's query, as at a request's end


def release_connections() -> None:
    """Give back this thread's database connections as at a request's end: a parked poll and
    the watcher hold none while they sleep (with a pool, database_connections, they go back
    to it; a connection kept a thread stays, as it does between requests)."""
    from django.db import close_old_connections  # not at import: settings import this module

    close_old_connections()


def database_connections(working: int) -> int | None:
    """The database connections a process needs at most when it parks polls: one for each
    of its `working` threads and one for the watcher; None when it parks none (then each
    thread keeps its own, as ever). A process of 512 threads that each kept one would ask
    PostgreSQL for more than it allows (its max_connections, 100 by default): so on
    PostgreSQL such a process shares a pool of this size (config.env.database_from_env).
    Read by the settings, after the worker said how many threads it serves with."""
    return working + 1 if _threads > working else None


#: The threads this process's server runs requests on (0: it did not say; no parking).
_threads = 0
_process_parking: Parking | None = None
_made = False


def serve_with_threads(threads: int) -> None:
    """Called by the server's worker, in its process, before the site loads: it runs up to
    `threads` requests at once on threads that may sleep."""
    global _threads, _made, _process_parking
    _threads, _made, _process_parking = threads, False, None


def process_parking() -> Parking | None:
    """This process's parking, made once from settings.WORKING_THREADS and
    DOOR_WAIT_TICK_SECONDS; None when the server did not say it has threads to spare."""
    global _made, _process_parking
    if not _made:
        working = settings.WORKING_THREADS
        if _threads > working:
            _process_parking = Parking(_threads, working, settings.DOOR_WAIT_TICK_SECONDS)
        _made = True
    return _process_parking
