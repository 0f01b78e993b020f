"""An event's editable settings, listed once: what an organiser sets when creating an event
and may change while it runs (the rules of play, ruleset and options, stay fixed).

Forms build their fields' defaults from here, the services create and update events through
`apply`, the event log and the organiser pages label changes with `Setting.label`, the
backup copies `SETTING_NAMES`, and the standings are rebuilt when a setting they depend on
(`STANDINGS_SETTINGS`) changes. Adding a setting means adding one `Setting` below (and its
model field).

The interface:

- ``EVENT_SETTINGS``: the settings, in the order forms and logs list them.
- ``settings_of(event) -> dict``: the event's stored values, by name.
- ``defaults() -> dict``: a new event's values.
- ``apply(event, values) -> list[str]``: check and set the given values on an (unsaved)
  event, refuse with a TournamentError, and return the names whose value changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from scoring.models import Quorum
from scoring.names import MAX_TITLE, NameProblem, title
from tournaments import standings
from tournaments.common import bridge, vocabulary
from tournaments.common.errors import TournamentError
from tournaments.common.messages import standings_code

#: The longest event name: every name of a club, an event or a season (scoring.names).
MAX_EVENT_NAME = MAX_TITLE
#: The most rounds an event may plan (the settings form's bound).
MAX_ROUNDS = 30


@dataclass(frozen=True)
class Setting:
    name: str
    #: How logs and pages name it ("what a bye scores").
    label: object
    #: A new event's value.
    default: Callable[[], object]
    #: The value as stored, or a TournamentError.
    clean: Callable[[object], object]
    #: Whether the standings depend on it: a change makes them stale.
    standings: bool = False


def _name(value: object) -> str:
    return titled(value, "event")


def titled(value: object, kind: str) -> str:
    """A club's, event's or season's name (`kind`) as stored (scoring.names.title), or the
    refusal in the kind's words."""
    try:
        return title(value)
    except NameProblem as problem:
        if problem.code == "too_long":
            raise TournamentError(f"{kind}_name_too_long", max=MAX_TITLE) from None
        raise TournamentError(f"{kind}_name_missing") from None


