"""The standings module's refusals of an event's settings, in the page's language.

tournaments.standings is pure Python and speaks English (its sentences name its own fields:
"placing_points must not pay a lower place more than a higher one"). An organiser changing
the settings form reads instead what to change, in their language; the start of each
sentence the standings can say about settings picks the wording.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .standings import StandingsError

#: (how the standings' sentence starts, what the organiser reads)
WORDINGS = (
    (
        "placing_points must not pay a lower place",
        gettext_lazy("A lower place cannot get more placing points than a higher one."),
    ),
    (
        "placing_points must be three",
        gettext_lazy("Give the placing points of the first, second and third place."),
    ),
    (
        "a metric is listed twice",
        gettext_lazy("A tie-break is chosen twice: choose each one once."),
    ),
    (
        "lot must come last",
        gettext_lazy("The drawing of lots must be the last tie-break: it separates everyone."),
    ),
    ("unknown metric", gettext_lazy("An unknown tie-break was chosen.")),
    ("precedence must be", gettext_lazy("Choose the tie-breaks from the list.")),
    ("bye_policy must be", gettext_lazy("Choose what a bye scores from the list.")),
)


def standings_refusal(error: StandingsError) -> str:
    """What to tell the organiser about settings the standings refused."""
    sentence = str(error)
    for start, wording in WORDINGS:
        if sentence.startswith(start):
            return str(wording)
    return _("The standings cannot follow these settings (%(why)s).") % {"why": sentence}
