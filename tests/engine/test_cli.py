"""`python -m engine` as outside tools run it: a real process, exit codes, stdout JSON."""

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cli import main

from .records import load, spec_example_paths

ROOT = Path(__file__).parents[2]


def engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=30,
    )


def test_rulesets_lists_every_ruleset_with_its_defaults():
    result = engine("rulesets")
    assert result.returncode == 0
    rulesets = {item["id"]: item for item in json.loads(result.stdout)}
    assert set(rulesets) == {
        "blato",
        "three-five-eight",
        "sergeant-major",
        "sergeant-major-alternate",
        "nine-five-two",
    }
    blato = rulesets["blato"]
    assert blato["targets"] == [3, 8, 5]
    assert blato["calls"] == ["spades", "hearts", "diamonds", "clubs", "no-trump", "pass"]
    assert blato["options"] == {
        "targets": [3, 8, 5],
        "hands": 9,
        "goal": None,
        "instant_win_tricks": None,
        "pass_turns": False,
        "exchange_order": "target",
    }
    assert rulesets["sergeant-major-alternate"]["calls"][-1] == "miz"
    assert rulesets["nine-five-two"]["instant_win_tricks"] == 12


def test_replay_reads_a_file_or_standard_input(tmp_path):
    example = load(spec_example_paths()[0])
    path = tmp_path / "record.json"
    path.write_text(json.dumps(example["record"]))
    from_file = engine("replay", str(path))
    from_stdin = engine("replay", stdin=json.dumps(example["record"]))
    assert from_file.returncode == from_stdin.returncode == 0
    assert json.loads(from_file.stdout) == json.loads(from_stdin.stdout) == example["state"]


@pytest.mark.parametrize(
    ("args", "output"),
    [
        (["return-card", "--hand", "AH 3H 9S", "--given", "10H"], "AH"),
        (["return-card", "--hand", "9H 3H", "--given", "TH"], "10H"),
        # several given cards: each answered on the hand the one before left
        (["return-card", "--hand", "AH 3H 9S", "--given", "10H", "KH"], "AH KH"),
        (["return-card", "--hand", "AH 3H", "--given", "10H 9H"], "AH 10H"),
        (["return-card", "--hand", "AH 3H", "--given", "10H", "--given", "9H"], "AH 10H"),
        (
            [
                "legal",
                "--ruleset",
                "blato",
                "--contract",
                "hearts",
                "--hand",
                "2H 5C 9H",
                "--trick",
                "KS 5H",
            ],
            "9H",
        ),
        (
            [
                "legal",
                "--ruleset",
                "sergeant-major",
                "--contract",
                "hearts",
                "--hand",
                "2H 5C 9H",
                "--trick",
                "KS",
            ],
            "2H 5C 9H",
        ),
        (["legal", "--ruleset", "blato", "--contract", "spades", "--hand", "2H", "TC"], "2H 10C"),
        (["trick-winner", "--contract", "hearts", "--trick", "KS 2H AS"], "1"),
        (["trick-winner", "--contract", "no-trump", "--trick", "5H", "KC", "10H"], "2"),
    ],
)
def test_card_commands(args, output):
    result = engine(*args)
    assert (result.returncode, result.stdout.strip()) == (0, output)


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        ([], ""),
        (["dance"], ""),
        (["replay"], ""),
        (["replay"], "{not json"),
        (["replay"], "[1, 2]"),
        (["replay"], '{"ruleset": "blato", "deals": "all of them"}'),
        (["replay"], "\udcff"),
        (["replay", "/no/such/file.json"], ""),
        (["return-card", "--hand", "AH", "--given", "11H"], ""),
        (["return-card", "--hand", "AH AH", "--given", "2H"], ""),
        (["return-card", "--hand", "AH", "--given", "2H 2H"], ""),
        (["return-card", "--hand", "AH", "--given", ""], ""),
        (["legal", "--ruleset", "poker", "--contract", "hearts", "--hand", "2H"], ""),
        (["legal", "--ruleset", "blato", "--contract", "miz", "--hand", "2H"], ""),
        (["legal", "--ruleset", "blato", "--contract", "pass", "--hand", "2H"], ""),
        (
            [
                "legal",
                "--ruleset",
                "blato",
                "--contract",
                "hearts",
                "--hand",
                "2H",
                "--trick",
                "3H 4H 5H",
            ],
            "",
        ),
        (["trick-winner", "--contract", "hearts", "--trick", "AS KS QS JS"], ""),
        (["trick-winner", "--contract", "hearts"], ""),
    ],
)
def test_bad_input_exits_2_with_a_json_error_and_no_traceback(args, stdin):
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin.encode("utf-8", "surrogateescape"),
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert error["message"] and "deal" in error
    assert b"Traceback" not in result.stderr


