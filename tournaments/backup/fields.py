"""Which fields of each row a backup holds, and how a value goes into the file and back.

No schema of its own: each model's fields come from its `_meta` (every concrete field but
the relations, which the file writes by meaning), less an explicit list of what a backup
leaves out. A field added to a model is therefore written at once, and a backup written
before it is refused ("lacks ...") until the field is named in ADDED (read as its default
when missing) or in EXCLUDE. Values are checked by the models' own field checks
(`clean_fields`); only moments (ISO 8601 with their offset) and the JSON that names players
are read by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring.models import DealEntry, Game, GameChange
from tournaments.club_models import NewcomerRequest
from tournaments.common.errors import TournamentError
from tournaments.models import Bye, Club, Entry, Event, EventLog, Round, Standings, Table

FORMAT = "three-five-eight/event-backup"
VERSION = 1

#: What a backup leaves out, and why.
EXCLUDE: dict[type[models.Model], set[str]] = {
    # When a build was last asked for: a restored round still being built is asked for anew.
    Round: {"requested_at"},
    # What the phones poll, rendered from the rows: the site's markup, not the event's data
    # (the first poll writes a restored snapshot out again, tournaments.results.render).
    # And the staleness counters: the file says by meaning which snapshot is `current`,
    # and a restore sets the counters from that (backup.writing).
    Event: {"results_version"},
    # And a snapshot's team standings: they name teams and players by id
    # (docs/team-standings.md); a restored snapshot shows none until the next build.
    Standings: {"api_body", "results_version", "team_rows"},
    # The club's own settings: restoring an event into a club leaves the club as it is.
    Club: {"ratings_public", "rate_casual_games"},
    # A player's personal code proves who they are: a file passed around must not. A restored
    # event's players get new codes (and new slips), as their phones must prove themselves
    # again anyway (docs/confirmations.md).
    Entry: {"code"},
    # An accepted newcomer's request waits only for its phone to be proven: not the event's
    # data, and a phone proves itself again after a restore (the waiting ones are kept).
    NewcomerRequest: {"entry"},
}

#: Fields added after version 1 of the format: a backup written before them lacks them and
#: reads as the field's default (walkouts: no void policy chosen, every table played;
#: standings: nothing counted beyond the closed rounds; table phones: the keeper alone
#: confirms, no PIN yet; a change's game version: unknown, as on changes made before
#: versions were kept; self check-in: closed, and nobody said how a player checked in; the
#: round clock: none set, never started; a deal's time played: unknown, its arrival counts;
#: teams: scored and ranked by the defaults, and the file's optional `teams` and `keep_apart`
#: lists empty).
ADDED: dict[type[models.Model], set[str]] = {
    Event: {
        "void_policy",
        "confirm_quorum",
        "seed_by_rating",
        "self_check_in",
        "clock_minutes",
        "clock_autostart",
        "clock_at_time",
        "clock_more_deals",
        "team_scoring",  # docs/team-standings.md
        "team_precedence",
    },
    Entry: {"checked_in_by", "checked_in_at"},
    Round: {"clock_started_at", "clock_deadline", "clock_remaining", "clock_stopped_at"},
    Table: {"outcome", "outcome_reason", "substitutions", "void_players", "pin", "clock_extra"},
    Standings: {"counted"},
    Game: {"quorum", "time_up_at"},
    GameChange: {"version"},
    DealEntry: {"played_at"},
}

#: Keys a version 1 file may hold that the site no longer keeps: read and dropped (the
#: standings' fingerprint of the results, replaced by `current` and the event's counter).
RETIRED: dict[type[models.Model], set[str]] = {Standings: {"results_stamp"}}


def bad(code: str, where: str, **params) -> TournamentError:
    """The refusal of a document that does not hold together, saying where in the file
    (codes "backup_...", worded in tournaments.common.messages)."""
    return TournamentError(f"backup_{code}", where=where or "the document", **params)


def fields(model: type[models.Model]) -> list[models.Field]:
    """The model's fields a backup holds (next to the row's `id`), in the model's order."""
    skip = EXCLUDE.get(model, set())
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in skip
    ]


