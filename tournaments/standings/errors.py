"""What the standings refuse, typed: a code and plain params, English from one catalogue.

`StandingsConfigError("lot_not_last", precedence=...)`: the code names what is wrong, the
params are the values involved (the raw value for what a caller passed); no raise site words
anything. The English (MESSAGES) is rendered when the error is made, for logs and tracebacks;
the site words the codes it shows organisers in their language (tournaments.common.messages).

A template names each param by `{name}`; `{name!r}` writes it as Python's repr,
`{name!l}` a list as its items separated by commas and `{name!q}` as their reprs so.
"""

from __future__ import annotations

import string

#: code -> the English template of that refusal.
MESSAGES: dict[str, str] = {
    # a Config (the event's settings)
    "placing_points_three": (
        "placing_points must be three ints (first, second, third), not {value!r}"
    ),
    "placing_points_order": (
        "placing_points must not pay a lower place more than a higher one: {points}"
    ),
    "bye_policy_invalid": "bye_policy must be one of {known!l}, not {value!r}",
    "seed_not_int": "seed must be an int, not {value!r}",
    "precedence_invalid": "precedence must be a tuple of metric names, not {value!r}",
    "metric_unknown": "unknown metric(s) in precedence: {unknown!q}; known: {known!l}",
    "metric_twice": "a metric is listed twice in precedence: {precedence}",
    "lot_not_last": "lot must come last in precedence (it separates everyone): {precedence}",
    "team_scoring_invalid": "a team's scoring must be one of {known!l}, not {value!r}",
    # a GameResult or a Bye
    "result_not_three": "round {round} table {table}: {field} must be three ints, not {value!r}",
    "result_round_table": "a game's round and table must be ints, not {round!r}, {table!r}",
    "result_seated_twice": "round {round} table {table}: a player sits twice: {players}",
    "result_placings": (
        "round {round} table {table}: placings {placings} are not the table's players {players}"
    ),
    "bye_not_ints": "a bye's round and player must be ints, not {round!r}, {player!r}",
    "bye_policy_unknown": "a bye's policy must be one of {known!l}, not {policy!r}",
    # the event as a whole (build_standings)
    "player_not_int": "player ids must be ints, not {player!r}",
    "player_twice": "player {player} is listed twice",
    "table_twice": "round {round} table {table} has two results",
    "seated_stranger": "round {round} table {table}: player {player} is not in the event",
    "plays_at_two_tables": (
        "player {player} plays twice in round {round}: table {other} and table {table}"
    ),
    "bye_stranger": "round {round}: bye for player {player}, who is not in the event",
    "bye_twice": "player {player} has a bye in round {round} and also a second bye",
    "bye_and_table": "player {player} has a bye in round {round} and also table {table}",
    # the teams (teams.build_team_standings)
    "team_not_int": "team ids must be ints, not {team!r}",
    "team_member_twice": "player {player} is in team {other} and also in team {team}",
}


def _convert(value: object, conversion: str | None) -> str:
    if conversion == "r":
        return repr(value)
    if conversion == "l":
        return ", ".join(str(item) for item in value)
    if conversion == "q":
        return ", ".join(repr(item) for item in value)
    return str(value)


class StandingsError(ValueError):
    """Anything the standings refuse; a ValueError so callers that expect one still work."""

    def __init__(self, code: str, /, **params: object):
        if code not in MESSAGES:
            raise LookupError(f"the standings have no refusal {code!r}")
        self.code = code
        self.params = params
        #: The refusal in English.
        self.message = "".join(
            text + ("" if field is None else _convert(params[field], conversion))
            for text, field, _spec, conversion in string.Formatter().parse(MESSAGES[code])
        )
        super().__init__(self.message)

    def __reduce__(self):  # pickled by code and params, not by its text
        return _rebuilt, (type(self), self.code, self.params)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, **{self.params!r})"


class StandingsConfigError(StandingsError):
    """A config the standings cannot follow (unknown metric, bad bye policy, ...)."""


class StandingsInputError(StandingsError):
    """Results, byes or players that cannot all be true of one event."""


def _rebuilt(kind: type[StandingsError], code: str, params: dict) -> StandingsError:
    return kind(code, **params)
