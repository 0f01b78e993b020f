"""Polls held at the door until their answer changes (long-poll), and the gate of real work.

A phone waiting for a round asks "tell me when the version is no longer mine, or after a
while" (the wait marker, config.door). Answering at once and asking again every few seconds
costs a whole request each time (docs/performance.md, "My next seat"). So a process of the
venue laptop **parks** such a poll here until this process's **watcher**, one background
thread that once a tick reads what the parked polls stand on (their door answer's ``watch``,
once a tick for all of that answer's polls: one statement for every held game's sheet, one
cache read for an event's version), sees it move, or until the poll's deadline; then it wakes
the poll, which is answered.

bin/serve's worker (config.gunicorn_workers.ThreadWorker) **holds** a parked poll without a
thread: its connection waits beside the idle kept ones, and the watcher hands the poll back to
a thread when it wakes (``Parking.hold``). So a process holds as many polls as its ``room``
(half its connections) whatever its threads. A server that cannot do that may still **park**
a poll in the thread that runs it (``Parking.park``: asleep on an Event), up to one a spare
thread.

Python runs one thread of a process at a time, and four processes of two threads got
through a round's burst in half the time eight threads did (bin/serve's comment); a
hundred threads working at once would be worse. So every request that is not parked passes
the **gate** (``working`` at once, in the order they came: ``Gate``) for its work; a parked
poll leaves it while it waits. Beyond the room, polls are answered at once, as before, and
their page polls at its plain pace.

Only a worker that says how many threads it serves with parks (``serve_with_threads``); a
sync worker (the PostgreSQL deploy's), a server of two threads, or a Django test client never
park and have no gate: nothing changes there.
"""

from __future__ import annotations

import logging
import operator
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from django.conf import settings

log = logging.getLogger(__name__)

#: What a watch that failed reads as: never equal to a parked value, so its polls wake and
#: go on to Django, which answers (and logs) as it always did.
UNREADABLE = object()

#: The WSGI environ's key by which a server offers to hold a request without a thread: its
#: value, called with how to answer later (``answer(moved)``, a WSGI answer), returns what the
#: application returns in place of an answer, with a ``wake(moved)`` for ``Parking.hold``.
HOLD = "config.parking.hold"

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
    deadline: float  # time.monotonic()
    wake: Callable[[bool], None]  # told once: moved (True) or the deadline (False)


class Parking:
    """One process's parked polls, their watcher and the gate. `threads`: how many the
    server may run at once; `working`: how many of them may do work at once (the gate);
    `tick`: seconds between two looks of the watcher; `room`: how many polls may wait at once
    (default: the threads beyond the working ones, each sleeping in one; a server that holds
    a poll without a thread says its own)."""

    def __init__(
        self, threads: int, working: int, tick: float = 1.0, room: int | None = None
    ) -> None:
        self.room = max(0, threads - working) if room is None else max(0, room)
        self.gate = Gate(max(1, working))
        self.tick = tick
        self._lock = threading.Lock()
        # group -> (its read, its moved, item -> the spots parked on that item)
        self._parked: dict[Hashable, tuple[ReadAll, Callable, dict[Hashable, set[_Spot]]]] = {}
        self._count = 0
        self._watcher: threading.Thread | None = None
        self._closed = threading.Event()

    @property
    def parked(self) -> int:
        return self._count

    def has_room(self) -> bool:
        return self._count < self.room

    def hold(
        self,
        group: Hashable,
        item: Hashable,
        read: ReadAll,
        value: object,
        seconds: float,
        moved: Callable[[object, object], bool],
        wake: Callable[[bool], None],
    ) -> bool:
        """Hold a poll without a thread: `wake(True)` is called (once, on the watcher's thread)
        when what `item` stands on has moved from `value` (`moved(value, now)`), or
        `wake(False)` at the first look after `seconds`. False at once when no room is left.
        The polls of one `group` (a door answer) are read together, once a tick: `read` gets
        every item parked in it (a game's id, an event's slug; each once, however many polls
        hold it) and answers each one's value; `moved` is the group's, as `read` is."""
        spot = _Spot(value, time.monotonic() + seconds, wake)
        with self._lock:
            if self._count >= self.room or self._closed.is_set():
                return False
            self._count += 1
            items = self._parked.setdefault(group, (read, moved, {}))[2]
            items.setdefault(item, set()).add(spot)
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="door-watcher")
                self._watcher.daemon = True
                self._watcher.start()
        return True

    def park(
        self,
        group: Hashable,
        item: Hashable,
        read: ReadAll,
        value: object,
        seconds: float,
        moved: Callable[[object, object], bool] = operator.ne,
    ):
        """`hold` in this thread, asleep: True when it moved, False at the deadline; None at
        once when no room is left. (A server that holds polls without threads uses `hold`.)"""
        woken = threading.Event()
        said: list[bool] = []

        def wake(has_moved: bool) -> None:
            said.append(has_moved)
            woken.set()

        if not self.hold(group, item, read, value, seconds, moved, wake):
            return None
        if not woken.wait(seconds):  # the watcher may be a tick late: the deadline is now
            with self._lock:
                if self._leave(group, item, lambda spot: spot.wake is wake):
                    return False
            woken.wait()  # the watcher took it meanwhile and is telling it
        return said[0]

    def _leave(self, group: Hashable, item: Hashable, which: Callable[[_Spot], bool]) -> bool:
        """Take the spots `which` picks off `item` (under the lock); whether any was there."""
        entry = self._parked.get(group)
        spots = entry[2].get(item, set()) if entry else set()
        gone = {spot for spot in spots if which(spot)}
        if not gone:
            return False
        spots -= gone
        self._count -= len(gone)
        if not spots:
            del entry[2][item]
            if not entry[2]:
                del self._parked[group]
        return True

    def let_go(self) -> None:
        """Wake every poll held now as at its deadline (a server stopping answers them at
        once, as they would have been answered without waiting)."""
        with self._lock:
            spots = [
                spot
                for _, _, items in self._parked.values()
                for held in items.values()
                for spot in held
            ]
            self._parked.clear()
            self._count = 0
        _wake([(spot, False) for spot in spots])

    def close(self) -> None:
        """Stop holding: every poll held now is let go (`let_go`), none is held from now on,
        and the watcher stops, giving back its database connection (kept between looks, as a
        request's thread keeps its own). A stopping server closes its parking, so PostgreSQL
        sees the watcher's connection closed rather than dropped; so does a test done with
        one, so no watcher outlives it holding a connection to the test database."""
        self._closed.set()
        self.let_go()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=10)

    def _watch(self) -> None:
        from django.db import connections  # not at import: settings import this module

        try:
            while not self._closed.wait(self.tick):
                try:
                    self.look()
                except Exception:  # a look that fails must not stop the watcher: look again
                    log.exception("the door's watcher failed a look")
        finally:
            connections.close_all()  # this thread's

    def look(self) -> None:
        """One look: read what each group's parked polls stand on, once for the group; wake
        those it moved for, and those past their deadline."""
        with self._lock:
            watched = [
                (group, read, moved, list(items))
                for group, (read, moved, items) in self._parked.items()
            ]
        if not watched:
            return
        woken: list[tuple[_Spot, bool]] = []
        for group, read, moved, parked in watched:
            try:
                values = list(read(parked))
                if len(values) != len(parked):
                    raise ValueError("a watch answered another number of values")
            except Exception:  # noqa: BLE001 - the polls go on to Django, which answers it
                log.debug("a parked poll's watch failed", exc_info=True)
                values = [UNREADABLE] * len(parked)
            now = time.monotonic()
            with self._lock:
                for item, value in zip(parked, values, strict=True):
                    entry = self._parked.get(group)
                    spots = entry[2].get(item, ()) if entry else ()
                    gone: dict[_Spot, bool] = {}  # the spots woken, and whether they moved
                    for spot in spots:
                        has_moved = value is UNREADABLE or moved(spot.value, value)
                        if has_moved or spot.deadline <= now:
                            gone[spot] = has_moved
                    if gone:
                        self._leave(group, item, gone.__contains__)
                        woken.extend(gone.items())
        release_connections()  # a watch's query, as at a request's end
        _wake(woken)


