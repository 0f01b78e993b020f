"""The standings in words: column headings, the legend, why a player is placed below the one
above, what a snapshot counts and when it was built.

The table itself (rows, headings, legend) is written out once per snapshot and language by
tournaments.results.render; the head above it (what is counted, "built … ago", the stale
note) is worded at each request (`head_context`), being the only part that changes between
two snapshots.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from tournaments.common.vocabulary import METRIC_WORDS, TEAM_METRIC_WORDS, TEAM_SCORING_LABELS
from tournaments.models import Event
from tournaments.results.selectors import (
    StandingsView,
    standings_order,
    team_columns,
    team_names,
    team_order,
)


def _and(names: list[str]) -> str:
    return get_text_list(names, pgettext("the last join of a list: a, b and c", "and"))


def _ago(seconds: int) -> str:
    """How long ago, to the whole minute, hour or day below (as Django's timesince with
    depth=1, without weeks), worded as Intl.RelativeTimeFormat words it on the phone
    (static/js/built/ago.js): "3 minutes ago", "преди 3 минути"."""
    minutes = seconds // 60
    if minutes < 60:
        return ngettext("%(n)s minute ago", "%(n)s minutes ago", minutes) % {"n": minutes}
    hours = minutes // 60
    if hours < 24:
        return ngettext("%(n)s hour ago", "%(n)s hours ago", hours) % {"n": hours}
    days = hours // 24
    return ngettext("%(n)s day ago", "%(n)s days ago", days) % {"n": days}


def built_ago(moment, now=None) -> str:
    """When the standings were built, to the minute, from the second their `<time>` gives
    (so the phone, rewording it every 30 s, says the same). No ETag holds it: a minute's
    tick would send every polling phone the whole table again."""
    now = now or timezone.now()
    seconds = int((now - moment.replace(microsecond=0)).total_seconds())
    if seconds < 60:
        return _("built just now")
    return _("built %(ago)s") % {"ago": _ago(seconds)}


def built_words() -> dict[str, str]:
    """The wording around the phone's "3 minutes ago" (data attributes of the `<time>`:
    tournaments/public/_built.html), the very patterns `built_ago` fills."""
    return {"pattern": _("built %(ago)s"), "just_now": _("built just now")}


def tie_sentence(decided_by: str | None, order: tuple[str, ...]) -> str:
    """Why a player is below the one above when the first metric did not separate them."""
    if not decided_by or decided_by not in order:
        return ""
    level = _and([str(METRIC_WORDS[name].word) for name in order[: order.index(decided_by)]])
    if decided_by == "lot":
        return _("Level with the player above on %(level)s: placed below by lot.") % {
            "level": level
        }
    return _("Level with the player above on %(level)s: placed below on %(metric)s.") % {
        "level": level,
        "metric": METRIC_WORDS[decided_by].word,
    }


def tie_marker(decided_by: str | None, order: tuple[str, ...]) -> str:
    """The same reason in two words, for a row of the standings table (the sentence above the
    table explains the markers once, rather than every tied row repeating it)."""
    if not decided_by or decided_by not in order:
        return ""
    if decided_by == "lot":
        return _("by lot")
    return _("by %(metric)s") % {"metric": METRIC_WORDS[decided_by].word}


def order_sentence(order: tuple[str, ...]) -> str:
    """How the standings are ordered, said once above the table."""
    joined = _and([str(METRIC_WORDS[name].word) for name in order])
    return _(
        "Ranked by %(order)s, in that order. “by …” after a name says what placed the player"
        " below the one above, when they were level before it."
    ) % {"order": joined}


def standings_label(snapshot) -> str:
    """What a snapshot counts, said exactly (the one home of this label: the standings, the
    projector): the closed rounds, plus the settled tables of the round being played, e.g.
    "After 1 round + 3 of 5 tables of round 2"."""
    if snapshot is None:
        return ""
    done = snapshot.rounds_complete
    counted = snapshot.counted or {}
    if not counted.get("settled"):
        if not done:
            return ""
        return ngettext("After %(n)s round", "After %(n)s rounds", done) % {"n": done}
    tables = ngettext(
        "%(settled)s of %(tables)s table of round %(round)s",
        "%(settled)s of %(tables)s tables of round %(round)s",
        counted["tables"],
    ) % {"settled": counted["settled"], "tables": counted["tables"], "round": counted["round"]}
    if not done:
        return _("After %(tables)s") % {"tables": tables}
    return ngettext("After %(n)s round + %(tables)s", "After %(n)s rounds + %(tables)s", done) % {
        "n": done,
        "tables": tables,
    }


@dataclass(frozen=True)
class StandingsRow:
    rank: int | None  # None: not ranked, no game played and no bye (tournaments.standings)
    player_id: int
    name: str
    values: list[int]
    tie: str
    tie_marker: str
    withdrawn: bool = False

    @property
    def ranked(self) -> bool:
        return self.rank is not None


def head_context(snapshot, stale: bool, counted: str | None = None) -> dict:
    """What stands above the table: what the snapshot counts (`counted`, when written out
    with it), and what changes without a new snapshot: when it was built (to the minute),
    whether newer results are waiting for the next build. The page's script words "built …
    ago" again as time passes (static/js/built/page.js, from `built_words`)."""
    return {
        "snapshot": snapshot,
        "stale": stale and snapshot is not None,
        "built_ago": built_ago(snapshot.built_at) if snapshot else "",
        "built_words": built_words(),
        "counted": standings_label(snapshot) if counted is None else counted,
    }


