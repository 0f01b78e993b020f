"""What the organiser pages say: flags, the audit trail, a round's next step, a table's result.

Reads only, and words only: the pairing's flags, the services' log entries and the games'
results come in as stored; every sentence goes through gettext so English and Bulgarian read
the same. Player ids are turned into names with a dict the caller fetched once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring import selectors as scoring_selectors
from scoring.models import Game
from scoring.presenters import PlacingView, signed
from scoring.presenters.confirmations import Board, board, said_line
from scoring.selectors import from_hand
from tournaments.common.event_settings import SETTING_LABELS
from tournaments.common.messages import render
from tournaments.common.vocabulary import PAIRING_MODE_LABELS
from tournaments.events.presenters import check_in_what
from tournaments.models import EventLog, Round, Table
from tournaments.pairing import WHY_CODE
from tournaments.rounds.presenters.clock import clock_log_words
from tournaments.rounds.presenters.tables import state_words
from tournaments.rounds.selectors import RoundProgress, round_stuck, table_state
from tournaments.teams.presenters import team_log_words

EXPORT_LABELS = {
    "standings": gettext_lazy("Standings"),
    "pairings": gettext_lazy("Pairings of every round"),
    "hands": gettext_lazy("Every deal of every game"),
    "team-standings": gettext_lazy("Team standings"),
    "teams": gettext_lazy("Teams and their players"),
    "apart": gettext_lazy("Players kept apart"),
}
#: Rows on a printed score sheet when the rules set no last hand (a goal, an instant win).
OPEN_ENDED_SHEET_ROWS = 20


def _name(names: dict[int, str], player: object) -> str:
    return names.get(player, "?") if isinstance(player, int) else "?"


# --- the pairing's flags: tournaments.rounds.presenters.flags ---------------------------------


def _float_words(direction: str, reason: str, name: str) -> str:
    move = (
        _("%(name)s plays up a score group")
        if direction == "up"
        else _("%(name)s plays down a score group")
    ) % {"name": name}
    why = {
        "uneven": _("the score groups do not split into tables of three"),
        "bye": _("with the byes, a score group does not split into tables of three"),
        "repeat": _("to keep apart players who have met"),
        "moved": _("moved by a swap"),
        "rule": _("to keep apart players a rule or a team keeps apart"),
    }.get(reason, str(reason))
    return _("%(move)s: %(reason)s.") % {"move": move, "reason": why}


def why_line(flags: list[dict], names: dict[int, str]) -> str:
    """A swiss table's explanation (pairing `Why.as_dict`, stored with its flags) in one
    line: its score groups, who plays up or down a group and why, the pairs kept apart.
    Empty for a table without one (other modes, rounds drawn before explanations)."""
    why = next((flag for flag in flags if flag.get("code") == WHY_CODE), None)
    if why is None:
        return ""
    ids = why.get("players", [])

    def who(index: object) -> str:
        ok = isinstance(index, int) and 0 <= index < len(ids)
        return _name(names, ids[index] if ok else None)

    points = [str(p) for p in why.get("points", [])]
    if len(set(points)) == 1:
        count = int(points[0]) if points[0].lstrip("-").isdigit() else 0
        parts = [
            ngettext("All three have %(n)s point.", "All three have %(n)s points.", count)
            % {"n": points[0]}
        ]
    else:
        parts = [_("Score groups mixed: %(points)s.") % {"points": ", ".join(points)}]
    for index, direction, reason in why.get("floats", []):
        parts.append(_float_words(direction, reason, who(index)))
    pairs = [_("%(a)s and %(b)s") % {"a": who(a), "b": who(b)} for a, b in why.get("avoided", [])]
    if pairs:
        parts.append(_("Kept apart, having met before: %(pairs)s.") % {"pairs": "; ".join(pairs)})
    return " ".join(parts)


# --- the audit trail --------------------------------------------------------------------------


@dataclass(frozen=True)
class LogLine:
    at: datetime
    actor: str
    what: str
    reason: str


def _what(entry: EventLog, names: dict[int, str]) -> str:
    data = entry.data or {}
    player = _name(names, data.get("player"))
    values = {
        "name": data.get("name") or player,
        "round": data.get("round"),
        "table": data.get("table"),
    }
    action = entry.action
    walkout = _walkout_what(action, data, names, values)  # tournaments.rounds.services.walkouts
    if walkout:
        return walkout
    if checking_in := check_in_what(action, values):  # tournaments.events.services.check_in
        return checking_in
    clock = clock_log_words(action, data, values)  # tournaments.rounds.services.clock
    if clock:
        return clock
    if teams := team_log_words(action, data, names):  # tournaments.teams.services
        return teams
    if action == "event_created":
        return _("Event created.")
    if action == "player_entered":
        if (data.get("round") or 1) > 1:
            return _("%(name)s entered, joins in round %(round)s.") % values
        return _("%(name)s entered.") % values
    if action == "checked_in":
        return _("%(name)s checked in.") % values
    if action == "checked_out":
        return _("%(name)s checked out.") % values
    if action == "checked_in_all":
        count = data.get("count", 0)
        return ngettext(
            "Everyone checked in (%(n)s player).", "Everyone checked in (%(n)s players).", count
        ) % {"n": count}
    if action == "withdrawn":
        return _("%(name)s withdrew.") % values
    if action == "reinstated":
        return _("%(name)s reinstated.") % values
    if action == "entry_deleted":
        # the entry and its player are gone: the log keeps the name as it was
        return _("%(name)s deleted (entered by mistake).") % {"name": data.get("name") or "?"}
    if action == "round_requested":
        mode = PAIRING_MODE_LABELS.get(data.get("mode"), data.get("mode"))
        return _("Round %(round)s requested (%(mode)s).") % {**values, "mode": mode}
    if action == "round_rebuilt":
        return _("Round %(round)s built again.") % values
    if action == "players_swapped":
        swapped = data.get("players") or [None, None]
        return _("Round %(round)s: %(a)s and %(b)s swapped.") % {
            **values,
            "a": _name(names, swapped[0]),
            "b": _name(names, swapped[-1]),
        }
    if action == "round_deleted":
        return _("Round %(round)s deleted.") % values
    if action == "round_published":
        return _("Round %(round)s published.") % values
    if action == "round_closed":
        return _("Round %(round)s closed.") % values
    if action == "pin_renewed":
        return _("Round %(round)s, table %(table)s: new PIN.") % values
    if action == "result_confirmed":
        return _("Round %(round)s, table %(table)s: result confirmed.") % values
    if action == "result_reopened":
        return _("Round %(round)s, table %(table)s: result reopened.") % values
    if action == "round_added":
        return _("A round added: %(n)s planned.") % {"n": data.get("rounds")}
    if action == "event_ended":
        return _("Event ended.")
    if action == "event_reopened":
        return _("Event reopened.")
    if action == "event_updated":
        changed = ", ".join(str(SETTING_LABELS.get(s, s)) for s in data.get("changed", {}))
        return _("Settings changed: %(settings)s.") % {"settings": changed}
    if action == "organiser_added":
        return _("%(username)s added as an organiser.") % {"username": data.get("username")}
    if action == "members_merged":
        return _("A second record of %(name)s (#%(gone)s) merged into this one.") % {
            **values,
            "gone": data.get("gone"),
        }
    if action == "code_renewed":
        # the service keeps the name itself: a code is renewed for a person, not a seat
        return _("%(name)s: new personal code.") % {"name": data.get("player") or "?"}
    return _("Other change (%(code)s).") % {"code": action}


def _walkout_what(action: str, data: dict, names: dict[int, str], values: dict) -> str:
    """The log's words for a table settled after a walkout ("" for any other action)."""
    if action == "seat_substituted":
        left, joined = (data.get("players") or [None, None])[:2]
        return _(
            "Round %(round)s, table %(table)s: %(joined)s took %(left)s's seat from hand %(deal)s."
        ) % {
            **values,
            "joined": _name(names, joined),
            "left": _name(names, left),
            "deal": from_hand(data),
        }
    if action == "table_voided":
        return _("Round %(round)s, table %(table)s: void.") % values
    if action == "table_finished":
        return _("Round %(round)s, table %(table)s: finished as it stood, confirmed.") % values
    if action == "result_adjusted":
        return _("Round %(round)s, table %(table)s: adjusted result confirmed.") % values
    if action == "withdrawn" and data.get("table"):
        return _("%(name)s withdrew, still seated at round %(round)s, table %(table)s.") % values
    return ""


