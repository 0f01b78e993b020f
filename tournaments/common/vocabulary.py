"""The tournaments app's words, listed once: pairing modes, bye and void policies, standings
metrics, table states and the defaults of a new event.

Every other module derives from here: the models' and forms' choices, the services'
defaults and checks, the labels pages and exports show. The values themselves come from the
pure modules where they are defined (tournaments.pairing.Mode, tournaments.standings), so
the names stored in the database are theirs; this module adds the words people read (lazy,
so each page reads them in its own language) and the site's defaults. Nothing of Django
here but gettext_lazy.
"""

from __future__ import annotations

import enum
import secrets
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments import pairing, standings

Choices = list[tuple[str, object]]


def choices(labels: dict) -> Choices:
    """(value, label) pairs for a model field or a form, in the labels' order."""
    return list(labels.items())


# --- pairing --------------------------------------------------------------------------------

PairingMode = pairing.Mode
#: The pairing modes, in the order forms list them.
PAIRING_MODE_LABELS = {
    PairingMode.RANDOM.value: _("random"),
    PairingMode.SWISS.value: _("swiss"),
    PairingMode.NO_REPEAT.value: _("no repeat"),
}
#: A new event's pairing (and a round's beyond an empty list): like against like.
DEFAULT_PAIRING_MODE = PairingMode.SWISS.value
DEFAULT_PAIRING_MODES = (DEFAULT_PAIRING_MODE,)


def pairing_mode_of_round(modes: list[str] | tuple[str, ...], number: int) -> str:
    """The mode round `number` is paired by: one mode per round, rounds beyond the list use
    the last one, an empty list the default."""
    modes = list(modes) or list(DEFAULT_PAIRING_MODES)
    return modes[min(number, len(modes)) - 1]


# --- standings --------------------------------------------------------------------------------

#: What a bye scores (tournaments.standings.BYE_POLICIES).
BYE_POLICY_LABELS = {
    "zero": _("nothing"),
    "second": _("as a second place"),
    "average": _("the player's own average"),
}
DEFAULT_BYE_POLICY = "second"


class VoidPolicy(enum.StrEnum):
    """What the players of a void table get (tournaments.rounds.services.walkouts)."""

    NONE = "none"
    AVERAGE = "average"
    BYE = "bye"  # what the event's bye policy gives a bye


VOID_POLICY_LABELS = {
    VoidPolicy.NONE.value: _("no result"),
    VoidPolicy.AVERAGE.value: _("the player's own average"),
    VoidPolicy.BYE.value: _("what a bye scores"),
}
DEFAULT_VOID_POLICY = VoidPolicy.BYE.value
#: A void table's players as a bye of this policy (None: what the event's bye policy gives).
VOID_AS_BYE = {VoidPolicy.NONE: "zero", VoidPolicy.AVERAGE: "average", VoidPolicy.BYE: None}


class ClockAtTime(enum.StrEnum):
    """What happens to a table still playing when the round clock runs out
    (tournaments.rounds.services.clock)."""

    FINISH = "finish"  # the deal being played is finished, then the game ends as it stands
    MORE = "more"  # the deal being played and N more, then the game ends as it stands
    ORGANISER = "organiser"  # the organiser decides per table


CLOCK_AT_TIME_LABELS = {
    ClockAtTime.FINISH.value: _("finish the deal being played, then the game ends as it stands"),
    ClockAtTime.MORE.value: _("play N more deals, then the game ends as it stands"),
    ClockAtTime.ORGANISER.value: _("the organiser decides per table"),
}
DEFAULT_CLOCK_AT_TIME = ClockAtTime.FINISH.value


class TeamScoring(enum.StrEnum):
    """What a team scores in a round (docs/teams.md)."""

    PLACING = "placing"  # the sum of its members' placing points
    GAME_POINTS = "game_points"  # the sum of its members' game points


TEAM_SCORING_LABELS = {
    TeamScoring.PLACING.value: _("the sum of its players' placing points"),
    TeamScoring.GAME_POINTS.value: _("the sum of its players' game points"),
}
DEFAULT_TEAM_SCORING = TeamScoring.PLACING.value

#: Placing points of the first, second and third place when the event sets none.
DEFAULT_PLACING_POINTS = (2, 1, 0)
DEFAULT_PRECEDENCE = standings.DEFAULT_PRECEDENCE
METRICS = standings.METRICS


@dataclass(frozen=True)
class MetricWords:
    """How pages name one standings metric."""

    label: object  # in a list of settings or an export's column: "game points"
    heading: object  # the standings column: "Game points"
    meaning: object  # the legend under the standings
    word: object  # inside a sentence: "level on points and game points"


