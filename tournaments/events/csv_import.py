"""Reading a pasted list of players: names on lines or between commas and semicolons ("Гошо,
Тошо" is two players, as a club player means it), or a CSV export with a `name` column.

Organisers paste from wherever the names are (a chat message, a spreadsheet), so blank lines
and repeated names are expected and simply skipped; anything that cannot be a name is an
error naming its line, and then nothing is entered, so the organiser fixes the text and pastes
it again. A repeat is the same name whatever its case, spacing or accents ("ivan petrov"
after "Ivan Petrov"), the rule of scoring.names that the services refuse in one list.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

from scoring.names import MAX_NAME, SEPARATORS, clean, name_key
from tournaments.common.errors import TournamentError

# The name column's heading, in the languages our organisers' spreadsheets are in.
NAME_COLUMNS = ("name", "име", "имена")
DELIMITERS = ",;\t"
#: Between names in a plain list (scoring.names: a name never holds one).
_BETWEEN_NAMES = re.compile(f"[{re.escape(SEPARATORS)}]")


@dataclass
class NameList:
    names: list[str] = field(default_factory=list)
    #: (line, name) of each name already given on an earlier line (the same by name_key).
    duplicates: list[tuple[int, str]] = field(default_factory=list)
    #: What is wrong, line by line: each error's `message` words it in the reader's language.
    errors: list[TournamentError] = field(default_factory=list)


def _header(line: str) -> tuple[str, int] | None:
    """The delimiter and the index of the name column if `line` is a CSV header, else None."""
    for delimiter in DELIMITERS:
        cells = next(csv.reader([line], delimiter=delimiter), [])
        labels = [clean(cell).lower() for cell in cells]
        column = next((label for label in labels if label in NAME_COLUMNS), None)
        if column is not None and (len(cells) > 1 or labels == [column]):
            return delimiter, labels.index(column)
    return None


def _add(result: NameList, seen: dict[str, str], line: int, raw: str) -> None:
    name = clean(raw)
    if len(name) > MAX_NAME:
        result.errors.append(TournamentError("line_name_too_long", line=line, max=MAX_NAME))
    elif _BETWEEN_NAMES.search(name):  # a CSV cell: its commas were quoted, so meant
        result.errors.append(TournamentError("line_name_is_a_list", line=line, name=name))
    elif name_key(name) in seen:
        result.duplicates.append((line, name))
    else:
        seen[name_key(name)] = name
        result.names.append(name)


def names_from_text(text: str) -> NameList:
    """The names in pasted text, in their order, each once."""
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    first = next((n for n, line in enumerate(lines) if line.strip()), None)
    result, seen = NameList(), {}
    if first is None:
        return result
    header = _header(lines[first])
    if header is None:
        for number, line in enumerate(lines, start=1):
            for name in _BETWEEN_NAMES.split(line):
                if name.strip():
                    _add(result, seen, number, name)
        return result
    delimiter, column = header
    body = io.StringIO("\n".join(lines[first + 1 :]))
    reader = csv.reader(body, delimiter=delimiter)
    try:
        for row in reader:
            number = first + 1 + reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if column >= len(row) or not row[column].strip():
                result.errors.append(TournamentError("line_name_empty", line=number))
                continue
            _add(result, seen, number, row[column])
    except csv.Error as error:
        number = first + 1 + reader.line_num
        result.errors.append(TournamentError("line_not_csv", line=number, error=str(error)))
    return result
