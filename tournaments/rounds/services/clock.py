"""The round clock: one shared deadline per published round, which the organiser starts,
pauses, resumes, extends and stops, and what happens to the tables still playing at time.

The server's time is the truth: a running clock is its deadline (`Round.clock_deadline`), a
paused one the seconds it had left (`Round.clock_remaining`); the pages and phones count down
from the deadline and the server's time they were given (static/js/clock/countdown.js). Each
move is written to the event log. The clock starts by itself when a round is published if
the event says so (`Event.clock_autostart`, round_publish calls clock_autostart).

At time, the event's rule (`Event.clock_at_time`, vocabulary.ClockAtTime) applies to each
table still playing:

- finish: the deal being played is finished; the first deal recorded after time ends the
  game as it stands.
- more: the deal being played is finished, then `Event.clock_more_deals` deals more; the
  last of them ends the game as it stands.
- organiser: the organiser ends each table as it stands (table_end_at_time), or lets it play
  on; the round page flags the tables still playing after time.

A game ended by the clock is placed by the engine's own rule for an early end
(scoring.services.game_end_early), confirmed, and its table's outcome is "at time"
(Table.Outcome.ENDED_AT_TIME): the sheet's history, the round pages, the standings' notes and
the exports say so. A table the engine cannot place yet (equal totals that only the last
tricks' winners separate) is left playing, flagged for the organiser.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring import services as scoring
from scoring.models import DealEntry, Game
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.services import log_action
from tournaments.common.vocabulary import ClockAtTime
from tournaments.models import Round, Table
from tournaments.rounds.selectors import ClockStatus, clock_of, table_clock
from tournaments.rounds.services.walkouts import _open_table, _scoring

#: What "extend" adds, in minutes.
EXTEND_MINUTES = 5
#: Who the history names for a game the clock ended.
CLOCK_ACTOR = "clock"


def _locked(round_: Round) -> Round:
    """The round locked, refused unless its event has a clock and it is published."""
    round_ = Round.objects.select_for_update(of=("self",)).select_related("event").get(pk=round_.pk)
    if not round_.event.clock_minutes:
        raise NotAllowed("clock_off")
    if round_.status != Round.Status.PUBLISHED:
        raise NotAllowed("clock_round_not_open")
    return round_


def _save(round_: Round) -> None:
    """Store the round's clock, and tell its games when their time is up (Game.time_up_at:
    the deal write asks the clock's rule only from then on, at no cost before)."""
    round_.save(
        update_fields=["clock_started_at", "clock_deadline", "clock_remaining", "clock_stopped_at"]
    )
    Game.objects.filter(table__round=round_).update(time_up_at=round_.clock_deadline)
    for table in round_.tables.filter(clock_extra__gt=0):
        _game_time_up(table, round_)


def _game_time_up(table: Table, round_: Round) -> None:
    """Tell the table's game when its own time is up: the round's, and what it was given."""
    deadline = round_.clock_deadline
    if deadline is not None:
        deadline += timedelta(seconds=table.clock_extra)
    Game.objects.filter(pk=table.game_id).update(time_up_at=deadline)


def _log(round_: Round, actor: str, action: str, **data) -> None:
    clock = clock_of(round_)
    log_action(
        round_.event,
        actor,
        action,
        round=round_.number,
        deadline=clock.deadline.isoformat() if clock.deadline else None,
        remaining=clock.remaining,
        **data,
    )


def _start(round_: Round, now) -> None:
    round_.clock_started_at = now
    round_.clock_deadline = now + timedelta(minutes=round_.event.clock_minutes)
    round_.clock_remaining = None
    round_.clock_stopped_at = None
    _save(round_)


@transaction.atomic
def clock_start(*, round_: Round, actor: str = "") -> Round:
    """Start the round's clock at the event's round length (again, after a stop)."""
    round_ = _locked(round_)
    if clock_of(round_).status not in (ClockStatus.IDLE, ClockStatus.STOPPED):
        raise NotAllowed("clock_running")
    _start(round_, timezone.now())
    _log(round_, actor, "clock_started")
    return round_


def clock_autostart(round_: Round, actor: str = "") -> bool:
    """Start a round's clock as it is published, if its event says so (in round_publish's
    transaction, the round locked there); whether it started."""
    event = round_.event
    if not (event.clock_minutes and event.clock_autostart):
        return False
    _start(round_, round_.published_at or timezone.now())
    _log(round_, actor, "clock_started", by_itself=True)
    return True


@transaction.atomic
def clock_pause(*, round_: Round, actor: str = "") -> Round:
    """Hold the clock with the time it has left (a running clock, before time)."""
    round_ = _locked(round_)
    clock = clock_of(round_)
    if clock.status != ClockStatus.RUNNING:
        raise NotAllowed("clock_not_running")
    round_.clock_remaining = clock.remaining
    round_.clock_deadline = None
    _save(round_)
    _log(round_, actor, "clock_paused")
    return round_


@transaction.atomic
def clock_resume(*, round_: Round, actor: str = "") -> Round:
    """Run a paused clock on from the time it had left."""
    round_ = _locked(round_)
    if clock_of(round_).status != ClockStatus.PAUSED:
        raise NotAllowed("clock_not_paused")
    round_.clock_deadline = timezone.now() + timedelta(seconds=round_.clock_remaining)
    round_.clock_remaining = None
    _save(round_)
    _log(round_, actor, "clock_resumed")
    return round_


