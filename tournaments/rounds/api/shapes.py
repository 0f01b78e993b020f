"""The shapes of the rounds API's bodies and answers (tournaments.rounds.api.rounds), kept
apart from its views: the results API answers a round with the same ones."""

from pydantic import Field

from config.api import Body, loose
from config.api_schema import Out, absent, word
from scoring.api_schemas import GameOut
from scoring.names import MAX_NAME
from tournaments.common.vocabulary import TABLE_STATUSES
from tournaments.common.web.api_input import MAX_REASON
from tournaments.models import Round, Table
from tournaments.rounds.selectors import ClockStatus, clock_of, round_stuck

REASON = {"type": "string", "minLength": 1, "maxLength": MAX_REASON, "pattern": r"\S"}


class EmptyIn(Body):
    """``{}`` (or no body at all)."""


class ConfirmIn(Body):
    """``{}`` (or no body at all), or the game's version the result was seen at; with an
    organiser's token, a `note`: their word to the players, as on the round's page (the
    answer to a dispute, shown on the players' phones)."""

    version: loose(
        {
            "type": "integer",
            "minimum": 0,
            "description": "the game's version whose result is confirmed: changed since, 409",
        }
    ) = None
    note: loose(
        {
            "type": "string",
            "maxLength": MAX_REASON,
            "description": "an organiser's word to the players with the confirmation (the "
            "answer to a dispute, shown on their phones); not with the table's token",
        }
    ) = ""


class SubstituteIn(Body):
    """Who takes the seat: `player` (a player of the event, checked in) or `name` (a new
    player, entered and checked in as they sit down): one of the two."""

    seat: loose({"type": "integer", "minimum": 0, "maximum": 2})
    player: loose({"type": "integer", "description": "the substitute's player id"}) = None
    name: loose(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_NAME,
            "pattern": r"\S",
            "description": "instead of `player`: a new player's name, entered and checked in",
        }
    ) = None
    reason: loose(REASON)


class VoidIn(Body):
    reason: loose(REASON)


class SubstitutionOut(Out):
    seat: int
    left: int = Field(description="the player who left (their id)")
    joined: int = Field(description="the substitute (their id)")
    from_deal: int = Field(description="the first deal the substitute plays")
    from_hand: int = Field(
        description="the same as the players count it: the hand (a deal dealt again is no hand)"
    )


class TableOut(Out):
    """A table of a round (walkouts.table_data); players by seat."""

    table: int
    players: list[str]
    player_ids: list[int]
    game: int | None = Field(description="its game's id; null before the round is published")
    finished: bool
    status: str = word(TABLE_STATUSES)
    outcome: str = word(Table.Outcome.values, "how the organiser settled it")
    reason: str = Field(description="why the organiser settled it so (empty: played)")
    totals: list[int] = Field(description="the game's totals by seat (empty: no game)")
    placings: list[int] | None = Field(description="seats, first to last; null: not settled")
    substitutions: list[SubstitutionOut]
    void_players: list[int] = Field(description="a void table's players given the void policy")
    clock_extra: int = Field(description="seconds this table was given beyond the round's time")


class ConfirmedOut(GameOut):
    confirmed: bool
    waiting_for: int = absent("the table's token under a larger quorum: agreements still needed")


#: The words the API uses for a round's states (the model's "pending" is "building").
ROUND_STATUS = {
    Round.Status.PENDING: "building",
    Round.Status.DRAFT: "draft",
    Round.Status.FAILED: "failed",
    Round.Status.PUBLISHED: "published",
    Round.Status.CLOSED: "closed",
}


class ClockOut(Out):
    """The round clock (tournaments.rounds.selectors.Clock): one deadline on the server's
    time; a client counts down from `deadline` by its own offset to `now`."""

    status: str = word(
        [status.value for status in ClockStatus],
        "off: the event has no clock; idle: not started; at_time: it ran out",
    )
    now: str = Field(description="the server's time of this answer (ISO 8601)")
    minutes: int = Field(description="the event's round length in minutes (0: no clock)")
    deadline: str | None = Field(description="when time is up (running, at_time), ISO 8601")
    remaining: int | None = Field(description="seconds left (running, paused; 0 at time)")


class RoundOut(Out):
    round: int
    status: str = word([*ROUND_STATUS.values(), "deleted"], "deleted: the answer to a DELETE")
    error: str = absent("a failed build: why")
    stuck: bool = absent("true: the build waits longer than it should; rebuild or delete it")
    clock: ClockOut = absent("the round clock: the answer to a move of the clock")


def clock_data(round_: Round) -> dict:
    """The round's clock as the API gives it."""
    return clock_of(round_).data()


def round_status(round_: Round) -> dict:
    """``{"status"}``; for a failed build ``"error"``: why it failed; for a build waiting
    longer than it should (no worker took it) ``"stuck": true``: rebuild or delete it."""
    status = {"status": ROUND_STATUS.get(round_.status, round_.status)}
    if round_.status == Round.Status.FAILED:
        status["error"] = round_.build_error
    elif round_stuck(round_):
        status["stuck"] = True
    return status
