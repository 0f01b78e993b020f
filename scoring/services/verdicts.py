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
- Where the quorum asks the players (not "keeper alone": an event's games), a word counts
  for one person only: a seat is claimed only by a phone that has proven it is the player
  seated there (`Person`, answered by the game's owner from its own signed cookie), or the
  organiser confirms for the player. A cookie any phone can make up proves nothing, so it
  claims nothing there. Elsewhere (casual games) the phone's cookie claims as before.
- The quorum (`quorum_met`) always needs the keeper's agreement; "keeper and one" needs the
  word of a person other than the keeper (a keeper whose phone proved nobody could be any of
  the players, so then two players must agree); "all" needs the three seats. A standing
  dispute stops the lock unless the keeper alone decides. An organiser's confirmation
  (`results.game_confirm` without `by_keeper`) always locks, as a director's would.
"""

from __future__ import annotations

import hashlib

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.errors import Conflict, InvalidInput
from scoring.models import Game, GameChange, Quorum, SeatClaim, Verdict
from scoring.services.base import locked, log
from scoring.signals import Person, game_confirmed

#: How long a dispute's reason may be (it is shown to the organiser as written).
MAX_REASON = 500
SEATS = (0, 1, 2)
Proof = SeatClaim.Proof
#: The claims whose word counts where the quorum asks the players.
PROVEN = (Proof.CODE, Proof.ORGANISER)


def holder_digest(game_id: int, token: str) -> str:
    """What SeatClaim.holder stores: a digest of the phone's own token, per game, so one
    phone's claims cannot be linked across games and the token itself is never stored."""
    return hashlib.sha256(f"seat|{game_id}|{token}".encode()).hexdigest()


def quorum_met(
    quorum: str,
    *,
    keeper: bool,
    seats: set[int],
    keeper_seats: frozenset[int] | set[int] | None = frozenset(),
    disputed: bool = False,
) -> bool:
    """The one rule for "has the table agreed": `keeper` is whether the keeper agreed with
    the current version, `seats` the seats whose (counted) players agreed with it,
    `keeper_seats` the seats of the person who kept (they are not "another player"; None when
    the keeper is nobody known, who could be any of them), `disputed` whether a seat
    disputes it."""
    if not keeper:
        return False
    if quorum == Quorum.KEEPER:
        return True
    if disputed:
        return False
    if quorum == Quorum.KEEPER_AND_ONE:
        if keeper_seats is None:
            return len(set(seats)) >= 2
        return bool(set(seats) - set(keeper_seats))
    return set(SEATS) <= set(seats)


def needs_proof(game: Game) -> bool:
    """Whether the players' words must be proven: wherever the quorum asks them."""
    return game.quorum != Quorum.KEEPER


def counted_seats(game: Game) -> set[int]:
    """The seats whose word counts towards the quorum: every claimed seat where proof is not
    needed; where it is, only those proven (by code, or the organiser's say-so)."""
    claims = game.claims.all()
    if not needs_proof(game):
        return {claim.seat for claim in claims}
    return {claim.seat for claim in claims if claim.proof in PROVEN}


def current_verdicts(game: Game, version: int | None = None) -> dict[int | None, Verdict]:
    """The latest verdict of each side (seat, or None for the keeper) on the game's version
    (or this one)."""
    version = game.version if version is None else version
    latest: dict[int | None, Verdict] = {}
    for verdict in Verdict.objects.filter(game=game, version=version).order_by("at", "pk"):
        latest[verdict.seat] = verdict
    return latest


def keeper_seats(game: Game, keeper: Verdict | None) -> set[int] | None:
    """The seats of the person whose phone gave the keeper's verdict (empty: someone seated
    elsewhere); None when that phone proved nobody, so the keeper could be anyone."""
    if keeper is None or not keeper.person:
        return None
    return {claim.seat for claim in game.claims.all() if claim.person == keeper.person}


def _standing(game: Game) -> tuple[Verdict | None, set[int], bool]:
    """The keeper's verdict, the counted seats that agree and whether one disputes."""
    verdicts = current_verdicts(game)
    counted = counted_seats(game)
    said = {s: v for s, v in verdicts.items() if s is not None and s in counted}
    seats = {s for s, v in said.items() if v.agrees}
    return verdicts.get(None), seats, any(not v.agrees for v in said.values())


def agreed(game: Game) -> bool:
    """Whether the game's quorum agrees with its current version (the lock's question)."""
    keeper, seats, disputed = _standing(game)
    return quorum_met(
        game.quorum,
        keeper=keeper is not None and keeper.agrees,
        seats=seats,
        keeper_seats=keeper_seats(game, keeper),
        disputed=disputed,
    )


def _seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
        raise InvalidInput("seat_invalid")
    return seat


def _give(game: Game, seat: int | None, agrees: bool, reason: str = "", person: str = "") -> None:
    """This side's verdict on the current version, replacing its earlier one."""
    Verdict.objects.filter(game=game, seat=seat, version=game.version).delete()
    Verdict.objects.create(
        game=game, seat=seat, agrees=agrees, reason=reason, version=game.version, person=person
    )


def seat_of(game: Game, holder: str) -> int | None:
    """The seat this phone (its holder digest) speaks for in this game, if any."""
    return game.claims.filter(holder=holder).values_list("seat", flat=True).first()


def person_holder(game_id: int, person: Person) -> str:
    """The holder of a proven claim: one per person and game, whichever phone proved it, so
    two phones of one player speak for the same seat and never for two."""
    return holder_digest(game_id, f"person|{person.key}")


def _proven_claimant(game: Game, seat: int, person: Person | None) -> bool:
    """Whether this phone claims `seat` as its proven person; refused where proof is needed
    and the phone has not proven to be the player seated there."""
    if person is not None and person.seat == seat:
        return True
    if not needs_proof(game):
        return False
    if person is None:
        raise Conflict("seat_prove_first", name=game.players[seat])
    if person.seat is None:
        raise Conflict("seat_not_at_table", you=person.name)
    raise Conflict("seat_not_yours", name=game.players[seat], you=person.name)


def _take_over(game: Game, claim: SeatClaim, person: Person, holder: str) -> None:
    """A proven player takes their seat from an unproven claim (a stranger's words go with
    it) or from the organiser's say-so (whose agreement stays: it was theirs)."""
    if claim.proof == Proof.PHONE:
        Verdict.objects.filter(game=game, seat=claim.seat).delete()
        data = {"seat": claim.seat, "holder": claim.holder[:16]}
        log(game, GameChange.Action.CLAIM_RESET, person.name, data=data, reason="proven")
    claim.holder, claim.person, claim.proof = holder, person.key, Proof.CODE
    claim.save(update_fields=["holder", "person", "proof"])


@transaction.atomic
def seat_claim(
    *,
    game_id: int,
    seat: object,
    holder: str,
    keeper_phone: bool = False,
    person: Person | None = None,
) -> int:
    """This phone says "I am the player in `seat`". `holder` is the digest of its own cookie;
    `person` whom it has proven to be (the owner's answer), if anyone. Claiming one's own seat
    again is no change; another seat, or a seat someone else holds, is refused; where proof
    is needed only the proven player seated there claims, and takes the seat from an
    unproven claim."""
    seat = _seat(seat)
    game = locked(game_id)
    if game.void:
        raise Conflict("void")
    proven = _proven_claimant(game, seat, person)
    if proven:
        holder = person_holder(game.pk, person)
    mine = seat_of(game, holder)
    name = game.players[seat]
    if mine == seat:
        return seat
    if mine is not None:
        raise Conflict("phone_has_seat", name=game.players[mine])
    taken = game.claims.filter(seat=seat).first()
    if taken is not None and proven and taken.proof != Proof.CODE:
        _take_over(game, taken, person, holder)
    elif taken is not None:
        raise Conflict("seat_taken", name=name)
    else:
        proof = Proof.CODE if proven else Proof.PHONE
        key = person.key if proven else ""
        try:
            with transaction.atomic():
                SeatClaim.objects.create(
                    game=game, seat=seat, holder=holder, proof=proof, person=key
                )
        except IntegrityError:
            raise Conflict("seat_taken", name=name) from None
    data = {"seat": seat, "holder": holder[:16], "keeper_phone": keeper_phone}
    data["proof"] = Proof.CODE if proven else Proof.PHONE
    log(game, GameChange.Action.SEAT_CLAIMED, name, data=data)
    return seat


@transaction.atomic
def seat_vouch(*, game_id: int, seat: object, actor: str) -> Game:
    """The organiser confirms the result for the player in `seat` (who told them so, or has
    no phone): the seat's claim becomes the organiser's say-so unless the player proved it
    themselves, and their agreement is given; it locks when that completes the quorum. The
    caller checked that `actor` runs the game."""
    seat = _seat(seat)
    game = locked(game_id)
    _open_result(game)
    claim = game.claims.filter(seat=seat).first()
    if claim is None or claim.proof == Proof.PHONE:
        if claim is not None:
            claim.delete()
            Verdict.objects.filter(game=game, seat=seat).delete()
        SeatClaim.objects.create(
            game=game,
            seat=seat,
            holder=holder_digest(game.pk, f"organiser|{seat}"),
            proof=Proof.ORGANISER,
        )
    _give(game, seat, True)
    data = {"seat": seat, "version": game.version, "organiser": True}
    log(game, GameChange.Action.RESULT_AGREED, actor, data=data)
    if agreed(game):
        lock(game, confirmers(game))
    return game


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


def lock(game: Game, actor: str, note: str = "") -> None:
    """Lock the (row-locked, confirmable) game's result; listeners hear of it inside the
    transaction, so they write with it. `note`: the organiser's word to the players (their
    answer to a dispute), shown on the table's pages (selectors.dispute_answer)."""
    game.result = Game.Result.CONFIRMED
    game.confirmed_at = timezone.now()
    game.confirmed_by = actor
    game.version += 1
    game.save()
    note = " ".join(str(note or "").split())[:MAX_REASON]
    data = {"placings": game.placings}
    log(game, GameChange.Action.CONFIRMED, actor, data=data, reason=note)
    game_confirmed.send(sender=Game, game=game)


def keeper_agree(game: Game, actor: str, person: str = "") -> bool:
    """The keeper's confirmation as the keeper's verdict (the game is locked by the caller);
    `person` is whom the keeper's phone proved to be, if anyone. Whether the quorum now
    agrees."""
    _give(game, None, True, person=person)
    data = {"seat": None, "version": game.version}
    log(game, GameChange.Action.RESULT_AGREED, actor, data=data)
    return agreed(game)


def confirmers(game: Game, keeper_actor: str = "") -> str:
    """Who agreed with the current version, for `Game.confirmed_by`: the players whose word
    counts who did, else the keeper's name."""
    _keeper, seats, _disputed = _standing(game)
    names = [game.players[s] for s in SEATS if s in seats]
    return (", ".join(names) or keeper_actor)[:150]


def waiting_for(game: Game) -> int:
    """How many more agreements the quorum needs (0 once met), for the API's answer."""
    if game.confirmed:
        return 0
    keeper, seats, _disputed = _standing(game)
    needed = 0 if (keeper is not None and keeper.agrees) else 1
    if game.quorum == Quorum.KEEPER:
        return needed
    if game.quorum == Quorum.KEEPER_AND_ONE:
        own = keeper_seats(game, keeper)
        if own is None:
            return needed + max(0, 2 - len(seats))
        return needed + (0 if seats - own else 1)
    return needed + len(set(SEATS) - seats)


def still_to_confirm(game: Game) -> tuple[bool, list[int], int]:
    """Who the quorum still waits for, counted in people: whether the keeper's word is
    missing, the seats whose players may still give theirs, and how many of them must. The
    keeper sits at the table too, so where every seat must agree the keeper is no fourth
    person: only once the three have agreed is the keeper named on their own."""
    if game.confirmed:
        return False, [], 0
    keeper, seats, _disputed = _standing(game)
    missing = not (keeper is not None and keeper.agrees)
    if game.quorum == Quorum.KEEPER:
        return missing, [], 0
    open_seats = [seat for seat in SEATS if seat not in seats]
    if game.quorum != Quorum.KEEPER_AND_ONE:
        return missing, open_seats, len(open_seats)
    own = keeper_seats(game, keeper) if not missing else set()
    if own is None:  # a keeper who proved nobody: two players must agree
        return missing, open_seats, max(0, 2 - len(seats))
    if seats - own:
        return missing, [], 0
    return missing, [seat for seat in open_seats if seat not in own], 1
