"""Paper for the tables, printed from the browser (print CSS, A4; no PDF library).

- Table cards: the table, its players by seat, the first dealer, and the keeper link as a QR
  code with the table secret printed small. Whoever holds the card keeps the score, so these
  pages are for the event's organisers only and are never stored by any cache.
- Score sheets: one per table, with a row for every deal the game can have.
- The pairing list: every player by name → table and seat, for the notice board.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from .. import organise_presenters as words
from .. import selectors
from ..models import Event, Table
from .organise_access import organiser_required, private
from .organise_rounds import round_or_404

QR_SCALE = 4


@dataclass(frozen=True)
class Seat:
    number: int
    name: str
    deals_first: bool


@dataclass(frozen=True)
class Card:
    table: Table
    seats: list[Seat]
    dealer: str
    keep_url: str = ""
    keep_qr: str = ""


def _seats(table: Table) -> list[Seat]:
    return [
        Seat(seat + 1, player.name, seat == table.first_dealer)
        for seat, player in enumerate(table.seats)
    ]


def keeper_link(request, table: Table) -> tuple[str, str]:
    """The absolute keeper link of the table's game and its QR code as inline SVG."""
    game = table.game
    url = request.build_absolute_uri(reverse("scoring:keep", args=[game.id, game.secret]))
    svg = segno.make(url, error="m").svg_inline(
        scale=QR_SCALE,
        border=2,
        omitsize=True,
        title=_("Keeper link of table %(t)s") % {"t": table.number},
    )
    return url, svg


def _cards(request, tables: list[Table]) -> list[Card]:
    cards = []
    for table in tables:
        seats = _seats(table)
        url, svg = keeper_link(request, table) if table.game else ("", "")
        dealer = seats[table.first_dealer].name
        cards.append(Card(table, seats, dealer, url, svg))
    return cards


def _print(request, template: str, context: dict):
    response = private(render(request, template, context), no_store=True)
    response["Referrer-Policy"] = "no-referrer"
    return response


@organiser_required
@require_GET
def cards(request, event: Event, number: int):
    round_ = round_or_404(event, number)
    tables = selectors.round_tables(round_)
    context = {
        "event": event,
        "round": round_,
        "cards": _cards(request, tables),
        "published": any(table.game_id for table in tables),
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
        "cards": [
            Card(table, _seats(table), table.seats[table.first_dealer].name)
            for table in selectors.round_tables(round_)
        ],
        "rows": range(1, rows + 1),
        "complete": complete,
    }
    return _print(request, "tournaments/organise/print_sheets.html", context)


@dataclass(frozen=True)
class Placement:
    name: str
    table: int | None  # None: a bye
    seat: int | None


@organiser_required
@require_GET
def pairings(request, event: Event, number: int):
    round_ = round_or_404(event, number)
    placements = [
        Placement(player.name, table.number, seat + 1)
        for table in selectors.round_tables(round_)
        for seat, player in enumerate(table.seats)
    ]
    placements += [Placement(bye.player.name, None, None) for bye in selectors.round_byes(round_)]
    placements.sort(key=lambda placement: (placement.name.casefold(), placement.name))
    context = {"event": event, "round": round_, "placements": placements}
    return _print(request, "tournaments/organise/print_pairings.html", context)
