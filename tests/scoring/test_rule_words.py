"""Every refusal the engine can raise reaches a page in the page's language.

The engine speaks English and carries no codes; scoring.rule_words lists each of its
sentences. These tests read the engine's source for every `RuleError(...)` it raises and
check that each one has a wording, that the wording has a Bulgarian translation, and that a
real refusal is shown in Bulgarian with the players' names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

import engine
from scoring import rule_words

ROOT = Path(__file__).resolve().parents[2]
# The command line's own messages never reach a page.
ENGINE_FILES = sorted(p for p in (ROOT / "engine").glob("*.py") if p.name != "cli.py")


def _template(node: ast.expr) -> str | None:
    """The sentence an expression builds, with {} for each value put in."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
            else:
                parts.append("{}")
        return "".join(parts)
    return None


def engine_sentences() -> set[str]:
    """Every sentence a RuleError is raised with in engine/ (the returns of _why_not too, the
    one helper whose result is raised)."""
    found = set()
    for path in ENGINE_FILES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "RuleError"
                and node.args
            ):
                template = _template(node.args[0])
                if template is not None:
                    found.add(template)
            if isinstance(node, ast.FunctionDef) and node.name == "_why_not":
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and inner.value is not None:
                        found.add(_template(inner.value))
    return found


def _generic(source: str) -> str:
    return re.sub(r"\{\w+\}", "{}", source)


def test_the_engine_source_is_read():
    sentences = engine_sentences()
    assert len(sentences) > 30
    assert "tricks must add up to {}, not {}: {}" in sentences
    assert "seat {} has already called {} in this game" in sentences


def test_every_engine_refusal_has_a_wording():
    worded = {_generic(w.source) for w in rule_words.WORDINGS}
    # f"{call.name} comes after {after}: ..." puts the two values in; the rest as written.
    missing = sorted(engine_sentences() - worded)
    assert missing == [], f"engine refusals with no wording in scoring/rule_words.py: {missing}"


def _catalogue_entries() -> dict[str, str]:
    """msgid → msgstr of the Bulgarian catalogue and of this area's entries awaiting merge."""
    entries = {}
    for path in (ROOT / "locale/bg/LC_MESSAGES/django.po", ROOT / "var/po/scoring.po"):
        if not path.exists():
            continue
        text = path.read_text()
        for block in text.split("\n\n"):
            if "msgctxt" in block:
                continue
            msgid = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
            msgstr = re.search(r'^msgstr ((?:".*"\n?)+)', block, re.M)
            if msgid and msgstr:
                join = lambda s: "".join(re.findall(r'"(.*)"', s))  # noqa: E731
                entries[join(msgid.group(1)).replace('\\"', '"')] = join(msgstr.group(1))
    return entries


def test_every_wording_goes_through_the_bulgarian_catalogue():
    catalogue = _catalogue_entries()
    texts = {w.text._args[0] for w in rule_words.WORDINGS}
    untranslated = sorted(text for text in texts if not catalogue.get(text))
    assert untranslated == []


@pytest.mark.parametrize(
    ("record", "english"),
    [
        (
            {
                "ruleset": "sergeant-major-alternate",
                "deals": [{"calls": ["hearts"], "tricks": [8, 5, 3]}] * 4,
            },
            "Ana has already called hearts in this game.",
        ),
        (
            {"ruleset": "blato", "deals": [{"calls": ["hearts"], "tricks": [4, 7, 6]}]},
            "The tricks add up to 17; they must add up to 16.",
        ),
        (
            {
                "ruleset": "blato",
                "deals": [
                    {"calls": ["pass"]},
                    {"calls": ["pass"]},
                    {"calls": ["pass"]},
                    {"calls": ["pass"]},
                ],
            },
            "Boris has no pass left.",
        ),
    ],
)
def test_real_refusals_are_worded_with_names(record, english):
    with pytest.raises(engine.RuleError) as caught:
        engine.replay(record)
    names = ["Ana", "Boris", "Vera"]
    with translation.override("en"):
        assert rule_words.rule_text(caught.value, names) == english
    assert caught.value.message != english  # not the engine's own sentence


def test_an_unknown_sentence_is_never_shown_in_english():
    with translation.override("en"):
        assert rule_words.rule_text(engine.RuleError("something new")) == (
            "The rules do not allow this."
        )
