"""Rows read by a plain SQL statement and answered as the ORM would answer them.

On the hottest paths (a deal's write, the keeper's page, the watchers' sheet) building the
same read as a queryset cost several times its round trip (docs/performance.md, cost per
request). A caller writes its statement from the models' names (tables and columns quoted by
the database's own rules, once per process) and reads its rows here: each value passes through
the converters the ORM itself applies to that column (a datetime stored as text in SQLite, a
JSON column), so the values are the ORM's, value for value (each caller's tests compare).

The converters are made once per process and shared by every thread: a converter reads no
state of the connection it came from but its time zone, which is a setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.db import connection
from django.db.models import Field
from django.db.models.options import Options

#: A column as the ORM reads it, and the functions it passes each value through.
Converters = list[tuple[object, list[Callable]]]


def converters(fields: Sequence[tuple[Field, str]]) -> Converters:
    """The ORM's converters of each (field, alias of its table in the statement)."""
    found = []
    for field, alias in fields:
        column = field.get_col(alias)
        functions = [
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ]
        found.append((column, functions))
    return found


def select(meta: Options, fields: Sequence[Field], where: Field,
           order_by: Sequence[Field] = ()) -> tuple[str, Converters]:  # fmt: skip
    """A statement reading `fields` of the model's rows whose `where` column is the one
    parameter (in `order_by`'s order), named by the database's own quoting rules; and the
    ORM's converters of those fields."""
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {', '.join(quote(field.column) for field in fields)}"  # noqa: S608
        f" FROM {quote(meta.db_table)} WHERE {quote(where.column)} = %s"
    )
    if order_by:
        sql += f" ORDER BY {', '.join(quote(field.column) for field in order_by)}"
    return sql, converters([(field, meta.db_table) for field in fields])


def one_row(sql: str, params: Sequence, columns: Converters) -> list | None:
    """The statement's first row, each value converted as the ORM converts it; None when the
    statement finds no row."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return None if row is None else _converted(row, columns)


def _converted(row: Sequence, columns: Converters) -> list:
    values = []
    for value, (column, functions) in zip(row, columns, strict=True):
        for convert in functions:
            value = convert(value, column, connection)
        values.append(value)
    return values


def all_rows(sql: str, params: Sequence, columns: Converters) -> list[list]:
    """Every row of the statement, each value converted as the ORM converts it."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    return [_converted(row, columns) for row in rows]
