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

from . import bridge, pairing, standings
from .errors import TournamentError
from .models import Bye, Club, Entry, Event, EventLog, Player, Round, Standings, Table

FORMAT = "three-five-eight/event-backup"
VERSION = 1

#: Keys of the event log's `data` that hold player ids (one id, a list of ids).
LOG_PLAYER_KEY = "player"
LOG_PLAYERS_KEY = "players"

#: How many values one `IN (...)` lookup takes: well under every database's limit.
CHUNK = 500


@dataclass(frozen=True)
class Imported:
    """What an import made, and what the operator should know about it."""

    event: Event
    warnings: list[str] = field(default_factory=list)


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

    def name(player_id: object, where: str) -> str:
        if player_id not in names:
            raise TournamentError(f"{where} names player {player_id!r}, who has no entry")
        return names[player_id]

    club = event.club
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _moment_out(timezone.now()),
        "club": {"id": club.pk, "name": club.name, "slug": club.slug, **_made(club)},
        "event": {
            "id": event.pk,
            "name": event.name,
            "slug": event.slug,
            "ruleset": event.ruleset,
            "options": event.options,
            "rounds_planned": event.rounds_planned,
            "pairing_modes": event.pairing_modes,
            "precedence": event.precedence,
            "placing_points": event.placing_points,
            "bye_policy": event.bye_policy,
            "seed": event.seed,
            "status": event.status,
            "created_at": _moment_out(event.created_at),
            "organisers": sorted(user.get_username() for user in event.organisers.all()),
        },
        "entries": [
            {
                "id": entry.pk,
                "player": {"id": entry.player_id, "name": entry.player.name, **_made(entry.player)},
                "checked_in": entry.checked_in,
                "withdrawn": entry.withdrawn,
                "joined_round": entry.joined_round,
                "created_at": _moment_out(entry.created_at),
            }
            for entry in entries
        ],
        "rounds": [_round_out(round_, name, deals, changes) for round_ in rounds],
        "standings": [
            {
                "id": snapshot.pk,
                "built_at": _moment_out(snapshot.built_at),
                "rounds_complete": snapshot.rounds_complete,
                "results_stamp": snapshot.results_stamp,
                "current": snapshot.results_stamp == live_stamp,
                "rows": [
                    {**row, "player": name(row.get("player"), f"standings {snapshot.pk}")}
                    for row in snapshot.rows
                ],
                "build_seconds": snapshot.build_seconds,
            }
            for snapshot in event.standings.order_by("built_at", "pk")
        ],
        "log": [
            {
                "id": line.pk,
                "at": _moment_out(line.at),
                "actor": line.actor,
                "action": line.action,
                "data": _log_data_out(line.data, name, f"log entry {line.pk}"),
                "reason": line.reason,
            }
            for line in event.log.order_by("at", "pk")
        ],
    }


def _grouped(rows) -> dict[int, list]:
    by_game = defaultdict(list)
    for row in rows:
        by_game[row.game_id].append(row)
    return by_game


def _made(row) -> dict:
    return {"created_at": _moment_out(row.created_at)}


def _moment_out(value: datetime | None) -> str | None:
    """ISO 8601 with microseconds and offset: the exact instant, as parse_datetime reads it."""
    return None if value is None else value.isoformat()


def _flags_out(flags: list, name: Callable[[object, str], str], where: str) -> list:
    return [
        {**flag, "players": [name(pid, where) for pid in flag["players"]]}
        if isinstance(flag, dict) and "players" in flag
        else flag
        for flag in flags
    ]


def _log_data_out(data: dict, name: Callable[[object, str], str], where: str) -> dict:
    data = dict(data)
    if data.get(LOG_PLAYER_KEY) is not None:
        data[LOG_PLAYER_KEY] = name(data[LOG_PLAYER_KEY], where)
    if isinstance(data.get(LOG_PLAYERS_KEY), list):
        data[LOG_PLAYERS_KEY] = [name(pid, where) for pid in data[LOG_PLAYERS_KEY]]
    return data