METRIC_WORDS = {
    "placing_points": MetricWords(
        _("placing points"),
        pgettext_lazy("standings column", "Placing points"),
        _("points for placings, added up over the games"),
        _("points"),
    ),
    "score": MetricWords(
        _("game points"),
        pgettext_lazy("standings column", "Game points"),
        _("the game totals, added up"),
        _("game points"),
    ),
    "firsts": MetricWords(
        _("first places"),
        pgettext_lazy("standings column", "Wins"),
        _("first places"),
        _("wins"),
    ),
    "opponents": MetricWords(
        _("opponents' placing points"),
        pgettext_lazy("standings column", "Opponents"),
        _("the placing points of the opponents met, added up"),
        _("opponents' points"),
    ),
    "head_to_head": MetricWords(
        _("head to head"),
        pgettext_lazy("standings column", "Level players beaten"),
        _(
            "among players level on the columns before it: how many of them this player placed "
            "above in their games together (0 when that does not separate them)"
        ),
        _("head-to-head results"),
    ),
    "games": MetricWords(
        _("games played"),
        pgettext_lazy("standings column", "Games"),
        _("games played"),
        _("games played"),
    ),
    "lot": MetricWords(
        _("lot"),
        pgettext_lazy("standings column", "Lot"),
        _("the event's drawing of lots"),
        _("lot"),
    ),
}
#: The metrics' labels (settings form, exports, "decided by").
METRIC_LABELS = {metric: words.label for metric, words in METRIC_WORDS.items()}
assert tuple(METRIC_WORDS) == METRICS, "every standings metric needs its words"

#: The team standings' metrics (docs/team-standings.md): the total, then the tie-breaks.
TEAM_METRICS = standings.TEAM_METRICS
DEFAULT_TEAM_PRECEDENCE = standings.DEFAULT_TEAM_PRECEDENCE
TEAM_METRIC_WORDS = {
    "points": MetricWords(
        _("team points"),
        pgettext_lazy("team standings column", "Points"),
        _("what the team scored, added up over the rounds"),
        _("points"),
    ),
    "round_wins": MetricWords(
        _("rounds won"),
        pgettext_lazy("team standings column", "Rounds won"),
        _("rounds in which the team scored the most (a shared top counts for each)"),
        _("rounds won"),
    ),
    "placing_points": MetricWords(
        _("placing points"),
        pgettext_lazy("standings column", "Placing points"),
        _("its players' placing points, added up"),
        _("placing points"),
    ),
    "score": MetricWords(
        _("game points"),
        pgettext_lazy("standings column", "Game points"),
        _("its players' game points, added up"),
        _("game points"),
    ),
    "firsts": MetricWords(
        _("first places"),
        pgettext_lazy("standings column", "Wins"),
        _("its players' first places"),
        _("wins"),
    ),
    "head_to_head": MetricWords(
        _("head to head"),
        pgettext_lazy("team standings column", "Level teams beaten"),
        _(
            "among teams level on the columns before it: how many of them this team's players "
            "placed above more often than below (0 when that does not separate them)"
        ),
        _("head-to-head results"),
    ),
    "lot": METRIC_WORDS["lot"],
}
TEAM_TIE_BREAK_LABELS = {m: TEAM_METRIC_WORDS[m].label for m in standings.TEAM_TIE_BREAKS}
assert tuple(TEAM_METRIC_WORDS) == TEAM_METRICS, "every team metric needs its words"


# --- rounds and tables ------------------------------------------------------------------------

#: The fewest players a round can seat: tables are of three.
ROUND_MIN_PLAYERS = 3


class TableStatus(enum.StrEnum):
    """How far a table's result has come, and how it was settled (the API's table "status")."""

    PLAYING = "playing"
    FINISHED = "finished"
    CONFIRMED = "confirmed"
    VOID = "void"
    ADJUSTED = "adjusted"


TABLE_STATUSES = tuple(status.value for status in TableStatus)


#: Digits in a player's personal code: any phone's number pad, in any language; eight, so that
#: guessing one within the throttle's limits is hopeless (docs/confirmations.md).
PERSONAL_CODE_LENGTH = 8


def personal_code() -> str:
    """A new personal code (tournaments.models.Entry.code): random digits, leading zeros kept."""
    return "".join(secrets.choice("0123456789") for _ in range(PERSONAL_CODE_LENGTH))


#: How a player was checked in (Entry.checked_in_by): by an organiser, or from their own phone
#: (events.services.check_in).
CHECK_IN_BY_ORGANISER, CHECK_IN_BY_PHONE = "organiser", "phone"
