"""Table PINs: the typeable fallback to the keeper's QR code (docs/table-pins.md).

A PIN is PIN_LENGTH digits, made for every table when its round is published, unique among
the tables of that round, and opens the keeper's page of its table's game only while that
round is published and not closed, never once the event is over (pins_open: the PIN page and
the event's page ask the same rule). Renewing one (the organiser) replaces it: the old PIN
stops working at once. Phones already keeping the table keep it (the PIN only grants what the
keeper link grants); replacing the table's secret ends them (scoring.services.creation).

Guessing. Six digits are a million codes; a guesser must also name the table. Wrong PINs are
counted per client address (config.client_ip, the one address rule) and per event, by the
site's one throttle (config.throttle) as wrong secrets are; past either limit EVERY PIN from that
address (or for that event) is refused for the rest of the window, the right one too: unlike
a 256-bit secret a PIN can be guessed, so a right answer while blocked would let the guessing
go on. The QR code, which carries the secret, is never blocked. With the limits below, a
four-hour event can take at most 4 × 60 / 10 × EVENT_FAILURES_ALLOWED = 960 wrong PINs in all,
so whoever guesses finds a table with a chance under 1 in 1000 (960 / 10⁶); an honest table
mistypes once or twice, far below ADDRESS_FAILURES_ALLOWED even with a whole club behind one
router. (While the shared cache is down each web process counts alone, config.window_count:
the limits hold once per process for as long as the outage lasts.)
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass

from django.db import transaction

from config.throttle import Throttle
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.services import log_action
from tournaments.models import Event, Round, Table

log = logging.getLogger("tournaments.pins")

#: Digits in a PIN: typeable on a phone's number pad, a million codes.
PIN_LENGTH = 6
#: Wrong PINs from one client address (any event) within the window.
ADDRESS_FAILURES_ALLOWED = 20
#: Wrong PINs for one event (any address) within the window.
EVENT_FAILURES_ALLOWED = 40
WINDOW_SECONDS = 600
WRONG_PINS = Throttle(
    "pin-failures", WINDOW_SECONDS, address=ADDRESS_FAILURES_ALLOWED, event=EVENT_FAILURES_ALLOWED
)


class PinBlocked(TournamentError):
    """Too many wrong PINs from this address or for this event: the page answers 429."""

    kind = "rejected"


class PinWrong(TournamentError):
    """The table number and PIN do not match (the page answers 403)."""

    kind = "not_allowed"


def new_pin(taken: set[str]) -> str:
    """A random PIN none of `taken` has (leading zeros kept: it is text)."""
    while True:
        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_LENGTH))
        if pin not in taken:
            return pin


def pins_make(round_: Round) -> None:
    """Give every table of the round that has none a PIN unique in the round (publishing
    calls it in its transaction)."""
    tables = list(round_.tables.all())
    taken = {table.pin for table in tables if table.pin}
    for table in tables:
        if not table.pin:
            table.pin = new_pin(taken)
            taken.add(table.pin)
    Table.objects.bulk_update(tables, ["pin"])


def _open(round_: Round) -> bool:
    return round_.status == Round.Status.PUBLISHED


@transaction.atomic
def pin_renew(*, table: Table, actor: str = "") -> Table:
    """A new PIN for the table; the old one stops working. Only while its round is open."""
    # the round is locked first: two tables renewed at once must not draw the same PIN
    Round.objects.select_for_update().filter(pk=table.round_id).first()
    table = Table.objects.select_for_update().select_related("round__event").get(pk=table.pk)
    if not _open(table.round):
        raise NotAllowed("pin_round_not_open", n=table.round.number)
    taken = set(table.round.tables.exclude(pk=table.pk).values_list("pin", flat=True))
    table.pin = new_pin(taken | {table.pin})
    table.save(update_fields=["pin"])
    log_action(
        table.round.event, actor, "pin_renewed", round=table.round.number, table=table.number
    )
    return table


# --- checking a typed PIN ---------------------------------------------------------------------


@dataclass(frozen=True)
class PinEntry:
    """What a phone typed, tidied: digits only (spaces and dashes people add are dropped)."""

    table: int
    pin: str

    @classmethod
    def typed(cls, table: int, pin: str) -> PinEntry:
        return cls(table, "".join(ch for ch in pin if ch.isdigit()))


def pin_blocked(address: str, event: Event) -> bool:
    """Whether PINs from this client address, or for this event, are refused for now."""
    return WRONG_PINS.blocked(address=address, event=event.pk)


def _failed(address: str, event: Event, entry: PinEntry) -> None:
    counted = WRONG_PINS.count(address=address, event=event.pk)
    if counted.within:
        log.warning(
            "wrong PIN for table %s of event %s from %s (%s from it, %s for the event in %ss)",
            entry.table,
            event.pk,
            address,
            counted["address"],
            counted["event"],
            WINDOW_SECONDS,
        )


def newest_public_round(event: Event) -> Round | None:
    """The event's newest published or closed round: the only one whose PINs may count."""
    return (
        event.rounds.filter(status__in=(Round.Status.PUBLISHED, Round.Status.CLOSED))
        .order_by("-number")
        .first()
    )


def _refusal(event: Event, round_: Round | None) -> NotAllowed | None:
    """Why no PIN of the event opens a table now, or None while `round_` (its newest public
    round) is being played. The one rule: the PIN page asks it of a typed PIN, the event's
    page asks it before offering the PIN entry at all."""
    if event.status == Event.Status.CLOSED:
        return NotAllowed("pin_event_over")
    if round_ is None:
        return NotAllowed("pin_no_round")
    if not _open(round_):
        return NotAllowed("pin_round_closed", n=round_.number)
    return None


def pins_open(event: Event, round_: Round | None) -> bool:
    """Whether a PIN may open a table now (`round_`: the event's newest public round)."""
    return _refusal(event, round_) is None


def open_round(event: Event) -> Round:
    """The round whose PINs count: the event's newest public round, refused once the event
    is over, before any round, and while its newest round is closed."""
    round_ = newest_public_round(event)
    refusal = _refusal(event, round_)
    if refusal is not None:
        raise refusal
    return round_


def pin_check(address: str, event: Event, entry: PinEntry) -> Table:
    """The table the typed number and PIN open, or the refusal: no open round, the round
    closed, no such table, too many wrong PINs from the client `address` or for the event
    (PinBlocked), the wrong PIN (PinWrong)."""
    round_ = open_round(event)
    if pin_blocked(address, event):
        raise PinBlocked("pin_blocked", minutes=WINDOW_SECONDS // 60)
    table = round_.tables.select_related("game").filter(number=entry.table).first()
    if table is None:
        raise NotAllowed("pin_no_table", t=entry.table, n=round_.number)
    if table.game_id is None or not table.pin or not secrets.compare_digest(table.pin, entry.pin):
        _failed(address, event, entry)
        raise PinWrong("pin_wrong", t=entry.table)
    return table
