"""Hostile backup files: refused whole, with a message naming the place, before anything is
written, and never a traceback.

A backup is a file from somewhere else: it may be nested deeper than any parser's stack,
hold numbers no database keeps, text no database stores (a NUL, a lone surrogate) or ids
repeated to make the reader slow. The reader (tournaments.backup.document) checks every
value of the document first; the database never sees such a file. These tests run on
SQLite, where a NUL would be stored without a word, and on PostgreSQL (DATABASE_URL), where
it was a DataError.
"""

import copy
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import backup
from tournaments.backup import reading
from tournaments.common.errors import TournamentError
from tournaments.models import Club, Event, EventLog, Player

pytestmark = pytest.mark.django_db

User = get_user_model()
FIXTURE = Path(__file__).parent / "fixtures" / "event-backup-v1.json"
HOLE = '"@@ hostile @@"'


def sample() -> dict:
    """A real backup (the format's fixture): imported as it is, it is accepted."""
    return copy.deepcopy(_SAMPLE)


_SAMPLE = json.loads(FIXTURE.read_text(encoding="utf-8"))


def with_text(data: dict, where: str, raw: str) -> str:
    """The document's JSON text with `raw` (JSON text, maybe hostile) as the value at the
    dotted path `where`."""
    data = copy.deepcopy(data)
    *parents, last = where.split(".")
    target = data
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = "@@ hostile @@"
    text = json.dumps(data, indent=1)
    assert text.count(HOLE) == 1
    return text.replace(HOLE, raw)


def nested(depth: int) -> list:
    """A list nested `depth` deep, built without recursion."""
    value: list = []
    for _ in range(depth - 1):
        value = [value]
    return value


def nothing_written() -> bool:
    return not (Club.objects.exists() or Player.objects.exists() or Event.objects.exists())


def refused_by_command(tmp_path: Path, text: str, match: str) -> str:
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match=match) as refusal:
        call_command("import_event", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert str(refusal.value).startswith("nothing imported: ")
    assert nothing_written()
    return str(refusal.value)


def test_the_sample_imports_through_the_command(tmp_path):
    """The control: the tests below change only the one hostile value."""
    path = tmp_path / "backup.json"
    path.write_text(with_text(sample(), "log.0.reason", '"fine"'), encoding="utf-8")
    call_command("import_event", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert EventLog.objects.filter(reason="fine").exists()


# --- nesting --------------------------------------------------------------------------------


def test_options_nested_100000_deep_are_refused_naming_line_and_column(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    text = with_text(sample(), "event.options", '{"x": ' + deep + "}")
    line = text[: text.index("[" * 100)].count("\n") + 1
    message = refused_by_command(tmp_path, text, "nested more than 32 deep")
    assert f"line {line}, column" in message


def test_nesting_a_little_too_deep_is_refused_naming_the_path(tmp_path):
    text = with_text(sample(), "log.0.data", json.dumps({"x": nested(40)}))
    refused_by_command(tmp_path, text, r"log\[0\]\.data\.x\[0\]\[0\].* nested more than 32 deep")


def test_a_document_handed_over_nested_100000_deep_is_refused_before_any_write():
    data = sample()
    data["log"][0]["data"] = {"x": nested(100_000)}
    with pytest.raises(TournamentError, match=r"log\[0\]\.data\.x.* nested more than 32 deep"):
        backup.event_import(data=data)
    assert nothing_written()


# --- numbers --------------------------------------------------------------------------------


def test_a_100001_digit_number_is_refused_naming_its_place(tmp_path):
    text = with_text(sample(), "log.0.data", '{"n": 1' + "0" * 100_000 + "}")
    refused_by_command(tmp_path, text, r"log\[0\]\.data\.n holds 10000000000…")
    text = with_text(sample(), "event.seed", "-" + "9" * 100_001)
    message = refused_by_command(tmp_path, text, r"event\.seed holds -9999999999…")
    assert "100001 digits" in message


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("9223372036854775808", "9223372036854775808"),  # 2**63: past every database's integer
        ("1e400", "inf"),
        ("-Infinity", "-Infinity"),
        ("NaN", "NaN"),
    ],
)
def test_numbers_no_database_keeps_are_refused_anywhere(tmp_path, raw, shown):
    text = with_text(sample(), "standings.0.rows.0.metrics.placing_points", raw)
    refused_by_command(
        tmp_path, text, rf"standings\[0\]\.rows\[0\]\.metrics\.placing_points holds {shown}"
    )


def test_the_largest_64_bit_integer_is_still_a_number():
    data = sample()
    data["log"][0]["data"] = {"big": 2**63 - 1, "small": -(2**63), "third": 1 / 3}
    backup.event_import(data=data)
    assert EventLog.objects.filter(data__big=2**63 - 1).exists()


# --- text no database stores ----------------------------------------------------------------


def test_a_nul_in_a_name_is_refused_before_the_database_sees_it(tmp_path):
    text = FIXTURE.read_text(encoding="utf-8").replace("Player 01", "Play\\u0000er 01")
    refused_by_command(tmp_path, text, r"entries\[0\]\.player\.name holds a NUL")


UNSTORABLE = {
    "a NUL in the event's name": ("event.name", "Friday\x00", r"event\.name"),
    "a lone surrogate in a secret": (
        "rounds.0.tables.0.game.secret",
        "\ud800" * 20,
        r"rounds\[0\]\.tables\[0\]\.game\.secret",
    ),
    "a NUL in a log reason": ("log.3.reason", "\x00", r"log\[3\]\.reason"),
    "a NUL in a key of the log's data": ("log.0.data", {"\x00": 1}, r"log\[0\]\.data has a key"),
    "a lone surrogate deep in JSON": (
        "standings.0.rows.0.metrics",
        {"points": [1, {"why": "\udfff"}]},
        r"standings\[0\]\.rows\[0\]\.metrics\.points\[1\]\.why",
    ),
}


@pytest.mark.parametrize("case", UNSTORABLE, ids=list(UNSTORABLE))
def test_text_no_database_stores_is_refused_wherever_it_stands(case):
    where, value, match = UNSTORABLE[case]
    data = sample()
    *parents, last = where.split(".")
    target = data
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(last) if last.isdigit() else last] = value
    with pytest.raises(TournamentError, match=match + ".*(NUL|lone surrogate)"):
        backup.event_import(data=data)
    assert nothing_written()


