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

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)

#: Where the tasks are registered (their module's dotted path).
TASKS = "tournaments.tasks"


def task_named(name: str):
    return current_app.tasks[f"{TASKS}.{name}"]


def enqueue_on_commit(name: str, *args) -> None:
    transaction.on_commit(lambda: enqueue_now(name, *args))


def enqueue_now(name: str, *args) -> bool:
    try:
        task_named(name).delay(*args)
    except Exception:  # noqa: BLE001 - any broker failure; the work is recoverable
        log.exception("could not enqueue %s%r; it will be retried later", name, args)
        return False
    return True
