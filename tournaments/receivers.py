"""Listening to the scoring app: a table's confirmed (or reopened) result moves standings;
and to a player's rename or withdrawal, which the shared copies of the public pages must
forget.

Scoring sends its signals inside the transaction that changes the result, so the event's
results_version goes up with the result (or not at all), and the build is enqueued on commit.
The tasks are imported here so that the Celery app knows them by name in every process
(tournaments.common.queue enqueues by name).
"""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from scoring.signals import (
    deal_recorded,
    game_clock_marks,
    game_confirmed,
    game_place,
    game_reopened,
    seat_identity,
)
from tournaments import tasks  # noqa: F401 - registers the tasks by name
from tournaments.common.queue import enqueue_on_commit
from tournaments.common.services import standings_changed
from tournaments.events.selectors.identity import identity_at_table
from tournaments.models import Entry, Player, Table
from tournaments.rounds import render as round_page_render
from tournaments.rounds.selectors import clock_marks_of_games, table_place
from tournaments.rounds.services import clock


@receiver(game_confirmed)
@receiver(game_reopened)
def results_changed(sender, game, **kwargs):
    event_id = Table.objects.filter(game=game).values_list("round__event_id", flat=True).first()
    if event_id is not None:
        standings_changed(event_id)


@receiver(game_confirmed)
@receiver(game_reopened)
def ratings_changed(sender, game, **kwargs):
    """A club's ratings follow its confirmed results (tournaments.clubs.services.ratings.rate_game
    decides whether the game is rated on its own or the club re-rated from it). A void or a
    substitution needs no call: each is refused on a confirmed game, which is reopened
    first."""
    enqueue_on_commit("rate_game", game.pk)


@receiver(deal_recorded)
def clock_at_time(sender, game, **kwargs):
    """After the round's time, a deal recorded may end its game (the event's rule at time,
    tournaments.rounds.services.clock); answers whether it did."""
    return clock.deal_recorded(game)


@receiver(game_clock_marks)
def clock_marks_of(sender, game_ids, **kwargs):
    return clock_marks_of_games(game_ids)


@receiver(game_place)
def place_of(sender, game, **kwargs):
    """Where an event's table game is played: the event, the round and the table's number; and
    the round's clock (rounds.selectors.Clock) if the event has one. One query."""
    return table_place(game.pk)


@receiver(seat_identity)
def identity_of_phone(sender, game, cookies, **kwargs):
    """Who a phone has proven to be at the event whose table plays the game, and their seat."""
    return identity_at_table(game, cookies)


@receiver(post_save, sender=Player)
def player_renamed(sender, instance: Player, created: bool, update_fields=None, **kwargs):
    """A renamed player's name is in the shared copies of their events' seat maps and round
    tables, whose keys a rename does not move: they are forgotten once the rename commits."""
    if created or (update_fields is not None and "name" not in update_fields):
        return
    player_id = instance.pk
    transaction.on_commit(lambda: round_page_render.forget_player(player_id))


@receiver(post_save, sender=Entry)
def entry_withdrawn(sender, instance: Entry, update_fields=None, **kwargs):
    """A withdrawal (or reinstatement) changes the names "where do I sit" matches: the shared
    copy of the event's seat map is forgotten once it commits."""
    if update_fields and "withdrawn" in update_fields:
        event_id = instance.event_id
        transaction.on_commit(lambda: round_page_render.forget_seat_map(event_id))
