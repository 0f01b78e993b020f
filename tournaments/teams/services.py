"""Writes to an event's teams and keep-apart rules (docs/teams.md): each one use case, in one
transaction, asked of the acting account (`by`, tournaments.common.permissions), refused
while the event is closed, and written to the event's log.

A team is a name unique in its event (whatever its case or accents: scoring.names.name_key)
and its members, entries of the same event, each in at most one team. A keep-apart rule is
two or more entries of the event, no two of whom the draw seats at one table while it can
avoid it; its reason is the organiser's own words ("couple", "same club").
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from scoring.names import clean, name_key
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.permissions import require_event
from tournaments.common.services import log_action, standings_changed
from tournaments.models import Entry, Event, KeepApart, Team, TeamMember
from tournaments.teams.selectors import entry_named, entry_names

MAX_TEAM_NAME = Team._meta.get_field("name").max_length
MAX_REASON = KeepApart._meta.get_field("label").max_length


def _open(event: Event, by) -> None:
    require_event(by, event)
    if event.status == Event.Status.CLOSED:
        raise NotAllowed("event_closed")


def tidy_team_name(name: object) -> str:
    """The name as stored (spaces tidied), or the refusal: empty or too long."""
    name = clean(name) if isinstance(name, str) else ""
    if not name:
        raise TournamentError("team_name_missing")
    if len(name) > MAX_TEAM_NAME:
        raise TournamentError("team_name_too_long", max=MAX_TEAM_NAME)
    return name


def team_name(name: object, *, event: Event, team: Team | None = None) -> str:
    """The name as stored, or the refusal: `tidy_team_name`'s, or another team of the event
    already so called (the same name whatever its case or accents)."""
    name = tidy_team_name(name)
    others = event.teams.exclude(pk=team.pk) if team is not None else event.teams.all()
    if any(name_key(other) == name_key(name) for other in others.values_list("name", flat=True)):
        raise TournamentError("team_name_taken", name=name)
    return name


def _members(team: Team, entries: list[Entry]) -> list[Entry]:
    """Put `entries` into `team`: each of the team's event and in no other team (already in
    this one: nothing changes). Returns those added."""
    added = []
    taken = dict(
        TeamMember.objects.select_for_update()
        .filter(entry__in=entries)
        .values_list("entry_id", "team__name")
    )
    here = set(team.members.values_list("entry_id", flat=True))
    for entry in entries:
        if entry.event_id != team.event_id:
            raise TournamentError("entry_not_in_event", name=entry.player.name)
        if entry.pk in here:
            continue
        if entry.pk in taken:
            raise NotAllowed("entry_in_team", name=entry.player.name, team=taken[entry.pk])
        TeamMember.objects.create(team=team, entry=entry)
        here.add(entry.pk)
        added.append(entry)
    return added


@transaction.atomic
def team_create(
    *, event: Event, name: str, entries: list[Entry] = (), actor: str = "", by=None
) -> Team:
    """A new team of the event, with its first members if any."""
    _open(event, by)
    team = Team.objects.create(event=event, name=team_name(name, event=event))
    added = _members(team, list(entries))
    players = [entry.player_id for entry in added]
    log_action(event, actor, "team_created", team=team.name, players=players)
    standings_changed(event)  # the team standings count a new team (docs/team-standings.md)
    return team


@transaction.atomic
def team_rename(*, team: Team, name: str, actor: str = "", by=None) -> Team:
    event = team.event
    _open(event, by)
    new = team_name(name, event=event, team=team)
    if new != team.name:
        log_action(event, actor, "team_renamed", team=new, old=team.name)
        team.name = new
        team.save(update_fields=["name"])
    return team


@transaction.atomic
def team_delete(*, team: Team, actor: str = "", by=None) -> str:
    """The team goes; its players stay entered, in no team. Returns its name."""
    event, name = team.event, team.name
    _open(event, by)
    team.delete()
    log_action(event, actor, "team_deleted", team=name)
    standings_changed(event)
    return name


@transaction.atomic
def team_members_add(*, team: Team, entries: list[Entry], actor: str = "", by=None) -> list[Entry]:
    """Players join the team (refused, and nobody joins, when one is in another team)."""
    event = team.event
    _open(event, by)
    added = _members(team, list(entries))
    for entry in added:
        log_action(event, actor, "team_member_added", team=team.name, player=entry.player_id)
    if added:
        standings_changed(event)
    return added


@transaction.atomic
def team_member_remove(*, team: Team, entry: Entry, actor: str = "", by=None) -> Entry:
    """The player leaves the team (and stays entered); one not in it is refused."""
    event = team.event
    _open(event, by)
    removed, _ = TeamMember.objects.filter(team=team, entry=entry).delete()
    if not removed:
        raise TournamentError("entry_not_in_team", name=entry.player.name, team=team.name)
    log_action(event, actor, "team_member_removed", team=team.name, player=entry.player_id)
    standings_changed(event)
    return entry


@dataclass(frozen=True)
class PastedTeam:
    """One line of a pasted list of teams: its line number, the team's name, the names."""

    line: int
    name: str
    players: list[str]