def table_context(event: Event, view: StandingsView, *, player_id: int | None = None) -> dict:
    """The standings table (rows, headings, legend), as the standings page, the projector and
    the player page show it; with `player_id`, only that player's row (their page shows one
    row of up to 999). The rows not ranked (rank None) come last, under their own heading."""
    order = standings_order(event)
    columns = [name for name in order if name != "lot"]  # a lot's number means nothing to read
    if "games" not in columns:  # games played: always shown, what the points come from
        columns.append("games")
    snapshot = view.snapshot
    stored = snapshot.rows if snapshot else []
    if player_id is not None:
        stored = [row for row in stored if row["player"] == player_id]
    rows = [
        StandingsRow(
            rank=row["rank"],
            player_id=row["player"],
            name=view.names.get(row["player"], "?"),
            values=[row["metrics"].get(name, 0) for name in columns],
            tie=tie_sentence(row.get("decided_by"), order),
            tie_marker=tie_marker(row.get("decided_by"), order),
            withdrawn=row["player"] in view.withdrawn,
        )
        for row in stored
    ]
    return {
        "event": event,
        "headings": [METRIC_WORDS[name].heading for name in columns],
        "legend": [(METRIC_WORDS[name].heading, METRIC_WORDS[name].meaning) for name in columns],
        "order_sentence": order_sentence(order),
        "rows": rows,
        "span": 2 + len(columns),  # rank, player and the values: the unranked heading's width
        # the teams beside the players (docs/team-standings.md); a player's page shows one row
        **(team_context(event, view) if player_id is None else {"teams": []}),
    }


def standings_context(event: Event, view: StandingsView, *, player_id: int | None = None) -> dict:
    """The head and the table together (the player page, and tests rendering afresh)."""
    return {
        **head_context(view.snapshot, view.stale),
        **table_context(event, view, player_id=player_id),
    }


# --- the team standings (docs/team-standings.md) ------------------------------------------------


@dataclass(frozen=True)
class TeamLine:
    rank: int | None  # None: none of its players has played yet
    name: str
    members: str  # its players' names, in the standings' language's list
    per_round: list[int]
    points: int
    values: list[int]  # the tie-breaks shown, in the precedence's order
    tie: str
    tie_marker: str

    @property
    def ranked(self) -> bool:
        return self.rank is not None


def team_tie_sentence(decided_by: str | None, order: tuple[str, ...]) -> str:
    """Why a team is below the one above when their totals are level."""
    if not decided_by or decided_by not in order:
        return ""
    level = _and([str(TEAM_METRIC_WORDS[name].word) for name in order[: order.index(decided_by)]])
    if decided_by == "lot":
        return _("Level with the team above on %(level)s: placed below by lot.") % {"level": level}
    return _("Level with the team above on %(level)s: placed below on %(metric)s.") % {
        "level": level,
        "metric": TEAM_METRIC_WORDS[decided_by].word,
    }


def team_tie_marker(decided_by: str | None, order: tuple[str, ...]) -> str:
    if not decided_by or decided_by not in order:
        return ""
    if decided_by == "lot":
        return _("by lot")
    return _("by %(metric)s") % {"metric": TEAM_METRIC_WORDS[decided_by].word}


def team_context(event: Event, view: StandingsView) -> dict:
    """The team standings beside the players' (`teams` empty when the snapshot has none):
    the points of each round, the total, the tie-breaks of the event's team precedence."""
    stored = view.snapshot.team_rows if view.snapshot else []
    if not stored:
        return {"teams": []}
    order = team_order(event)
    columns = team_columns(event)
    names = team_names(event)
    rounds = max(len(row["per_round"]) for row in stored)
    lines = [
        TeamLine(
            rank=row["rank"],
            name=names.get(row["team"], "?"),
            members=_and([view.names.get(p, "?") for p in row.get("members", ())]),
            per_round=[*row["per_round"], *[0] * (rounds - len(row["per_round"]))],
            points=row["points"],
            values=[row["metrics"].get(name, 0) for name in columns],
            tie=team_tie_sentence(row.get("decided_by"), order),
            tie_marker=team_tie_marker(row.get("decided_by"), order),
        )
        for row in stored
    ]
    joined = _and([str(TEAM_METRIC_WORDS[name].word) for name in order])
    return {
        "teams": lines,
        "team_rounds": [
            (pgettext("team standings: round column", "R%(n)s") % {"n": n}, n)
            for n in range(1, rounds + 1)
        ],
        "team_headings": [TEAM_METRIC_WORDS[name].heading for name in columns],
        "team_legend": [
            (TEAM_METRIC_WORDS[name].heading, TEAM_METRIC_WORDS[name].meaning)
            for name in ("points", *columns)
        ],
        "team_scoring": TEAM_SCORING_LABELS.get(event.team_scoring, ""),
        "team_order_sentence": _("Teams are ranked by %(order)s, in that order.")
        % {"order": joined},
        "team_span": 3 + rounds + len(columns),
    }
