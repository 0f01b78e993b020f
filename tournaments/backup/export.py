"""Writing an event's backup: every row it is made of, players by name, ids alongside."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from django.db.models import Prefetch
from django.utils import timezone

from scoring.models import DealEntry, GameChange
from tournaments.backup.fields import FORMAT, VERSION, row_out
from tournaments.common.errors import TournamentError
from tournaments.models import Bye, Event, KeepApart, Round, Table, TeamMember


def event_export(*, event: Event) -> dict:
    """The whole event as plain JSON values (strings, numbers, lists, objects).

    A fixed number of queries whatever the event's size: every kind of row is read once.
    Refused (TournamentError) when a row names a player id the event has no entry for: the
    file could only name them wrongly.
    """
    event = Event.objects.select_related("club").get(pk=event.pk)
    entries = list(event.entries.select_related("player").order_by("pk"))
    names = {entry.player_id: entry.player.name for entry in entries}
    rounds = list(
        event.rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("game").order_by("number")),
            Prefetch("byes", queryset=Bye.objects.order_by("pk")),
        )
    )
    in_event = {"game__table__round__event": event}
    deals = _by_game(DealEntry.objects.filter(**in_event).order_by("entered_at", "pk"))
    changes = _by_game(GameChange.objects.filter(**in_event).order_by("at", "pk"))

    def namer(where: str) -> Callable[[object], str]:
        def name(player_id: object) -> str:
            if player_id not in names:
                raise TournamentError("backup_player_unknown", where=where, player=player_id)
            return names[player_id]

        return name

    def table_out(table: Table, where: str) -> dict:
        game = table.game
        return {
            **row_out(table, namer(where)),
            "seats": [namer(where)(player) for player in table.seat_ids],
            "game": None
            if game is None
            else {
                **row_out(game, namer(where)),
                "deals": [row_out(deal, namer(where)) for deal in deals[game.pk]],
                "changes": [row_out(change, namer(where)) for change in changes[game.pk]],
            },
        }

    def round_out(round_: Round) -> dict:
        where = f"round {round_.number}"
        return {
            **row_out(round_, namer(where)),
            "tables": [
                table_out(table, f"{where} table {table.number}") for table in round_.tables.all()
            ],
            "byes": [
                {**row_out(bye, namer(where)), "player": namer(f"{where} bye")(bye.player_id)}
                for bye in round_.byes.all()
            ],
        }

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "club": row_out(event.club, namer("club")),
        "event": {
            **row_out(event, namer("event")),
            "organisers": sorted(user.get_username() for user in event.organisers.all()),
        },
        "entries": [
            {**row_out(entry, namer("entries")), "player": row_out(entry.player, namer("entries"))}
            for entry in entries
        ],
        "rounds": [round_out(round_) for round_ in rounds],
        "standings": [
            {
                **row_out(snapshot, namer(f"standings {snapshot.pk}")),
                "current": snapshot.is_current(event),
            }
            for snapshot in event.standings.order_by("built_at", "pk")
        ],
        "log": [
            row_out(line, namer(f"log entry {line.pk}")) for line in event.log.order_by("at", "pk")
        ],
        # the newcomers waiting for the organiser's answer (self check-in)
        "newcomers": [
            row_out(asked, namer("newcomers")) for asked in event.newcomers.filter(entry=None)
        ],
        # teams and keep-apart rules (docs/teams.md), their players by name
        **_teams_out(event, namer),
    }


def _teams_out(event: Event, namer) -> dict:
    """The teams and keep-apart rules, each with its players' names (a team's in the order
    they joined, a rule's in the order they were entered): four queries however many there
    are (none skipped for an event without any, so every export counts alike)."""
    members = defaultdict(list)
    for member in (
        TeamMember.objects.filter(team__event=event).select_related("entry").order_by("pk")
    ):
        members[member.team_id].append(member.entry.player_id)
    grouped = defaultdict(list)
    through = KeepApart.entries.through.objects.filter(keepapart__event=event)
    for rule_id, player_id in through.order_by("entry_id").values_list(
        "keepapart_id", "entry__player_id"
    ):
        grouped[rule_id].append(player_id)
    return {
        "teams": [
            {
                **row_out(team, namer("teams")),
                "players": [namer(f"team {team.name}")(p) for p in members[team.pk]],
            }
            for team in event.teams.order_by("pk")
        ],
        "keep_apart": [
            {
                **row_out(rule, namer("keep_apart")),
                "players": [namer(f"keep_apart {rule.pk}")(p) for p in grouped[rule.pk]],
            }
            for rule in event.keep_apart.order_by("pk")
        ],
    }


def _by_game(rows) -> dict[int, list]:
    by_game = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    return by_game
