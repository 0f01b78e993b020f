"""Listening to the scoring app: a table's confirmed (or reopened) result moves standings.

Scoring sends its signals inside the transaction that changes the result, so the event's
results_version goes up with the result (or not at all), and the build is enqueued on commit.
The tasks are imported here so that the Celery app knows them by name in every process
(tournaments.queue enqueues by name).
"""

from django.dispatch import receiver

from scoring.signals import game_confirmed, game_reopened

from . import tasks  # noqa: F401 - registers the tasks by name
from .models import Table
from .services import standings_changed


@receiver(game_confirmed)
@receiver(game_reopened)
def results_changed(sender, game, **kwargs):
    event_id = Table.objects.filter(game=game).values_list("round__event_id", flat=True).first()
    if event_id is not None:
        standings_changed(event_id)
