"""What the scoring app tells the rest of the site, without knowing who listens.

`game_confirmed` and `game_reopened` are sent inside the transaction that changes the result,
so what a listener writes (the tournaments app marking the event's standings stale) commits
or rolls back with it; a listener that starts work elsewhere (a Celery task) does so on
commit.
"""

from django.dispatch import Signal

game_confirmed = Signal()  # kwargs: game
game_reopened = Signal()  # kwargs: game
# Asked, not told: where a game is played, for the heading of its table page. A listener that
# owns the game answers {"event": name, "round": number, "table": number}; else None.
game_place = Signal()  # kwargs: game
