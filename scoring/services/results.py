"""A game's result: confirmed, reopened, and the walkout changes the organisers make
(rounds.services.walkouts calls these): a substitute, an early end, a void, an adjusted result."""

from __future__ import annotations

from django.db import transaction

import engine
from scoring.errors import Conflict, InvalidInput
from scoring.models import Game, GameChange, Quorum
from scoring.selectors import game_record, hand_of, live_deals
from scoring.services.base import clean_players, locked, log, reason_given, seen_version, still_open
from scoring.services.verdicts import confirmers, keeper_agree, lock
from scoring.signals import game_reopened


def to_confirm(game_id: int, version: object) -> Game:
    """The game locked for a confirmation: as it is when already confirmed (a resend), else
    refused if it changed since `version` (the page showed an older result) or cannot be
    confirmed now. Inside the caller's transaction."""
    seen = seen_version(version)
    game = locked(game_id)
    if game.confirmed:
        return game
    if seen is not None and seen != game.version:
        raise Conflict("confirm_stale", yours=seen, current=game.version)
    if not game.confirmable:
        raise Conflict("not_confirmable")
    return game


@transaction.atomic
def game_confirm(
    *,
    game_id: int,
    actor: str = "",
    by_keeper: bool = False,
    keeper_person: str = "",
    version: object = None,
    note: str = "",
) -> Game:
    """Confirm a finished, settled result (`note`: an organiser's word to the players, their
    answer to a dispute). An organiser's confirmation locks it; the keeper's
    (`by_keeper`) is the keeper's verdict and locks only once the game's quorum agrees
    (scoring.services.verdicts): the caller reads `game.confirmed` to tell. `keeper_person`
    is whom the keeper's phone has proven to be, if anyone (a token alone proves nobody).
    With `version` (the game's version the result was shown at), a game changed since is
    refused: a page left open never confirms a result its keeper has not seen. Confirmed
    already, it is answered as it is (a resent confirmation)."""
    game = to_confirm(game_id, version)
    if game.confirmed:
        return game
    if by_keeper and game.quorum != Quorum.KEEPER:
        if not keeper_agree(game, actor, keeper_person):
            return game
        actor = confirmers(game, actor)
    lock(game, actor, note)
    return game


@transaction.atomic
def game_reopen(*, game_id: int, actor: str, reason: str) -> Game:
    """Unlock a confirmed result so it can be corrected; a reason is required."""
    if not reason.strip():
        raise InvalidInput("reopen_reason")
    game = locked(game_id)
    if not game.confirmed:
        raise Conflict("not_confirmed")
    game.result = Game.Result.FINISHED
    game.confirmed_at = None
    game.confirmed_by = ""
    game.version += 1
    game.save()
    log(game, GameChange.Action.REOPENED, actor, reason=reason.strip())
    game_reopened.send(sender=Game, game=game)  # in the transaction: listeners write with it
    return game


@transaction.atomic
def seat_substitute(*, game_id: int, seat: object, name: object, actor: str, reason: str) -> Game:
    """Another player takes `seat` from the next deal on; the deals so far stand as played.
    The name by seat changes for display; the history keeps who sat there before and from
    which deal the new player plays."""
    reason = reason_given(reason)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2):
        raise InvalidInput("seat_invalid")
    game = locked(game_id)
    still_open(game)
    if game.result == Game.Result.FINISHED:
        raise Conflict("finished_no_deal_left")
    # The table's names with the new one, checked as a new game's are (no two the same).
    players = clean_players(
        [name if i == seat else old for i, old in enumerate(game.players)],
        stored=tuple(i for i in range(3) if i != seat),
    )
    before, new_name = game.players[seat], players[seat]
    deals = live_deals(game.pk)
    from_deal = len(deals) + 1
    from_hand = hand_of([deal.tricks for deal in deals], from_deal)
    game.players = players
    game.version += 1
    game.save()
    data = {
        "seat": seat,
        "before": before,
        "after": new_name,
        "from_deal": from_deal,
        "from_hand": from_hand,  # the players' numbering (scoring.presenters.numbering)
    }
    log(game, GameChange.Action.SEAT_SUBSTITUTED, actor, from_deal, data, reason)
    return game


