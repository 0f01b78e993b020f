"""What the scoring app tells the rest of the site, without knowing who listens.

`game_confirmed` is sent after the confirming transaction commits, so a listener (the
tournaments app enqueuing a standings build) always sees the confirmed result.
"""

from django.dispatch import Signal

game_confirmed = Signal()  # kwargs: game
game_reopened = Signal()  # kwargs: game
