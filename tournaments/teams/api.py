"""The organisers' token API for an event's teams and keep-apart rules (docs/api.md, "Teams";
docs/teams.md). Beyond ../shared/spec/http-api.md, whose routes it leaves as they are.

Players are named by their player id (the `id` of POST /api/events/{slug}/players), as in the
rest of the organisers' API. Every write calls the teams page's services with the token's
account as the actor, so the API refuses what the pages refuse: checks run in the order of
tournaments.events.api.organise (token, event 404, rights 403, body 400, the service's 400/409).
"""

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from pydantic import Field

from config.api import ApiError, Body, json_response, loose, read_body
from config.api_ninja import ApiRouter, body_doc
from config.api_schema import BODY, TOKEN, Out, answers, extra, link, links
from tournaments.common.web.api_auth import organised_event, organiser_token
from tournaments.common.web.api_input import MAX_ID, actor, is_int, number, text
from tournaments.models import Event, KeepApart, Team
from tournaments.teams import services
from tournaments.teams.selectors import (
    entries_by_player,
    event_teams,
    keep_apart_rules,
    rule_of,
    team_of,
)
from tournaments.teams.services import MAX_REASON, MAX_TEAM_NAME

#: The operations' ids as published (config.api_ninja.Api.get_openapi_operation_id).
OPERATION_IDS = "tournaments_api_teams"

MAX_PLAYERS = 1000  # players named by one request
router = ApiRouter(auth=organiser_token, tags=["teams"])
READ = answers({}, TOKEN, 404)
WRITE = answers({}, TOKEN, 404, BODY, 409)

PLAYER_IDS = {
    "type": "array",
    "items": {"type": "integer", "minimum": 1, "maximum": MAX_ID},
    "maxItems": MAX_PLAYERS,
    "description": "player ids of the event's players",
}


class TeamIn(Body):
    name: loose({"type": "string", "minLength": 1, "maxLength": MAX_TEAM_NAME, "pattern": r"\S"})
    players: loose(PLAYER_IDS) = None


class RenameIn(Body):
    name: loose({"type": "string", "minLength": 1, "maxLength": MAX_TEAM_NAME, "pattern": r"\S"})


class MembersIn(Body):
    players: loose({**PLAYER_IDS, "minItems": 1})


class KeepApartIn(Body):
    players: loose({**PLAYER_IDS, "minItems": 2})
    reason: loose({"type": "string", "maxLength": MAX_REASON}) = ""


class PlayerOut(Out):
    id: int = Field(description="the player's id")
    name: str


class TeamOut(Out):
    id: int = Field(description="the team's id")
    name: str
    players: list[PlayerOut]


class TeamsOut(Out):
    teams: list[TeamOut]


class RuleOut(Out):
    id: int = Field(description="the rule's id")
    reason: str = Field(description='the organiser\'s reason ("" when none was given)')
    players: list[PlayerOut]


class RulesOut(Out):
    keep_apart: list[RuleOut]


class DeletedOut(Out):
    id: int = Field(description="the id of what was deleted")
    deleted: bool


TEAMS = "/events/{slug:slug}/teams"
TEAM = TEAMS + "/{team_id}"
APART = "/events/{slug:slug}/keep-apart"
SLUG = "$request.path.slug"
NEW_TEAM = links(
    201,
    members=link(
        "tournaments_api_teams_team_members_add",
        "More players into the new team.",
        path__slug=SLUG,
        path__team_id="$response.body#/id",
    ),
)


def _player(entry) -> dict:
    return {"id": entry.player_id, "name": entry.player.name}


def _team_answer(team: Team) -> dict:
    members = team.members.select_related("entry__player").order_by("entry__player__name")
    return {"id": team.pk, "name": team.name, "players": [_player(m.entry) for m in members]}


def _rule_answer(rule: KeepApart) -> dict:
    entries = rule.entries.select_related("player").order_by("player__name")
    return {"id": rule.pk, "reason": rule.label, "players": [_player(e) for e in entries]}


def _entries(event: Event, value: object, *, least: int = 0) -> list:
    """The event's entries of these player ids; a list of anything else is 400, and an id that
    is no player of the event too (naming it)."""
    if value is None:
        value = []
    if (
        not isinstance(value, list)
        or not least <= len(value) <= MAX_PLAYERS
        or not all(is_int(pid) and 1 <= pid <= MAX_ID for pid in value)
    ):
        raise ApiError(
            400,
            _("players must be a list of %(least)s to %(most)s player ids")
            % {"least": least, "most": MAX_PLAYERS},
        )
    entries = entries_by_player(event, value)
    found = {entry.player_id for entry in entries}
    strangers = [pid for pid in value if pid not in found]
    if strangers:
        raise ApiError(400, _("no player %(id)s in this event") % {"id": strangers[0]})
    return entries


def _team(event: Event, team_id: str) -> Team:
    missing = _("no such team in this event")
    try:
        return team_of(event, number(team_id, missing))
    except Team.DoesNotExist:
        raise ApiError(404, missing) from None


