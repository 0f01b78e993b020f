"""Reads: a game's record and state, always the engine's replay of the live deals."""

import functools
import json
from collections.abc import Sequence
from typing import NamedTuple

from django.db import connection
from django.db.transaction import TransactionManagementError

import engine
from config import plain_reads
from scoring.models import DealEntry, Game, GameChange, deal_as_record


def live_entries(game: Game) -> list[DealEntry]:
    """The live deals as models, in order: for pages that show who entered a deal and when."""
    return list(game.entries.filter(undone_at__isnull=True).order_by("number"))


class LiveDeal(NamedTuple):
    """A live deal as the engine and the deal writes need it: its row's id and its values."""

    pk: int
    calls: list
    tricks: list | None
    last_tricks: list | None

    def as_record(self) -> dict:
        """This deal as the engine's game record writes it."""
        return deal_as_record(self.calls, self.tricks, self.last_tricks)


@functools.cache
def _live_deals_sql(vendor: str) -> str:
    """live_deals' one statement, named from the model (its table and columns quoted for
    the database, once per process)."""
    meta, quote = DealEntry._meta, connection.ops.quote_name
    column = {name: quote(meta.get_field(name).column) for name in ("game", "number", "undone_at")}
    values = ", ".join(quote(meta.get_field(name).column) for name in LiveDeal._fields[1:])
    return (
        f"SELECT {quote(meta.pk.column)}, {values} FROM {quote(meta.db_table)}"
        f" WHERE {column['game']} = %s AND {column['undone_at']} IS NULL"
        f" ORDER BY {column['number']}"
    )


def _json(text: str | None) -> object:
    """A JSON column's value as the ORM gives it (Django hands both SQLite's and
    PostgreSQL's JSON columns to Python as text; SQL NULL is None)."""
    return None if text is None else json.loads(text)


def live_deals(game_id: int) -> list[LiveDeal]:
    """The game's live deals in order, as plain values: the deal writes' read (the engine
    replays these on every deal). One plain SQL statement instead of a queryset: building
    the query and converting each value through the ORM (values_list) took 0.32-0.38 ms of
    CPU a read, this 0.07-0.09 ms, a model per deal (live_entries) 0.46-0.48 ms (SQLite, a
    game of 6 deals, in process; docs/performance.md, cost per request)."""
    with connection.cursor() as cursor:
        cursor.execute(_live_deals_sql(connection.vendor), [game_id])
        rows = cursor.fetchall()
    return [LiveDeal(pk, _json(c), _json(t), _json(lt)) for pk, c, t, lt in rows]


#: What a game record's deals may be given as: models, or the plain values of live_deals.
Deals = Sequence[DealEntry | LiveDeal]


def game_record(game: Game, entries: Deals | None = None) -> dict:
    """The game as an engine game record (`../shared/spec/engine.md`); without `entries`, of
    its live deals."""
    entries = live_deals(game.pk) if entries is None else entries
    return {
        "ruleset": game.ruleset,
        "options": game.options,
        "first_dealer": game.first_dealer,
        "deals": [entry.as_record() for entry in entries],
    }


def engine_game(game: Game, entries: Deals | None = None) -> engine.Game:
    """The game as the engine plays it on from its live deals (or these)."""
    return engine.game_from_record(game_record(game, entries))


def rules_of(game: Game) -> engine.Rules:
    """The game's rules: its ruleset with its options (tricks per hand, targets, ...)."""
    return engine.Rules.build(game.ruleset, game.options)


def deals_at_most(ruleset: str, options: dict) -> int | None:
    """How many deals a game under these rules can have at most, by the engine's rules: the
    last hand (by the hands option, or when each call may be made once) plus a redeal for
    every pass the players may make; None for a game that ends on points only (a paper
    sheet for it needs a count of its own)."""
    rules = engine.Rules.build(ruleset, options)
    bounds = []
    if rules.options.hands is not None:
        bounds.append(rules.options.hands)
    if rules.ruleset.each_call_once:
        bounds.append(3 * len(rules.ruleset.calls))
    if not bounds:
        return None
    return min(bounds) + 3 * rules.ruleset.passes_per_game


def game_state(game: Game, entries: Deals | None = None) -> engine.GameState:
    return engine.replay(game_record(game, entries))


def game_state_json(game: Game, entries: Deals | None = None) -> dict:
    """Exactly what `python -m engine replay` prints for this game."""
    return engine.state_as_json(game_state(game, entries))


