"""Enqueueing Celery tasks, by name, so that a broker outage never loses a write.

Services name the task ("pair_round", "build_standings") rather than import tournaments.tasks:
the tasks call the services, and the arrows point one way (tasks -> services -> queue). The
task is found in the Celery app's registry (tournaments.tasks is imported when the app is
ready, by tournaments.receivers).

Tasks are enqueued after the writing transaction commits. If the broker cannot be reached,
the write stands, the failure is logged, and the work is picked up later: the event's
results_version says the standings are stale, and the periodic sweep rebuilds them (and
pairs rounds still pending).
"""

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)

#: Where the tasks are registered (their module's dotted path).
TASKS = "tournaments.tasks"


def task_named(name: str):
    return current_app.tasks[f"{TASKS}.{name}"]


def enqueue_on_commit(name: str, *args) -> None:
    transaction.on_commit(lambda: enqueue_now(name, *args))


#: The tasks held back by `coalesced` in this thread: (name, args) in order, each once.
_held = threading.local()


@contextmanager
def coalesced(*names: str) -> Iterator[None]:
    """Within the block, the tasks named are held back, each (name, args) once, and enqueued
    once at its end: a script that makes many changes in a row (manage.py simulate_event
    confirming a round's tables, tasks run in process) asks for one standings build of the
    event after them, not one a change, each of which a later one made useless at once (at
    999 players each build renders the whole table: a round's 333 builds cost minutes). A
    worker coalesces the builds of a room's phones by time instead (tasks.build_standings)."""
    if getattr(_held, "tasks", None) is not None:  # within another: the outer one enqueues
        yield
        return
    _held.tasks, _held.names = {}, frozenset(names)
    try:
        yield
    finally:
        tasks, _held.tasks = _held.tasks, None
        for name, args in tasks:
            enqueue_now(name, *args)


def enqueue_now(name: str, *args) -> bool:
    held = getattr(_held, "tasks", None)
    if held is not None and name in _held.names:
        held.setdefault((name, args), None)
        return True
    try:
        task_named(name).delay(*args)
    except Exception:  # noqa: BLE001 - any broker failure; the work is recoverable
        log.exception("could not enqueue %s%r; it will be retried later", name, args)
        return False
    return True