@transaction.atomic
def teams_paste(*, event: Event, teams: list[PastedTeam], actor: str = "", by=None) -> list[Team]:
    """Teams from a pasted list, each line "Team: player, player, …": a team not there yet is
    made, one there (the same name) gets the players. Each name is one entered player's, in
    Latin or Cyrillic letters (teams.selectors.entry_named); a name that is nobody's, fits
    several, is listed twice or is in another team refuses the whole list (nothing is
    written), naming its line."""
    _open(event, by)
    names = entry_names(event)
    existing = {name_key(team.name): team for team in event.teams.all()}
    placed: dict[int, int] = {}  # entry id -> the line that named them
    planned: list[tuple[PastedTeam, list[Entry]]] = []
    for pasted in teams:
        if not clean(pasted.name):
            raise TournamentError("team_line_no_name", line=pasted.line)
        try:
            tidy_team_name(pasted.name)
        except TournamentError as error:
            raise TournamentError(
                "team_line_refused", line=pasted.line, why=error.message
            ) from None
        entries = []
        for typed in pasted.players:
            found = entry_named(event, typed, among=names)
            if isinstance(found, tuple):
                if found:
                    raise TournamentError(
                        "team_line_ambiguous", line=pasted.line, name=typed, names=", ".join(found)
                    )
                raise TournamentError("team_line_unknown", line=pasted.line, name=typed)
            if found.pk in placed:
                raise TournamentError(
                    "team_line_twice",
                    line=pasted.line,
                    name=found.player.name,
                    first=placed[found.pk],
                )
            placed[found.pk] = pasted.line
            entries.append(found)
        planned.append((pasted, entries))
    made = []
    for pasted, entries in planned:
        key = name_key(clean(pasted.name))
        team = existing.get(key)
        try:
            if team is None:
                team = team_create(event=event, name=pasted.name, entries=entries, actor=actor)
                existing[key] = team
            else:
                team_members_add(team=team, entries=entries, actor=actor)
        except TournamentError as error:
            raise TournamentError(
                "team_line_refused", line=pasted.line, why=error.message
            ) from None
        made.append(team)
    return list(dict.fromkeys(made))


@transaction.atomic
def keep_apart_create(
    *, event: Event, entries: list[Entry], label: str = "", actor: str = "", by=None
) -> KeepApart:
    """A rule that no two of these players (two or more of the event) share a table."""
    _open(event, by)
    entries = list({entry.pk: entry for entry in entries}.values())
    if len(entries) < 2:
        raise TournamentError("apart_too_few")
    for entry in entries:
        if entry.event_id != event.pk:
            raise TournamentError("entry_not_in_event", name=entry.player.name)
    label = clean(label or "")
    if len(label) > MAX_REASON:
        raise TournamentError("apart_reason_too_long", max=MAX_REASON)
    rule = KeepApart.objects.create(event=event, label=label)
    rule.entries.set(entries)
    players = sorted(entry.player_id for entry in entries)
    log_action(event, actor, "apart_created", label, players=players)
    return rule


@transaction.atomic
def keep_apart_delete(*, rule: KeepApart, actor: str = "", by=None) -> None:
    event = rule.event
    _open(event, by)
    players = sorted(rule.entries.values_list("player_id", flat=True))
    rule.delete()
    log_action(event, actor, "apart_deleted", rule.label, players=players)
