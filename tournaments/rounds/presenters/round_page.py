"""The organiser's round page in words: each table's seats, flags, progress and result, the
byes, what may be swapped and what the round offers next (selectors.round_actions).

Reads and words only: what may be written is the services' to say (a table's confirmation by
scoring's `Game.confirmable`, the round's steps by `selectors.round_actions`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Game
from scoring.presenters import PlacingView, signed
from tournaments.common.vocabulary import BYE_POLICY_LABELS
from tournaments.events.forms import ReasonForm
from tournaments.events.selectors.entries import player_names
from tournaments.models import Round, Table
from tournaments.rounds.presenters import organise as words
from tournaments.rounds.presenters.clock import clock_rule_words
from tournaments.rounds.presenters.flags import Reasons, flag_sentences, plan_line
from tournaments.rounds.selectors import (
    Clock,
    RoundProgress,
    clock_of,
    round_actions,
    round_byes,
    round_progress,
    round_stuck,
    round_tables_activity,
    tables_over_time,
)
from tournaments.teams.selectors import apart_reasons

#: A table still in play with nothing entered for this long is highlighted: a phone may have
#: died, or the keeper stopped entering (a deal takes a few minutes).
STALE_AFTER = timedelta(minutes=15)


@dataclass(frozen=True)
class SeatView:
    number: int  # 1, 2, 3 in the direction of play
    player_id: int
    name: str
    deals_first: bool
    total: str = ""  # the running total, signed, once the table plays


@dataclass
class TableView:
    table: Table
    seats: list[SeatView]
    flags: list[str]
    result: str
    placings: list[PlacingView]
    can_confirm: bool
    can_reopen: bool
    reopen_form: ReasonForm | None = None
    activity: str = ""  # "5 deals · last entry 3 minutes ago", once published
    stale: bool = False  # unfinished, and nothing entered for STALE_AFTER
    why: str = ""  # a swiss table's explanation in one line (score groups, floats, repeats)
    over_time: bool = False  # still playing after the round clock ran out


@dataclass
class RoundPage:
    round: Round
    tables: list[TableView]
    byes: list[tuple[str, list[str]]]  # name, flag sentences
    flags: list[str]
    progress: RoundProgress
    swap_choices: list[tuple[int, str]] = field(default_factory=list)
    actions: frozenset[str] = frozenset()  # selectors.round_actions: what to offer
    stuck: bool = False  # still being built a minute after it was asked for
    build_error: str = ""  # why a failed build failed, in the reader's language
    settled: str = ""  # "2 of 4 tables confirmed", beside the close button
    bye_scores: str = ""  # what a bye scores under the event's bye policy
    clock: Clock | None = None  # the round clock (selectors.clock_of)
    over_time: int = 0  # tables still playing after time
    clock_rule: str = ""  # what happens at time, in words (the event's setting)
    # the rounds the plan still gives, or at most the field allows (presenters.flags.plan_line)
    plan_line: str = ""


def _activity(table: Table, now) -> tuple[str, bool]:
    """A published table's deals so far and when the last came in, and whether it is stale:
    still in play with nothing entered for STALE_AFTER (since publishing, before the first)."""
    game = table.game
    if game is None:
        return "", False
    deals = ngettext("%(n)s deal", "%(n)s deals", table.deals) % {"n": table.deals}
    if table.last_entry is None:
        text = _("%(deals)s · nothing entered yet") % {"deals": deals}
    else:
        if now - table.last_entry < timedelta(minutes=1):
            text = _("%(deals)s · last entry just now") % {"deals": deals}
        else:
            ago = timesince(table.last_entry, now, depth=1)
            text = _("%(deals)s · last entry %(ago)s ago") % {"deals": deals, "ago": ago}
    quiet_since = table.last_entry or table.round.published_at or game.created_at
    stale = game.result == Game.Result.IN_PLAY and now - quiet_since > STALE_AFTER
    return text, stale


def _table_view(
    table: Table,
    names: dict[int, str],
    reopen_forms: dict,
    now,
    over_time: set[int],
    reasons: Reasons,
) -> TableView:
    game = table.game
    activity, stale = _activity(table, now)
    return TableView(
        table=table,
        seats=[
            SeatView(
                seat + 1,
                player.pk,
                player.name,
                seat == table.first_dealer,
                signed(game.totals[seat]) if game and game.totals else "",
            )
            for seat, player in enumerate(table.seats)
        ],
        flags=flag_sentences(table.flags, names, reasons),
        result=words.table_result(table),
        placings=words.placings(game),
        can_confirm=game is not None and game.confirmable,  # scoring's one rule
        can_reopen=game is not None and game.confirmed,
        reopen_form=reopen_forms.get(table.number) or ReasonForm(prefix=f"t{table.number}"),
        activity=activity,
        stale=stale,
        why=words.why_line(table.flags, names),
        over_time=table.number in over_time,
    )


def round_page(round_: Round, reopen_forms: dict | None = None) -> RoundPage:
    """Everything the round page shows, in a fixed number of queries."""
    names = player_names(round_.event)
    tables = round_tables_activity(round_)
    byes = round_byes(round_)
    now = timezone.now()
    clock = clock_of(round_, now)
    over_time = tables_over_time(round_, tables, now)
    # the keep-apart rules' reasons, read only when a table is flagged for one
    bent = any(flag.get("code") == "apart" for table in tables for flag in table.flags)
    reasons = apart_reasons(round_.event) if bent else {}
    views = [
        _table_view(table, names, reopen_forms or {}, now, over_time, reasons) for table in tables
    ]
    progress = round_progress(round_, tables)
    choices = [
        (seat.player_id, _("Table %(t)s · %(name)s") % {"t": view.table.number, "name": seat.name})
        for view in views
        for seat in view.seats
    ]
    choices += [(bye.player_id, _("Bye · %(name)s") % {"name": bye.player.name}) for bye in byes]
    return RoundPage(
        round=round_,
        tables=views,
        byes=[(bye.player.name, flag_sentences(bye.flags, names)) for bye in byes],
        flags=flag_sentences(
            [flag for flag in round_.flags if flag.get("code") != "second_bye"], names
        ),
        progress=progress,
        swap_choices=choices,
        actions=round_actions(round_, now),
        stuck=round_stuck(round_, now),
        build_error=words.build_error(round_) if round_.is_failed else "",
        settled=words.settled_label(progress),
        bye_scores=_("A bye scores: %(what)s.")
        % {"what": BYE_POLICY_LABELS.get(round_.event.bye_policy, round_.event.bye_policy)},
        clock=clock,
        over_time=len(over_time),
        clock_rule=clock_rule_words(round_.event),
        plan_line=plan_line(round_.flags, names),
    )
