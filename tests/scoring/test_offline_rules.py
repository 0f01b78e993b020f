"""The keeper's phone offline says what the engine says: the answers the node tests check the
phone's scripts against (tests/js/engine_answers.json) are the engine's and the table page's
answers now, and the node tests pass (node --test tests/js/: the phone's rules, its words, the
queue of hands kept on it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.js import engine_answers

ROOT = Path(__file__).resolve().parents[2]
NODE_TESTS = sorted((ROOT / "tests" / "js").glob("*.test.js"))


def test_the_engine_answers_the_phone_is_checked_against_are_current():
    made = engine_answers.dumps(engine_answers.build())
    kept = engine_answers.FIXTURE.read_text(encoding="utf-8")
    assert kept == made, (
        "tests/js/engine_answers.json is not what the engine and the table page answer now: "
        "write it again (DJANGO_DEBUG=1 .venv/bin/python -m tests.js.engine_answers), "
        "then make static/js/offline/ pass node --test tests/js/"
    )


def test_the_answers_hold_the_words_of_the_page_and_every_ruleset():
    answers = json.loads(engine_answers.FIXTURE.read_text(encoding="utf-8"))
    rulesets = {variant["ruleset"] for variant in answers["variants"]}
    assert rulesets == {
        "blato",
        "three-five-eight",
        "sergeant-major",
        "sergeant-major-alternate",
        "nine-five-two",
    }
    blato = answers["variants"][0]["words"]
    assert blato["calls"]["hearts"] == {
        "label": "hearts",
        "symbol": "♥",
        "red": True,
        "is_pass": False,
    }
    assert blato["to_call"][1] == "Boris calls"


def test_the_phone_scripts_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.fail(
            "node is not on PATH: the keeper page's offline scripts are tested with "
            "node --test tests/js/ (install Node.js 18 or newer)"
        )
    assert NODE_TESTS, "no node tests in tests/js/"
    run = subprocess.run(
        [node, "--test", *map(str, NODE_TESTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
