"""The shapes of the organisers' API's bodies and answers (tournaments.events.api.organise
and .night): what the OpenAPI schema promises, kept apart from the views."""

from pydantic import Field

import engine
from config.api import Body, loose
from config.api_schema import Out, word
from scoring.names import MAX_NAME, MAX_TITLE
from tournaments.common.event_settings import (
    MAX_CLOCK_MINUTES,
    MAX_EVENT_NAME,
    MAX_ROUNDS,
)
from tournaments.common.event_settings import (
    MAX_CLOCK_MORE_DEALS as MAX_MORE_DEALS,
)
from tournaments.common.vocabulary import (
    BYE_POLICY_LABELS,
    CLOCK_AT_TIME_LABELS,
    METRICS,
    PAIRING_MODE_LABELS,
    TEAM_SCORING_LABELS,
    TEAM_TIE_BREAK_LABELS,
    VOID_POLICY_LABELS,
)
from tournaments.models import Event

MAX_NAMES = 1000  # players entered by one request
MAX_CLUB_NAME = MAX_TITLE
MAX_SLUG = 50


def a_line(most: int) -> dict:
    """A one-line text that must hold more than spaces (api_input.text's rule)."""
    return {"type": "string", "minLength": 1, "maxLength": most, "pattern": r"\S"}


def one_of(values) -> dict:
    return {"type": "string", "enum": list(values)}


MODE = one_of(PAIRING_MODE_LABELS)
MODES = {"type": "array", "items": MODE, "minItems": 1, "maxItems": MAX_ROUNDS}


class ClubIn(Body):
    name: loose(a_line(MAX_CLUB_NAME))


class EventIn(Body):
    club: loose({**a_line(MAX_SLUG), "description": "the club's slug"})
    name: loose(a_line(MAX_EVENT_NAME))
    ruleset: loose({**one_of(engine.RULESETS), "examples": ["blato"]})
    rounds: loose({"type": "integer", "minimum": 1, "maximum": MAX_ROUNDS})
    pairing: loose(
        {
            "description": "one mode for every round, or a list of modes, one a round",
            "anyOf": [MODE, MODES],
        }
    )
    options: loose({"type": "object"}) = None
    precedence: loose({"type": "array", "items": one_of(METRICS)}) = None
    placing_points: loose({"type": "array", "items": {"type": "integer"}}) = None
    bye_policy: loose(one_of(BYE_POLICY_LABELS)) = None
    void_policy: loose(one_of(VOID_POLICY_LABELS)) = None
    # the round clock (docs/round-clock.md): 0 minutes, the default, is none
    clock_minutes: loose({"type": "integer", "minimum": 0, "maximum": MAX_CLOCK_MINUTES}) = None
    clock_autostart: loose({"type": "boolean"}) = None
    clock_at_time: loose(one_of(CLOCK_AT_TIME_LABELS)) = None
    clock_more_deals: loose({"type": "integer", "minimum": 1, "maximum": MAX_MORE_DEALS}) = None
    # the team standings (docs/team-standings.md): what a team scores, its tie-breaks
    team_scoring: loose(one_of(TEAM_SCORING_LABELS)) = None
    team_precedence: loose(
        {
            "type": "array",
            "items": one_of(TEAM_TIE_BREAK_LABELS),
            "uniqueItems": True,
            "description": "the team tie-breaks after the total, most important first "
            '("lot" last when listed); [] or left out: the default ones',
        }
    ) = None


class PlayersIn(Body):
    names: loose({"type": "array", "items": a_line(MAX_NAME), "minItems": 1, "maxItems": MAX_NAMES})
    checked_in: loose({"type": "boolean"}) = False


#: Where a player stands in an event, in the API's words (entry_status).
ENTRY_STATUSES = ("entered", "checked_in", "withdrawn")


class ClubOut(Out):
    club: str = Field(description="the club's slug")
    name: str


class EventOut(Out):
    event: str = Field(description="the event's slug")
    name: str
    club: str = Field(description="the club's slug")
    ruleset: str
    options: dict = Field(description="the ruleset's options the event changes")
    rounds: int = Field(description="the rounds planned")
    pairing: list[str] = Field(description="the pairing mode of each round")
    status: str = word(Event.Status.values)
    team_scoring: str = word(TEAM_SCORING_LABELS, "what a team scores in each round")
    team_precedence: list[str] = Field(
        description="the team tie-breaks after the total, most important first (the default "
        "ones when the event sets none)",
        json_schema_extra={"items": {"type": "string", "enum": list(TEAM_TIE_BREAK_LABELS)}},
    )
    url: str = Field(description="the event's organiser page")


class EntryOut(Out):
    id: int = Field(description="the player's id")
    name: str
    status: str = word(ENTRY_STATUSES)
    checked_in_by: str = word(
        ("organiser", "phone", ""),
        "how the player was checked in: by an organiser (a page or this API), from their own "
        'phone (self check-in), or "" while not checked in',
    )


class PlayersOut(Out):
    players: list[EntryOut]
