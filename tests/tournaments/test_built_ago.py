"""The server and the phone word "built … ago" alike: the server when it renders a page
(tournaments.results.presenters.built_ago), the phone every 30 s after (static/js/built/ago.js,
with Intl.RelativeTimeFormat and the patterns the server translated). The poll's ETag leaves
the wording out on the strength of it: a phone that keeps its copy says what a fresh one
would."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.results.presenters import built_ago, built_words

ROOT = Path(__file__).resolve().parents[2]
BUILT = datetime(2026, 11, 26, 19, 30, tzinfo=UTC)
SECONDS = [0, 20, 59, 60, 61, 150, 59 * 60 + 59, 3600, 3900, 2 * 3600, 5 * 3600 + 1, 86399]
SECONDS += [86400, 2 * 86400 + 5, 11 * 86400, 21 * 86400, 400 * 86400, 1200 * 86400]

SCRIPT = """
const ago = require(process.argv[1]);
const cases = JSON.parse(process.argv[2]);
const built = Date.parse(cases.built);
console.log(JSON.stringify(cases.cases.map(([seconds, language, patterns]) =>
  ago.words(cases.built, built + seconds * 1000, 0, language, patterns))));
"""


def phone_words(cases: list[tuple[int, str, dict]]) -> list[str]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the phone's wording is checked with node")
    run = subprocess.run(
        [
            node,
            "-e",
            SCRIPT,
            str(ROOT / "static" / "js" / "built" / "ago.js"),
            json.dumps({"built": BUILT.isoformat(), "cases": cases}),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(run.stdout)


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_phone_words_it_as_the_server_does(language):
    with translation.override(language):
        words = built_words()
        patterns = {"pattern": words["pattern"], "justNow": words["just_now"]}
        server = [built_ago(BUILT, BUILT + timedelta(seconds=s)) for s in SECONDS]
    phone = phone_words([(seconds, language, patterns) for seconds in SECONDS])
    assert phone == server
    assert len(set(server)) > 10


def test_the_server_words_it_to_the_minute_in_bulgarian():
    with translation.override("bg"):
        said = [built_ago(BUILT, BUILT + timedelta(seconds=s)) for s in (20, 150, 3900, 86400)]
    assert said == [
        "изчислено току-що",
        "изчислено преди 2 минути",
        "изчислено преди 1 час",
        "изчислено преди 1 ден",
    ]


def test_the_time_carries_what_the_phone_words_it_from():
    """The moment to the second the phone counts from (and the server's wording starts from
    it too), and the translated patterns."""
    moment = BUILT.replace(second=7, microsecond=654321)
    with translation.override("bg"):
        html = render_to_string(
            "tournaments/public/_built.html",
            {"snapshot": type("Snapshot", (), {"built_at": moment}), **_head(moment)},
        )
    assert html.startswith('<time datetime="2026-11-26T19:30:07+00:00" data-built ')
    assert 'data-built-pattern="изчислено %(ago)s"' in html
    assert 'data-built-just-now="изчислено току-що"' in html
    assert html.endswith(">изчислено преди 2 минути</time>\n")


def _head(moment: datetime) -> dict:
    return {
        "built_ago": built_ago(moment, moment + timedelta(minutes=2)),
        "built_words": built_words(),
    }