#: The history's marks of a change to one deal's values (its row, or its being live).
DEAL_WRITES = (
    GameChange.Action.DEAL_RECORDED,
    GameChange.Action.DEAL_UNDONE,
    GameChange.Action.DEAL_CORRECTED,
    GameChange.Action.LAST_TRICKS,
)


def hand_of(tricks: Sequence[object], number: int) -> int:
    """The hand deal `number` is (or, redealt, came before), from the deals' tricks in order
    (None for a redeal): one more than the hands played before it. A number past the end
    (a deal not recorded yet, or undone) counts every hand given. The one numbering the
    players see (scoring.presenters.numbering words it)."""
    return 1 + sum(1 for counts in list(tricks)[: max(number - 1, 0)] if counts is not None)


def from_hand(substitution: dict) -> int | None:
    """The hand a substitute plays from, as a substitution's record (the game's history, the
    table's and the event log's) keeps it; a record kept before hands were stored has only
    its deal, which is that hand wherever no deal was dealt again before it."""
    return substitution.get("from_hand") or substitution.get("from_deal")


def hand_params(entries: Sequence, number: int) -> dict:
    """Deal `number` among these live deals as a refusal names it to the players: `hand`
    (its hand number) and `redeal` (whether that deal was dealt again), beside the deal's own
    number `n` that the API keeps (scoring/messages.py words `hand`)."""
    tricks = [getattr(entry, "tricks", None) for entry in entries]
    redeal = 1 <= number <= len(tricks) and tricks[number - 1] is None
    return {"n": number, "hand": hand_of(tricks, number), "redeal": redeal}


def deal_changed_since(game: Game, number: int, version: int | None) -> bool:
    """Whether deal `number` was recorded, undone, corrected or given its last tricks after
    the game's `version` (the history stamps each change with the version it made). No
    version, or the game's own: nothing to ask."""
    if version is None or version >= game.version:
        return False
    return GameChange.objects.filter(
        game_id=game.pk, deal_number=number, action__in=DEAL_WRITES, version__gt=version
    ).exists()


def game_history(game: Game) -> list[GameChange]:
    """The whole history of a game, oldest first."""
    return list(game.changes.all())


def all_entries(game: Game) -> list[DealEntry]:
    """Every deal ever entered, undone ones included, in the order they were entered: the
    models `game.entries.order_by("entered_at", "pk")` gives (each knowing its game), from
    one plain statement, as the table page and the first render of a sheet read them on
    every deal (docs/performance.md, cost per request)."""
    sql, converters = _entries_sql(connection.vendor)
    entries = []
    for values in plain_reads.all_rows(sql, [game.pk], converters):
        entry = DealEntry.from_db(connection.alias, ENTRY_COLUMNS, values)
        _entry_game.set_cached_value(entry, game)
        entries.append(entry)
    return entries


_entry = DealEntry._meta
_entry_game = _entry.get_field("game")
#: Every column of a deal entry, in the model's order (what its queryset reads).
ENTRY_COLUMNS = tuple(field.attname for field in _entry.concrete_fields)


@functools.cache
def _entries_sql(vendor: str) -> tuple[str, list]:
    """all_entries' statement, named from the model (once per process), and the ORM's
    converters of its columns."""
    order = (_entry.get_field("entered_at"), _entry.pk)
    return plain_reads.select(_entry, _entry.concrete_fields, where=_entry_game, order_by=order)


def game_mark(game_id: int) -> tuple[int, float] | None:
    """What the watchers' poll compares, in one small query: the game's version, and when it
    was last saved (which tells games apart should a restored database repeat an id and a
    version); None for no such game."""
    try:
        version, updated_at = _game_values(game_id, MARK_COLUMNS)
    except Game.DoesNotExist:
        return None
    return version, updated_at.timestamp()


def game_versions(game_ids: Sequence[int]) -> dict[int, int]:
    """The versions of these games, by id, in one statement (no model made): what the door's
    watcher reads once a tick for every watchers' sheet it holds. A game that is gone is not
    in it. (A process holds at most a few hundred; asked in parts of 500 all the same, under
    any SQLite's limit of parameters a statement.)"""
    versions: dict[int, int] = {}
    with connection.cursor() as cursor:
        for start in range(0, len(game_ids), 500):
            part = list(game_ids[start : start + 500])
            marks = ", ".join(["%s"] * len(part))
            cursor.execute(f"{GAME_VERSIONS_SQL} IN ({marks})", part)
            versions.update(cursor.fetchall())
    return versions


