"""The round clock's reads: where a round's clock is at a moment (Clock), the mark of the
organiser's last move, and the tables still playing after time. The server's time is the truth
(docs/round-clock.md); tournaments.rounds.services.clock moves it."""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection
from django.utils import timezone

from config import plain_reads
from scoring.models import Game
from tournaments.models import Event, Round, Table


class ClockStatus(enum.StrEnum):
    """Where a round's clock is (tournaments.rounds.services.clock moves it)."""

    OFF = "off"  # the event has no clock (no round length set)
    IDLE = "idle"  # not started yet (or its round is not published)
    RUNNING = "running"
    PAUSED = "paused"
    AT_TIME = "at_time"  # it ran out: the event's rule at time applies
    STOPPED = "stopped"  # stopped by the organiser: no time limit for this round any more


@dataclass(frozen=True)
class Clock:
    """A round's clock as every page and the API show it, read at `now` (the server's time:
    the phones count down from `deadline` by their offset to `now`, static/js/clock)."""

    status: ClockStatus
    now: datetime
    minutes: int  # the event's round length
    deadline: datetime | None = None  # while running or at time
    remaining: int | None = None  # seconds left: running or paused (0 at time)
    mark: str = ""  # names the organiser's last move (clock_mark): a change is news to pages

    @property
    def shown(self) -> bool:
        """Whether pages show it: started and not stopped."""
        return self.status in (ClockStatus.RUNNING, ClockStatus.PAUSED, ClockStatus.AT_TIME)

    @property
    def running(self) -> bool:
        return self.status == ClockStatus.RUNNING

    @property
    def paused(self) -> bool:
        return self.status == ClockStatus.PAUSED

    @property
    def at_time(self) -> bool:
        return self.status == ClockStatus.AT_TIME

    @property
    def left_text(self) -> str:
        """The time left as a clock shows it: "12:05", "1:02:00", "0:00" at time."""
        seconds = self.remaining or 0
        hours, rest = divmod(seconds, 3600)
        minutes, seconds = divmod(rest, 60)
        if hours:
            return f"{hours}:{minutes:02d}:{seconds:02d}"
        return f"{minutes}:{seconds:02d}"

    def data(self) -> dict:
        """The clock as the API and the pages' scripts read it (moments in ISO 8601)."""
        return {
            "status": self.status.value,
            "now": self.now.isoformat(),
            "minutes": self.minutes,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "remaining": self.remaining,
        }


#: The round fields the organiser's moves change (clock_mark).
CLOCK_FIELDS = (
    "status",
    "clock_started_at",
    "clock_deadline",
    "clock_remaining",
    "clock_stopped_at",
)


def clock_mark(values) -> str:
    """A short name of a round's clock as the organiser last set it (`values`: the round's
    CLOCK_FIELDS, in order): the keeper's poll answers anew when it changes."""
    text = "|".join("" if value is None else str(value) for value in values)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _marked(values, extra: int) -> str:
    """The mark of a round's clock (its CLOCK_FIELDS' `values`) for a table `extra` seconds
    beyond it: a table's own extension is news to its pages too."""
    return clock_mark([*values, extra] if extra else values)


def clock_marks_of_games(game_ids: list[int]) -> dict[int, str]:
    """The clock marks of the tables that play these games, by game (one query): a game no
    table plays is not in it. The door's watcher asks it once a tick for every held sheet."""
    reads = ("game_id", *(f"round__{name}" for name in CLOCK_FIELDS), "clock_extra")
    rows = Table.objects.filter(game_id__in=game_ids).values_list(*reads)
    return {game_id: _marked(values[:-1], values[-1]) for game_id, *values in rows}


def clock_of(round_: Round, now: datetime | None = None, extra: int = 0) -> Clock:
    """The round's clock at `now`; with `extra`, a table's own (Table.clock_extra: seconds it
    was given beyond the round's time)."""
    clock = _clock_of(round_, now, extra)
    mark = _marked([getattr(round_, name) for name in CLOCK_FIELDS], extra)
    return dataclasses.replace(clock, mark=mark)


def table_clock(table: Table, now: datetime | None = None) -> Clock:
    """The clock of one table: its round's, and the time the organiser gave it beyond."""
    return clock_of(table.round, now, table.clock_extra)


