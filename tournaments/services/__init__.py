"""Writes to events: registration, rounds, publishing, results, standings.

Views, the API, the tasks and the simulator all come through here. Pairings and standings
are computed by the pure modules (via tournaments.common.bridge) inside Celery tasks; these
modules hold what those tasks run, so the same code runs with or without a worker. They
enqueue tasks by name (tournaments.common.queue) and never import the tasks, the views or the
presenters. Each refusal is a tournaments.common.errors error with a code (tournaments.common.messages).

- event: clubs, events and their settings (tournaments.common.event_settings), organisers
- registration: entering players, check-in, withdrawal
- rounds: asking for, building, rebuilding, publishing and closing rounds
- results: confirming and reopening results, building the standings
- pins: each table's typeable PIN, made on publishing, renewed, checked against guessing
"""
