"""An event's backup: one JSON document that gives the event back, history and all.

`event_export` writes everything an event is made of: its club, settings, organisers,
entries, rounds with their tables and byes, each table's game with every deal ever entered
(undone ones too) and every change, the standings snapshots and the event log.
`event_import` loads such a document in one transaction, or refuses it and writes nothing.

Rows refer to each other by what they mean, never by database id: players by name (names
are unique in a club), rounds by number, tables by nesting. So a backup can be restored into
any database, the one it came from or another, into its club or another one.

Each row also carries the id it had, and a restore keeps that id wherever it is still free
(restoring into an empty database, or after the event was deleted, gives back every id);
only where it is taken does the row get a new one. Three things outside the rows depend on
ids, which is why keeping them matters:
- the keeper links and QR codes printed for the tables hold the game's id;
- the standings' last tie-break, the lot, is drawn from the event's seed and the player id,
  and so are the draws of later rounds;
- the public player pages are addressed by player id.
When players or games do get new ids, the import says what that changes (`warnings`).

Player ids inside JSON values are rewritten both ways: the standings rows' `player`, the
`players` of the pairing flags (rounds, tables, byes), and the event log's `player` and
`players` (tournaments.services writes player ids under those two keys, and the organiser
pages read them so). An id the event cannot name is refused on export rather than written
as something the import would read wrongly.

The file holds the tables' secrets: whoever has it can keep score at those tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter
from typing import TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.validators import validate_slug
from django.db import IntegrityError, connection, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_datetime

import engine
from scoring.models import DealEntry, Game, GameChange
from scoring.names import clean

from . import bridge, pairing, standings
from .errors import TournamentError
from .models import Bye, Club, Entry, Event, EventLog, Player, Round, Standings, Table

M = TypeVar("M", bound=models.Model)

FORMAT = "three-five-eight/event-backup"
VERSION = 1

#: Keys of the event log's `data` that hold player ids (one id, a list of ids).
LOG_PLAYER_KEY = "player"
LOG_PLAYERS_KEY = "players"

#: How many values one `IN (...)` lookup takes: well under every database's limit.
CHUNK = 500

# The plain fields of each kind of row, as the file holds them next to the row's `id`: one
# list for both directions, so export and import cannot drift apart. A kind is a JSON type
# (or "moment", a date and time in ISO 8601); "?" after it means null may stand too.
# Relations and the JSON that names players are written out by hand below.
CLUB = {"name": "str", "slug": "str", "created_at": "moment"}
PLAYER = {"name": "str", "created_at": "moment"}
EVENT = {
    "name": "str",
    "slug": "str",
    "ruleset": "str",
    "options": "dict",
    "rounds_planned": "int",
    "pairing_modes": "list",
    "precedence": "list",
    "placing_points": "list",
    "bye_policy": "str",
    "void_policy": "str",
    "seed": "int",
    "status": "str",
    "created_at": "moment",
}
ENTRY = {"checked_in": "bool", "withdrawn": "bool", "joined_round": "int", "created_at": "moment"}
ROUND = {
    "number": "int",
    "pairing_mode": "str",
    "status": "str",
    "build_error": "str",
    "pairing_seconds": "number?",
    "built_at": "moment?",
    "published_at": "moment?",
    "closed_at": "moment?",
}
TABLE = {"number": "int", "first_dealer": "int", "outcome": "str", "outcome_reason": "str"}
#: Keys added with tournaments.walkouts, and what a backup written before them means.
EVENT_SINCE_WALKOUTS = {"void_policy": "bye"}
TABLE_SINCE_WALKOUTS = {
    "outcome": "played",
    "outcome_reason": "",
    "substitutions": [],
    "void_players": [],
}
GAME = {
    "ruleset": "str",
    "options": "dict",
    "players": "list",
    "first_dealer": "int",
    "secret": "str",
    "result": "str",
    "version": "int",
    "totals": "list",
    "placings": "list?",
    "created_at": "moment",
    "updated_at": "moment",
    "confirmed_at": "moment?",
    "confirmed_by": "str",
}
DEAL = {
    "number": "int",
    "calls": "list",
    "tricks": "list?",
    "last_tricks": "list?",
    "entered_at": "moment",
    "entered_by": "str",
    "undone_at": "moment?",
    "undone_by": "str",
}
CHANGE = {
    "at": "moment",
    "actor": "str",
    "action": "str",
    "deal_number": "int?",
    "data": "dict",
    "reason": "str",
}
STANDINGS = {
    "built_at": "moment",
    "rounds_complete": "int",
    "results_stamp": "str",
    "build_seconds": "number",
}
LOG = {"at": "moment", "actor": "str", "action": "str", "reason": "str"}


@dataclass(frozen=True)
class Imported:
    """What an import made, and what the operator should know about it."""

    event: Event
    warnings: list[str] = field(default_factory=list)


# --- player ids in JSON values, both ways ------------------------------------------------------


def _flags_players(flags: list, convert: Callable[[object], object]) -> list:
    """The flags with each player in their `players` converted (id to name, or back)."""
    return [
        {**flag, "players": [convert(player) for player in flag["players"]]}
        if isinstance(flag, dict) and "players" in flag
        else flag
        for flag in flags
    ]


def _log_players(data: dict, convert: Callable[[object], object]) -> dict:
    """The log line's data with the player under each of the two keys converted."""
    data = dict(data)
    if data.get(LOG_PLAYER_KEY) is not None:
        data[LOG_PLAYER_KEY] = convert(data[LOG_PLAYER_KEY])
    if isinstance(data.get(LOG_PLAYERS_KEY), list):
        data[LOG_PLAYERS_KEY] = [convert(player) for player in data[LOG_PLAYERS_KEY]]
    return data


