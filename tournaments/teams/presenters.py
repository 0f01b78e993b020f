"""The teams page and the event's log in words (tournaments.teams.services writes the log)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Entry, Event, KeepApart, Team
from tournaments.teams.selectors import event_teams, keep_apart_rules


def _names(names: dict[int, str], players: object) -> str:
    ids = players if isinstance(players, list) else []
    return ", ".join(names.get(p, "?") if isinstance(p, int) else "?" for p in ids)


def team_log_words(action: str, data: dict, names: dict[int, str]) -> str:
    """The log's words for a change to the teams or the keep-apart rules ("" for any other
    action)."""
    player = data.get("player")
    values = {
        "team": data.get("team") or "?",
        "old": data.get("old") or "?",
        "name": names.get(player, "?") if isinstance(player, int) else "?",
        "names": _names(names, data.get("players")),
    }
    if action == "team_created":
        if data.get("players"):
            return _("Team %(team)s made: %(names)s.") % values
        return _("Team %(team)s made.") % values
    if action == "team_renamed":
        return _("Team %(old)s renamed %(team)s.") % values
    if action == "team_deleted":
        return _("Team %(team)s deleted.") % values
    if action == "team_member_added":
        return _("%(name)s joined the team %(team)s.") % values
    if action == "team_member_removed":
        return _("%(name)s taken out of the team %(team)s.") % values
    if action == "apart_created":
        return _("Kept apart at the tables: %(names)s.") % values
    if action == "apart_deleted":
        return _("No longer kept apart: %(names)s.") % values
    return ""


def reason_suggestions() -> list[str]:
    """The reasons offered in the page's language (the rule keeps whatever was typed)."""
    return [_("couple"), _("same club"), _("family")]


@dataclass(frozen=True)
class TeamsPage:
    teams: list[Team]
    rules: list[KeepApart]
    free: list[tuple[int, str]]  # (entry id, name) of the players in no team
    everyone: list[tuple[int, str]]  # (entry id, name) of every player not withdrawn
    in_teams: int


def teams_page(event: Event) -> TeamsPage:
    """What the teams page lists, in a fixed number of queries."""
    teams = event_teams(event)
    placed = {member.entry_id for team in teams for member in team.members.all()}
    entries = list(
        Entry.objects.filter(event=event).select_related("player").order_by("player__name")
    )
    return TeamsPage(
        teams=teams,
        rules=keep_apart_rules(event),
        free=[(e.pk, e.player.name) for e in entries if e.pk not in placed and not e.withdrawn],
        everyone=[(e.pk, e.player.name) for e in entries if not e.withdrawn],
        in_teams=len(placed),
    )