def _clock_of(round_: Round, now: datetime | None = None, extra: int = 0) -> Clock:
    """The round's clock at `now` (the server's time; default: this moment), `extra` seconds
    later for a table given more time. Only a published round's clock counts: a draft's has
    not started, a closed round's is over."""
    now = now or timezone.now()
    minutes = round_.event.clock_minutes
    if not round_.is_published:
        return Clock(ClockStatus.OFF if not minutes else ClockStatus.IDLE, now, minutes)
    if round_.clock_started_at is None or round_.clock_stopped_at is not None:
        if round_.clock_stopped_at is not None:
            return Clock(ClockStatus.STOPPED, now, minutes)
        return Clock(ClockStatus.OFF if not minutes else ClockStatus.IDLE, now, minutes)
    if round_.clock_remaining is not None:
        return Clock(ClockStatus.PAUSED, now, minutes, remaining=round_.clock_remaining + extra)
    deadline = round_.clock_deadline + timedelta(seconds=extra)
    left = max(0, math.ceil((deadline - now).total_seconds()))
    status = ClockStatus.RUNNING if left > 0 else ClockStatus.AT_TIME
    return Clock(status, now, minutes, deadline=deadline, remaining=left)


def round_at_time(round_: Round, now: datetime | None = None) -> bool:
    """Whether the round's clock has run out (its rule at time applies to its tables)."""
    return round_.is_published and clock_of(round_, now).at_time


def table_at_time(table: Table, now: datetime | None = None) -> bool:
    """Whether this table's time is up (the round's, and any time given to it beyond)."""
    return table.round.is_published and table_clock(table, now).at_time


def tables_over_time(round_: Round, tables: list[Table], now: datetime | None = None) -> set[int]:
    """The numbers of `tables` (of this round) still playing after its time: what the
    organiser's round page flags."""
    if not clock_of(round_, now).at_time:
        return set()
    return {
        table.number
        for table in tables
        if table.game is not None
        and table.game.result == Game.Result.IN_PLAY
        and clock_of(round_, now, table.clock_extra).at_time
    }


#: What table_place reads: (model, field) in the statement's order.
_PLACE_READS = (
    (Table, "number"),
    (Table, "clock_extra"),
    (Round, "number"),
    *((Round, name) for name in CLOCK_FIELDS),
    (Event, "name"),
    (Event, "clock_minutes"),
)


@functools.cache
def _place_sql(vendor: str) -> tuple[str, plain_reads.Converters]:
    """table_place's one statement, named from the models (tables and columns quoted for the
    database, once per process), and the ORM's converters of its columns (config.plain_reads)."""
    quote, aliases = connection.ops.quote_name, {Table: "t", Round: "r", Event: "e"}
    fields = [(model._meta.get_field(name), aliases[model]) for model, name in _PLACE_READS]
    columns = [f"{alias}.{quote(field.column)}" for field, alias in fields]
    table, round_, event = (quote(model._meta.db_table) for model in (Table, Round, Event))
    sql = (
        f"SELECT {', '.join(columns)} FROM {table} t"  # noqa: S608
        f" INNER JOIN {round_} r ON r.{quote(Round._meta.pk.column)} ="
        f" t.{quote(Table._meta.get_field('round').column)}"
        f" INNER JOIN {event} e ON e.{quote(Event._meta.pk.column)} ="
        f" r.{quote(Round._meta.get_field('event').column)}"
        f" WHERE t.{quote(Table._meta.get_field('game').column)} = %s"
    )
    return sql, plain_reads.converters(fields)


def table_place(game_id: int) -> dict | None:
    """Where an event's table game is played: the event, the round and the table's number; and
    the round's clock if the event has one. None for a game no table plays. One plain SQL
    statement (config.plain_reads): the table page asks it on every visit."""
    sql, converters = _place_sql(connection.vendor)
    values = plain_reads.one_row(sql, [game_id], converters)
    if values is None:
        return None
    number, extra, round_number, *clock_values, event_name, minutes = values
    place = {"event": event_name, "round": round_number, "table": number}
    if minutes:
        event = Event(name=event_name, clock_minutes=minutes)
        round_ = Round(
            event=event, number=round_number, **dict(zip(CLOCK_FIELDS, clock_values, strict=True))
        )
        place["clock"] = clock_of(round_, extra=extra)
    return place