@router.get(TEAMS, response={200: TeamsOut, **READ}, url_name="teams")
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's teams by name, each with its players."""
    event = organised_event(request.auth, slug)
    answer = [
        {"id": t.pk, "name": t.name, "players": [_player(m.entry) for m in t.members.all()]}
        for t in event_teams(event)
    ]
    return json_response({"teams": answer})


@router.post(
    TEAMS,
    response={201: TeamOut, **WRITE},
    url_name="team_create",
    openapi_extra=extra(body_doc(TeamIn), NEW_TEAM),
)
def team_create(request: HttpRequest, slug: str) -> HttpResponse:
    """A new team (a name no other team of the event has), with its players if given."""
    user = request.auth
    event = organised_event(user, slug)
    data = read_body(request, TeamIn)
    name = text(data.name, "name", MAX_TEAM_NAME)
    entries = _entries(event, data.players)
    team = services.team_create(event=event, name=name, entries=entries, actor=actor(user), by=user)
    return json_response(_team_answer(team), 201)


@router.patch(
    TEAM, response={200: TeamOut, **WRITE}, url_name="team_update", openapi_extra=body_doc(RenameIn)
)
def team_update(request: HttpRequest, slug: str, team_id: str) -> HttpResponse:
    """Rename the team."""
    user = request.auth
    event = organised_event(user, slug)
    team = _team(event, team_id)
    data = read_body(request, RenameIn)
    services.team_rename(
        team=team, name=text(data.name, "name", MAX_TEAM_NAME), actor=actor(user), by=user
    )
    return json_response(_team_answer(team))


@router.delete(TEAM, response={200: DeletedOut, **WRITE}, url_name="team_delete")
def team_delete(request: HttpRequest, slug: str, team_id: str) -> HttpResponse:
    """Delete the team; its players stay entered, in no team."""
    user = request.auth
    event = organised_event(user, slug)
    team = _team(event, team_id)
    pk = team.pk
    services.team_delete(team=team, actor=actor(user), by=user)
    return json_response({"id": pk, "deleted": True})


@router.post(
    TEAM + "/members",
    response={200: TeamOut, **WRITE},
    url_name="team_members_add",
    openapi_extra=body_doc(MembersIn),
)
def team_members_add(request: HttpRequest, slug: str, team_id: str) -> HttpResponse:
    """Players join the team (one already in another team: 409, and nobody joins)."""
    user = request.auth
    event = organised_event(user, slug)
    team = _team(event, team_id)
    entries = _entries(event, read_body(request, MembersIn).players, least=1)
    services.team_members_add(team=team, entries=entries, actor=actor(user), by=user)
    return json_response(_team_answer(team))


@router.delete(
    TEAM + "/members/{player_id}",
    response={200: TeamOut, **WRITE},
    url_name="team_member_remove",
)
def team_member_remove(
    request: HttpRequest, slug: str, team_id: str, player_id: str
) -> HttpResponse:
    """The player leaves the team and stays entered."""
    user = request.auth
    event = organised_event(user, slug)
    team = _team(event, team_id)
    missing = _("no such player in this event")
    entry = next(iter(entries_by_player(event, [number(player_id, missing)])), None)
    if entry is None:
        raise ApiError(404, missing)
    services.team_member_remove(team=team, entry=entry, actor=actor(user), by=user)
    return json_response(_team_answer(team))


@router.get(APART, response={200: RulesOut, **READ}, url_name="keep_apart")
def keep_apart(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's keep-apart rules: players no two of whom the draw seats at one table."""
    event = organised_event(request.auth, slug)
    answer = [
        {"id": r.pk, "reason": r.label, "players": [_player(e) for e in r.entries.all()]}
        for r in keep_apart_rules(event)
    ]
    return json_response({"keep_apart": answer})


@router.post(
    APART,
    response={201: RuleOut, **WRITE},
    url_name="keep_apart_create",
    openapi_extra=body_doc(KeepApartIn),
)
def keep_apart_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Keep two or more players apart at the tables, with an optional reason."""
    user = request.auth
    event = organised_event(user, slug)
    data = read_body(request, KeepApartIn)
    entries = _entries(event, data.players, least=2)
    if not isinstance(data.reason, str):
        raise ApiError(400, _("reason must be a string"))
    rule = services.keep_apart_create(
        event=event, entries=entries, label=data.reason, actor=actor(user), by=user
    )
    return json_response(_rule_answer(rule), 201)


@router.delete(
    APART + "/{rule_id}", response={200: DeletedOut, **WRITE}, url_name="keep_apart_delete"
)
def keep_apart_delete(request: HttpRequest, slug: str, rule_id: str) -> HttpResponse:
    """Delete a keep-apart rule."""
    user = request.auth
    event = organised_event(user, slug)
    missing = _("no such keep-apart rule in this event")
    try:
        rule = rule_of(event, number(rule_id, missing))
    except KeepApart.DoesNotExist:
        raise ApiError(404, missing) from None
    pk = rule.pk
    services.keep_apart_delete(rule=rule, actor=actor(user), by=user)
    return json_response({"id": pk, "deleted": True})