def early_placings(state: engine.GameState) -> tuple[int, int, int]:
    """The placings of a game stopped before its end, by the engine's own placing rule
    (engine.placings.place): totals first, then the last hand's points, then who won a trick
    of the last hand most recently. Refused when no hand was played, or when only trick
    winners nobody entered could separate equal totals."""
    from engine.placings import place

    hands = state.hands
    if not hands:
        raise Conflict("no_hand_played")
    last = hands[-1]
    outcome = place(
        state.totals, last.points, last.tricks, last.last_tricks, state.rules.tricks_per_hand, None
    )
    if outcome.placings is None:
        raise Conflict("level_needs_last_tricks")
    return tuple(outcome.placings)


@transaction.atomic
def game_end_early(*, game_id: int, actor: str, reason: str, at_time: bool = False) -> Game:
    """Stop the game as it stands: the placings of the score so far (early_placings). A game
    already finished by its rules is left as it is. `at_time`: the round clock ran out (its
    owner's rule), which is the reason, so none need be given; the history says so."""
    reason = reason_given(reason) if reason or not at_time else ""
    game = locked(game_id)
    still_open(game)
    entries = live_deals(game.pk)
    state = engine.replay(game_record(game, entries))
    if state.finished:
        if state.placings is None:
            raise Conflict("needs_last_tricks")
        return game
    placings = early_placings(state)
    game.result = Game.Result.FINISHED
    game.totals = list(state.totals)
    game.placings = list(placings)
    game.version += 1
    game.save()
    data = {"placings": list(placings), "totals": list(state.totals), "deals": len(entries)}
    if at_time:
        data["at_time"] = True
    log(game, GameChange.Action.ENDED_EARLY, actor, len(entries) or None, data, reason)
    return game


@transaction.atomic
def game_void(*, game_id: int, actor: str, reason: str) -> Game:
    """Set the game aside: it gives no result and takes no more deals. Its deals stay."""
    reason = reason_given(reason)
    game = locked(game_id)
    still_open(game)
    before = {"result": game.result, "totals": game.totals, "placings": game.placings}
    game.result = Game.Result.VOID
    game.version += 1
    game.save()
    log(game, GameChange.Action.VOIDED, actor, data=before, reason=reason)
    return game


def _placings_by_hand(placings: object) -> list[int]:
    if not isinstance(placings, list | tuple) or sorted(placings) != [0, 1, 2]:
        raise InvalidInput("placings_invalid")
    if any(isinstance(seat, bool) for seat in placings):
        raise InvalidInput("placings_invalid")
    return list(placings)


def _totals_by_hand(totals: object) -> list[int]:
    ok = isinstance(totals, list | tuple) and len(totals) == 3
    if not ok or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise InvalidInput("totals_invalid")
    if any(abs(t) > 9999 for t in totals):
        raise InvalidInput("totals_invalid")
    return list(totals)


@transaction.atomic
def game_adjust(*, game_id: int, placings: object, totals: object, actor: str, reason: str) -> Game:
    """The organisers' own result: placings (seats, first to last) and, if given, totals by
    seat (else the score so far stands). Left finished, for game_confirm; the history keeps
    the result before and after."""
    reason = reason_given(reason)
    placings = _placings_by_hand(placings)
    totals = None if totals is None else _totals_by_hand(totals)
    game = locked(game_id)
    still_open(game)
    before = {"placings": game.placings, "totals": game.totals}
    game.placings = placings
    if totals is not None:
        game.totals = totals
    game.result = Game.Result.FINISHED
    game.version += 1
    game.save()
    after = {"placings": game.placings, "totals": game.totals}
    log(
        game,
        GameChange.Action.RESULT_ADJUSTED,
        actor,
        data={"before": before, "after": after},
        reason=reason,
    )
    return game
