"""A backup's values as plain JSON that every database keeps, checked before anything reads them.

A backup is a file from elsewhere, so each rule below is asked of every value of the
document, wherever it stands (fields, JSON fields, keys), before the reader looks at what
the values mean. A document that breaks one is refused with the place it breaks it, and
nothing reaches the database:

- nesting: at most MAX_DEPTH deep (a real backup nests 11 deep: the totals before a
  change to a table's game). JSON text nested deeper than Python's stack is refused while it is
  parsed, at its line and column; values handed over are walked without recursion.
- numbers: whole numbers within 64 bits (the widest integer every database keeps, and far
  fewer digits than Python's limit on turning text into a number) and finite decimals
  (JSON has no NaN or Infinity, and PostgreSQL refuses them).
- text: no NUL and no lone surrogate (config.input.unstorable), in values and in keys.
"""

from __future__ import annotations

import json
import math
import re

from config.input import unstorable
from tournaments.backup.fields import bad
from tournaments.common.errors import TournamentError

#: How deep a backup may nest its lists and objects (the document itself is 1).
MAX_DEPTH = 32
#: The whole numbers every database keeps (a signed 64-bit integer).
SMALLEST, LARGEST = -(2**63), 2**63 - 1
#: Longer digit strings are not even turned into numbers: they are refused as written.
MAX_DIGITS = 20
#: A string or a bracket of JSON text, to find where text nests too deep.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class _Written(str):
    """A number as the file wrote it, when no database keeps it: too many digits to be
    worth converting, or NaN, Infinity, -Infinity."""


def parse(text: str) -> object:
    """The JSON text as values, numbers no database keeps left as they were written (for
    `check` to refuse where they stand); refused (TournamentError) when it is not JSON or
    nests deeper than Python's stack."""
    try:
        return json.loads(text, parse_int=_whole, parse_constant=_Written)
    except RecursionError:
        raise bad("too_deep", _too_deep_at(text), most=MAX_DEPTH) from None
    except json.JSONDecodeError as error:
        raise TournamentError("backup_not_json", why=str(error)) from None


def _whole(digits: str) -> int | _Written:
    return int(digits) if len(digits) <= MAX_DIGITS else _Written(digits)


def _too_deep_at(text: str) -> str:
    """The line and column where the text first nests deeper than MAX_DEPTH."""
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()[0]
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, token.start()) + 1
                column = token.start() - text.rfind("\n", 0, token.start())
                return f"line {line}, column {column}"
        elif mark in "]}":
            depth -= 1
    return ""


def check(data: object) -> None:
    """Every value of the document, visited once in the file's order without recursion:
    refused (TournamentError, naming its place) where one nests too deep, is a number no
    database keeps, holds text no database stores, or is not a JSON value at all."""
    # Each entry: a value, its depth, and its trail (the parent's trail and the key or
    # index), written out as a place only for a refusal.
    stack: list[tuple[object, int, tuple | None]] = [(data, 1, None)]
    while stack:
        value, depth, trail = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_DEPTH:
                raise bad("too_deep", _place(trail), most=MAX_DEPTH)
            for key in value:
                if not isinstance(key, str):
                    raise bad("not_plain", _place(trail), type=type(key).__name__)
                if unstorable(key):
                    raise bad("unstorable_key", _place(trail))
            stack.extend((value[key], depth + 1, (trail, key)) for key in reversed(value))
        elif isinstance(value, list):
            if depth > MAX_DEPTH:
                raise bad("too_deep", _place(trail), most=MAX_DEPTH)
            stack.extend(
                (value[index], depth + 1, (trail, index)) for index in range(len(value) - 1, -1, -1)
            )
        elif not (value is None or isinstance(value, bool) or type(value) is str):
            _check_scalar(value, trail)
        elif type(value) is str and unstorable(value):
            raise bad("unstorable", _place(trail))


def _place(trail: tuple | None) -> str:
    """Where a value stands, as the refusals name it: event.options.x[0]."""
    steps = []
    while trail is not None:
        trail, step = trail
        steps.append(f"[{step}]" if isinstance(step, int) else f".{_short(step)}")
    return "".join(reversed(steps)).lstrip(".")


def _check_scalar(value: object, trail: tuple | None) -> None:
    """A value that is neither a container, nor None, a bool or a plain string."""
    if isinstance(value, _Written):
        _refuse_number(value, _place(trail))
    elif isinstance(value, str):  # a subclass of str, handed over: judged as its text
        if unstorable(value):
            raise bad("unstorable", _place(trail))
    elif isinstance(value, int):
        if not SMALLEST <= value <= LARGEST:
            _refuse_number(value, _place(trail))
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise bad("number_not_finite", _place(trail), number=repr(value))
    else:
        raise bad("not_plain", _place(trail), type=type(value).__name__)


def _refuse_number(value: int | _Written, where: str) -> None:
    if isinstance(value, _Written) and not value.lstrip("-")[:1].isdigit():
        raise bad("number_not_finite", where, number=str(value))
    if isinstance(value, int) and value.bit_length() > 10_000:
        # Handed over, not parsed: too long to write out (Python refuses past 4,300 digits).
        digits = int(value.bit_length() * math.log10(2)) + 1
        text = "-…" if value < 0 else "…"
    else:
        text = str(value)
        digits = len(text.lstrip("-"))
    shown = text if len(text) <= 24 else f"{text[:11]}…"
    raise bad("number_range", where, number=shown, digits=digits, least=SMALLEST, most=LARGEST)


def _short(key: str) -> str:
    """A key as a place in a message: a long one cut short."""
    return key if len(key) <= 40 else f"{key[:40]}…"