_pk = attrgetter("pk")


# --- export -----------------------------------------------------------------------------------


def event_export(*, event: Event) -> dict:
    """The whole event as plain JSON values (strings, numbers, lists, objects).

    A fixed number of queries whatever the event's size: every kind of row is read once.
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
    deals = _grouped(DealEntry.objects.filter(**in_event).order_by("entered_at", "pk"))
    changes = _grouped(GameChange.objects.filter(**in_event).order_by("at", "pk"))
    live_stamp = bridge.results_stamp(event)

    def namer(where: str) -> Callable[[object], str]:
        def name(player_id: object) -> str:
            if player_id not in names:
                raise TournamentError(f"{where} names player {player_id!r}, who has no entry")
            return names[player_id]

        return name

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _moment_out(timezone.now()),
        "club": _out(event.club, CLUB),
        "event": {
            **_out(event, EVENT),
            "organisers": sorted(user.get_username() for user in event.organisers.all()),
        },
        "entries": [
            {**_out(entry, ENTRY), "player": _out(entry.player, PLAYER)} for entry in entries
        ],
        "rounds": [_round_out(round_, namer, deals, changes) for round_ in rounds],
        "standings": [
            {
                **_out(snapshot, STANDINGS),
                "current": snapshot.results_stamp == live_stamp,
                "rows": [
                    {**row, "player": namer(f"standings {snapshot.pk}")(row.get("player"))}
                    for row in snapshot.rows
                ],
            }
            for snapshot in event.standings.order_by("built_at", "pk")
        ],
        "log": [
            {**_out(line, LOG), "data": _log_players(line.data, namer(f"log entry {line.pk}"))}
            for line in event.log.order_by("at", "pk")
        ],
    }


def _grouped(rows) -> dict[int, list]:
    by_game = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    return by_game


def _out(row: models.Model, spec: dict[str, str]) -> dict:
    """The row's id and plain fields, as `spec` lists them."""
    return {
        "id": row.pk,
        **{
            key: _moment_out(getattr(row, key)) if kind.startswith("moment") else getattr(row, key)
            for key, kind in spec.items()
        },
    }


def _moment_out(value: datetime | None) -> str | None:
    """ISO 8601 with microseconds and offset: the exact instant, as parse_datetime reads it."""
    return None if value is None else value.isoformat()


def _round_out(round_: Round, namer, deals, changes) -> dict:
    where = f"round {round_.number}"
    return {
        **_out(round_, ROUND),
        "flags": _flags_players(round_.flags, namer(where)),
        "tables": [
            {
                **_out(table, TABLE),
                "seats": list(map(namer(f"{where} table {table.number}"), table.seat_ids)),
                "flags": _flags_players(table.flags, namer(f"{where} table {table.number}")),
                **_walkouts_out(table, namer(f"{where} table {table.number}")),
                "game": None
                if table.game is None
                else {
                    **_out(table.game, GAME),
                    "deals": [_out(deal, DEAL) for deal in deals[table.game_id]],
                    "changes": [_out(change, CHANGE) for change in changes[table.game_id]],
                },
            }
            for table in round_.tables.all()
        ],
        "byes": [
            {
                "id": bye.pk,
                "player": namer(f"{where} bye")(bye.player_id),
                "flags": _flags_players(bye.flags, namer(f"{where} bye")),
            }
            for bye in round_.byes.all()
        ],
    }


