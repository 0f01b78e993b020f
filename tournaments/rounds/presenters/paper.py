"""The printed paper of a round in words: table cards (the public table page and the keeper
link as QR codes, and the table's PIN), score sheets and the pairing list
(tournaments.rounds.views.organise_print)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import segno
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Entry, Table

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
    public_url: str = ""
    public_qr: str = ""


def seats(table: Table) -> list[Seat]:
    return [
        Seat(seat + 1, player.name, seat == table.first_dealer)
        for seat, player in enumerate(table.seats)
    ]


def qr_svg(url: str, title: str, scale: int = QR_SCALE) -> str:
    """A QR code of `url` as inline SVG: the table cards', the slips', the door poster's."""
    return segno.make(url, error="m").svg_inline(scale=scale, border=2, omitsize=True, title=title)


def _qr(url: str, title: str) -> str:
    return qr_svg(url, title)


def keeper_link(table: Table, absolute: Callable[[str], str]) -> tuple[str, str]:
    """The absolute keeper link of the table's game (`absolute` makes a path absolute: the
    request's build_absolute_uri) and its QR code as inline SVG."""
    game = table.game
    url = absolute(reverse("scoring:keep", args=[game.id, game.secret]))
    return url, _qr(url, _("Keeper link of table %(t)s") % {"t": table.number})


def public_link(table: Table, absolute: Callable[[str], str]) -> tuple[str, str]:
    """The table's public page (anyone at the table follows and confirms the result there,
    no secret in it) and its QR code as inline SVG."""
    url = absolute(reverse("scoring:table", args=[table.game_id]))
    return url, _qr(url, _("Public page of table %(t)s") % {"t": table.number})


def cards(tables: list[Table], absolute: Callable[[str], str] | None = None) -> list[Card]:
    """A card per table; with `absolute`, each with its keeper link (a published round)."""
    made = []
    for table in tables:
        sat = seats(table)
        links = absolute and table.game
        url, svg = keeper_link(table, absolute) if links else ("", "")
        public = public_link(table, absolute) if links else ("", "")
        made.append(Card(table, sat, sat[table.first_dealer].name, url, svg, *public))
    return made


@dataclass(frozen=True)
class Placement:
    name: str
    table: int | None  # None: a bye
    seat: int | None


def _by_name(placement: Placement) -> tuple[str, str]:
    return placement.name.casefold(), placement.name


def placements(tables: list[Table], byes: list) -> list[Placement]:
    """Every player of the round by name → table and seat (or a bye), for the notice board."""
    made = [
        Placement(player.name, table.number, seat + 1)
        for table in tables
        for seat, player in enumerate(table.seats)
    ]
    made += [Placement(bye.player.name, None, None) for bye in byes]
    return sorted(made, key=_by_name)


@dataclass(frozen=True)
class Slip:
    """A player's slip: their personal code, and the QR of the link that carries its proof
    (tournaments.events.selectors.identity.slip_token), handed to them at check-in."""

    name: str
    code: str
    url: str
    qr: str


def slips(entries: list[Entry], slip_url: Callable[[Entry], str]) -> list[Slip]:
    """A slip per entry; `slip_url` makes an entry's absolute slip link."""
    made = []
    for entry in entries:
        url = slip_url(entry)
        title = _("This is me: %(name)s") % {"name": entry.player.name}
        made.append(Slip(entry.player.name, entry.code, url, _qr(url, title)))
    return made
