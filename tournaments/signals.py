"""What the tournaments services tell the pages, without importing them.

`standings_stored` is sent when services.standings_build has stored a new snapshot (after
its transaction): tournaments.standings_render listens and writes out, once, what the
phones poll (the API's body, the standings and projector tables per language). Services
may not import presenters (the layers), so the arrow points from the renderer to here.
"""

from django.dispatch import Signal

standings_stored = Signal()  # kwargs: snapshot (a tournaments.models.Standings)