def keys(model: type[models.Model]) -> list[str]:
    return ["id", *(f.name for f in fields(model))]


# --- players in JSON values, both ways -------------------------------------------------------
# Each takes the stored value and `convert` for one player (id to name on export, name to
# Player on reading, Player to id on saving), and gives the converted value; `where` says
# where a value that is not of the expected shape stands.

Convert = Callable[[object], object]


def _list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise bad("not_list", where)
    return value


def _object(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise bad("not_object", where)
    return value


def _flags(value: object, convert: Convert, where: str) -> list:
    """Pairing flags: objects with a `code`, their `players` (if any) converted."""
    out = []
    for index, flag in enumerate(_list(value, where)):
        here = f"{where}[{index}]"
        if not isinstance(flag, dict) or not isinstance(flag.get("code"), str):
            raise bad("not_flag", here)
        if "players" in flag:
            flag = {**flag, "players": [convert(p) for p in _list(flag["players"], here)]}
        out.append(flag)
    return out


def _substitutions(value: object, convert: Convert, where: str) -> list:
    """Who left which seat for whom, from which deal (and which hand, as the players count
    it: a backup written before hands were kept has none)."""
    out = []
    for index, move in enumerate(_list(value, where)):
        here = f"{where}[{index}]"
        wanted = {"seat", "left", "joined", "from_deal"}
        if not isinstance(move, dict) or not wanted <= set(move) <= wanted | {"from_hand"}:
            raise bad("not_substitution", here)
        if not _is_int(move["seat"]) or move["seat"] not in (0, 1, 2):
            raise bad("not_seat", f"{here}.seat")
        for number in ("from_deal", "from_hand"):
            if number in move and not _is_int(move[number]):
                raise bad("not_integer", f"{here}.{number}")
        out.append({**move, "left": convert(move["left"]), "joined": convert(move["joined"])})
    return out


def _players(value: object, convert: Convert, where: str) -> list:
    return [convert(player) for player in _list(value, where)]


def _standings_rows(value: object, convert: Convert, where: str) -> list:
    out = []
    for index, row in enumerate(_list(value, where)):
        if not isinstance(row, dict) or "player" not in row:
            raise bad("not_standings_row", f"{where}[{index}]")
        out.append({**row, "player": convert(row["player"])})
    return out


#: Keys of the event log's `data` that hold player ids (tournaments.services and walkouts
#: write one id under "player", a list under "players"; the organiser pages read them so).
def _log_data(value: object, convert: Convert, where: str) -> dict:
    data = dict(_object(value, where))
    if data.get("player") is not None:
        data["player"] = convert(data["player"])
    if data.get("players") is not None:
        data["players"] = [convert(p) for p in _list(data["players"], f"{where}.players")]
    return data


#: The JSON fields that hold player ids: the file names those players instead.
NAMING_PLAYERS: dict[tuple[type[models.Model], str], Callable[[object, Convert, str], object]] = {
    (Round, "flags"): _flags,
    (Table, "flags"): _flags,
    (Bye, "flags"): _flags,
    (Table, "substitutions"): _substitutions,
    (Table, "void_players"): _players,
    (Standings, "rows"): _standings_rows,
    (EventLog, "data"): _log_data,
}


def nobody(value: object) -> object:
    """The `find` of rows whose JSON names no player (a game names its own, by seat)."""
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- a row out, a row in ---------------------------------------------------------------------


def row_out(row: models.Model, name: Convert) -> dict:
    """The row's id and fields as plain JSON values, players in JSON values by `name`."""
    out: dict = {"id": row.pk}
    for f in fields(type(row)):
        value = f.value_from_object(row)
        if isinstance(value, datetime):
            value = value.isoformat()  # with microseconds and offset: the exact instant
        namer = NAMING_PLAYERS.get((type(row), f.name))
        out[f.name] = value if namer is None else namer(value, name, f.name)
    return out


def row_in(
    model: type[models.Model], value: object, where: str, find: Convert, more: tuple = ()
) -> tuple[models.Model, dict]:
    """An unsaved row from the file's object, checked by the model's own field checks, and
    the object itself (for the keys `more` the caller reads: relations and nested rows).

    Players in JSON values are found by `find` (their names become Player rows here, and
    ids when the row is saved: see `players_to_ids`).
    """
    obj = _object(value, where)
    if model in ADDED:
        obj = {f.name: f.get_default() for f in fields(model) if f.name in ADDED[model]} | obj
    wanted = [*keys(model), *more]
    missing = [key for key in wanted if key not in obj]
    if missing:
        raise bad("lacks", where, keys=", ".join(missing))
    unknown = sorted(str(k) for k in obj if k not in wanted and k not in RETIRED.get(model, ()))
    if unknown:
        # Data this version cannot hold would be dropped without a word: refuse instead.
        raise bad("unknown_keys", where, keys=", ".join(unknown))
    values = {}
    for f in fields(model):
        here, value = f"{where}.{f.name}", obj[f.name]
        if isinstance(f, models.DateTimeField):
            value = moment(value, here, null=f.null)
        elif isinstance(f, models.JSONField):
            value = _json(f, value, here, find)
        values[f.name] = value
    if obj["id"] is not None and not _is_int(obj["id"]):
        raise bad("not_id", f"{where}.id")
    row = model(pk=obj["id"], **values)
    _clean(row, where)
    return row, obj


def _json(f: models.JSONField, value: object, where: str, find: Convert) -> object:
    """A JSON value of the type its field's default has (a list, an object), players found."""
    if value is None and f.null:
        return None
    if f.default in (list, dict) and not isinstance(value, f.default):
        raise bad("not_list" if f.default is list else "not_object", where)
    namer = NAMING_PLAYERS.get((f.model, f.name))
    return value if namer is None else namer(value, find, where)


def players_to_ids(row: models.Model) -> None:
    """Once the players are saved: their ids where the row's JSON values hold Player rows."""
    for f in fields(type(row)):
        namer = NAMING_PLAYERS.get((type(row), f.name))
        if namer is not None:
            setattr(row, f.name, namer(getattr(row, f.name), lambda p: p.pk, f.name))


def moment(value: object, where: str, *, null: bool = False) -> datetime | None:
    """A date and time as the file holds it: ISO 8601 with its UTC offset."""
    if value is None and null:
        return None
    parsed = None
    if isinstance(value, str):
        try:
            parsed = parse_datetime(value)
        except ValueError:
            parsed = None
    if parsed is None or timezone.is_naive(parsed):
        raise bad("not_moment", where)
    return parsed


def _clean(row: models.Model, where: str) -> None:
    """The model's own checks on plain fields (types, lengths, choices, ranges, slugs).
    Relations and JSON are left to the reader, which knows what they should hold."""
    exclude = [
        f.name
        for f in row._meta.fields
        if f.is_relation or isinstance(f, models.JSONField | models.DateTimeField)
    ]
    found = _one_value(row, exclude)
    try:
        row.clean_fields(exclude=exclude)
    except ValidationError as error:
        found = error.message_dict | found
    if found:
        problems = "; ".join(
            f"{key}: {' '.join(str(m) for m in messages)}" for key, messages in found.items()
        )
        raise bad("bad_value", where, problems=problems)


def _one_value(row: models.Model, exclude: list[str]) -> dict[str, list[str]]:
    """What clean_fields lets through, found too: a list or object where a field holds one
    value, and an empty value a blank field cannot store (None where it is not null, "" or
    {} where it holds a number); the database would refuse them with a traceback."""
    found = {}
    for f in row._meta.fields:
        if f.name in exclude or f.primary_key:
            continue
        value = getattr(row, f.attname)
        try:
            if isinstance(value, list | dict):
                raise ValidationError(RegexValidator.message)
            if value is None and not f.null:
                raise ValidationError(f.error_messages["null"])
            if f.blank and value is not None and value in f.empty_values:
                f.to_python(value)
        except ValidationError as error:
            found[f.name] = error.messages
    return found


def items(obj: dict, key: str, where: str) -> Iterator[tuple[object, str]]:
    """The list under `key`, each item with where it stands."""
    at = f"{where}.{key}" if where else key
    for index, item in enumerate(_list(obj[key], at)):
        yield item, f"{at}[{index}]"