def test_the_refusals_are_in_the_operators_language(tmp_path):
    with translation.override("bg"):
        message = refused_by_command(
            tmp_path, with_text(sample(), "event.seed", "1" * 30), r"event\.seed"
        )
    assert "backup" not in message and "число" in message


# --- values a field cannot hold, let through by the models' own checks -----------------------

ONE_VALUE = {
    "an object where a number goes": ("rounds.1.pairing_seconds", {}, "pairing_seconds"),
    "empty text where a number goes": ("rounds.1.pairing_seconds", "", "pairing_seconds"),
    "a list in a text field": ("log.0.reason", ["a", "b"], "reason"),
    "null in a text field": ("rounds.0.build_error", None, "build_error"),
}


@pytest.mark.parametrize("case", ONE_VALUE, ids=list(ONE_VALUE))
def test_a_field_holds_one_value_of_its_kind(case):
    """A blank field skips Django's checks when its value is "empty" ({}, "", [], None):
    the database then refused it with a traceback, or kept `['a', 'b']` as text."""
    where, value, field = ONE_VALUE[case]
    data = sample()
    *parents, last = where.split(".")
    target = data
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    target[last] = value
    row = where.rsplit(".", 1)[0].replace(".0", "[0]").replace(".1", "[1]")
    with pytest.raises(TournamentError, match=rf"{re.escape(row)} has a bad value \({field}: "):
        backup.event_import(data=data)
    assert nothing_written()


# --- any value anywhere -----------------------------------------------------------------------


def _places(value, here=()):
    """Every place of a document (the first three items of each list), as key paths."""
    yield here
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            yield from _places(item, (*here, index))


PLACES = [place for place in _places(sample()) if place]
#: Values near the ones a backup holds, so that a change gets past the first checks.
NEAR = st.sampled_from(
    [
        "",
        "Player 01",
        "2025-01-01T00:00:00+00:00",
        "9999-12-31T23:59:59+14:00",
        "played",
        "confirmed",
        [],
        {},
        ["Player 01", "Player 02", "Player 03"],
        [{"code": "x", "players": ["Player 01"]}],
        0,
        -1,
        2**31,
        2**63 - 1,
    ]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def fits(target, key) -> bool:
    """Whether `key` names a place inside `target` as the sample had it."""
    if isinstance(target, dict):
        return isinstance(key, str)
    return isinstance(target, list) and isinstance(key, int) and key < len(target)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.lists(st.tuples(st.sampled_from(PLACES), NEAR | JSON), min_size=1, max_size=2))
def test_any_value_anywhere_is_imported_or_refused_never_a_traceback(changes):
    data = sample()
    for place, value in changes:
        target = data
        for key in place:  # an earlier change may have put a value of another shape here
            if not fits(target, key):
                break
            if key == place[-1]:
                target[key] = value
            elif isinstance(target, dict) and key not in target:
                break
            else:
                target = target[key]
    try:
        with transaction.atomic():
            backup.event_import(data=data)
            transaction.set_rollback(True)
    except TournamentError as error:
        assert error.message
    assert nothing_written()


# --- repeated ids -----------------------------------------------------------------------------


