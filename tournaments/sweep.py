"""What the periodic sweep redoes: work whose task was never enqueued or was lost.

Enqueueing happens after commit and a broker outage only logs (tournaments.queue), so a
confirmed result may wait for its standings build and a requested round for its pairing.
Celery beat runs ``tasks.sweep`` every minute; it asks these two questions and enqueues the
answers. Both tasks are idempotent, so a sweep that overlaps a live task changes nothing.
"""

from __future__ import annotations

from . import bridge
from .models import Event, Round


def events_with_stale_standings() -> list[int]:
    """Open events whose newest standings were built from older results (or never built).

    Each event once (distinct: the join to its rounds would list it once per round, and the
    stamp is dear), and only the newest snapshot's stamp read, not its rows."""
    events = Event.objects.exclude(status=Event.Status.CLOSED).filter(rounds__isnull=False)
    return [
        event.pk
        for event in events.distinct().order_by("pk")
        if event.standings.values_list("results_stamp", flat=True).first()
        != bridge.results_stamp(event)
    ]


def rounds_waiting_for_pairing() -> list[int]:
    """Rounds asked for that no worker has paired yet. A round whose task is merely queued is
    named too: pairing is idempotent under the round's row lock, so the second run returns
    at once when it sees the round built. A round that can't be built ends `failed` with its
    reason (services.round_pair), so it is named once, not raised on every minute."""
    waiting = Round.objects.filter(status=Round.Status.PENDING).order_by("pk")
    return list(waiting.values_list("pk", flat=True))
