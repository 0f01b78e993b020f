"""An event's data as django-tables2 tables, for export (CSV, XLSX, JSON by config.spreadsheets).

Six exports: the standings (the newest snapshot's rows), the pairings (every published
round's tables and byes), the hands (every deal of every table's game, as the engine
replays it), the team standings (the snapshot's team rows, docs/team-standings.md), the
teams (each player of each team) and the keep-apart rules (docs/teams.md).
The standings and the pairings name each player's team too, when the event has teams.
Each table is built from selectors in a fixed number of queries, however many players or
deals the event has; the cells are plain values (numbers stay numbers in XLSX).

Words are the pages' words, in the language of the request that downloads the file (the
active language LocaleMiddleware chose: the language switcher's cookie, else the browser's):
headers, a table's Result (organise_presenters.table_result, as the round page says it) and
the calls (scoring.words, as the score sheet names them). A file is a snapshot for the one who
asked, like the page it was downloaded from; the data beneath (numbers, names typed, reasons
the organisers gave) is the same in every language.
"""

from __future__ import annotations

import django_tables2 as tables
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import presenters as scoring_presenters
from scoring import selectors as scoring_selectors
from tournaments.common.vocabulary import METRIC_LABELS, TEAM_METRIC_WORDS
from tournaments.events.selectors.entries import player_names
from tournaments.models import Event
from tournaments.results.selectors import standings_latest, team_columns, team_standings_newest
from tournaments.rounds.presenters.organise import table_result
from tournaments.rounds.presenters.tables import player_notes
from tournaments.rounds.selectors import event_byes, event_tables
from tournaments.rounds.services import walkouts
from tournaments.teams.selectors import event_teams, keep_apart_rules, team_names_by_player

#: The standings metrics worth a column (the lot is a 53-bit draw, shown as "decided by").
EXPORTED_METRICS = ("placing_points", "score", "firsts", "opponents", "head_to_head", "games")


def _column(label) -> tables.Column:
    return tables.Column(verbose_name=label, default="", orderable=False)


class ExportTable(tables.Table):
    class Meta:
        orderable = False
        default = ""


class StandingsTable(ExportTable):
    rank = _column(gettext_lazy("Rank"))
    player = _column(gettext_lazy("Player"))
    team = _column(gettext_lazy("Team"))

    class Meta(ExportTable.Meta):
        sequence = ("rank", "player", "team", "...", "decided_by", "withdrawn", "notes")


class PairingsTable(ExportTable):
    round = _column(gettext_lazy("Round"))
    table = _column(gettext_lazy("Table"))
    seat = _column(gettext_lazy("Seat"))
    player = _column(gettext_lazy("Player"))
    team = _column(gettext_lazy("Team"))
    first_dealer = _column(gettext_lazy("Deals first"))
    bye = _column(gettext_lazy("Bye"))
    result = _column(gettext_lazy("Result"))  # as the round page says it
    reason = _column(gettext_lazy("Reason"))


class HandsTable(ExportTable):
    round = _column(gettext_lazy("Round"))
    table = _column(gettext_lazy("Table"))
    deal = _column(gettext_lazy("Deal"))
    hand = _column(gettext_lazy("Hand"))
    dealer = _column(gettext_lazy("Dealer"))
    calls = _column(gettext_lazy("Calls"))
    contract = _column(gettext_lazy("Contract"))
    declarer = _column(gettext_lazy("Declarer"))


def _no_team(teams: dict) -> tuple[str, ...]:
    """The Team column only for an event with teams: the others' files keep their columns."""
    return () if teams else ("team",)


def _seat_columns(prefix: str, label: str) -> list[tuple[str, tables.Column]]:
    return [(f"{prefix}_{seat}", _column(f"{label} {seat + 1}")) for seat in range(3)]


def standings_table(event: Event) -> StandingsTable:
    """The newest snapshot's rows: the ranked ones 1..K, then those not ranked (no game, no
    bye) with an empty rank; games played and withdrawn in their own columns."""
    view = standings_latest(event)
    teams = team_names_by_player(event)
    notes = player_notes(walkouts.changed_tables(event))
    rows = []
    for row in view.snapshot.rows if view.snapshot else []:
        decided_by = row.get("decided_by")
        rows.append(
            {
                "rank": row["rank"],
                "player": view.names.get(row["player"], ""),
                "team": teams.get(row["player"], ""),
                **{metric: row["metrics"].get(metric) for metric in EXPORTED_METRICS},
                "decided_by": str(METRIC_LABELS.get(decided_by, "")) if decided_by else "",
                "withdrawn": _("yes") if row["player"] in view.withdrawn else "",
                "notes": "; ".join(notes.get(row["player"], ())),
            }
        )
    extra = [(metric, _column(capfirst(METRIC_LABELS[metric]))) for metric in EXPORTED_METRICS]
    extra.append(("decided_by", _column(_("Decided by"))))
    extra.append(("withdrawn", _column(_("Withdrawn"))))
    extra.append(("notes", _column(_("Table notes"))))  # walkouts, and tables the clock ended
    return StandingsTable(rows, extra_columns=extra, exclude=_no_team(teams))


class TeamStandingsTable(ExportTable):
    rank = _column(gettext_lazy("Rank"))
    team = _column(gettext_lazy("Team"))
    players = _column(gettext_lazy("Players"))

    class Meta(ExportTable.Meta):
        sequence = ("rank", "team", "players", "...", "decided_by")