def log_lines(entries: list[EventLog], names: dict[int, str]) -> list[LogLine]:
    return [LogLine(e.at, e.actor, _what(e, names), e.reason) for e in entries]


# --- rounds and results -----------------------------------------------------------------------


@dataclass(frozen=True)
class NextStep:
    text: str  # empty for a closed round: its status ("Closed") says it all
    kind: str  # "wait", "act" (the organiser is expected to do something) or "done"
    error: str = ""  # why a failed round failed


def next_step(progress: RoundProgress) -> NextStep:
    round_ = progress.round
    status = round_.status
    if status == Round.Status.PENDING:
        if round_stuck(round_):
            return NextStep(_("still being built after a minute: build it again"), "act")
        return NextStep(_("building tables…"), "wait")
    if status == Round.Status.FAILED:
        return NextStep(
            _("could not be built: build it again or delete it"), "act", build_error(round_)
        )
    if status == Round.Status.DRAFT:
        return NextStep(_("review the draft and publish"), "act")
    if status == Round.Status.PUBLISHED:
        if progress.all_settled:
            return NextStep(_("close the round"), "act")
        return NextStep(
            _("results %(finished)s/%(tables)s in, %(confirmed)s confirmed")
            % {
                "finished": progress.finished,
                "tables": progress.tables,
                "confirmed": progress.confirmed,
            },
            "wait",
        )
    return NextStep("", "done")


