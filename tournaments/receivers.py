"""Listening to the scoring app: a table's confirmed (or reopened) result moves standings."""

from django.dispatch import receiver

from scoring.signals import game_confirmed, game_reopened

from . import tasks
from .models import Table
from .queue import enqueue_now


@receiver(game_confirmed)
@receiver(game_reopened)
def rebuild_standings(sender, game, **kwargs):
    table = Table.objects.filter(game=game).select_related("round").first()
    if table is not None:
        enqueue_now(tasks.build_standings, table.round.event_id)