class Counted(int):
    """An id that counts how often it is compared or hashed."""

    calls = 0

    def __eq__(self, other):
        Counted.calls += 1
        return int.__eq__(self, other)

    def __hash__(self):
        Counted.calls += 1
        return int.__hash__(self)


def comparisons(n: int) -> int:
    """The comparisons and hashes the reader spends on n rows that repeat each id once."""
    rows = [SimpleNamespace(pk=Counted(10_000 + i // 2)) for i in range(n)]
    Counted.calls = 0
    with pytest.raises(TournamentError, match=r"repeat the id\(s\) \[10000, 10001, 10002"):
        reading._no_id_twice(EventLog, rows)
    return Counted.calls


def test_repeated_ids_are_found_in_linear_time():
    """Counted, not timed: a few comparisons a row, whatever the number of rows (comparing
    each id with every other one took n² of them: 288,000 rows, over five minutes)."""
    small, large = comparisons(1_000), comparisons(4_000)
    assert small <= 4 * 1_000
    assert large <= 4 * 4_000


# --- who organises --------------------------------------------------------------------------


def test_the_file_decides_who_organises_and_the_command_names_them(tmp_path):
    User.objects.create_user("olga")
    User.objects.create_user("boris")
    path = tmp_path / "backup.json"
    path.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    err = io.StringIO()
    call_command("import_event", str(path), stdout=io.StringIO(), stderr=err)
    event = Event.objects.get()
    assert sorted(event.organisers.values_list("username", flat=True)) == ["boris", "olga"]
    warning = err.getvalue()
    assert "warning: the backup makes boris, olga organisers" in warning
    assert "--organiser" in warning


def test_organisers_named_on_the_command_line_replace_the_files(tmp_path):
    User.objects.create_user("olga")
    User.objects.create_user("maria")
    User.objects.create_user("ivan")
    path = tmp_path / "backup.json"
    path.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(CommandError, match="no user here is called nobody"):
        call_command("import_event", str(path), "--organiser", "maria", "--organiser", "nobody")
    assert nothing_written()

    err = io.StringIO()
    call_command(
        "import_event",
        str(path),
        "--organiser",
        "maria",
        "--organiser",
        "ivan",
        stdout=io.StringIO(),
        stderr=err,
    )
    event = Event.objects.get()
    assert sorted(event.organisers.values_list("username", flat=True)) == ["ivan", "maria"]
    assert "organisers" not in err.getvalue()  # the file's (olga, boris) are not asked about


# --- a real process -----------------------------------------------------------------------------


def test_the_command_exits_non_zero_without_a_traceback(tmp_path):
    """As an operator runs it: a message and status 1, no traceback, for each hostile file."""
    files = {
        "deep": with_text(
            sample(), "event.options", '{"x": ' + "[" * 100_000 + "]" * 100_000 + "}"
        ),
        "digits": with_text(sample(), "log.0.data", '{"n": 1' + "0" * 100_000 + "}"),
        "nul": FIXTURE.read_text(encoding="utf-8").replace("Player 01", "Play\\u0000er 01"),
    }
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    # The refusals come before the database is asked anything: an empty one will do.
    env.update(DJANGO_DEBUG="1", DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    for name, text in files.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "manage.py", "import_event", str(path)],
            cwd=django_settings.BASE_DIR,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1, (name, result.stderr[-2000:])
        assert "Traceback" not in result.stderr, (name, result.stderr[-2000:])
        assert "CommandError: nothing imported: the backup is not valid" in result.stderr, name


def test_a_file_naming_70000_organisers_gets_a_warning_of_one_short_line(tmp_path):
    """The warning named every missing user: 70,000 names on one line. It names twenty and
    says how many more (the users are asked for in chunks, as every lookup of the import)."""
    User.objects.create_user("olga")
    data = sample()
    data["event"]["organisers"] = ["olga", *(f"stranger-{n}" for n in range(70_000))]
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    err = io.StringIO()
    call_command("import_event", str(path), stdout=io.StringIO(), stderr=err)
    assert list(Event.objects.get().organisers.values_list("username", flat=True)) == ["olga"]
    missing = next(line for line in err.getvalue().splitlines() if "no user here" in line)
    assert "stranger-0, stranger-1, stranger-10, " in missing and "… (+69980)" in missing
    assert len(missing) < 1000


@pytest.mark.parametrize("bad_id", [0, -5])
def test_an_id_no_sequence_can_follow_gets_a_fresh_one(bad_id):
    """A club numbered 0 or below in the file: PostgreSQL's sequence cannot be set to it, so
    the row takes a fresh id instead of the import failing with a database error."""
    data = sample()
    data["club"]["id"] = bad_id
    imported = backup.event_import(data=data)
    assert imported.event.club.pk >= 1