def build_error(round_: Round) -> str:
    """Why the round could not be built, in the reader's language where the reason is ours
    (the failed build stores its code as the round's one flag); else as stored."""
    flag = next((f for f in round_.flags if f.get("code") == "build_failed"), {})
    count = flag.get("amount")
    if flag.get("reason") == "too_few_players" and isinstance(count, int):
        return render("too_few_players" if count else "no_players_checked_in", {"n": count})
    return round_.build_error


def settled_label(progress: RoundProgress) -> str:
    """How many tables are settled, for the close button's place: "2 of 4 tables confirmed"
    (or "confirmed or void" once a table has been set aside)."""
    values = {"settled": progress.settled, "tables": progress.tables}
    if progress.void:
        return (
            ngettext(
                "%(settled)s of %(tables)s table confirmed or void",
                "%(settled)s of %(tables)s tables confirmed or void",
                progress.tables,
            )
            % values
        )
    return (
        ngettext(
            "%(settled)s of %(tables)s table confirmed",
            "%(settled)s of %(tables)s tables confirmed",
            progress.tables,
        )
        % values
    )


def table_result(table: Table) -> str:
    """The table's state in words (tables.state_words, the one wording), for the round page
    and the pairings export."""
    return state_words(table_state(table))


def placings(game: Game | None) -> list[PlacingView]:
    """The table's players first to last, once the engine has placed them (as the game's own
    page lists them)."""
    if game is None or game.placings is None:
        return []
    return [
        PlacingView(place, game.players[seat], signed(game.totals[seat]))
        for place, seat in enumerate(game.placings, start=1)
    ]


# --- paper ------------------------------------------------------------------------------------


def sheet_rows(ruleset: str, options: dict) -> tuple[int, bool]:
    """How many deals a paper score sheet needs, and whether that is every deal the game can
    have (the engine's bound, `scoring.selectors.deals_at_most`). Games that end on points
    get a fixed count."""
    most = scoring_selectors.deals_at_most(ruleset, options)
    if most is None:
        return OPEN_ENDED_SHEET_ROWS, False
    return most, True


@dataclass(frozen=True)
class DisputeView:
    """A table whose result a player says is wrong, with what each side says."""

    table: int
    game_id: int
    board: Board
    lines: list[str]


def disputes(tables) -> list[DisputeView]:
    """The round's disputed tables (their games read only for those), by table number."""
    # Only a finished result awaiting confirmation can be disputed: no query for the others.
    by_game = {
        table.game_id: table
        for table in tables
        if table.game_id and table.game.result == Game.Result.FINISHED
    }
    if not by_game:
        return []
    disputed = scoring_selectors.disputed_games(list(by_game))
    views = []
    for game_id in sorted(disputed, key=lambda g: by_game[g].number):
        table = by_game[game_id]
        seen = board(Game.objects.get(pk=game_id))
        lines = [said_line(seat) for seat in seen.disputes]
        views.append(DisputeView(table.number, game_id, seen, lines))
    return views
