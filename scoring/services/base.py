"""What every scoring service shares: the row lock, the engine's replay, copying its answer
onto the game, the history, and a table's three names checked."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import engine
from scoring.errors import Conflict, InvalidInput, names_alike, rules_refuse
from scoring.models import Game, GameChange
from scoring.names import MAX_NAME, NameProblem, PlayerName, first_repeat
from scoring.selectors import deal_changed_since, game_locked, hand_params


@dataclass(frozen=True)
class Recorded:
    game: Game
    state: engine.GameState
    created: bool


def clean_players(players: object, *, stored: tuple[int, ...] = ()) -> list[str]:
    """Three names, tidied; no two the same (case, spacing and accents aside), or nobody
    could tell from the sheet who is who (scoring.names holds the rule). The `stored` seats'
    names are the game's own, kept as they are (a name stored before a rule was added)."""
    if not isinstance(players, list | tuple) or len(players) != 3:
        raise InvalidInput("players_not_three")
    cleaned = []
    for seat, name in enumerate(players):
        if seat in stored:
            cleaned.append(name)
            continue
        try:
            cleaned.append(str(PlayerName.parse(name)))
        except NameProblem as problem:
            if problem.code == "too_long":
                raise InvalidInput("name_too_long", n=MAX_NAME) from None
            if problem.code == "list":
                raise InvalidInput("name_is_a_list", name=problem.text) from None
            raise InvalidInput("name_missing") from None
    repeat = first_repeat(cleaned)
    if repeat is not None:
        raise names_alike(cleaned[repeat[0]], cleaned[repeat[1]])
    return cleaned


def replay(record: dict) -> engine.GameState:
    try:
        return engine.replay(record)
    except engine.RuleError as error:
        raise rules_refuse(error) from None


def apply(game: Game, state: engine.GameState) -> None:
    """Copy the engine's answer onto the game and bump its version (caller saves).
    A void game was set aside by its organiser: no deal may change it any more."""
    if game.void:
        raise Conflict("void_no_deals")
    if not game.confirmed:
        game.result = Game.Result.FINISHED if state.finished else Game.Result.IN_PLAY
    game.totals = list(state.totals)
    game.placings = list(state.placings) if state.placings is not None else None
    game.version += 1


#: The columns `apply` changes (and Django's auto_now): all a deal's write has to send back.
APPLIED_FIELDS = ("result", "totals", "placings", "version", "updated_at")


def store(game: Game, state: engine.GameState) -> None:
    """Apply the engine's answer and write just those columns, not the whole row (a deal is
    the busiest write of an evening: docs/performance.md, cost per request)."""
    apply(game, state)
    game.save(update_fields=APPLIED_FIELDS)


def locked(game_id: int) -> Game:
    """The game a write changes, its row locked until the write's transaction ends; Game.
    DoesNotExist for no such game (scoring.selectors.game_locked: one plain statement)."""
    return game_locked(game_id)


def log(game, action, actor, deal_number=None, data=None, reason=""):
    """One line of the game's history, stamped with the game's version once the change is
    made (callers log after `store`): what tells a late write that its deal moved on."""
    GameChange.objects.create(
        game=game,
        action=action,
        actor=actor,
        deal_number=deal_number,
        data=data or {},
        reason=reason,
        version=game.version,
    )


def seen_version(version: object) -> int | None:
    """The game version a write says it was made against: a whole number from 0, or None
    (not given: the write is taken as it comes, as before versions were sent)."""
    if version is None:
        return None
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise InvalidInput("version_invalid")
    return version


#: The oldest a deal kept on an offline phone may say it is (seconds): older ages are taken as
#: this one. An evening's outage fits; the clock's rule at time is never much further back.
MAX_AGE = 3 * 3600


def seen_age(age: object) -> int:
    """How long ago the keeper entered a deal, by the phone's own clock (its offline queue
    measures it on that one clock, so a phone set to the wrong time still says it right):
    a whole number of seconds from 0, at most MAX_AGE; 0 when not given."""
    if age is None:
        return 0
    if not isinstance(age, int) or isinstance(age, bool) or age < 0:
        raise InvalidInput("age_invalid")
    return min(age, MAX_AGE)


def not_stale(
    game: Game, entries: Sequence, number: int, version: int | None, code: str = "deal_stale"
) -> None:
    """The one rule for a write that may arrive late (an offline queue, a retry, a page left
    open): made against `version`, it is refused when deal `number` was recorded, corrected,
    undone or given its last tricks after that version, on whatever phone: it would silently
    overwrite (or bring back) what the table did since. Changes to other deals do not make
    it stale. The refusal names both versions (`yours`, `current`) and the deal as the
    players count it among the live `entries` (selectors.hand_params)."""
    if deal_changed_since(game, number, version):
        named = hand_params(entries, number)
        raise Conflict(code, **named, yours=version, current=game.version)


def reason_given(reason: object) -> str:
    text = " ".join(str(reason or "").split())
    if not text:
        raise InvalidInput("reason_missing")
    return text


#: The history's marks of a result the organisers set by hand (rounds.services.walkouts).
SETTLED_BY_HAND = (GameChange.Action.ENDED_EARLY, GameChange.Action.RESULT_ADJUSTED)


def replay_decides(game: Game) -> None:
    """A result the organisers set by hand (ended early, adjusted) is theirs, not the
    replay's: a deal recorded, undone or corrected would replay over it, so none may be.
    Such a result is always finished, so a game in play costs no query."""
    if game.result != Game.Result.FINISHED:
        return
    if game.changes.filter(action__in=SETTLED_BY_HAND).exists():
        raise Conflict("result_by_hand")


def still_open(game: Game) -> None:
    """Walkout changes apply to a game still being played or awaiting confirmation."""
    if game.void:
        raise Conflict("void")
    if game.confirmed:
        raise Conflict("reopen_first")
