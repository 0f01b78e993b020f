"""The players' own word on a result: a phone claims a seat ("I am Vera"), then agrees with
the result or disputes it with a reason; the result locks once the game's quorum agrees.

Why it is built so:

- A seat is claimed once and a phone speaks for one seat of a game (the database's two
  unique constraints are the last guard against a race). Only the organiser (or the keeper
  of a casual game: the views decide who may) resets a claim, so a stranger who tapped a
  name first is found out by the player whose seat it was, not silently replaced.
- A verdict is bound to `Game.version`: any change to the game (a corrected deal, a reopened
  result) bumps the version, so the earlier verdicts no longer count and the table is asked
  again. One verdict counts per side and version, the latest.
- The quorum (`quorum_met`) always needs the keeper's agreement; "keeper and one" needs one
  seat claimed on a phone other than the keeper's; "all" needs the three seats. A standing
  dispute stops the lock unless the keeper alone decides. An organiser's confirmation
  (`results.game_confirm` without `by_keeper`) always locks, as a director's would.
"""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..errors import Conflict, InvalidInput
from ..models import Game, GameChange, Quorum, SeatClaim, Verdict
from ..signals import game_confirmed
from .base import locked, log

#: How long a dispute's reason may be (it is shown to the organiser as written).
MAX_REASON = 500
SEATS = (0, 1, 2)


def holder_digest(game_id: int, token: str) -> str:
    """What SeatClaim.holder stores: a digest of the phone's own token, per game, so one
    phone's claims cannot be linked across games and the token itself is never stored."""
    return hashlib.sha256(f"seat|{game_id}|{token}".encode()).hexdigest()


def quorum_met(
    quorum: str,
    *,
    keeper: bool,
    seats: set[int],
    keeper_seats: frozenset[int] | set[int] = frozenset(),
    disputed: bool = False,
) -> bool:
    """The one rule for "has the table agreed": `keeper` is whether the keeper agreed with
    the current version, `seats` the seats that agreed with it, `keeper_seats` those claimed
    on the keeper's own phone (they are not "another player"), `disputed` whether a seat
    disputes it."""
    if not keeper:
        return False
    if quorum == Quorum.KEEPER:
        return True
    if disputed:
        return False
    if quorum == Quorum.KEEPER_AND_ONE:
        return bool(set(seats) - set(keeper_seats))
    return set(SEATS) <= set(seats)


def current_verdicts(game: Game, version: int | None = None) -> dict[int | None, Verdict]:
    """The latest verdict of each side (seat, or None for the keeper) on the game's version
    (or this one)."""
    version = game.version if version is None else version
    latest: dict[int | None, Verdict] = {}
    for verdict in Verdict.objects.filter(game=game, version=version).order_by("at", "pk"):
        latest[verdict.seat] = verdict
    return latest


def keeper_phone_seats(game: Game) -> set[int]:
    """The seats claimed (now) on the phone that kept the score when it claimed."""
    holders = {claim.holder[:16]: claim.seat for claim in game.claims.all()}
    flagged = game.changes.filter(
        action=GameChange.Action.SEAT_CLAIMED, data__keeper_phone=True
    ).values_list("data", flat=True)
    return {holders[d["holder"]] for d in flagged if d.get("holder") in holders}


def agreed(game: Game) -> bool:
    """Whether the game's quorum agrees with its current version (the lock's question)."""
    verdicts = current_verdicts(game)
    keeper = verdicts.get(None)
    seats = {s for s, v in verdicts.items() if s is not None and v.agrees}
    disputed = any(s is not None and not v.agrees for s, v in verdicts.items())
    keeper_seats = keeper_phone_seats(game) if game.quorum == Quorum.KEEPER_AND_ONE else set()
    return quorum_met(
        game.quorum,
        keeper=keeper is not None and keeper.agrees,
        seats=seats,
        keeper_seats=keeper_seats,
        disputed=disputed,
    )


def _seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise InvalidInput("seat_invalid")
    return seat


def _give(game: Game, seat: int | None, agrees: bool, reason: str = "") -> None:
    """This side's verdict on the current version, replacing its earlier one."""
    Verdict.objects.filter(game=game, seat=seat, version=game.version).delete()
    Verdict.objects.create(game=game, seat=seat, agrees=agrees, reason=reason, version=game.version)


def seat_of(game: Game, holder: str) -> int | None:
    """The seat this phone (its holder digest) speaks for in this game, if any."""
    return game.claims.filter(holder=holder).values_list("seat", flat=True).first()


