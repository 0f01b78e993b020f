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
from .names import MAX_NAME, NameProblem, PlayerName, first_repeat
from .selectors import game_record, live_entries
from .signals import game_confirmed, game_reopened


@dataclass(frozen=True)
class Recorded:
    game: Game
    state: engine.GameState
    created: bool


def _clean_players(players: object) -> list[str]:
    """Three names, tidied; no two the same (case, spacing and accents aside), or nobody
    could tell from the sheet who is who (scoring.names holds the rule)."""
    if not isinstance(players, list | tuple) or len(players) != 3:
        raise InvalidInput(_("players must be three names, by seat"))
    cleaned = []
    for name in players:
        try:
            cleaned.append(str(PlayerName.parse(name)))
        except NameProblem as problem:
            if problem.code == "too_long":
                raise InvalidInput(
                    _("a name has at most %(n)s characters") % {"n": MAX_NAME}
                ) from None
            raise InvalidInput(_("each player needs a name")) from None
    repeat = first_repeat(cleaned)
    if repeat is not None:
        raise InvalidInput(same_name_message(cleaned[repeat[0]], cleaned[repeat[1]]))
    return cleaned


def same_name_message(first: str, second: str) -> str:
    """Why two names at one table are refused, in the page's language."""
    if first == second:
        return _(
            "“%(name)s” is written twice: add an initial or a surname so the sheet tells "
            "the players apart"
        ) % {"name": first}
    return _(
        "“%(first)s” and “%(second)s” are the same name: add an initial or a surname so "
        "the sheet tells the players apart"
    ) % {"first": first, "second": second}


def _replay(record: dict) -> engine.GameState:
    try:
        return engine.replay(record)
    except engine.RuleError as error:
        raise DealRejected(error.message, rule=error) from None


def _apply(game: Game, state: engine.GameState) -> None:
    """Copy the engine's answer onto the game and bump its version (caller saves).
    A void game was set aside by its organiser: no deal may change it any more."""
    if game.result == Game.Result.VOID:
        raise Conflict(_("the game is void (set aside by the organisers): no more deals"))
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
        raise InvalidInput(error.message, rule=error) from None
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
def deal_undo(
    *, game_id: int, number: object, actor: str = "", reason: str = "", version: object = None
) -> Recorded:
    """Undo the last deal while the result is unconfirmed; the row is kept, marked undone.
    With `version` (the game's version when the confirmation was shown), a game that has
    changed since is refused: a stale confirmation never undoes the deal before."""
    game = _locked(game_id)
    entries = live_entries(game)
    if version is not None and version != game.version:
        raise Conflict(
            _(
                "This confirmation is out of date: the game has changed since it was shown. "
                "Nothing was undone."
            )
        )
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


