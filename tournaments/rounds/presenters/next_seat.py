"""My next seat: what a player's own phone shows while it waits through the evening
(docs/players-phones.md). A phone that said "This is me" (tournaments.events.selectors.identity)
keeps the page open; when a round is published it shows the table, the seat, the table-mates,
who deals first and the table's PIN (for whoever of the three keeps the score); between rounds
the player's own result of the last game and their place in the standings.

Read from what the other phone pages already keep: the event's seat map
(tournaments.rounds.web.event_seat_map, one read of the round per process and version), the
places of the newest standings snapshot (kept here per snapshot), and the table's PIN (one
small query, only while the player's round is being played)."""

from __future__ import annotations

from dataclasses import dataclass

from config.memory import Recent
from scoring.models import Game
from tournaments.models import Entry, Event, Table
from tournaments.results.selectors import standings_head, standings_places
from tournaments.rounds.presenters.seat import SeatAnswer, SeatMap
from tournaments.rounds.presenters.tables import SeatLine
from tournaments.rounds.services.pins import pins_open

#: The places of the few newest snapshots (of any event), by snapshot id and time: a snapshot
#: never changes, so a kept copy is never out of date.
_places = Recent(32)

#: A game whose result no longer changes: the player's "last game".
_OVER = (Game.Result.CONFIRMED, Game.Result.VOID)


@dataclass(frozen=True)
class Standing:
    rank: int | None  # None: not ranked yet (no game played and no bye)
    ranked: int  # how many players the standings rank


@dataclass(frozen=True)
class NextSeat:
    """What "My next seat" shows a player.

    kind: "seat" (a table of a round being played), "played" (their game of the newest round
    is over: between rounds), "bye", "left" (a substitute took their seat), "not_in_round",
    "no_round" (nothing published yet) or "withdrawn"."""

    kind: str
    name: str
    answer: SeatAnswer
    standing: Standing | None
    pin: str = ""

    @property
    def round_number(self) -> int | None:
        return self.answer.round.number if self.answer.round is not None else None

    @property
    def me(self) -> SeatLine | None:
        """The player's own seat line (their total and place in the game, once it has them)."""
        return self.answer.seat


def standing_of(event: Event, player_id: int) -> Standing | None:
    """The player's place in the newest standings (one small query, and the snapshot's rows
    once per process), or None before any snapshot or for a player not in it."""
    head = standings_head(event)
    if head.snapshot_id is None:
        return None
    key = (head.snapshot_id, head.built_at)  # ids come round again in a fresh database
    places = _places.get(key)
    if places is None:
        places = standings_places(head.snapshot_id)
        _places.put(key, places)
    found = places.get(player_id)
    return None if found is None else Standing(*found)


def _kind(entry: Entry, answer: SeatAnswer) -> str:
    if entry.withdrawn:
        return "withdrawn"
    if answer.kind != "table":
        return answer.kind
    table = answer.table
    if answer.round_over or table.result in _OVER or table.settled:
        return "played"
    return "seat"


def _pin(event: Event, answer: SeatAnswer) -> str:
    """The table's PIN while its round is being played (pins.pins_open, the PIN page's own
    rule): the three players see it on the table card anyway; a proven player sees it here."""
    if not pins_open(event, answer.round):
        return ""
    tables = Table.objects.filter(round=answer.round, number=answer.table.number)
    return tables.values_list("pin", flat=True).first() or ""


def next_seat(event: Event, entry: Entry, seats: SeatMap) -> NextSeat:
    """What the phone of `entry`'s player shows now (`seats`: the event's kept seat map)."""
    answer = seats.answer(entry.player_id)
    kind = _kind(entry, answer)
    pin = _pin(event, answer) if kind == "seat" else ""
    return NextSeat(kind, entry.player.name, answer, standing_of(event, entry.player_id), pin)
