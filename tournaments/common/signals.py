"""What the tournaments services tell the pages, without importing them.

`standings_built` is sent when services.standings_build has built a new snapshot, before it
stores it: tournaments.results.render listens and writes out, once, what the phones poll
(the API's body, the standings and projector tables per language) onto the unsaved row, so
that no poll ever finds a stored snapshot without them. Services may not import presenters
(the layers), so the arrow points from the renderer to here.
"""

from django.dispatch import Signal

standings_built = Signal()  # kwargs: snapshot (a tournaments.models.Standings, not saved)