def _wake(woken: list[tuple[_Spot, bool]]) -> None:
    """Tell each spot taken off the parking whether it moved; one poll's server failing must
    not keep the others asleep."""
    for spot, has_moved in woken:
        try:
            spot.wake(has_moved)
        except Exception:  # noqa: BLE001 - logged, and the next spot is told
            log.exception("a held poll could not be woken")


def release_connections() -> None:
    """Give back this thread's database connections as at a request's end: a parked poll and
    the watcher hold none while they sleep (with a pool, database_connections, they go back
    to it; a connection kept a thread stays, as it does between requests)."""
    from django.db import close_old_connections  # not at import: settings import this module

    close_old_connections()


def database_connections(working: int) -> int | None:
    """The database connections a process needs at most when it parks polls: one for each
    of its `working` threads and one for the watcher; None when it parks none (then each
    thread keeps its own, as ever). Four processes of 64 threads that each kept one would ask
    PostgreSQL for more than it allows (its max_connections, 100 by default): so on
    PostgreSQL such a process shares a pool of this size (config.env.database_from_env).
    Read by the settings, after the worker said how many threads it serves with."""
    return working + 1 if _threads > working else None


#: The threads this process's server runs requests on (0: it did not say; no parking).
_threads = 0
#: How many polls it may hold at once (None: one a spare thread).
_room: int | None = None
_process_parking: Parking | None = None
_made = False


def serve_with_threads(threads: int, room: int | None = None) -> None:
    """Called by the server's worker, in its process, before the site loads: it runs up to
    `threads` requests at once on threads that may sleep, and holds up to `room` polls
    (a worker that holds them without a thread: HOLD)."""
    global _threads, _room, _made, _process_parking
    _threads, _room, _made, _process_parking = threads, room, False, None


def made_parking() -> Parking | None:
    """This process's parking if it was made (none is made for it)."""
    return _process_parking


def process_parking() -> Parking | None:
    """This process's parking, made once from settings.WORKING_THREADS and
    DOOR_WAIT_TICK_SECONDS; None when the server did not say it has threads to spare."""
    global _made, _process_parking
    if not _made:
        working = settings.WORKING_THREADS
        if _threads > working:
            tick = settings.DOOR_WAIT_TICK_SECONDS
            _process_parking = Parking(_threads, working, tick, room=_room)
        _made = True
    return _process_parking