def team_standings_table(event: Event) -> TeamStandingsTable:
    """The newest snapshot's team rows: each round's points, the total, the tie-breaks the
    event ranks its teams by and what decided each tie (empty when it has no teams)."""
    view = team_standings_newest(event)
    rounds = max((len(row["per_round"]) for row in view.team_rows), default=0)
    shown = team_columns(event)
    rows = []
    for row in view.team_rows:
        decided_by = row.get("decided_by")
        rows.append(
            {
                "rank": row["rank"],
                "team": view.teams.get(row["team"], ""),
                "players": ", ".join(view.names.get(p, "") for p in row.get("members", ())),
                **{f"round_{n + 1}": v for n, v in enumerate(row["per_round"])},
                "points": row["points"],
                **{metric: row["metrics"].get(metric) for metric in shown},
                "decided_by": str(TEAM_METRIC_WORDS[decided_by].label) if decided_by else "",
            }
        )
    extra = [
        (f"round_{n}", _column(_("Round %(number)s") % {"number": n})) for n in range(1, rounds + 1)
    ]
    extra.append(("points", _column(capfirst(TEAM_METRIC_WORDS["points"].label))))
    extra += [(m, _column(capfirst(TEAM_METRIC_WORDS[m].label))) for m in shown]
    extra.append(("decided_by", _column(_("Decided by"))))
    return TeamStandingsTable(rows, extra_columns=extra)


def pairings_table(event: Event) -> PairingsTable:
    rows = []
    teams = team_names_by_player(event)
    for table in event_tables(event):
        for seat, player in enumerate(table.seats):
            rows.append(
                {
                    "round": table.round.number,
                    "table": table.number,
                    "seat": seat + 1,
                    "player": player.name,
                    "team": teams.get(player.pk, ""),
                    "first_dealer": _("yes") if seat == table.first_dealer else "",
                    "result": table_result(table),
                    "reason": table.outcome_reason,  # only the organisers' reason, when given
                }
            )
    for bye in event_byes(event):
        rows.append(
            {
                "round": bye.round.number,
                "player": bye.player.name,
                "team": teams.get(bye.player_id, ""),
                "bye": _("yes"),
            }
        )
    rows.sort(key=lambda row: (row["round"], row.get("table") or 10**6, row.get("seat") or 0))
    return PairingsTable(rows, exclude=_no_team(teams))


def _calls_text(deal, names: list[str]) -> str:
    return ", ".join(
        f"{names[made.seat]}: {scoring_presenters.call_label(made.call.name)}"
        for made in deal.calls
    )


def hands_table(event: Event) -> HandsTable:
    rows = []
    names_by_id = player_names(event)
    for table in event_tables(event, with_deals=True):
        game = table.game
        names = list(game.players)
        state = scoring_selectors.game_state(game, game.live_entries)
        for deal in state.deals:
            if table.substitutions:  # the players of that deal, before or after a walkout
                names = walkouts.seat_names_at(table, deal.number, names_by_id)
            row = {
                "round": table.round.number,
                "table": table.number,
                "deal": deal.number,
                "hand": deal.hand,
                "dealer": names[deal.dealer],
                "calls": _calls_text(deal, names),
                **{f"player_{seat}": names[seat] for seat in range(3)},
            }
            if not deal.redeal:
                row["contract"] = scoring_presenters.call_label(deal.contract.name)
                row["declarer"] = names[deal.declarer]
                for seat in range(3):
                    row[f"tricks_{seat}"] = deal.tricks[seat]
                    row[f"points_{seat}"] = deal.points[seat]
            for seat in range(3):
                row[f"total_{seat}"] = deal.totals[seat]
            rows.append(row)
    extra = [
        *_seat_columns("player", _("Player")),
        *_seat_columns("tricks", _("Tricks")),
        *_seat_columns("points", _("Points")),
        *_seat_columns("total", _("Total")),
    ]
    sequence = ["round", "table", "deal", "hand", "player_0", "player_1", "player_2", "..."]
    return HandsTable(rows, extra_columns=extra, sequence=sequence)


class TeamsTable(ExportTable):
    team = _column(gettext_lazy("Team"))
    player = _column(gettext_lazy("Player"))
    withdrawn = _column(gettext_lazy("Withdrawn"))


def teams_table(event: Event) -> TeamsTable:
    """Each team's players, a row each, teams by name."""
    return TeamsTable(
        [
            {
                "team": team.name,
                "player": member.entry.player.name,
                "withdrawn": _("yes") if member.entry.withdrawn else "",
            }
            for team in event_teams(event)
            for member in team.members.all()
        ]
    )


class KeepApartTable(ExportTable):
    rule = _column(gettext_lazy("Rule"))
    players = _column(gettext_lazy("Players"))
    reason = _column(gettext_lazy("Reason"))


def keep_apart_table(event: Event) -> KeepApartTable:
    """Each keep-apart rule: its players (names between commas) and the organiser's reason."""
    return KeepApartTable(
        [
            {
                "rule": number,
                "players": ", ".join(entry.player.name for entry in rule.entries.all()),
                "reason": rule.label,
            }
            for number, rule in enumerate(keep_apart_rules(event), start=1)
        ]
    )


EXPORTS = {
    "standings": standings_table,
    "pairings": pairings_table,
    "hands": hands_table,
    "team-standings": team_standings_table,
    "teams": teams_table,
    "apart": keep_apart_table,
}
FORMATS = ("csv", "xlsx", "json")