def test_the_error_names_the_offending_deal():
    record = {"ruleset": "blato", "deals": [{"calls": ["pass"]}, {"calls": ["pass"]}]}
    result = engine("replay", stdin=json.dumps(record))
    assert result.returncode == 2
    error = json.loads(result.stdout)["error"]
    assert error["deal"] == 2
    assert "no pass left" in error["message"]


CARDS = st.sampled_from(["AH", "10H", "TH", "2S", "KD", "QC", "JS", "7C", "1H", "ZZ", "", "AH AH"])
ARGUMENTS = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "rulesets",
                "replay",
                "return-card",
                "legal",
                "trick-winner",
                "--hand",
                "--given",
                "--trick",
                "--contract",
                "--ruleset",
                "hearts",
                "no-trump",
                "blato",
                "-",
                "--help",
            ]
        ),
        CARDS,
        st.text(max_size=12),
    ),
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(argv=ARGUMENTS, stdin=st.one_of(st.text(max_size=200), st.just('{"ruleset": "blato"}')))
def test_any_command_line_exits_0_or_2_with_json_and_never_a_traceback(argv, stdin):
    """The command line in process (the same main() `python -m engine` runs): whatever the
    arguments and standard input, the answer is a result or a JSON error, never a traceback."""
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()))),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(argv)
        except SystemExit as exit_:  # argparse: --help (0) or a usage error (2)
            code = exit_.code
    assert code in (0, 2), (argv, code)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if code == 2:
        assert json.loads(out.getvalue())["error"]["message"]


# --- lone surrogates ------------------------------------------------------------------------------

SURROGATE_RECORDS = [
    '{"ruleset": "\\ud800"}',
    '{"ruleset": "blato", "deals": [{"calls": ["\\udfff"], "tricks": [4, 7, 5]}]}',
    '{"ruleset": "blato", "options": {"\\ud800": 1}, "deals": []}',
    '{"ruleset": "blato", "deals": [{"calls": ["hearts"], "tricks": [4, 7, 5], "\\ud83d": 1}]}',
]


@pytest.mark.parametrize("record", SURROGATE_RECORDS)
def test_a_lone_surrogate_in_a_record_exits_2_with_a_json_error(record):
    """The probe's input: the error message quoted the surrogate, which cannot be written as
    UTF-8, so printing the error raised and Python printed a traceback (exit 1)."""
    result = subprocess.run(
        [sys.executable, "-m", "engine", "replay"],
        input=record.encode("ascii"),
        capture_output=True,
        cwd=ROOT,
        timeout=30,
    )
    assert result.returncode == 2, result.stderr
    error = json.loads(result.stdout.decode("utf-8"))["error"]
    assert "surrogate" in error["message"] and error["deal"] is None
    assert b"Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        [b"legal", b"--ruleset", b"\xed\xa0\x80", b"--contract", b"hearts", b"--hand", b"2H"],
        [b"trick-winner", b"--contract", b"\xff", b"--trick", b"2H 3H 4H"],
        [b"return-card", b"--hand", b"AH", b"--given", b"\xed\xbf\xbf"],
    ],
)
def test_arguments_that_are_not_utf8_exit_2_with_valid_json(args):
    result = subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, cwd=ROOT, timeout=30
    )
    assert result.returncode == 2, result.stderr
    assert json.loads(result.stdout.decode("utf-8"))["error"]["message"]
    assert b"Traceback" not in result.stderr


SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
ANY_TEXT = st.text(st.characters(codec=None) | SURROGATES, max_size=6)
JSON_WITH_SURROGATES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    value=JSON_WITH_SURROGATES,
    ruleset=st.sampled_from(["blato", "nine-five-two"]) | ANY_TEXT,
    argv_text=ANY_TEXT,
)
def test_any_text_anywhere_gives_utf8_json_and_exit_0_or_2(value, ruleset, argv_text):
    """Records whose strings, keys, calls and options hold anything, lone surrogates included
    (written as JSON escapes), and such arguments: the answer can always be written as UTF-8."""
    record = {"ruleset": ruleset, "options": value if isinstance(value, dict) else {}}
    record["deals"] = [{"calls": [value if isinstance(value, str) else "hearts"], "x": value}]
    stdin = json.dumps(record)  # ASCII: surrogates as \\udXXX escapes
    for argv in (
        ["replay"],
        ["legal", "--ruleset", argv_text, "--contract", "hearts", "--hand", "2H"],
    ):
        out, err = io.StringIO(), io.StringIO()
        with (
            mock.patch.object(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()))),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            code = main(argv)
        assert code in (0, 2)
        out.getvalue().encode("utf-8")  # raises on a lone surrogate: what a real stdout does
        assert "Traceback" not in out.getvalue() + err.getvalue()
        if code == 2:
            assert json.loads(out.getvalue())["error"]["message"]
