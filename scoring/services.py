"""Writes to a table's game. Every change goes through here, in one transaction.

Each service locks the game row, asks the engine to replay the stored deals plus the
change, and writes only if the engine accepts; the engine's answer is copied onto the
game (result, totals, placings) and the version goes up so watchers notice. A unique
constraint on live deal numbers backs the lock up, so the same deal is never stored
twice on any database, whatever arrives at once.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine

from .errors import Conflict, DealRejected, InvalidInput
from .models import DealEntry, Game, GameChange
from .selectors import game_record, live_entries
from .signals import game_confirmed, game_reopened

MAX_NAME = 80


@dataclass(frozen=True)
class Recorded:
    game: Game
    state: engine.GameState
    created: bool


def _clean_players(players: object) -> list[str]:
    if not isinstance(players, list | tuple) or len(players) != 3:
        raise InvalidInput(_("players must be three names, by seat"))
    names = []
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(_("each player needs a name"))
        if len(name.strip()) > MAX_NAME:
            raise InvalidInput(_("a name has at most %(n)s characters") % {"n": MAX_NAME})
        names.append(" ".join(name.split()))
    return names


def _replay(record: dict) -> engine.GameState:
    try:
        return engine.replay(record)
    except engine.RuleError as error:
        raise DealRejected(error.message) from None


def _apply(game: Game, state: engine.GameState) -> None:
    """Copy the engine's answer onto the game and bump its version (caller saves)."""
    if not game.confirmed:
        game.result = Game.Result.FINISHED if state.finished else Game.Result.IN_PLAY
    game.totals = list(state.totals)
    game.placings = list(state.placings) if state.placings is not None else None
    game.version += 1


