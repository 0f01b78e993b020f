"""The keeper page's words for the phone offline (scoring.presenters.offline.offline_words):
translated once per language and rules in a process, the players' names put in on each page,
in the order the page has always carried them."""

from __future__ import annotations

import json

from django.utils import translation

import engine
from scoring.presenters import offline

NAMES = ["Ana", "Boris", "Vera"]


def test_the_words_are_translated_once_per_language_and_rules():
    offline._phrases.cache_clear()
    rules = engine.Rules.build("blato")
    with translation.override("bg"):
        bulgarian = json.dumps(offline.offline_words(rules, NAMES), ensure_ascii=False)
    with translation.override("en"):
        english = offline.offline_words(rules, ["Dana", "Emil", "Fani"])
        assert offline.offline_words(engine.Rules.build("blato"), NAMES)["to_call"] == [
            "Ana calls",
            "Boris calls",
            "Vera calls",
        ]
    with translation.override("bg"):
        again = json.dumps(offline.offline_words(rules, NAMES), ensure_ascii=False)
    assert again == bulgarian and "Ана" not in again and "обявява" in bulgarian
    assert english["made"][2]["hearts"] == "Fani called hearts."
    assert offline._phrases.cache_info().misses == 2  # one for each language


def test_a_name_is_put_in_as_it_is_written():
    rules = engine.Rules.build("blato")
    with translation.override("en"):
        words = offline.offline_words(rules, ["100% Ana", "%(name)s", "Vera %s"])
    assert words["to_call"] == ["100% Ana calls", "%(name)s calls", "Vera %s calls"]
    assert words["made"][1]["pass"] == "%(name)s passed."
    assert words["row"]["dealer"][2] == "dealer: Vera %s"
    assert words["row"]["call"][0]["spades"] == "spades · 100% Ana"


def test_the_words_keep_their_order_on_the_page():
    with translation.override("en"):
        words = offline.offline_words(engine.Rules.build("blato"), NAMES)
    assert list(words) == [
        "names", "shorts", "heading", "hand_title", "calls", "made", "to_call", "passes",
        "exchange", "heading_exchange", "target", "total", "deals", "calls_first",
        "tricks_taken", "pad_target", "rest", "sum", "sum_live", "sum_fill", "keep",
        "change_call", "row", "result", "over",
    ]  # fmt: skip
    assert list(words["exchange"]) == [
        "first", "skipped", "nobody", "before_play", "before_call", "only_if", "after_call",
        "transfer",
    ]  # fmt: skip
    assert list(words["row"]) == ["call", "redeal_one", "redeal_all", "dealer", "waiting"]
