"""Celery tasks: they take ids, are idempotent, and retry when the database hiccups.

A task whose round or event no longer exists (a message left in a broker from before)
does nothing.
"""

from celery import shared_task
from django.db import DatabaseError

from . import services
from .models import Event, Round

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
        return services.round_pair(round_id=round_id).status
    except Round.DoesNotExist:
        return None


@shared_task(**RETRY)
def build_standings(event_id: int) -> int | None:
    try:
        return services.standings_build(event_id=event_id).pk
    except Event.DoesNotExist:
        return None
