"""Celery tasks: they take ids, are idempotent, and retry when the database hiccups.

A task whose round or event no longer exists (a message left in a broker from before)
does nothing.
"""

import logging
import time

from celery import shared_task
from django.core.cache import cache
from django.db import DatabaseError
from django.utils import timezone

from tournaments.clubs.services import ratings as rate
from tournaments.common.queue import enqueue_now
from tournaments.models import Club, Event, Round, Standings
from tournaments.results.services import standings_build
from tournaments.results.sweep import events_with_stale_standings, rounds_waiting_for_pairing
from tournaments.rounds import render as round_page_render
from tournaments.rounds.services.rounds import round_pair
from tournaments.rounds.web import renew_phone_version

#: The least time between two standings builds of one event by a worker. A round's results
#: come in together, a few a second at a big event: building once per confirmation stored a
#: snapshot (a row per player) every fraction of a second, and each new snapshot sends every
#: phone polling the standings a fresh copy. Results confirmed within this time are taken up
#: by one build, at most this long after the first of them.
BUILD_INTERVAL_SECONDS = 3.0
#: A build already put off to this much later or more takes up the results that come in
#: meanwhile: their own tasks return at once instead of each putting a build off too (333
#: confirmations in a minute kept the worker busy re-running the tasks that found nothing to
#: build). The margin covers clocks that differ between the worker's hosts.
DUE_MARGIN_SECONDS = 0.5

log = logging.getLogger(__name__)

RETRY = dict(
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
)


@shared_task(**RETRY)
def pair_round(round_id: int) -> str | None:
    try:
        return round_pair(round_id=round_id).status
    except Round.DoesNotExist:
        return None


def build_wait(event_id: int) -> float:
    """Seconds to put a build off by: 0 unless the last build is under BUILD_INTERVAL_SECONDS
    old and results have come in since (with nothing new, the build returns at once anyway).
    """
    latest = Standings.objects.filter(event_id=event_id).only("built_at", "results_version").first()
    if latest is None:
        return 0.0
    since = (timezone.now() - latest.built_at).total_seconds()
    if since >= BUILD_INTERVAL_SECONDS:
        return 0.0
    if latest.is_current(Event.objects.only("results_version").get(pk=event_id)):
        return 0.0
    return BUILD_INTERVAL_SECONDS - since


def _due_key(event_id: int) -> str:
    return f"standings-build-due:{event_id}"


def build_due_later(event_id: int) -> bool:
    """Whether a build of the event has been put off to a time still ahead: it has not
    started, so it reads every result committed before now (as the sweep would, should its
    message be lost)."""
    due = cache.get(_due_key(event_id))
    return due is not None and due > time.time() + DUE_MARGIN_SECONDS


def put_off(task, seconds: float) -> bool:
    """Send the running task again, to run in `seconds`, to the queue it came from (as a retry
    does, without counting as one); False (and logged) if the broker cannot take it."""
    try:
        task.signature_from_request().apply_async(countdown=seconds)
    except Exception:  # noqa: BLE001 - any broker failure: the caller does the work now
        log.exception("could not put %s%r off; running it now", task.name, task.request.args)
        return False
    return True


@shared_task(bind=True, **RETRY)
def build_standings(self, event_id: int) -> int | None:
    """Build the event's standings, or, right after another build, once a little later (run
    eagerly, as in tests and without a worker, it always builds at once)."""
    try:
        wait = 0.0 if self.request.is_eager else build_wait(event_id)
        if wait > 0:
            if build_due_later(event_id):
                return None
            if put_off(self, wait):
                cache.set(_due_key(event_id), time.time() + wait, wait + 60)
                return None
        return standings_build(event_id=event_id).pk
    except Event.DoesNotExist:
        return None


@shared_task
def prerender_round(round_id: int) -> int:
    """Write a round just published into the shared cache as its pages will look for it (its
    tables in every language, the event's seat map: tournaments.rounds.render), before
    the room's phones ask, and the event's new phone version ("My next seat"). Not retried,
    and a failure is only logged: the pages render on demand anyway, and a late pre-render
    would be of no use. The number of entries written."""
    written = round_page_render.prerender_quietly(round_id)
    slug = Event.objects.filter(rounds__pk=round_id).values_list("slug", flat=True).first()
    if slug is not None:  # the waiting phones' next poll learns of the round at once
        renew_phone_version(slug)
    return len(written)


@shared_task(**RETRY)
def rate_game(game_id: int) -> str:
    """Bring the game's club ratings up to date with its result (clubs.services.ratings)."""
    return rate.rate_game(game_id)


@shared_task(**RETRY)
def rerate_club(club_id: int) -> int | None:
    """Rate every game of the club again (a club setting that changes what is rated)."""
    try:
        return rate.rebuild(club_id)
    except Club.DoesNotExist:
        return None


@shared_task
def sweep() -> dict:
    """Re-enqueue standings builds and pairings that a broker outage may have lost."""
    events = events_with_stale_standings()
    rounds = rounds_waiting_for_pairing()
    for event_id in events:
        enqueue_now("build_standings", event_id)
    for round_id in rounds:
        enqueue_now("pair_round", round_id)
    return {"standings": events, "rounds": rounds}
