"""{% offline_data game as offline %}: what the keeper page's offline script needs to know
(templates/scoring/_offline.html, static/js/offline.js), and the name of the service worker's
cache they share (scoring/offline.py serves the worker).

A template library registered by name in settings (TEMPLATES libraries: "offline"), not in
scoring/templatetags: it takes the calls' words from scoring.words, which itself uses those
template tags."""

from __future__ import annotations

from django import template
from django.urls import get_script_prefix

from scoring import selectors
from scoring.models import Game

register = template.Library()

#: The name of the worker's cache: a new name drops the old copies when the worker changes.
CACHE_NAME = "table-v1"


def offline_context(game: Game) -> dict:
    """What the keeper page's offline script needs: the API address, the table's token (the
    page is the keeper's own) and the seats' names; for the page's own form the tricks of a
    hand. (Its call buttons are the ones the table's call form offered, remembered by the
    script: no call's name is written in the page but on a call button.)"""
    rules = selectors.rules_of(game)
    return {
        # for the script (json_script): where to send, with what, and the seats' names
        "script": {
            "api": f"{get_script_prefix()}api/games/{game.id}/deals",
            "cache": CACHE_NAME,
            "token": game.secret,
            "names": list(game.players),
        },
        "per_hand": rules.tricks_per_hand,
        "names": list(game.players),
    }


@register.simple_tag
def offline_data(game: Game) -> dict:
    return offline_context(game)
