"""Every refusal the engine can raise reaches a page in the page's language.

The engine's refusals are typed (engine.errors: a code and plain params, English from its one
catalogue MESSAGES); scoring.rule_words words each code through gettext. These tests check
that every code the engine has is worded there, in English and in Bulgarian, that the page's
wording names only params the engine gives, and that a real refusal is shown with the
players' names.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from django.utils import translation

import engine
from engine.errors import MESSAGES
from scoring import rule_words

ROOT = Path(__file__).resolve().parents[2]


def _fields(template: str) -> dict[str, str | None]:
    """Each param an English template names, with its conversion (!l: a list)."""
    parsed = string.Formatter().parse(template)
    return {field: conversion for _t, field, _s, conversion in parsed if field}


def test_every_engine_code_has_a_wording():
    assert len(MESSAGES) > 40
    assert set(MESSAGES) - set(rule_words.WORDINGS) == set()
    assert set(rule_words.WORDINGS) - set(MESSAGES) == set()  # a wording of no code is dead


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_renders_in_english_and_on_a_page(code):
    """The engine's English and the page's words, filled in with a value for every param."""
    params = {
        field: ["a", "b"] if conversion == "l" else 1
        for field, conversion in _fields(MESSAGES[code]).items()
    }
    error = engine.RuleError(code, **params)
    assert error.message and "{" not in error.message
    page_params = set(re.findall(r"%\((\w+)\)s", str(rule_words.WORDINGS[code]._args[0])))
    assert page_params <= set(_fields(MESSAGES[code])), "the page names a param the engine lacks"
    for language in ("en", "bg"):
        with translation.override(language):
            text = rule_words.rule_text(error, ["Ana", "Boris", "Vera"])
        assert text and "%(" not in text and text != error.message


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
    texts = {wording._args[0] for wording in rule_words.WORDINGS.values()}
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


def test_the_pages_quote_what_the_sender_wrote_as_the_engine_does():
    with pytest.raises(engine.RuleError) as caught:
        engine.parse_cards("AH ZZ")
    with translation.override("bg"):
        assert rule_words.rule_text(caught.value) == (
            '"ZZ" не е карта: напишете стойността, после боята, например 10H или AS.'
        )