def _round_out(round_: Round, name, deals, changes) -> dict:
    where = f"round {round_.number}"
    return {
        "id": round_.pk,
        "number": round_.number,
        "pairing_mode": round_.pairing_mode,
        "status": round_.status,
        "flags": _flags_out(round_.flags, name, where),
        "build_error": round_.build_error,
        "pairing_seconds": round_.pairing_seconds,
        "built_at": _moment_out(round_.built_at),
        "published_at": _moment_out(round_.published_at),
        "closed_at": _moment_out(round_.closed_at),
        "tables": [
            {
                "id": table.pk,
                "number": table.number,
                "seats": [name(pid, f"{where} table {table.number}") for pid in table.seat_ids],
                "first_dealer": table.first_dealer,
                "flags": _flags_out(table.flags, name, f"{where} table {table.number}"),
                "game": None
                if table.game is None
                else _game_out(table.game, deals[table.game_id], changes[table.game_id]),
            }
            for table in round_.tables.all()
        ],
        "byes": [
            {
                "id": bye.pk,
                "player": name(bye.player_id, f"{where} bye"),
                "flags": _flags_out(bye.flags, name, f"{where} bye"),
            }
            for bye in round_.byes.all()
        ],
    }


def _game_out(game: Game, deals: list[DealEntry], changes: list[GameChange]) -> dict:
    return {
        "id": game.pk,
        "ruleset": game.ruleset,
        "options": game.options,
        "players": game.players,
        "first_dealer": game.first_dealer,
        "secret": game.secret,
        "result": game.result,
        "version": game.version,
        "totals": game.totals,
        "placings": game.placings,
        "created_at": _moment_out(game.created_at),
        "updated_at": _moment_out(game.updated_at),
        "confirmed_at": _moment_out(game.confirmed_at),
        "confirmed_by": game.confirmed_by,
        "deals": [
            {
                "id": deal.pk,
                "number": deal.number,
                "calls": deal.calls,
                "tricks": deal.tricks,
                "last_tricks": deal.last_tricks,
                "entered_at": _moment_out(deal.entered_at),
                "entered_by": deal.entered_by,
                "undone_at": _moment_out(deal.undone_at),
                "undone_by": deal.undone_by,
            }
            for deal in deals
        ],
        "changes": [
            {
                "id": change.pk,
                "at": _moment_out(change.at),
                "actor": change.actor,
                "action": change.action,
                "deal_number": change.deal_number,
                "data": change.data,
                "reason": change.reason,
            }
            for change in changes
        ],
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


def _stamps(row: models.Model, fields: Iterable[str]) -> dict:
    return {name: getattr(row, name) for name in fields}


@dataclass
class _Rows:
    """One kind of unsaved row, in file order, with the timestamps Django would overwrite."""

    model: type[models.Model]
    stamped: tuple[str, ...] = ()
    rows: list = field(default_factory=list)
    stamps: list[dict] = field(default_factory=list)
    #: How to fill in each row's relations once the rows they point to have ids.
    links: list[Callable[[], None]] = field(default_factory=list)

    def add(self, row: models.Model, where: str, link: Callable[[], None] | None = None):
        _clean(row, where)
        self.rows.append(row)
        self.stamps.append(_stamps(row, self.stamped))
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
        entries=_Rows(Entry, ("created_at",)),
        games=_Rows(Game, ("created_at", "updated_at")),
        deals=_Rows(DealEntry, ("entered_at",)),
        changes=_Rows(GameChange, ("at",)),
        rounds=_Rows(Round),
        tables=_Rows(Table),
        byes=_Rows(Bye),
        standings=_Rows(Standings, ("built_at",)),
        log=_Rows(EventLog, ("at",)),
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
    obj = _Obj(top.value["club"], "club", ["id", "name", "slug", "created_at"])
    club = Club(
        pk=obj.id(),
        name=obj.get("name", "str"),
        slug=obj.get("slug", "str"),
        created_at=obj.moment("created_at"),
    )
    _clean(club, "club")
    return club


def _read_event(top: _Obj) -> tuple[Event, list[str]]:
    keys = ["id", "name", "slug", "ruleset", "options", "rounds_planned", "pairing_modes"]
    keys += ["precedence", "placing_points", "bye_policy", "seed", "status", "created_at"]
    obj = _Obj(top.value["event"], "event", [*keys, "organisers"])
    event = Event(
        pk=obj.id(),
        name=obj.get("name", "str"),
        slug=obj.get("slug", "str"),
        ruleset=obj.get("ruleset", "str"),
        options=obj.get("options", "dict"),
        rounds_planned=obj.get("rounds_planned", "int"),
        pairing_modes=obj.get("pairing_modes", "list"),
        precedence=obj.get("precedence", "list"),
        placing_points=obj.get("placing_points", "list"),
        bye_policy=obj.get("bye_policy", "str"),
        seed=obj.get("seed", "int"),
        status=obj.get("status", "str"),
        created_at=obj.moment("created_at"),
    )
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
    keys = ["id", "player", "checked_in", "withdrawn", "joined_round", "created_at"]
    for item, where in top.items("entries"):
        obj = _Obj(item, where, keys)
        who = _Obj(obj.value["player"], obj.at("player"), ["id", "name", "created_at"])
        name = who.get("name", "str")
        if name != " ".join(name.split()) or not name:
            raise _bad(who.at("name"), f"is not a player's name: {name!r}")
        if name in plan.players:
            raise _bad(where, f"enters {name!r} a second time")
        player = Player(pk=who.id(), name=name, created_at=who.moment("created_at"))
        _clean(player, obj.at("player"))
        plan.players[name] = player
        entry = Entry(
            pk=obj.id(),
            checked_in=obj.get("checked_in", "bool"),
            withdrawn=obj.get("withdrawn", "bool"),
            joined_round=obj.get("joined_round", "int"),
            created_at=obj.moment("created_at"),
        )
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


def _flags_ids(flags: list) -> list:
    return [
        {**flag, "players": [player.pk for player in flag["players"]]}
        if "players" in flag
        else flag
        for flag in flags
    ]


def _read_round(item: object, where: str, number: int, plan: _Plan, secrets: set[str]) -> None:
    keys = ["id", "number", "pairing_mode", "status", "flags", "build_error", "pairing_seconds"]
    keys += ["built_at", "published_at", "closed_at", "tables", "byes"]
    obj = _Obj(item, where, keys)
    if obj.get("number", "int") != number:
        raise _bad(obj.at("number"), f"must be {number}: rounds are numbered 1, 2, … in order")
    round_ = Round(
        pk=obj.id(),
        number=number,
        pairing_mode=obj.get("pairing_mode", "str"),
        status=obj.get("status", "str"),
        build_error=obj.get("build_error", "str"),
        pairing_seconds=obj.get("pairing_seconds", "number", null=True),
        built_at=obj.moment("built_at", null=True),
        published_at=obj.moment("published_at", null=True),
        closed_at=obj.moment("closed_at", null=True),
    )
    flags = _flags_in(obj.value["flags"], obj.at("flags"), plan)

    def link_round() -> None:
        round_.event = plan.event
        round_.flags = _flags_ids(flags)

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
            bye.flags = _flags_ids(bye_flags)

        plan.byes.add(bye, bye_where, link_bye)


def _read_table(item, where, round_, plan, secrets, published) -> tuple[Table, list[str]]:
    """A table and the names at its seats (to check that nobody plays twice in a round)."""
    obj = _Obj(item, where, ["id", "number", "seats", "first_dealer", "flags", "game"])
    seats = obj.get("seats", "list")
    if len(seats) != 3:
        raise _bad(obj.at("seats"), "must name three players")
    players = [_player(plan, name, f"{obj.at('seats')}[{seat}]") for seat, name in enumerate(seats)]
    if len({player.name for player in players}) != 3:
        raise _bad(obj.at("seats"), "seats a player twice")
    table = Table(
        pk=obj.id(),
        number=obj.get("number", "int"),
        first_dealer=obj.get("first_dealer", "int"),
    )
    if table.first_dealer not in (0, 1, 2):
        raise _bad(obj.at("first_dealer"), "must be a seat: 0, 1 or 2")
    flags = _flags_in(obj.value["flags"], obj.at("flags"), plan)
    game = None
    if obj.value["game"] is not None:
        game = _read_game(obj.value["game"], obj.at("game"), plan, secrets)
    if published and game is None:
        raise _bad(where, "has no game, though its round is published")
    if game is not None and not published:
        raise _bad(where, "has a game, though its round is not published")

    def link() -> None:
        table.round = round_
        table.seat_0, table.seat_1, table.seat_2 = players
        table.flags = _flags_ids(flags)
        table.game = game

    return plan.tables.add(table, where, link), [player.name for player in players]


def _read_game(item: object, where: str, plan: _Plan, secrets: set[str]) -> Game:
    keys = ["id", "ruleset", "options", "players", "first_dealer", "secret", "result"]
    keys += ["version", "totals", "placings", "created_at", "updated_at", "confirmed_at"]
    keys += ["confirmed_by", "deals", "changes"]
    obj = _Obj(item, where, keys)
    names = obj.get("players", "list")
    if len(names) != 3 or not all(isinstance(name, str) and name for name in names):
        raise _bad(obj.at("players"), "must be three names, by seat")
    secret = obj.get("secret", "str")
    if not secret or secret in secrets:
        raise _bad(obj.at("secret"), "must be a table secret, different at every table")
    secrets.add(secret)
    game = Game(
        pk=obj.id(),
        ruleset=obj.get("ruleset", "str"),
        options=obj.get("options", "dict"),
        players=names,
        first_dealer=obj.get("first_dealer", "int"),
        secret=secret,
        result=obj.get("result", "str"),
        version=obj.get("version", "int"),
        totals=obj.get("totals", "list"),
        placings=obj.get("placings", "list", null=True),
        created_at=obj.moment("created_at"),
        updated_at=obj.moment("updated_at"),
        confirmed_at=obj.moment("confirmed_at", null=True),
        confirmed_by=obj.get("confirmed_by", "str"),
    )
    plan.games.add(game, where)
    live = []
    for deal_item, deal_where in obj.items("deals"):
        deal = _read_deal(deal_item, deal_where, game, plan)
        if deal.undone_at is None:
            live.append(deal)
    for change_item, change_where in obj.items("changes"):
        change_obj = _Obj(
            change_item,
            change_where,
            ["id", "at", "actor", "action", "deal_number", "data"] + ["reason"],
        )
        change = GameChange(
            pk=change_obj.id(),
            at=change_obj.moment("at"),
            actor=change_obj.get("actor", "str"),
            action=change_obj.get("action", "str"),
            deal_number=change_obj.get("deal_number", "int", null=True),
            data=change_obj.get("data", "dict"),
            reason=change_obj.get("reason", "str"),
        )
        plan.changes.add(change, change_where, _linker(change, game=game))
    _check_game(game, sorted(live, key=lambda deal: deal.number), where)
    return game


def _read_deal(item: object, where: str, game: Game, plan: _Plan) -> DealEntry:
    keys = ["id", "number", "calls", "tricks", "last_tricks", "entered_at", "entered_by"]
    obj = _Obj(item, where, [*keys, "undone_at", "undone_by"])
    deal = DealEntry(
        pk=obj.id(),
        number=obj.get("number", "int"),
        calls=obj.get("calls", "list"),
        tricks=obj.get("tricks", "list", null=True),
        last_tricks=obj.get("last_tricks", "list", null=True),
        entered_at=obj.moment("entered_at"),
        entered_by=obj.get("entered_by", "str"),
        undone_at=obj.moment("undone_at", null=True),
        undone_by=obj.get("undone_by", "str"),
    )
    return plan.deals.add(deal, where, _linker(deal, game=game))


def _check_game(game: Game, live: list[DealEntry], where: str) -> None:
    """The stored result must be the engine's replay of the live deals, as it is on the site:
    a restored game shows what its table saw, or the backup is refused."""
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


def _read_snapshot(item: object, where: str, plan: _Plan) -> None:
    keys = ["id", "built_at", "rounds_complete", "results_stamp", "current", "rows"]
    obj = _Obj(item, where, [*keys, "build_seconds"])
    rows = []
    for row, row_where in obj.items("rows"):
        if not isinstance(row, dict) or "player" not in row:
            raise _bad(row_where, "must be a standings row (an object with a player)")
        rows.append({**row, "player": _player(plan, row["player"], f"{row_where}.player")})
    snapshot = Standings(
        pk=obj.id(),
        built_at=obj.moment("built_at"),
        rounds_complete=obj.get("rounds_complete", "int"),
        results_stamp=obj.get("results_stamp", "str"),
        build_seconds=obj.get("build_seconds", "number"),
    )

    def link() -> None:
        snapshot.event = plan.event
        snapshot.rows = [{**row, "player": row["player"].pk} for row in rows]

    plan.standings.add(snapshot, where, link)
    if obj.get("current", "bool"):
        plan.current.append(snapshot)


def _read_log_line(item: object, where: str, plan: _Plan) -> None:
    obj = _Obj(item, where, ["id", "at", "actor", "action", "data", "reason"])
    data = dict(obj.get("data", "dict"))
    one = data.get(LOG_PLAYER_KEY)
    if one is not None:
        data[LOG_PLAYER_KEY] = _player(plan, one, obj.at(f"data.{LOG_PLAYER_KEY}"))
    many = data.get(LOG_PLAYERS_KEY)
    if many is not None:
        if not isinstance(many, list):
            raise _bad(obj.at(f"data.{LOG_PLAYERS_KEY}"), "must be a list of names")
        data[LOG_PLAYERS_KEY] = [
            _player(plan, name, obj.at(f"data.{LOG_PLAYERS_KEY}")) for name in many
        ]
    line = EventLog(
        pk=obj.id(),
        at=obj.moment("at"),
        actor=obj.get("actor", "str"),
        action=obj.get("action", "str"),
        reason=obj.get("reason", "str"),
    )

    def link() -> None:
        line.event = plan.event
        line.data = {
            **data,
            **({LOG_PLAYER_KEY: data[LOG_PLAYER_KEY].pk} if one is not None else {}),
            **(
                {LOG_PLAYERS_KEY: [p.pk for p in data[LOG_PLAYERS_KEY]]} if many is not None else {}
            ),
        }

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
        _insert(_one(club, ("created_at",)))
    players = list(plan.players.values())
    file_ids = {player.name: player.pk for player in players}
    known = {
        player.name: player
        for chunk in _chunks([player.name for player in players])
        for player in Player.objects.filter(club=club, name__in=chunk)
    }
    new_players = _Rows(Player, ("created_at",))
    for player in players:
        if player.name in known:
            player.pk, player.created_at = known[player.name].pk, known[player.name].created_at
        else:
            player.club = club
            new_players.add(player, "a player")
    _insert(new_players)
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
    _insert(_one(event, ("created_at",)))
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


def _one(row: models.Model, stamped: tuple[str, ...]) -> _Rows:
    rows = _Rows(type(row), stamped)
    rows.rows.append(row)
    rows.stamps.append(_stamps(row, stamped))
    return rows


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


def _insert(rows: _Rows) -> None:
    """Save the rows with bulk inserts, keeping each file id that is still free.

    Rows with a kept id go first, then the database's id sequence is moved past them (as
    loaddata does), then the rest take new ids. Timestamps that Django sets on insert
    (auto_now_add, auto_now) are put back afterwards, in bulk.
    """
    for link in rows.links:
        link()
    model = rows.model
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
    if rows.stamped and rows.rows:
        for row, stamps in zip(rows.rows, rows.stamps, strict=True):
            for name, value in stamps.items():
                setattr(row, name, value)
        model.objects.bulk_update(rows.rows, list(rows.stamped))