def _walkouts_out(table: Table, name: Callable[[object], str]) -> dict:
    """A table's substitutions and void players, players by name."""
    return {
        "substitutions": [
            {**move, "left": name(move["left"]), "joined": name(move["joined"])}
            for move in table.substitutions
        ],
        "void_players": [name(player) for player in table.void_players],
    }


# --- reading a document -----------------------------------------------------------------------

_KINDS: dict[str, tuple[Callable[[object], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    "number": (
        lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "a number",
    ),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "list": (lambda v: isinstance(v, list), "a list"),
    "dict": (lambda v: isinstance(v, dict), "an object"),
}


def _bad(where: str, problem: str) -> TournamentError:
    return TournamentError(f"the backup is not valid: {where or 'the document'} {problem}")


class _Obj:
    """One JSON object of the document, read key by key; errors say where in the file."""

    def __init__(self, value: object, where: str, keys: Iterable[str]):
        keys = tuple(keys)
        if not isinstance(value, dict):
            raise _bad(where, "must be an object")
        missing = [key for key in keys if key not in value]
        if missing:
            raise _bad(where, f"lacks {', '.join(missing)}")
        unknown = sorted(str(key) for key in value if key not in keys)
        if unknown:
            # Data this version cannot hold would be dropped without a word: refuse instead.
            raise _bad(where, f"has keys this format version does not know: {', '.join(unknown)}")
        self.value = value
        self.where = where

    def at(self, key: str) -> str:
        return f"{self.where}.{key}" if self.where else key

    def get(self, key: str, kind: str, *, null: bool = False):
        value = self.value[key]
        if value is None and null:
            return None
        test, words = _KINDS[kind]
        if not test(value):
            raise _bad(self.at(key), f"must be {words}" + (" or null" if null else ""))
        return value

    def id(self) -> int | None:
        return self.get("id", "int", null=True)

    def moment(self, key: str, *, null: bool = False) -> datetime | None:
        text = self.get(key, "str", null=null)
        if text is None:
            return None
        try:
            value = parse_datetime(text)
        except ValueError:
            value = None
        if value is None or timezone.is_naive(value):
            raise _bad(self.at(key), "must be an ISO 8601 date and time with its UTC offset")
        return value

    def items(self, key: str) -> Iterator[tuple[object, str]]:
        for index, item in enumerate(self.get(key, "list")):
            yield item, f"{self.at(key)}[{index}]"

    def read(self, key: str, kind: str):
        """The value under `key`, of a kind as the field lists give it ("?": or null)."""
        null, kind = kind.endswith("?"), kind.removesuffix("?")
        return self.moment(key, null=null) if kind == "moment" else self.get(key, kind, null=null)

    def row(self, model: type[M], spec: dict[str, str]) -> M:
        """An unsaved row of `model`: the file's id and the plain fields `spec` lists."""
        return model(pk=self.id(), **{key: self.read(key, kind) for key, kind in spec.items()})


def _clean(row: models.Model, where: str) -> None:
    """The model's own checks on plain fields (lengths, choices, ranges, slugs); relations
    and JSON are checked by the reader, which knows what they should hold."""
    exclude = [f.name for f in row._meta.fields if f.is_relation or isinstance(f, models.JSONField)]
    try:
        row.clean_fields(exclude=exclude)
    except ValidationError as error:
        problems = "; ".join(
            f"{key}: {' '.join(str(m) for m in messages)}"
            for key, messages in error.message_dict.items()
        )
        raise _bad(where, f"has a bad value ({problems})") from None


@dataclass
class _Rows:
    """One kind of unsaved row, in file order."""

    model: type[models.Model]
    rows: list = field(default_factory=list)
    #: How to fill in each row's relations once the rows they point to have ids.
    links: list[Callable[[], None]] = field(default_factory=list)

    def add(self, row: models.Model, where: str, link: Callable[[], None] | None = None):
        _clean(row, where)
        self.rows.append(row)
        if link is not None:
            self.links.append(link)
        return row


@dataclass
class _Plan:
    """Everything a document says, checked and turned into unsaved rows."""

    club: Club
    event: Event
    organisers: list[str]
    players: dict[str, Player]  # by name, in file order
    entries: _Rows
    games: _Rows
    deals: _Rows
    changes: _Rows
    rounds: _Rows
    tables: _Rows
    byes: _Rows
    standings: _Rows
    log: _Rows
    current: list[Standings]

    def all_rows(self) -> tuple[_Rows, ...]:
        """The rows below the event, in an order that saves each row after those it needs."""
        return (
            self.entries,
            self.games,
            self.deals,
            self.changes,
            self.rounds,
            self.tables,
            self.byes,
            self.standings,
            self.log,
        )


def _read(data: object) -> _Plan:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else None
        raise TournamentError(f"not an event backup: the format is {found!r}, not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise TournamentError(
            f"backup version {data.get('version')!r} is not known here (this site reads "
            f"version {VERSION}): use the site version that wrote it"
        )
    top = _Obj(
        data,
        "",
        ["format", "version", "exported_at", "club", "event", "entries", "rounds"]
        + ["standings", "log"],
    )
    top.moment("exported_at")
    club = _read_club(top)
    event, organisers = _read_event(top)
    plan = _Plan(
        club=club,
        event=event,
        organisers=organisers,
        players={},
        entries=_Rows(Entry),
        games=_Rows(Game),
        deals=_Rows(DealEntry),
        changes=_Rows(GameChange),
        rounds=_Rows(Round),
        tables=_Rows(Table),
        byes=_Rows(Bye),
        standings=_Rows(Standings),
        log=_Rows(EventLog),
        current=[],
    )
    _read_entries(top, plan)
    secrets: set[str] = set()
    for number, (item, where) in enumerate(top.items("rounds"), start=1):
        _read_round(item, where, number, plan, secrets)
    for item, where in top.items("standings"):
        _read_snapshot(item, where, plan)
    for item, where in top.items("log"):
        _read_log_line(item, where, plan)
    _no_twice([p.pk for p in plan.players.values() if p.pk is not None], Player)
    for rows in plan.all_rows():
        _no_twice([row.pk for row in rows.rows if row.pk is not None], rows.model)
    return plan


def _no_twice(ids: list[int], model) -> None:
    if len(set(ids)) != len(ids):
        twice = sorted({pk for pk in ids if ids.count(pk) > 1})[:5]
        raise _bad(f"the {model.__name__} rows", f"repeat the id(s) {twice}")


def _read_club(top: _Obj) -> Club:
    club = _Obj(top.value["club"], "club", ["id", *CLUB]).row(Club, CLUB)
    _clean(club, "club")
    return club


def _read_event(top: _Obj) -> tuple[Event, list[str]]:
    value = top.value["event"]
    if isinstance(value, dict):  # a backup from before walkouts: the default void policy
        value = {**EVENT_SINCE_WALKOUTS, **value}
    obj = _Obj(value, "event", ["id", *EVENT, "organisers"])
    event = obj.row(Event, EVENT)
    _clean(event, "event")
    try:
        engine.Rules.build(event.ruleset, event.options)
    except engine.RuleError as error:
        raise _bad("event", f"has rules the engine refuses: {error.message}") from None
    unknown = [mode for mode in event.pairing_modes if mode not in pairing.MODES]
    if unknown:
        raise _bad("event.pairing_modes", f"has unknown pairing modes {unknown}")
    try:
        bridge.standings_config(event)
    except (standings.StandingsError, TypeError) as error:
        raise _bad("event", f"has standings settings that do not work: {error}") from None
    organisers = []
    for item, where in obj.items("organisers"):
        if not isinstance(item, str) or not item:
            raise _bad(where, "must be a username")
        organisers.append(item)
    return event, organisers


def _read_entries(top: _Obj, plan: _Plan) -> None:
    for item, where in top.items("entries"):
        obj = _Obj(item, where, ["id", *ENTRY, "player"])
        who = _Obj(obj.value["player"], obj.at("player"), ["id", *PLAYER])
        name = who.get("name", "str")
        if name != clean(name) or not name:
            raise _bad(who.at("name"), f"is not a player's name: {name!r}")
        if name in plan.players:
            raise _bad(where, f"enters {name!r} a second time")
        player = who.row(Player, PLAYER)
        _clean(player, obj.at("player"))
        plan.players[name] = player
        entry = obj.row(Entry, ENTRY)
        plan.entries.add(entry, where, _linker(entry, event=plan.event, player=player))


def _linker(row: models.Model, **targets: models.Model) -> Callable[[], None]:
    """Set the row's relations once the rows they point to are saved (their ids are known)."""

    def link() -> None:
        for name, target in targets.items():
            setattr(row, name, target)

    return link


def _player(plan: _Plan, name: object, where: str) -> Player:
    if not isinstance(name, str) or name not in plan.players:
        raise _bad(where, f"names {name!r}, who is not among the entries")
    return plan.players[name]


def _flags_in(value: object, where: str, plan: _Plan) -> list:
    """Flags as stored, their `players` names turned back into players (ids after saving)."""
    if not isinstance(value, list):
        raise _bad(where, "must be a list")
    flags = []
    for index, flag in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(flag, dict) or not isinstance(flag.get("code"), str):
            raise _bad(here, "must be a flag (an object with a code)")
        if "players" in flag:
            if not isinstance(flag["players"], list):
                raise _bad(f"{here}.players", "must be a list")
            flag = {
                **flag,
                "players": [_player(plan, name, f"{here}.players") for name in flag["players"]],
            }
        flags.append(flag)
    return flags


def _read_round(item: object, where: str, number: int, plan: _Plan, secrets: set[str]) -> None:
    obj = _Obj(item, where, ["id", *ROUND, "flags", "tables", "byes"])
    if obj.get("number", "int") != number:
        raise _bad(obj.at("number"), f"must be {number}: rounds are numbered 1, 2, … in order")
    round_ = obj.row(Round, ROUND)
    flags = _flags_in(obj.value["flags"], obj.at("flags"), plan)

    def link_round() -> None:
        round_.event = plan.event
        round_.flags = _flags_players(flags, _pk)

    plan.rounds.add(round_, where, link_round)
    published = round_.status in (Round.Status.PUBLISHED, Round.Status.CLOSED)
    seated: set[str] = set()
    tables: set[int] = set()
    for table_item, table_where in obj.items("tables"):
        table, names = _read_table(table_item, table_where, round_, plan, secrets, published)
        if table.number in tables:
            raise _bad(table_where, f"repeats table number {table.number}")
        tables.add(table.number)
        for name in names:
            if name in seated:
                raise _bad(table_where, f"seats {name!r}, who already plays in round {number}")
            seated.add(name)
    for bye_item, bye_where in obj.items("byes"):
        bye_obj = _Obj(bye_item, bye_where, ["id", "player", "flags"])
        player = _player(plan, bye_obj.value["player"], bye_obj.at("player"))
        if player.name in seated:
            raise _bad(bye_where, f"gives {player.name!r} a bye in a round they play or sit out")
        seated.add(player.name)
        bye_flags = _flags_in(bye_obj.value["flags"], bye_obj.at("flags"), plan)
        bye = Bye(pk=bye_obj.id())

        def link_bye(bye=bye, player=player, bye_flags=bye_flags) -> None:
            bye.round = round_
            bye.player = player
            bye.flags = _flags_players(bye_flags, _pk)

        plan.byes.add(bye, bye_where, link_bye)


def _read_table(item, where, round_, plan, secrets, published) -> tuple[Table, list[str]]:
    """A table and the names at its seats (to check that nobody plays twice in a round)."""
    if isinstance(item, dict):  # a backup from before walkouts: an ordinary table
        item = {**TABLE_SINCE_WALKOUTS, **item}
    keys = ["id", *TABLE, "seats", "flags", "substitutions", "void_players", "game"]
    obj = _Obj(item, where, keys)
    seats = obj.get("seats", "list")
    if len(seats) != 3:
        raise _bad(obj.at("seats"), "must name three players")
    players = [_player(plan, name, f"{obj.at('seats')}[{seat}]") for seat, name in enumerate(seats)]
    if len({player.name for player in players}) != 3:
        raise _bad(obj.at("seats"), "seats a player twice")
    table = obj.row(Table, TABLE)
    if table.first_dealer not in (0, 1, 2):
        raise _bad(obj.at("first_dealer"), "must be a seat: 0, 1 or 2")
    flags = _flags_in(obj.value["flags"], obj.at("flags"), plan)
    if table.outcome not in Table.Outcome.values:
        raise _bad(obj.at("outcome"), f"must be one of {', '.join(Table.Outcome.values)}")
    moves = _substitutions_in(obj, plan)
    void_players = [
        _player(plan, name, obj.at("void_players")) for name in obj.get("void_players", "list")
    ]
    game = None
    if obj.value["game"] is not None:
        game = _read_game(obj.value["game"], obj.at("game"), plan, secrets, table.outcome)
    if published and game is None:
        raise _bad(where, "has no game, though its round is published")
    if game is not None and not published:
        raise _bad(where, "has a game, though its round is not published")

    def link() -> None:
        table.round = round_
        table.seat_0, table.seat_1, table.seat_2 = players
        table.flags = _flags_players(flags, _pk)
        table.substitutions = [
            {**move, "left": move["left"].pk, "joined": move["joined"].pk} for move in moves
        ]
        table.void_players = [player.pk for player in void_players]
        table.game = game

    return plan.tables.add(table, where, link), [player.name for player in players]


def _substitutions_in(obj: _Obj, plan: _Plan) -> list[dict]:
    """A table's substitutions, players by name turned back into players (ids on saving)."""
    moves = []
    for move, here in obj.items("substitutions"):
        keys = {"seat", "left", "joined", "from_deal"}
        if not isinstance(move, dict) or set(move) != keys:
            raise _bad(here, f"must be an object with {', '.join(sorted(keys))}")
        if move["seat"] not in (0, 1, 2) or isinstance(move["seat"], bool):
            raise _bad(f"{here}.seat", "must be a seat: 0, 1 or 2")
        if not isinstance(move["from_deal"], int) or isinstance(move["from_deal"], bool):
            raise _bad(f"{here}.from_deal", "must be an integer")
        moves.append(
            {
                **move,
                "left": _player(plan, move["left"], f"{here}.left"),
                "joined": _player(plan, move["joined"], f"{here}.joined"),
            }
        )
    return moves


def _read_game(
    item: object, where: str, plan: _Plan, secrets: set[str], outcome: str = "played"
) -> Game:
    obj = _Obj(item, where, ["id", *GAME, "deals", "changes"])
    game = obj.row(Game, GAME)
    if len(game.players) != 3 or not all(isinstance(name, str) and name for name in game.players):
        raise _bad(obj.at("players"), "must be three names, by seat")
    if not game.secret or game.secret in secrets:
        raise _bad(obj.at("secret"), "must be a table secret, different at every table")
    secrets.add(game.secret)
    plan.games.add(game, where)
    deals = []
    for deal_item, deal_where in obj.items("deals"):
        deal = _Obj(deal_item, deal_where, ["id", *DEAL]).row(DealEntry, DEAL)
        deals.append(plan.deals.add(deal, deal_where, _linker(deal, game=game)))
    for change_item, change_where in obj.items("changes"):
        change = _Obj(change_item, change_where, ["id", *CHANGE]).row(GameChange, CHANGE)
        plan.changes.add(change, change_where, _linker(change, game=game))
    live = sorted((deal for deal in deals if deal.undone_at is None), key=lambda deal: deal.number)
    _check_game(game, live, where, outcome)
    return game


def _check_game(game: Game, live: list[DealEntry], where: str, outcome: str = "played") -> None:
    """The stored result must be the engine's replay of the live deals, as it is on the site:
    a restored game shows what its table saw, or the backup is refused. A table the
    organisers settled after a walkout (void, adjusted, ended early) keeps their result
    instead: its deals must still replay, and its result must be one such a table has."""
    numbers = [deal.number for deal in live]
    if numbers != list(range(1, len(live) + 1)):
        raise _bad(f"{where}.deals", f"must have one live deal for each of 1…n, not {numbers}")
    record = {
        "ruleset": game.ruleset,
        "options": game.options,
        "first_dealer": game.first_dealer,
        "deals": [deal.as_record() for deal in live],
    }
    try:
        state = engine.replay(record)
    except engine.RuleError as error:
        raise _bad(where, f"has deals the engine refuses: {error.message}") from None
    placings = list(state.placings) if state.placings is not None else None
    if outcome != "played":
        _check_settled_game(game, outcome, where)
        return
    if game.totals != list(state.totals) or game.placings != placings:
        raise _bad(where, "has totals or placings that are not those of its deals")
    if game.result == Game.Result.CONFIRMED:
        settled = state.finished and placings is not None
    else:
        settled = game.result == (Game.Result.FINISHED if state.finished else Game.Result.IN_PLAY)
    if not settled:
        raise _bad(where, f"has a result ({game.result}) that its deals do not give")
    if (game.result == Game.Result.CONFIRMED) != (game.confirmed_at is not None):
        raise _bad(where, f"has a confirmed_at that does not fit its result ({game.result})")


def _check_settled_game(game: Game, outcome: str, where: str) -> None:
    if (outcome == "void") != (game.result == Game.Result.VOID):
        raise _bad(where, f"has a result ({game.result}) its table's outcome ({outcome}) denies")
    three = isinstance(game.totals, list) and len(game.totals) == 3
    if not three or not all(isinstance(t, int) and not isinstance(t, bool) for t in game.totals):
        raise _bad(where, "has totals that are not three whole numbers")
    if outcome != "void" and game.result != Game.Result.IN_PLAY:
        if not isinstance(game.placings, list) or sorted(game.placings) != [0, 1, 2]:
            raise _bad(where, "has placings that are not the three seats")
    if (game.result == Game.Result.CONFIRMED) != (game.confirmed_at is not None):
        raise _bad(where, f"has a confirmed_at that does not fit its result ({game.result})")


def _read_snapshot(item: object, where: str, plan: _Plan) -> None:
    obj = _Obj(item, where, ["id", *STANDINGS, "current", "rows"])
    rows = []
    for row, row_where in obj.items("rows"):
        if not isinstance(row, dict) or "player" not in row:
            raise _bad(row_where, "must be a standings row (an object with a player)")
        rows.append({**row, "player": _player(plan, row["player"], f"{row_where}.player")})
    snapshot = obj.row(Standings, STANDINGS)

    def link() -> None:
        snapshot.event = plan.event
        snapshot.rows = [{**row, "player": row["player"].pk} for row in rows]

    plan.standings.add(snapshot, where, link)
    if obj.get("current", "bool"):
        plan.current.append(snapshot)


def _read_log_line(item: object, where: str, plan: _Plan) -> None:
    obj = _Obj(item, where, ["id", *LOG, "data"])
    data = obj.get("data", "dict")
    if data.get(LOG_PLAYERS_KEY) is not None and not isinstance(data[LOG_PLAYERS_KEY], list):
        raise _bad(obj.at(f"data.{LOG_PLAYERS_KEY}"), "must be a list of names")
    data = _log_players(data, lambda name: _player(plan, name, obj.at("data")))
    line = obj.row(EventLog, LOG)

    def link() -> None:
        line.event = plan.event
        line.data = _log_players(data, _pk)

    plan.log.add(line, where, link)


# --- import -----------------------------------------------------------------------------------


def event_import(*, data: object, club_slug: str | None = None) -> Imported:
    """Load a backup made by `event_export`, in one transaction.

    The club is the one with the backup's slug (or `club_slug`), made if there is none;
    players are found by name in that club, or made. Organisers are linked only if a user
    of that name exists: a backup never creates logins. Refused with TournamentError, and
    nothing written, when the document is not a backup this version reads, does not hold
    together, or the event (its slug) or one of its table secrets is already here.
    """
    plan = _read(data)
    if club_slug is not None:
        try:
            validate_slug(club_slug)
        except ValidationError:
            raise TournamentError(f"{club_slug!r} is not a club slug") from None
        plan.club.slug = club_slug
    try:
        with transaction.atomic():
            return _write(plan)
    except IntegrityError as error:
        raise TournamentError(f"the database refused the backup: {error}") from None


def _write(plan: _Plan) -> Imported:
    warnings: list[str] = []
    event = plan.event
    if Event.objects.filter(slug=event.slug).exists():
        raise TournamentError(
            f"an event with the slug {event.slug!r} is already here: delete it first, "
            "or restore into another database"
        )
    secrets = [game.secret for game in plan.games.rows]
    if any(Game.objects.filter(secret__in=chunk).exists() for chunk in _chunks(secrets)):
        raise TournamentError(
            "a table secret of this backup is already in use here: the event's games are "
            "still in this database (delete them with the event first)"
        )

    club = Club.objects.filter(slug=plan.club.slug).first()
    if club is None:
        club = plan.club
        _insert(_Rows(Club, [club]))
    players = list(plan.players.values())
    file_ids = {player.name: player.pk for player in players}
    known = {
        player.name: player
        for chunk in _chunks([player.name for player in players])
        for player in Player.objects.filter(club=club, name__in=chunk)
    }
    for player in players:
        if player.name in known:
            player.pk, player.created_at = known[player.name].pk, known[player.name].created_at
        else:
            player.club = club
    _insert(_Rows(Player, [player for player in players if player.name not in known]))
    moved = [p for p in players if file_ids[p.name] is not None and file_ids[p.name] != p.pk]
    if moved:
        warnings.append(
            f"{len(moved)} player(s) have ids other than in the backup (e.g. {moved[0].name}): "
            "their lots (the last tie-break, drawn from the seed and the player id) differ, "
            "so the next standings build may order equal players otherwise, later rounds "
            "will not be drawn as the original event would have drawn them, and links to "
            "their player pages change"
        )

    event.club = club
    _insert(_Rows(Event, [event]))
    _organisers(event, plan.organisers, warnings)

    game_ids = {id(game): game.pk for game in plan.games.rows}
    for rows in plan.all_rows():
        _insert(rows)
    renumbered = [g for g in plan.games.rows if game_ids[id(g)] not in (None, g.pk)]
    if renumbered:
        warnings.append(
            f"{len(renumbered)} game(s) have ids other than in the backup: the keeper links and "
            "QR codes printed for those tables no longer work; print them again"
        )
    if plan.current:
        # The stamp fingerprints row ids; a snapshot that was up to date stays up to date.
        stamp = bridge.results_stamp(event)
        Standings.objects.filter(pk__in=[s.pk for s in plan.current]).update(results_stamp=stamp)
    return Imported(event=event, warnings=warnings)


def _organisers(event: Event, usernames: list[str], warnings: list[str]) -> None:
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    users = list(user_model.objects.filter(**{f"{field}__in": usernames}))
    event.organisers.set(users)
    missing = sorted(set(usernames) - {user.get_username() for user in users})
    if missing:
        warnings.append(
            f"no user here is called {', '.join(missing)}: not made organisers (a backup "
            "never creates logins; add them on the event's page once they have one)"
        )


def _chunks(values: list, size: int = CHUNK) -> Iterator[list]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def _stamped(model: type[models.Model]) -> list[str]:
    """The fields Django sets itself on insert (auto_now_add, auto_now): a restore puts the
    file's values back after it."""
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _insert(rows: _Rows) -> None:
    """Save the rows with bulk inserts, keeping each file id that is still free.

    Rows with a kept id go first, then the database's id sequence is moved past them (as
    loaddata does), then the rest take new ids. Timestamps that Django sets on insert
    (auto_now_add, auto_now) are put back afterwards, in bulk.
    """
    for link in rows.links:
        link()
    model = rows.model
    stamped = _stamped(model)
    stamps = [[getattr(row, name) for name in stamped] for row in rows.rows]
    wanted = [row.pk for row in rows.rows if row.pk is not None]
    taken = {
        pk
        for chunk in _chunks(wanted)
        for pk in model.objects.filter(pk__in=chunk).order_by().values_list("pk", flat=True)
    }
    for row in rows.rows:
        if row.pk in taken:
            row.pk = None
    kept = [row for row in rows.rows if row.pk is not None]
    fresh = [row for row in rows.rows if row.pk is None]
    if kept:
        model.objects.bulk_create(kept)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [model]):
                cursor.execute(sql)
    if fresh:
        if not connection.features.can_return_rows_from_bulk_insert:
            raise TournamentError(f"{connection.vendor} cannot give ids back from bulk inserts")
        model.objects.bulk_create(fresh)
    if stamped and rows.rows:
        for row, values in zip(rows.rows, stamps, strict=True):
            for name, value in zip(stamped, values, strict=True):
                setattr(row, name, value)
        model.objects.bulk_update(rows.rows, stamped)