_game = Game._meta
GAME_VERSIONS_SQL = (
    f"SELECT {_game.pk.column}, version FROM {_game.db_table} WHERE {_game.pk.column}"  # noqa: S608, E501
)


def disputed_games(game_ids: list[int]) -> set[int]:
    """Which of these games a player disputes now (a "this is wrong" on the game's current
    version, not since replaced by their agreement): one query."""
    from django.db.models import F

    from scoring.models import Verdict

    rows = Verdict.objects.filter(game_id__in=game_ids, version=F("game__version"))
    latest: dict[tuple[int, int | None], bool] = {}
    for game_id, seat, agrees in rows.order_by("at", "pk").values_list("game_id", "seat", "agrees"):
        latest[(game_id, seat)] = agrees
    return {game for (game, seat), agrees in latest.items() if seat is not None and not agrees}


class Answer(NamedTuple):
    """The organiser's answer to a dispute: the result confirmed with a note, or reopened
    with a reason (a GameChange's action and words)."""

    action: str
    words: str


def dispute_answer(game: Game) -> Answer | None:
    """The newest answer given with words to the game's newest dispute: a confirmation with
    a note, or a reopening (whose reason is required), made after it. None while nobody
    disputed, or no word was given since."""
    changes = game.changes.filter(
        action__in=(
            GameChange.Action.RESULT_DISPUTED,
            GameChange.Action.CONFIRMED,
            GameChange.Action.REOPENED,
        )
    ).order_by("-at", "-pk")
    for change in changes.values_list("action", "reason")[:50]:
        action, words = change
        if action == GameChange.Action.RESULT_DISPUTED:
            return None
        if words:
            return Answer(action, words)
    return None


@functools.cache
def _game_row_sql(vendor: str, columns: tuple[str, ...], for_update: bool) -> tuple[str, list]:
    """A statement reading `columns` (attnames) of one game by id, named from the model (once
    per process), FOR UPDATE where the database locks rows; and the ORM's converters of its
    columns (config.plain_reads)."""
    fields = [_game.get_field(name) for name in columns]
    sql, converters = plain_reads.select(_game, fields, where=_game.pk)
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    return sql, converters


def _game_row(game_id: object, columns: tuple[str, ...], for_update: bool = False) -> Game:
    """One game as the ORM makes it (Game.from_db: the columns not read are deferred), from
    one plain statement: the writes read their game so on every deal, and building the same
    read as a queryset cost several times its round trip (docs/performance.md). Raises
    Game.DoesNotExist for no such game, and for an id that is no id (as .get(pk=) does)."""
    return Game.from_db(connection.alias, columns, _game_values(game_id, columns, for_update))


def _game_values(game_id: object, columns: tuple[str, ...], for_update: bool = False) -> list:
    """The values of `columns` of one game, as the ORM converts them, from one plain statement
    (no model made); Game.DoesNotExist as in `_game_row`."""
    try:
        pk = _game.pk.get_prep_value(game_id)
    except (TypeError, ValueError):
        raise Game.DoesNotExist from None
    low, high = connection.ops.integer_field_range(_game.pk.get_internal_type())
    if pk is None or not low <= pk <= high:  # no row has it (the ORM finds none either)
        raise Game.DoesNotExist
    locks = for_update and connection.features.has_select_for_update
    if locks and connection.get_autocommit():  # as the ORM refuses it
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    sql, converters = _game_row_sql(connection.vendor, columns, for_update)
    values = plain_reads.one_row(sql, [pk], converters)
    if values is None:
        raise Game.DoesNotExist("Game matching query does not exist.")
    return values


#: Every column of a game, in the model's order (what Game.objects.get reads).
GAME_COLUMNS = tuple(field.attname for field in _game.concrete_fields)


#: What game_mark reads.
MARK_COLUMNS = ("version", "updated_at")


def game_row(game_id: object) -> Game:
    """The whole game, as Game.objects.get(pk=game_id) gives it: the pages' read."""
    return _game_row(game_id, GAME_COLUMNS)


def game_locked(game_id: object) -> Game:
    """The whole game, its row locked until the transaction ends (a write's read)."""
    return _game_row(game_id, GAME_COLUMNS, for_update=True)


def game_token(game_id: object) -> Game:
    """The game with its id and token alone (the rest deferred): what a write checks first."""
    return _game_row(game_id, (_game.pk.attname, "secret"))