def _locked(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except (TypeError, ValueError):
        raise Game.DoesNotExist from None


def _log(game, action, actor, deal_number=None, data=None, reason=""):
    GameChange.objects.create(
        game=game,
        action=action,
        actor=actor,
        deal_number=deal_number,
        data=data or {},
        reason=reason,
    )


def game_create(
    *,
    ruleset: object,
    players: object,
    options: object = None,
    first_dealer: object = None,
    actor: str = "",
) -> Game:
    """A new game; the first dealer is drawn at random when not chosen."""
    names = _clean_players(players)
    if options is None:
        options = {}
    if first_dealer is None:
        first_dealer = secrets.randbelow(3)
    record = {"ruleset": ruleset, "options": options, "first_dealer": first_dealer, "deals": []}
    try:
        state = engine.replay(record)
    except engine.RuleError as error:
        raise InvalidInput(error.message) from None
    with transaction.atomic():
        game = Game(ruleset=ruleset, options=options, players=names, first_dealer=first_dealer)
        _apply(game, state)
        game.save()
        _log(game, GameChange.Action.CREATED, actor, data={"players": names})
    return game


def _same_deal(entry: DealEntry, calls, tricks, last_tricks) -> bool:
    return (entry.calls, entry.tricks, entry.last_tricks or None) == (
        calls,
        tricks,
        last_tricks or None,
    )


def deal_record(
    *,
    game_id: int,
    number: object,
    calls: object,
    tricks: object = None,
    last_tricks: object = None,
    actor: str = "",
) -> Recorded:
    """Record deal `number`; the same deal sent again records nothing (created=False)."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InvalidInput(_("deal must be the positive number of the deal being entered"))
    try:
        return _deal_record(game_id, number, calls, tricks, last_tricks, actor)
    except IntegrityError:
        # Another request stored this number between our check and our write: decide again.
        return _deal_record(game_id, number, calls, tricks, last_tricks, actor)


@transaction.atomic
def _deal_record(game_id, number, calls, tricks, last_tricks, actor) -> Recorded:
    game = _locked(game_id)
    entries = live_entries(game)
    if number <= len(entries):
        if _same_deal(entries[number - 1], calls, tricks, last_tricks):
            return Recorded(game, engine.replay(game_record(game, entries)), created=False)
        raise Conflict(_("deal %(n)s is already recorded with other values") % {"n": number})
    if number != len(entries) + 1:
        raise Conflict(
            _("deal %(n)s is not the next deal: the next is %(next)s")
            % {"n": number, "next": len(entries) + 1}
        )
    if game.confirmed:
        raise Conflict(_("the result is confirmed: no more deals"))
    entry = DealEntry(
        game=game,
        number=number,
        calls=calls,
        tricks=tricks,
        last_tricks=last_tricks,
        entered_by=actor,
    )
    state = _replay(game_record(game, [*entries, entry]))
    entry.save()
    _apply(game, state)
    game.save()
    _log(game, GameChange.Action.DEAL_RECORDED, actor, number, entry.as_record())
    return Recorded(game, state, created=True)


@transaction.atomic
def deal_undo(*, game_id: int, number: object, actor: str = "", reason: str = "") -> Recorded:
    """Undo the last deal while the result is unconfirmed; the row is kept, marked undone."""
    game = _locked(game_id)
    entries = live_entries(game)
    if game.confirmed:
        raise Conflict(_("the result is confirmed: reopen it before undoing a deal"))
    if not entries or number != len(entries):
        raise Conflict(_("only the last deal (%(n)s) can be undone") % {"n": len(entries)})
    entry = entries[-1]
    entry.undone_at = timezone.now()
    entry.undone_by = actor
    entry.save(update_fields=["undone_at", "undone_by"])
    state = engine.replay(game_record(game, entries[:-1]))
    _apply(game, state)
    game.save()
    _log(game, GameChange.Action.DEAL_UNDONE, actor, number, entry.as_record(), reason)
    return Recorded(game, state, created=False)


@transaction.atomic
def last_tricks_add(
    *, game_id: int, number: object, last_tricks: object, actor: str = ""
) -> Recorded:
    """Give the winners of the last tricks of the last hand, for a tie-break."""
    game = _locked(game_id)
    entries = live_entries(game)
    if game.confirmed:
        raise Conflict(_("the result is confirmed"))
    if not entries or number != len(entries) or entries[-1].tricks is None:
        raise Conflict(_("trick winners can only be added to the last deal, a played hand"))
    if not isinstance(last_tricks, list):
        raise InvalidInput(_("last_tricks must be a list of seats, the most recent first"))
    entry = entries[-1]
    before = entry.last_tricks
    entry.last_tricks = last_tricks
    state = _replay(game_record(game, entries))
    entry.save(update_fields=["last_tricks"])
    _apply(game, state)
    game.save()
    _log(
        game, GameChange.Action.LAST_TRICKS, actor, number, {"before": before, "after": last_tricks}
    )
    return Recorded(game, state, created=False)


@transaction.atomic
def game_confirm(*, game_id: int, actor: str = "") -> Game:
    """Lock a finished, settled result; listeners hear of it once the transaction commits."""
    game = _locked(game_id)
    if game.confirmed:
        return game
    if game.result != Game.Result.FINISHED or game.placings is None:
        raise Conflict(_("only a finished game with settled placings can be confirmed"))
    game.result = Game.Result.CONFIRMED
    game.confirmed_at = timezone.now()
    game.confirmed_by = actor
    game.version += 1
    game.save()
    _log(game, GameChange.Action.CONFIRMED, actor, data={"placings": game.placings})
    transaction.on_commit(lambda: game_confirmed.send(sender=Game, game=game))
    return game


@transaction.atomic
def game_reopen(*, game_id: int, actor: str, reason: str) -> Game:
    """Unlock a confirmed result so it can be corrected; a reason is required."""
    if not reason.strip():
        raise InvalidInput(_("say why the result is reopened"))
    game = _locked(game_id)
    if not game.confirmed:
        raise Conflict(_("the result is not confirmed"))
    game.result = Game.Result.FINISHED
    game.confirmed_at = None
    game.confirmed_by = ""
    game.version += 1
    game.save()
    _log(game, GameChange.Action.REOPENED, actor, reason=reason.strip())
    transaction.on_commit(lambda: game_reopened.send(sender=Game, game=game))
    return game


@transaction.atomic
def secret_replace(*, game_id: int, actor: str, reason: str = "") -> Game:
    """A new table secret; the old one stops working at once. The secret is never logged."""
    game = _locked(game_id)
    game.secret = secrets.token_urlsafe(32)
    game.save(update_fields=["secret", "updated_at"])
    _log(game, GameChange.Action.SECRET_REPLACED, actor, reason=reason)
    return game


def secret_matches(game: Game, offered: object) -> bool:
    """Constant-time comparison, so timing reveals nothing about the secret."""
    return isinstance(offered, str) and secrets.compare_digest(
        offered.encode("utf-8", "surrogatepass"), game.secret.encode()
    )
