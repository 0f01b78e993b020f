"""What the periodic sweep redoes: work whose task was never enqueued or was lost.

Enqueueing happens after commit and a broker outage only logs (tournaments.common.queue), so a
changed result may wait for its standings build and a requested round for its pairing.
Celery beat runs ``tasks.sweep`` every minute; it asks these two questions and enqueues the
answers. Both tasks are idempotent, so a sweep that overlaps a live task changes nothing.
"""

from __future__ import annotations

from tournaments.models import Event, Round
from tournaments.results.selectors import stale_standings


def events_with_stale_standings() -> list[int]:
    """Open events with rounds whose newest standings are stale (or were never built), by
    the one rule (selectors.stale_standings), in one query."""
    events = Event.objects.exclude(status=Event.Status.CLOSED).filter(rounds__isnull=False)
    stale = stale_standings(events.distinct())
    return list(stale.order_by("pk").values_list("pk", flat=True))


def rounds_waiting_for_pairing() -> list[int]:
    """Rounds asked for that no worker has paired yet. A round whose task is merely queued is
    named too: pairing is idempotent under the round's row lock, so the second run returns
    at once when it sees the round built. A round that can't be built ends `failed` with its
    reason (services.round_pair), so it is named once, not raised on every minute."""
    waiting = Round.objects.filter(status=Round.Status.PENDING).order_by("pk")
    return list(waiting.values_list("pk", flat=True))