@transaction.atomic
def seat_claim(*, game_id: int, seat: object, holder: str, keeper_phone: bool = False) -> int:
    """This phone says "I am the player in `seat`". Claiming one's own seat again is no
    change; another seat, or a seat someone else holds, is refused."""
    seat = _seat(seat)
    game = locked(game_id)
    if game.void:
        raise Conflict("void")
    mine = seat_of(game, holder)
    name = game.players[seat]
    if mine == seat:
        return seat
    if mine is not None:
        raise Conflict("phone_has_seat", name=game.players[mine])
    if game.claims.filter(seat=seat).exists():
        raise Conflict("seat_taken", name=name)
    try:
        with transaction.atomic():
            SeatClaim.objects.create(game=game, seat=seat, holder=holder)
    except IntegrityError:
        raise Conflict("seat_taken", name=name) from None
    data = {"seat": seat, "holder": holder[:16], "keeper_phone": keeper_phone}
    log(game, GameChange.Action.SEAT_CLAIMED, name, data=data)
    return seat


@transaction.atomic
def claim_reset(*, game_id: int, seat: object, actor: str, reason: str = "") -> Game:
    """Free a claimed seat (the caller checked who may); the verdicts given from it go too,
    the history keeps them."""
    seat = _seat(seat)
    game = locked(game_id)
    deleted, _ = game.claims.filter(seat=seat).delete()
    if not deleted:
        raise Conflict("claim_not_found")
    Verdict.objects.filter(game=game, seat=seat).delete()
    log(game, GameChange.Action.CLAIM_RESET, actor, data={"seat": seat}, reason=reason.strip())
    return game


def _open_result(game: Game) -> None:
    if game.void:
        raise Conflict("void")
    if game.confirmed:
        raise Conflict("confirmed")
    if not game.confirmable:
        raise Conflict("not_confirmable")


@transaction.atomic
def result_agree(*, game_id: int, holder: str) -> Game:
    """The player of this phone's seat agrees with the result as it stands; it locks when
    that completes the quorum."""
    game = locked(game_id)
    seat = seat_of(game, holder)
    if seat is None:
        raise Conflict("no_seat_here")
    _open_result(game)
    _give(game, seat, True)
    name = game.players[seat]
    log(game, GameChange.Action.RESULT_AGREED, name, data={"seat": seat, "version": game.version})
    if agreed(game):
        lock(game, confirmers(game))
    return game


@transaction.atomic
def result_dispute(*, game_id: int, holder: str, reason: object) -> Game:
    """The player of this phone's seat says the result is wrong, and why; the organiser
    sees the table flagged with every side's words."""
    text = " ".join(str(reason or "").split())[:MAX_REASON]
    if not text:
        raise InvalidInput("dispute_reason")
    game = locked(game_id)
    seat = seat_of(game, holder)
    if seat is None:
        raise Conflict("no_seat_here")
    _open_result(game)
    _give(game, seat, False, text)
    data = {"seat": seat, "version": game.version}
    log(game, GameChange.Action.RESULT_DISPUTED, game.players[seat], data=data, reason=text)
    return game


def lock(game: Game, actor: str) -> None:
    """Lock the (row-locked, confirmable) game's result; listeners hear of it inside the
    transaction, so they write with it."""
    game.result = Game.Result.CONFIRMED
    game.confirmed_at = timezone.now()
    game.confirmed_by = actor
    game.version += 1
    game.save()
    log(game, GameChange.Action.CONFIRMED, actor, data={"placings": game.placings})
    game_confirmed.send(sender=Game, game=game)


def keeper_agree(game: Game, actor: str) -> bool:
    """The keeper's confirmation as the keeper's verdict (the game is locked by the caller);
    whether the quorum now agrees."""
    _give(game, None, True)
    data = {"seat": None, "version": game.version}
    log(game, GameChange.Action.RESULT_AGREED, actor, data=data)
    return agreed(game)


def confirmers(game: Game, keeper_actor: str = "") -> str:
    """Who agreed with the current version, for `Game.confirmed_by`: the players who did,
    else the keeper's name."""
    verdicts = current_verdicts(game)
    names = [game.players[s] for s in SEATS if s in verdicts and verdicts[s].agrees]
    return (", ".join(names) or keeper_actor)[:150]


def waiting_for(game: Game) -> int:
    """How many more agreements the quorum needs (0 once met), for the API's answer."""
    if game.confirmed:
        return 0
    verdicts = current_verdicts(game)
    keeper = 0 if (None in verdicts and verdicts[None].agrees) else 1
    seats = {s for s, v in verdicts.items() if s is not None and v.agrees}
    if game.quorum == Quorum.KEEPER:
        return keeper
    if game.quorum == Quorum.KEEPER_AND_ONE:
        others = seats - keeper_phone_seats(game)
        return keeper + (0 if others else 1)
    return keeper + len(set(SEATS) - seats)
