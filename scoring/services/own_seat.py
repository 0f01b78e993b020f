"""A proven player's own seat in one step, so a phone that already said "this is me" is not
asked again who it is: the keeper who also plays confirms as keeper and as her seat with one
tap on the keeper's page, and a player's phone gives its word without picking a name first
(docs/confirmations.md). The rules stay those of scoring.services.verdicts: the seat is
claimed only as the person the game's owner says the phone has proven to be, and the
keeper's confirmation alone proves nobody."""

from __future__ import annotations

from django.db import transaction

from scoring.errors import Conflict
from scoring.models import Game
from scoring.services.results import game_confirm, to_confirm
from scoring.services.verdicts import person_holder, result_agree, result_dispute, seat_claim
from scoring.signals import Person


def _claim_own(game_id: int, person: Person, keeper_phone: bool = False) -> str:
    """Claim the person's own seat (no change when it is theirs already); their holder."""
    if person.seat is None:
        raise Conflict("seat_not_at_table", you=person.name)
    holder = person_holder(game_id, person)
    seat_claim(
        game_id=game_id, seat=person.seat, holder=holder, keeper_phone=keeper_phone, person=person
    )
    return holder


@transaction.atomic
def own_seat_say(*, game_id: int, person: Person, agrees: bool, reason: object = "") -> Game:
    """The proven player's word on the result from a phone that has not claimed the seat
    yet: the claim and the word together."""
    holder = _claim_own(game_id, person)
    if agrees:
        return result_agree(game_id=game_id, holder=holder)
    return result_dispute(game_id=game_id, holder=holder, reason=reason)


@transaction.atomic
def keeper_confirm_as_player(
    *, game_id: int, person: Person, actor: str, version: object = None
) -> Game:
    """The keeper whose phone has proven to be the player in one of the game's seats: her
    seat's claim and agreement, then the keeper's confirmation (recording who she is), in
    one transaction. A game changed since the page showed it is refused as the keeper's own
    confirmation is, before anything is written."""
    game = to_confirm(game_id, version)
    if game.confirmed:
        return game
    holder = _claim_own(game_id, person, keeper_phone=True)
    game = result_agree(game_id=game_id, holder=holder)
    if game.confirmed:
        return game
    return game_confirm(
        game_id=game_id, actor=actor, by_keeper=True, keeper_person=person.key, version=version
    )
