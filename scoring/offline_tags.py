"""{% offline_data game as offline %}: what the keeper page's offline scripts need to know
(templates/scoring/_offline.html, static/js/offline/), and the name of the service worker's
cache they share (scoring/offline.py serves the worker); {% offline_state view %}: the
engine's state the page shows, inside the part each action replaces (templates/scoring/table.html).

A template library registered by name in settings (TEMPLATES libraries: "offline"), not in
scoring/templatetags: it takes the words from scoring.presenters, which themselves use
those template tags."""

from __future__ import annotations

from django import template
from django.urls import get_script_prefix
from django.utils.html import json_script

from scoring import selectors
from scoring.models import Game
from scoring.presenters.offline import offline_rules, offline_state, offline_words

register = template.Library()

#: The name of the worker's cache: a new name drops the old copies when the worker changes.
CACHE_NAME = "table-v1"


def offline_context(game: Game) -> dict:
    """What the keeper page's offline scripts need: the API address, the table's token (the
    page is the keeper's own), the game's rules as the engine holds them and the table
    page's words for a deal (scoring.presenters.offline): offline, the phone shows the next
    hand as the table page does, from the engine's state the page carries (offline_state)."""
    rules = selectors.rules_of(game)
    names = list(game.players)
    return {
        "script": {
            "api": f"{get_script_prefix()}api/games/{game.id}/deals",
            "cache": CACHE_NAME,
            "token": game.secret,
            "names": names,
            "rules": offline_rules(rules),
            "words": offline_words(rules, names),
        },
    }


@register.simple_tag
def offline_data(game: Game) -> dict:
    return offline_context(game)


@register.simple_tag
def offline_state_script(view) -> str:
    """The engine's state the page shows (a TableView), for the phone to step on from
    offline; with the calls of the deal in hand (the page at its tricks)."""
    calls = view.deal.calls_value.split(",") if view.deal and view.deal.calls_value else []
    return json_script({"state": offline_state(view.state), "calls": calls}, "offline-state")
