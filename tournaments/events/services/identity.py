"""A player's personal code: renewed by the organiser, checked when a phone types it, and
throttled against guessing (docs/confirmations.md; the identity it proves is read by
tournaments.events.selectors.identity).

Guessing. A code is PERSONAL_CODE_LENGTH digits (10⁸) and a guess names the player, so each
wrong guess rules out one code of one player. Wrong codes are counted per client address and
per event by the site's one throttle (config.throttle, as table PINs are); past either limit
every code typed from that address (or for that event) is refused for the rest of the window,
the right one too, so guessing cannot go on. A four-hour event takes at most 24 windows ×
EVENT_FAILURES_ALLOWED = 2,400 wrong codes: whoever guesses proves to be someone with a
chance of 1 in 40,000. The slip's link (a 96-bit MAC) is never blocked, nor is the organiser.
"""

from __future__ import annotations

import logging
import secrets

from django.db import transaction

from config.throttle import Throttle
from tournaments.club_models import NewcomerRequest
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.services import log_action
from tournaments.common.vocabulary import personal_code
from tournaments.models import Entry, Event

log = logging.getLogger("tournaments.identity")

#: Wrong codes from one client address (any event) within the window.
ADDRESS_FAILURES_ALLOWED = 20
#: Wrong codes for one event (any address) within the window: a check-in rush of a hundred
#: players mistyping now and then stays far below it.
EVENT_FAILURES_ALLOWED = 100
WINDOW_SECONDS = 600
WRONG_CODES = Throttle(
    "code-failures", WINDOW_SECONDS, address=ADDRESS_FAILURES_ALLOWED, event=EVENT_FAILURES_ALLOWED
)


class CodeBlocked(TournamentError):
    """Too many wrong codes from this address or for this event: the page answers 429."""

    kind = "rejected"


class CodeWrong(TournamentError):
    """The code is not this player's (the page answers 403)."""

    kind = "not_allowed"


@transaction.atomic
def code_renew(*, entry: Entry, actor: str = "") -> Entry:
    """A new personal code for the player: every phone that proved with the old one (and the
    old slip, and a newcomer's phone not back yet) stops speaking for them at once. Claims
    already made stay (the organiser resets a seat claim where one was wrong)."""
    entry = Entry.objects.select_for_update().select_related("event", "player").get(pk=entry.pk)
    old = entry.code
    while entry.code == old:
        entry.code = personal_code()
    entry.save(update_fields=["code"])
    # A newcomer's accepted request not collected yet would prove its phone: it ends too.
    NewcomerRequest.objects.filter(entry=entry).delete()
    log_action(entry.event, actor, "code_renewed", player=entry.player.name)
    return entry


def code_blocked(address: str, event: Event) -> bool:
    """Whether codes typed from this client address, or for this event, are refused for now."""
    return WRONG_CODES.blocked(address=address, event=event.pk)


def code_check(address: str, event: Event, player_id: int, typed: object) -> Entry:
    """The player's entry when `typed` is their personal code (spaces and dashes people add
    are dropped); refused: too many wrong codes from the client `address` or for the event
    (CodeBlocked), no such player in the event, the wrong code (CodeWrong, counted)."""
    if code_blocked(address, event):
        raise CodeBlocked("code_blocked", minutes=WINDOW_SECONDS // 60)
    code = "".join(ch for ch in str(typed or "") if ch.isdigit())
    entry = event.entries.select_related("player").filter(player_id=player_id).first()
    if entry is None:
        raise NotAllowed("code_no_player")
    if not code:
        raise TournamentError("code_missing")
    if not secrets.compare_digest(entry.code, code):
        counted = WRONG_CODES.count(address=address, event=event.pk)
        log.warning(
            "wrong personal code for player %s of event %s (%s from the address, %s for the "
            "event in %ss)",
            player_id,
            event.pk,
            counted["address"],
            counted["event"],
            WINDOW_SECONDS,
        )
        raise CodeWrong("code_wrong", name=entry.player.name)
    return entry
