"""An event's teams and keep-apart rules, read (docs/teams.md).

The draw reads the same rows through tournaments.common.bridge (`apart_pairs`, `team_ids`);
these are for the pages, the API and the exports.
"""

from __future__ import annotations

from itertools import combinations

from django.db.models import Prefetch

from scoring.names import search
from tournaments.models import Entry, Event, KeepApart, Team, TeamMember


def event_teams(event: Event) -> list[Team]:
    """The event's teams by name, each with its members (entries, their players) by name."""
    members = TeamMember.objects.select_related("entry__player").order_by("entry__player__name")
    return list(event.teams.prefetch_related(Prefetch("members", queryset=members)))


def team_of(event: Event, team_id: int) -> Team:
    """The event's team by id (Team.DoesNotExist for another event's)."""
    return event.teams.get(pk=team_id)


def keep_apart_rules(event: Event) -> list[KeepApart]:
    """The event's keep-apart rules, oldest first, each with its entries by name."""
    entries = Entry.objects.select_related("player").order_by("player__name")
    return list(event.keep_apart.prefetch_related(Prefetch("entries", queryset=entries)))


def rule_of(event: Event, rule_id: int) -> KeepApart:
    return event.keep_apart.get(pk=rule_id)


def team_names_by_player(event: Event) -> dict[int, str]:
    """Each player's team name (player id → name), for the exports and the lists."""
    return dict(
        TeamMember.objects.filter(team__event=event).values_list("entry__player_id", "team__name")
    )


def apart_reasons(event: Event) -> dict[tuple[int, int], str]:
    """Why each pair of players (smaller id first) is kept apart: the rules' reasons joined,
    for the draft's words when the draw had to seat them together anyway."""
    reasons: dict[tuple[int, int], list[str]] = {}
    for rule in keep_apart_rules(event):
        players = sorted(entry.player_id for entry in rule.entries.all())
        for pair in combinations(players, 2):
            labels = reasons.setdefault(pair, [])
            if rule.label and rule.label not in labels:
                labels.append(rule.label)
    return {pair: "; ".join(labels) for pair, labels in reasons.items()}


def entries_by_id(event: Event, ids: list[int]) -> list[Entry]:
    """The event's entries with these ids (others are left out: the caller compares counts)."""
    return list(event.entries.select_related("player").filter(pk__in=ids).order_by("pk"))


def entries_by_player(event: Event, player_ids: list[int]) -> list[Entry]:
    """The event's entries of these players (the API names players by player id)."""
    found = event.entries.select_related("player").filter(player_id__in=player_ids)
    return list(found.order_by("player__name"))


def entry_named(event: Event, typed: str, *, among: dict[int, str] | None = None):
    """The entry a typed name means, in Latin or Cyrillic letters, its words in any order
    (scoring.names.search, the members' search): the one whole-name match, else the one
    partial match; a tuple of the names it may mean when it fits several (or none: ())."""
    names = among if among is not None else entry_names(event)
    found = search(typed, names)
    matches = found.exact or found.partial
    if len(matches) == 1:
        return event.entries.select_related("player").get(pk=matches[0])
    return tuple(sorted(names[pk] for pk in matches))


def entry_names(event: Event) -> dict[int, str]:
    """entry id → the player's name, for the typed names of a pasted list."""
    return dict(event.entries.values_list("pk", "player__name"))
