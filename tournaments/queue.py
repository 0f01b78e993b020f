"""Enqueueing Celery tasks so that a broker outage never loses a write.

Tasks are enqueued after the writing transaction commits. If the broker cannot be reached,
the write stands, the failure is logged, and the work is picked up later: standings know
when they are stale (results newer than the last build) and are rebuilt on the next
enqueue or by the periodic sweep.
"""

import logging

from django.db import transaction

log = logging.getLogger(__name__)


def enqueue_on_commit(task, *args) -> None:
    transaction.on_commit(lambda: enqueue_now(task, *args))


def enqueue_now(task, *args) -> bool:
    try:
        task.delay(*args)
    except Exception:  # noqa: BLE001 - any broker failure; the work is recoverable
        log.exception("could not enqueue %s%r; it will be retried later", task.name, args)
        return False
    return True