def _rounds_planned(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise TournamentError("rounds_planned_invalid")
    return value


def _pairing_modes(value: object) -> list[str]:
    modes = list(value or [])
    for mode in modes:
        if mode not in vocabulary.PAIRING_MODE_LABELS:
            raise TournamentError("pairing_mode_unknown", mode=mode)
    return modes or list(vocabulary.DEFAULT_PAIRING_MODES)


def _listed(value: object) -> list:
    """A list the standings check as a whole (apply asks them)."""
    return list(value or [])


def _as_given(value: object) -> str:
    """A bye policy or a team scoring: the standings check it (apply asks them)."""
    return value


def _confirm_quorum(value: object) -> str:
    if value not in Quorum.values:
        raise TournamentError("confirm_quorum_unknown")
    return value


def _void_policy(value: object) -> str:
    if value not in vocabulary.VOID_POLICY_LABELS:
        raise TournamentError("void_policy_unknown", p=value)
    return value


#: The longest round clock an organiser may set, in minutes.
MAX_CLOCK_MINUTES = 600
#: The most deals more a table plays at time (the "play N more deals" rule).
MAX_CLOCK_MORE_DEALS = 20


def _whole(value: object, low: int, high: int, code: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise TournamentError(code, low=low, high=high)
    return value


def _clock_minutes(value: object) -> int:
    """A round's length in minutes; 0 (or nothing): no clock."""
    if value is None or value == "":
        return 0
    return _whole(value, 0, MAX_CLOCK_MINUTES, "clock_minutes_invalid")


def _clock_at_time(value: object) -> str:
    if value not in vocabulary.CLOCK_AT_TIME_LABELS:
        raise TournamentError("clock_at_time_unknown", p=value)
    return value


def _clock_more_deals(value: object) -> int:
    return _whole(value, 1, MAX_CLOCK_MORE_DEALS, "clock_more_deals_invalid")


EVENT_SETTINGS: tuple[Setting, ...] = (
    Setting("name", _("name"), lambda: "", _name),
    Setting("rounds_planned", _("rounds"), lambda: 4, _rounds_planned),
    Setting(
        "pairing_modes",
        _("pairing"),
        lambda: list(vocabulary.DEFAULT_PAIRING_MODES),
        _pairing_modes,
    ),
    Setting("precedence", _("standings precedence"), list, _listed, standings=True),
    Setting("placing_points", _("placing points"), list, _listed, standings=True),
    Setting(
        "bye_policy",
        _("what a bye scores"),
        lambda: vocabulary.DEFAULT_BYE_POLICY,
        _as_given,
        standings=True,
    ),
    Setting(
        "void_policy",
        _("what a void table scores"),
        lambda: vocabulary.DEFAULT_VOID_POLICY,
        _void_policy,
        standings=True,
    ),
    # The team standings (docs/team-standings.md): what a team scores, its tie-breaks.
    Setting(
        "team_scoring",
        _("what a team scores"),
        lambda: vocabulary.DEFAULT_TEAM_SCORING,
        _as_given,
        standings=True,
    ),
    Setting("team_precedence", _("team standings precedence"), list, _listed, standings=True),
    # Who confirms a table's result; copied to each table's game (rounds.services.rounds).
    Setting(
        "confirm_quorum",
        _("who confirms a table's result"),
        lambda: str(Quorum.KEEPER),
        _confirm_quorum,
    ),
    # Round 1 of a swiss event paired by the club's ratings (tournaments.common.bridge).
    Setting("seed_by_rating", _("seed round 1 by rating"), lambda: False, bool),
    # The round clock (tournaments.rounds.services.clock): 0 minutes is no clock.
    Setting("clock_minutes", _("round length (minutes)"), lambda: 0, _clock_minutes),
    Setting(
        "clock_autostart", _("start the clock when the round is published"), lambda: False, bool
    ),
    Setting(
        "clock_at_time",
        _("what happens at time"),
        lambda: vocabulary.DEFAULT_CLOCK_AT_TIME,
        _clock_at_time,
    ),
    Setting("clock_more_deals", _("deals more at time"), lambda: 2, _clock_more_deals),
)
SETTING_NAMES = tuple(setting.name for setting in EVENT_SETTINGS)
SETTINGS_BY_NAME = {setting.name: setting for setting in EVENT_SETTINGS}
#: The settings the standings are built with: changing one makes them stale.
STANDINGS_SETTINGS = tuple(setting.name for setting in EVENT_SETTINGS if setting.standings)
#: How the event log and pages name each setting.
SETTING_LABELS = {setting.name: setting.label for setting in EVENT_SETTINGS}


def settings_of(event) -> dict:
    """The event's settings as stored, by name."""
    return {name: getattr(event, name) for name in SETTING_NAMES}


def defaults() -> dict:
    """A new event's settings (its name is the organiser's to give)."""
    return {setting.name: setting.default() for setting in EVENT_SETTINGS}


def check_standings(event) -> None:
    """Refuse settings the standings cannot follow, in the organiser's words."""
    try:
        bridge.standings_config(event)
        bridge.team_config(event)
    except standings.StandingsError as error:
        code, params = standings_code(error)
        raise TournamentError(code, **params) from None


def apply(event, values: Mapping[str, object]) -> list[str]:
    """Check `values` (any of SETTING_NAMES; others are refused as a programming error) and set
    them on the event, unsaved; returns the names whose value changed. Nothing is set when a
    value is refused."""
    unknown = set(values) - set(SETTING_NAMES)
    if unknown:
        raise ValueError(f"not event settings: {sorted(unknown)}")
    cleaned = {name: SETTINGS_BY_NAME[name].clean(value) for name, value in values.items()}
    before = settings_of(event)
    for name, value in cleaned.items():
        setattr(event, name, value)
    try:
        check_standings(event)
    except TournamentError:
        for name, value in before.items():
            setattr(event, name, value)
        raise
    return [name for name in SETTING_NAMES if getattr(event, name) != before[name]]


def standings_changed(changed: list[str]) -> bool:
    """Whether a change of these settings makes the standings stale."""
    return any(name in STANDINGS_SETTINGS for name in changed)
