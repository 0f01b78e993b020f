"""A request's database round trips, captured in this process and replayed by the floor.

A recipe is the list of SQL statements one request sent, each with its parameters, whether
it ran inside the view's transaction, and whether it was an executemany. It is captured with
`connection.execute_wrapper` around a test-client call (the site's own code, middleware
included, against the benchmark's database) and stored as JSON, so the floor view
(bench.floor.views.replay) can send exactly those statements again over one cursor. JSON,
not pickle: the server reads the file, and a file of data can do nothing but be data.

The capture runs inside an atomic block of its own that is always rolled back
(`transaction.set_rollback(True)`), so a captured write leaves the database as it was (the
floor replays on the same rows), on SQLite as on PostgreSQL. Django then opens the view's
outermost atomic block as a savepoint; those two statements are not the request's (outside
the capture they would be BEGIN/COMMIT, which the backends send without `execute`) and are
left out.

Before, the capture turned autocommit off and rolled back at the end. On PostgreSQL that
opens a transaction; on SQLite it does not (Python's sqlite3 begins one only before a data
statement), so the view's SAVEPOINT at depth 0 opened the transaction and its RELEASE
committed it: a captured deal was stored, and the floor's replay of it then met an existing
deal and answered differently. tests/test_bench_recipes.py proves a captured
write leaves no row on either backend.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import json
import os
import uuid
from contextlib import contextmanager
from pathlib import Path

#: The environment variable that tells the floor view where the recipes are.
RECIPES_ENV = "BENCH_FLOOR_RECIPES"

SAVEPOINT_WORDS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def _encode(value):
    from psycopg.types.json import Json, Jsonb

    if isinstance(value, Jsonb | Json):
        kind = "jsonb" if isinstance(value, Jsonb) else "json"
        return {"~": kind, "v": json.loads(value.dumps(value.obj))}
    if isinstance(value, datetime.datetime):
        return {"~": "datetime", "v": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"~": "date", "v": value.isoformat()}
    if isinstance(value, datetime.timedelta):
        return {"~": "timedelta", "v": value.total_seconds()}
    if isinstance(value, decimal.Decimal):
        return {"~": "decimal", "v": str(value)}
    if isinstance(value, uuid.UUID):
        return {"~": "uuid", "v": str(value)}
    if isinstance(value, bytes | memoryview | bytearray):
        return {"~": "bytes", "v": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, list | tuple):
        return [_encode(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"a parameter of a type the recipe cannot hold: {type(value)!r}")


def _decode(value):
    if isinstance(value, list):
        return [_decode(item) for item in value]
    if not isinstance(value, dict):
        return value
    from psycopg.types.json import Json, Jsonb

    kind, raw = value["~"], value["v"]
    return {
        "jsonb": lambda: Jsonb(raw),
        "json": lambda: Json(raw),
        "datetime": lambda: datetime.datetime.fromisoformat(raw),
        "date": lambda: datetime.date.fromisoformat(raw),
        "timedelta": lambda: datetime.timedelta(seconds=raw),
        "decimal": lambda: decimal.Decimal(raw),
        "uuid": lambda: uuid.UUID(raw),
        "bytes": lambda: base64.b64decode(raw),
    }[kind]()


def writes(steps: list[dict]) -> bool:
    """Whether any statement changes data (the floor then rolls its transaction back)."""
    return any(
        not step["sql"].lstrip().upper().startswith(("SELECT", "SAVEPOINT", "RELEASE"))
        for step in steps
    )


@contextmanager
def capturing():
    """Record every statement sent in the block; roll back whatever it wrote."""
    from django.db import connection, transaction

    steps: list[dict] = []

    def record(execute, sql, params, many, context):
        depth = len(connection.atomic_blocks) - 1  # the capture's own block is not the request's
        if not (depth == 0 and sql.lstrip().upper().startswith(SAVEPOINT_WORDS)):
            steps.append(
                {
                    "sql": sql,
                    "params": None if params is None else _encode(params),
                    "many": many,
                    "atomic": depth > 0,
                }
            )
        return execute(sql, params, many, context)

    with transaction.atomic():
        try:
            with connection.execute_wrapper(record):
                yield steps
        finally:
            transaction.set_rollback(True)


def save(recipes: dict[str, list[dict]], path: Path) -> None:
    path.write_text(json.dumps(recipes))


def load(path: str | None = None) -> dict[str, list[dict]]:
    """The recipes, with their parameters as psycopg takes them."""
    recipes = json.loads(Path(path or os.environ[RECIPES_ENV]).read_text())
    for steps in recipes.values():
        for step in steps:
            if step["params"] is not None:
                step["params"] = _decode(step["params"])
    return recipes
