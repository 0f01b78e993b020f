"""Paper for the tables, printed from the browser (print CSS, A4; no PDF library).

- Table cards: the table, its players by seat, the first dealer, two QR codes said apart (the
  public table page for the players, the keeper link for the score-keeper) and the table's
  PIN with the address to type it at. The secret travels only inside the keeper's QR code,
  never as text a player can read off the card or a photo of it (the PIN, throttled, is what
  a phone without a camera types). Whoever holds the card keeps the score, so these pages
  are for the event's organisers only and are never stored by any cache.
- Score sheets: one per table, with a row for every deal the game can have.
- The pairing list: every player by name → table and seat, for the notice board.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from tournaments.common.web.access import organiser_required, private, round_or_404
from tournaments.models import Event
from tournaments.rounds.presenters import organise as words
from tournaments.rounds.presenters import paper
from tournaments.rounds.selectors import round_byes, round_tables


def _print(request, template: str, context: dict):
    response = private(render(request, template, context))
    response["Referrer-Policy"] = "no-referrer"
    return response


@organiser_required
@require_GET
def cards(request, event: Event, number: int):
    round_ = round_or_404(event, number)
    tables = round_tables(round_)
    context = {
        "event": event,
        "round": round_,
        "cards": paper.cards(tables, request.build_absolute_uri),
        "published": any(table.game_id for table in tables),
        "pin_url": request.build_absolute_uri(reverse("tournaments:table_pin", args=[event.slug])),
    }
    return _print(request, "tournaments/organise/print_cards.html", context)


@organiser_required
@require_GET
def sheets(request, event: Event, number: int):
    round_ = round_or_404(event, number)
    rows, complete = words.sheet_rows(event.ruleset, event.options)
    context = {
        "event": event,
        "round": round_,
        "cards": paper.cards(round_tables(round_)),
        "rows": range(1, rows + 1),
        "complete": complete,
    }
    return _print(request, "tournaments/organise/print_sheets.html", context)


@organiser_required
@require_GET
def pairings(request, event: Event, number: int):
    round_ = round_or_404(event, number)
    placements = paper.placements(round_tables(round_), round_byes(round_))
    context = {"event": event, "round": round_, "placements": placements}
    return _print(request, "tournaments/organise/print_pairings.html", context)