@transaction.atomic
def clock_extend(*, round_: Round, minutes: int = EXTEND_MINUTES, actor: str = "") -> Round:
    """Give the round `minutes` more: a running or paused clock gets them on top of what it
    has left; a clock at time, from now (tables the clock already ended stay ended)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 120:
        raise TournamentError("clock_minutes_invalid", low=1, high=120)
    round_ = _locked(round_)
    clock = clock_of(round_)
    more = timedelta(minutes=minutes)
    if clock.status == ClockStatus.PAUSED:
        round_.clock_remaining += minutes * 60
    elif clock.status == ClockStatus.RUNNING:
        round_.clock_deadline += more
    elif clock.status == ClockStatus.AT_TIME:
        round_.clock_deadline = clock.now + more
    else:
        raise NotAllowed("clock_not_started")
    _save(round_)
    _log(round_, actor, "clock_extended", minutes=minutes)
    return round_


@transaction.atomic
def table_clock_extend(*, table: Table, minutes: int = EXTEND_MINUTES, actor: str = "") -> Table:
    """Give one slow table `minutes` beyond its round's time (the others keep theirs): on top
    of what it has left, or, at time, from now. Refused for a table whose game is over."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= 120:
        raise TournamentError("clock_minutes_invalid", low=1, high=120)
    round_ = _locked(table.round)
    table = Table.objects.select_for_update(of=("self",)).select_related("game").get(pk=table.pk)
    if table.game is None or table.game.result != Game.Result.IN_PLAY:
        raise NotAllowed("result_confirmed_already")
    table.round = round_
    clock = table_clock(table)
    if clock.status in (ClockStatus.RUNNING, ClockStatus.PAUSED):
        table.clock_extra += minutes * 60
    elif clock.status == ClockStatus.AT_TIME:
        later = clock.now + timedelta(minutes=minutes) - round_.clock_deadline
        table.clock_extra = int(later.total_seconds())  # whole seconds, never past the five minutes
    else:
        raise NotAllowed("clock_not_started")
    table.save(update_fields=["clock_extra"])
    _game_time_up(table, round_)
    log_action(
        round_.event,
        actor,
        "table_clock_extended",
        round=round_.number,
        table=table.number,
        minutes=minutes,
    )
    return table


@transaction.atomic
def clock_stop(*, round_: Round, actor: str = "") -> Round:
    """Stop the clock: the round plays on with no time limit (it may be started again)."""
    round_ = _locked(round_)
    if not clock_of(round_).shown:
        raise NotAllowed("clock_not_started")
    round_.clock_deadline = None
    round_.clock_remaining = None
    round_.clock_stopped_at = timezone.now()
    _save(round_)
    _log(round_, actor, "clock_stopped")
    return round_


# --- at time -----------------------------------------------------------------------------------


@transaction.atomic
def table_end_at_time(*, table: Table, actor: str = "") -> Table:
    """End a table's game as it stands because the round's time is up, and confirm it: the
    organiser's tap under "the organiser decides", or the clock's own rule (actor "clock").
    Refused before time, and for a game over already (confirm it instead)."""
    table = _open_table(table)
    round_ = table.round
    if not table_clock(table).at_time:
        raise NotAllowed("clock_not_at_time")
    if table.game.result != Game.Result.IN_PLAY:
        raise NotAllowed("result_confirmed_already")
    _scoring(scoring.game_end_early, game_id=table.game_id, actor=actor, reason="", at_time=True)
    table.game = _scoring(scoring.game_confirm, game_id=table.game_id, actor=actor)
    table.outcome = Table.Outcome.ENDED_AT_TIME
    table.outcome_reason = ""
    table.save(update_fields=["outcome", "outcome_reason"])
    log_action(
        round_.event,
        actor,
        "table_ended_at_time",
        round=round_.number,
        table=table.number,
        placings=list(table.game.placings),
    )
    return table


def deals_after_time(table: Table, deadline) -> int:
    """The table's live deals played once the round's time was up (when the keeper entered
    them, DealEntry.played_at: a hand kept offline counts from then, not from its arrival)."""
    played = Q(played_at__gte=deadline) | Q(played_at__isnull=True, entered_at__gte=deadline)
    live = DealEntry.objects.filter(game_id=table.game_id, undone_at__isnull=True)
    return live.filter(played).count()


def deal_recorded(game: Game) -> bool:
    """A deal was recorded at `game` (scoring.signals.deal_recorded, in its transaction):
    after time, the event's rule may end the game now. Whether it did; never refuses (a game
    the engine cannot place yet plays on, flagged for the organiser)."""
    table = Table.objects.filter(game=game).select_related("round__event").first()
    if table is None or table.outcome != Table.Outcome.PLAYED:
        return False
    round_, event = table.round, table.round.event
    clock = table_clock(table)
    if not (round_.is_published and clock.at_time) or event.clock_at_time == ClockAtTime.ORGANISER:
        return False
    if game.result != Game.Result.IN_PLAY:
        return False  # over by its rules: it is confirmed as any game is
    if event.clock_at_time == ClockAtTime.MORE:
        # The deal being played at time, then N more.
        if deals_after_time(table, clock.deadline) < event.clock_more_deals + 1:
            return False
    try:
        with transaction.atomic():
            table_end_at_time(table=table, actor=CLOCK_ACTOR)
    except TournamentError:
        return False
    return True
