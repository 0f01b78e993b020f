"""Writes to events: registration, rounds, publishing, results, standings.

Views, the API, the tasks and the simulator all come through here. Pairings and standings
are computed by the pure modules (via tournaments.bridge) inside Celery tasks; these
modules hold what those tasks run, so the same code runs with or without a worker. They
enqueue tasks by name (tournaments.queue) and never import the tasks, the views or the
presenters. Each refusal is a tournaments.errors error with a code (tournaments.messages).

- event: clubs, events and their settings (tournaments.event_settings), organisers
- registration: entering players, check-in, withdrawal
- rounds: asking for, building, rebuilding, publishing and closing rounds
- results: confirming and reopening results, building the standings
- pins: each table's typeable PIN, made on publishing, renewed, checked against guessing
"""

from tournaments.services._common import standings_changed
from tournaments.services.event import club_create, event_create, event_update, organiser_add
from tournaments.services.registration import (
    clean_name,
    entries_check_in_all,
    entry_check_in,
    entry_reinstate,
    entry_withdraw,
    players_register,
)
from tournaments.services.results import result_confirm, result_reopen, standings_build
from tournaments.services.rounds import (
    round_close,
    round_create,
    round_delete,
    round_pair,
    round_publish,
    round_refusal,
    round_retry,
    round_swap,
    too_few_players,
)

__all__ = [
    "clean_name",
    "club_create",
    "entries_check_in_all",
    "entry_check_in",
    "entry_reinstate",
    "entry_withdraw",
    "event_create",
    "event_update",
    "organiser_add",
    "players_register",
    "result_confirm",
    "result_reopen",
    "round_close",
    "round_create",
    "round_delete",
    "round_pair",
    "round_publish",
    "round_refusal",
    "round_retry",
    "round_swap",
    "standings_build",
    "standings_changed",
    "too_few_players",
]