def deal_correct(
    *,
    game_id: int,
    number: object,
    calls: object,
    tricks: object = None,
    last_tricks: object = None,
    actor: str = "",
) -> Recorded:
    """Correct deal `number`, any recorded deal, not only the last: a mistake found hands later
    costs one correction instead of undoing every hand since. The whole game is replayed with
    the corrected deal; if it or a later deal no longer fits, nothing is saved and the
    DealRejected names the first deal that fails (its `rule.deal`). The old row is kept,
    marked undone at the moment its replacement was entered, and the history holds both
    (before → after), so a correction is never silent. The same values again change nothing
    (created=False); a confirmed result must be reopened by an organiser first."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InvalidInput(_("deal must be the positive number of a recorded deal"))
    try:
        return _deal_correct(game_id, number, calls, tricks, last_tricks, actor)
    except IntegrityError:
        # Another correction of this deal landed between our read and our write: decide again.
        return _deal_correct(game_id, number, calls, tricks, last_tricks, actor)


@transaction.atomic
def _deal_correct(game_id, number, calls, tricks, last_tricks, actor) -> Recorded:
    game = _locked(game_id)
    if game.confirmed:
        raise Conflict(_("the result is confirmed: an organiser must reopen it first"))
    if game.result == Game.Result.VOID:
        raise Conflict(_("the game is void (set aside by the organisers)"))
    entries = live_entries(game)
    if number > len(entries):
        raise Conflict(
            _("deal %(n)s is not recorded yet: %(count)s deals are recorded")
            % {"n": number, "count": len(entries)}
        )
    old = entries[number - 1]
    if _same_deal(old, calls, tricks, last_tricks):
        return Recorded(game, engine.replay(game_record(game, entries)), created=False)
    settled_by_hand = (GameChange.Action.ENDED_EARLY, GameChange.Action.RESULT_ADJUSTED)
    if game.changes.filter(action__in=settled_by_hand).exists():
        # Its result is the organisers' own, not the replay's: a replay would overwrite it.
        raise Conflict(_("the organisers set this game's result by hand: ask them to change it"))
    new = DealEntry(
        game=game,
        number=number,
        calls=calls,
        tricks=tricks,
        last_tricks=last_tricks,
        entered_by=actor,
    )
    state = _replay(game_record(game, [*entries[: number - 1], new, *entries[number:]]))
    old.undone_at = timezone.now()
    old.undone_by = actor
    old.save(update_fields=["undone_at", "undone_by"])  # first: one live row per number
    new.save()
    _apply(game, state)
    game.save()
    data = {"before": old.as_record(), "after": new.as_record()}
    _log(game, GameChange.Action.DEAL_CORRECTED, actor, number, data)
    return Recorded(game, state, created=True)


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


# --- a table that cannot be played out: a walkout (tournaments.walkouts calls these) --------


def _reason(reason: object) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise InvalidInput(_("say why"))
    return text


def _still_open(game: Game) -> None:
    """Walkout changes apply to a game still being played or awaiting confirmation."""
    if game.result == Game.Result.VOID:
        raise Conflict(_("the game is void (set aside by the organisers)"))
    if game.confirmed:
        raise Conflict(_("the result is confirmed: reopen it first"))


@transaction.atomic
def seat_substitute(*, game_id: int, seat: object, name: object, actor: str, reason: str) -> Game:
    """Another player takes `seat` from the next deal on; the deals so far stand as played.
    The name by seat changes for display; the history keeps who sat there before and from
    which deal the new player plays."""
    reason = _reason(reason)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in (0, 1, 2):
        raise InvalidInput(_("seat must be 0, 1 or 2"))
    game = _locked(game_id)
    _still_open(game)
    if game.result == Game.Result.FINISHED:
        raise Conflict(_("the game is finished: no deal is left to play"))
    # The table's names with the new one, checked as a new game's are (no two the same).
    players = _clean_players([name if i == seat else old for i, old in enumerate(game.players)])
    before, new_name = game.players[seat], players[seat]
    from_deal = len(live_entries(game)) + 1
    game.players = players
    game.version += 1
    game.save()
    data = {"seat": seat, "before": before, "after": new_name, "from_deal": from_deal}
    _log(game, GameChange.Action.SEAT_SUBSTITUTED, actor, from_deal, data, reason)
    return game


def early_placings(state: engine.GameState) -> tuple[int, int, int]:
    """The placings of a game stopped before its end, by the engine's own placing rule
    (engine.placings.place): totals first, then the last hand's points, then who won a trick
    of the last hand most recently. Refused when no hand was played, or when only trick
    winners nobody entered could separate equal totals."""
    from engine.placings import place

    hands = state.hands
    if not hands:
        raise Conflict(_("no hand has been played yet: void the table or enter a result by hand"))
    last = hands[-1]
    outcome = place(
        state.totals, last.points, last.tricks, last.last_tricks, state.rules.tricks_per_hand, None
    )
    if outcome.placings is None:
        raise Conflict(
            _(
                "the totals are level and only the winners of the last hand's tricks can "
                "separate them: add them on the score sheet, or enter a result by hand"
            )
        )
    return tuple(outcome.placings)


@transaction.atomic
def game_end_early(*, game_id: int, actor: str, reason: str) -> Game:
    """Stop the game as it stands: the placings of the score so far (early_placings). A game
    already finished by its rules is left as it is."""
    reason = _reason(reason)
    game = _locked(game_id)
    _still_open(game)
    entries = live_entries(game)
    state = engine.replay(game_record(game, entries))
    if state.finished:
        if state.placings is None:
            raise Conflict(_("the game needs the winners of the last tricks to be placed"))
        return game
    placings = early_placings(state)
    game.result = Game.Result.FINISHED
    game.totals = list(state.totals)
    game.placings = list(placings)
    game.version += 1
    game.save()
    data = {"placings": list(placings), "totals": list(state.totals), "deals": len(entries)}
    _log(game, GameChange.Action.ENDED_EARLY, actor, len(entries) or None, data, reason)
    return game


@transaction.atomic
def game_void(*, game_id: int, actor: str, reason: str) -> Game:
    """Set the game aside: it gives no result and takes no more deals. Its deals stay."""
    reason = _reason(reason)
    game = _locked(game_id)
    _still_open(game)
    before = {"result": game.result, "totals": game.totals, "placings": game.placings}
    game.result = Game.Result.VOID
    game.version += 1
    game.save()
    _log(game, GameChange.Action.VOIDED, actor, data=before, reason=reason)
    return game


def _placings_by_hand(placings: object) -> list[int]:
    if not isinstance(placings, list | tuple) or sorted(placings) != [0, 1, 2]:
        raise InvalidInput(_("placings must be the three seats (0, 1, 2), first to last"))
    if any(isinstance(seat, bool) for seat in placings):
        raise InvalidInput(_("placings must be the three seats (0, 1, 2), first to last"))
    return list(placings)


def _totals_by_hand(totals: object) -> list[int]:
    ok = isinstance(totals, list | tuple) and len(totals) == 3
    if not ok or not all(isinstance(t, int) and not isinstance(t, bool) for t in totals):
        raise InvalidInput(_("totals must be three whole numbers, by seat"))
    if any(abs(t) > 9999 for t in totals):
        raise InvalidInput(_("totals must be three whole numbers, by seat"))
    return list(totals)


@transaction.atomic
def game_adjust(*, game_id: int, placings: object, totals: object, actor: str, reason: str) -> Game:
    """The organisers' own result: placings (seats, first to last) and, if given, totals by
    seat (else the score so far stands). Left finished, for game_confirm; the history keeps
    the result before and after."""
    reason = _reason(reason)
    placings = _placings_by_hand(placings)
    totals = None if totals is None else _totals_by_hand(totals)
    game = _locked(game_id)
    _still_open(game)
    before = {"placings": game.placings, "totals": game.totals}
    game.placings = placings
    if totals is not None:
        game.totals = totals
    game.result = Game.Result.FINISHED
    game.version += 1
    game.save()
    after = {"placings": game.placings, "totals": game.totals}
    _log(
        game,
        GameChange.Action.RESULT_ADJUSTED,
        actor,
        data={"before": before, "after": after},
        reason=reason,
    )
    return game
