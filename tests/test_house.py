"""The house keeps its history in git: the code, its tests, the benchmarks and the docs say
what is and why, never which ticket asked for it; test files are named for what they test;
no parameter is kept for old callers."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The product (its apps, settings, templates and browser code), then what describes it.
PRODUCT = ("engine", "scoring", "tournaments", "config", "templates", "static")
DESCRIBED = ("tests", "bench", "docs", "deploy", "bin", "README.md")
TEXT = {".py", ".html", ".txt", ".css", ".js", ".mjs", ".md", ".toml", ".conf", ""}
#: "issue 12", "Issue #12", "issue-17", "issues 12 and 13".
TICKET = re.compile(r"\bissues?[\s#-]*\d", re.IGNORECASE)
#: A parameter kept only so that old calls still run is dead weight: change the calls.
KEPT_FOR_OLD = re.compile(r"\b(?:for|by) (?:the )?old callers\b", re.IGNORECASE)


def _files(folders):
    for folder in folders:
        top = ROOT / folder
        for path in [top] if top.is_file() else sorted(top.rglob("*")):
            if not path.is_file() or path.suffix not in TEXT or path.name.startswith("."):
                continue
            if path == Path(__file__).resolve():  # its own examples of what it looks for
                continue
            if {"node_modules", "results", "screenshots", "vendor"} & set(path.parts):
                continue
            yield path


def _hits(pattern, folders) -> list[str]:
    found = []
    for path in _files(folders):
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    return found


@pytest.mark.parametrize("folders", [PRODUCT, DESCRIBED], ids=["product", "tests-bench-docs"])
def test_no_ticket_numbers(folders):
    assert _hits(TICKET, folders) == []


def test_no_parameter_is_kept_for_old_callers():
    assert _hits(KEPT_FOR_OLD, PRODUCT) == []


#: Words that name when or why a test was written, not what it tests.
HISTORY_WORDS = {"fix", "fixes", "fixed", "bugfix", "bugfixes", "issue", "issues", "misc", "todo"}


def test_test_files_are_named_for_what_they_test():
    named = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if HISTORY_WORDS & set(path.stem.lower().split("_"))
    ]
    assert named == []


def test_the_checks_find_what_they_look_for():
    """The patterns match the forms history takes, so an empty list above means something."""
    for line in ("(issue 12, item 5)", "Issue #14", "the issue-17 benchmarks", "issues 12 and 13"):
        assert TICKET.search(line), line
    for line in ("token_issue(user=user)", "issued 3 PINs", "no issue here"):
        assert not TICKET.search(line), line
    assert KEPT_FOR_OLD.search("``no_store`` stays for old callers")
    assert HISTORY_WORDS & set("test_small_fixes".split("_"))
    assert not HISTORY_WORDS & set("test_prefix_fixtures".split("_"))
