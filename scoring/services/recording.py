"""Deals: recorded, undone, corrected, and the last tricks' winners added.

Each write locks the game row, asks the engine to replay the stored deals plus the change,
and writes only if the engine accepts. A unique constraint on live deal numbers backs the
lock up, so the same deal is never stored twice on any database, whatever arrives at once.

The live deals are read as plain values (selectors.live_deals), not as models: a deal is the
busiest write of an evening, and what the engine needs is the stored values, not DealEntry
objects (docs/performance.md, cost per request). A row that changes is written by its id.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

import engine
from scoring.errors import Conflict, InvalidInput
from scoring.models import DealEntry, Game, GameChange
from scoring.selectors import LiveDeal, engine_game, game_record, hand_of, hand_params, live_deals
from scoring.services.base import (
    Recorded,
    locked,
    log,
    not_stale,
    replay,
    replay_decides,
    seen_age,
    seen_version,
    store,
)
from scoring.signals import deal_recorded


def _same_deal(entry: LiveDeal, calls, tricks, last_tricks) -> bool:
    return (entry.calls, entry.tricks, entry.last_tricks or None) == (
        calls,
        tricks,
        last_tricks or None,
    )


def _set_aside(deal: LiveDeal, actor: str) -> None:
    """Mark a live deal undone now, by `actor`: its row stays, for the history."""
    DealEntry.objects.filter(pk=deal.pk).update(undone_at=timezone.now(), undone_by=actor)


def _deal_number(number: object, code: str) -> None:
    """A deal number is a positive whole number (JSON's true is not 1)."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise InvalidInput(code)


def _decided_once_more_on_a_race(decide, *args) -> Recorded:
    """Run a locked write; if another request stored the same deal number between our read
    and our write (the unique constraint says so), decide again on what is stored now."""
    try:
        return decide(*args)
    except IntegrityError:
        return decide(*args)


def deal_record(
    *,
    game_id: int,
    number: object,
    calls: object,
    tricks: object = None,
    last_tricks: object = None,
    actor: str = "",
    version: object = None,
    age: object = None,
) -> Recorded:
    """Record deal `number`; the same deal sent again records nothing (created=False),
    whatever `version` it carries. With `version` (the game's version the deal was entered
    against), a deal sent after another phone undid deal `number` is refused (base.not_stale)
    instead of bringing the undone deal back. `age` is how many seconds ago the keeper
    entered it (an offline phone's queue says so; see `played_at`)."""
    _deal_number(number, "deal_number")
    version = seen_version(version)
    age = seen_age(age)
    return _decided_once_more_on_a_race(
        _deal_record, game_id, number, calls, tricks, last_tricks, actor, version, age
    )


def played_at(entries: list[LiveDeal], age: int) -> datetime:
    """When a deal arriving now was played: `age` seconds ago, but never before the deal
    before it was (a phone cannot reorder the table's evening). The round clock's rule at
    time asks this, so a hand kept offline before time and sent after is not taken for the
    hand being played at time."""
    now = timezone.now()
    if not age:
        return now
    moment = now - timedelta(seconds=age)
    if entries:
        row = DealEntry.objects.filter(pk=entries[-1].pk).values_list("played_at", "entered_at")
        played, entered = row.get()
        moment = max(moment, played or entered)
    return moment


@transaction.atomic
def _deal_record(game_id, number, calls, tricks, last_tricks, actor, version, age) -> Recorded:
    game = locked(game_id)
    entries = live_deals(game.pk)
    if number <= len(entries):
        if _same_deal(entries[number - 1], calls, tricks, last_tricks):
            return Recorded(game, engine.replay(game_record(game, entries)), created=False)
        raise Conflict("deal_taken", **hand_params(entries, number))
    if number != len(entries) + 1:
        following = len(entries) + 1
        played = [entry.tricks for entry in entries]
        raise Conflict(
            "deal_not_next", n=number, next=following, next_hand=hand_of(played, following)
        )
    not_stale(game, entries, number, version)
    if game.confirmed:
        raise Conflict("confirmed_no_deals")
    replay_decides(game)
    entry = DealEntry(
        game=game,
        number=number,
        calls=calls,
        tricks=tricks,
        last_tricks=last_tricks,
        entered_by=actor,
        played_at=played_at(entries, age),
    )
    state = replay(game_record(game, [*entries, entry]))
    entry.save()
    store(game, state)
    log(game, GameChange.Action.DEAL_RECORDED, actor, number, entry.as_record())
    if game.time_up_at is not None and entry.played_at >= game.time_up_at:
        answers = deal_recorded.send(sender=Game, game=game, number=number)
        if any(answer for _receiver, answer in answers):
            game.refresh_from_db()  # its owner ended it (the round clock): answer it as it is
    return Recorded(game, state, created=True)


@transaction.atomic
def deal_undo(
    *, game_id: int, number: object, actor: str = "", reason: str = "", version: object = None
) -> Recorded:
    """Undo the last deal while the result is unconfirmed; the row is kept, marked undone.
    With `version` (the game's version when the undo was asked for), a deal changed since
    (undone already, corrected, recorded anew) is refused (base.not_stale): a second tap or
    Back never undoes the deal before, and a late undo never takes away what it did not see."""
    version = seen_version(version)
    game = locked(game_id)
    entries = live_deals(game.pk)
    not_stale(game, entries, number, version, "undo_stale")
    if game.confirmed:
        raise Conflict("undo_confirmed")
    replay_decides(game)
    if not entries or number != len(entries):
        raise Conflict("undo_not_last", **hand_params(entries, len(entries)))
    entry = entries[-1]
    _set_aside(entry, actor)
    state = engine.replay(game_record(game, entries[:-1]))
    store(game, state)
    log(game, GameChange.Action.DEAL_UNDONE, actor, number, entry.as_record(), reason)
    return Recorded(game, state, created=False)


@transaction.atomic
def last_tricks_add(
    *, game_id: int, number: object, last_tricks: object, actor: str = "", version: object = None
) -> Recorded:
    """Give the winners of the last tricks of the last hand, for a tie-break. The same
    winners again change nothing; with `version`, other winners given since are not
    overwritten (base.not_stale)."""
    version = seen_version(version)
    game = locked(game_id)
    entries = live_deals(game.pk)
    if game.confirmed:
        raise Conflict("confirmed")
    replay_decides(game)
    if not entries or number != len(entries) or entries[-1].tricks is None:
        raise Conflict("last_tricks_not_last")
    if not isinstance(last_tricks, list):
        raise InvalidInput("last_tricks_not_list")
    entry = entries[-1]
    if version is not None and entry.last_tricks == last_tricks:
        return Recorded(game, engine.replay(game_record(game, entries)), created=False)
    not_stale(game, entries, number, version)
    before = entry.last_tricks
    state = replay(game_record(game, [*entries[:-1], entry._replace(last_tricks=last_tricks)]))
    DealEntry.objects.filter(pk=entry.pk).update(last_tricks=last_tricks)
    store(game, state)
    log(
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
    version: object = None,
) -> Recorded:
    """Correct deal `number`, any recorded deal, not only the last: a mistake found hands later
    costs one correction instead of undoing every hand since. The whole game is replayed with
    the corrected deal; if it or a later deal no longer fits, nothing is saved and the
    DealRejected names the first deal that fails (its `rule.deal`). The old row is kept,
    marked undone at the moment its replacement was entered, and the history holds both
    (before → after), so a correction is never silent. The same values again change nothing
    (created=False); a confirmed result must be reopened by an organiser first. With
    `version` (the game's version the correction was made against), a deal changed since on
    another phone is refused (base.not_stale), not overwritten."""
    _deal_number(number, "correct_number")
    version = seen_version(version)
    return _decided_once_more_on_a_race(
        _deal_correct, game_id, number, calls, tricks, last_tricks, actor, version
    )


@transaction.atomic
def _deal_correct(game_id, number, calls, tricks, last_tricks, actor, version) -> Recorded:
    game = locked(game_id)
    if game.confirmed:
        raise Conflict("correct_confirmed")
    if game.void:
        raise Conflict("void")
    entries = live_deals(game.pk)
    old = entries[number - 1] if number <= len(entries) else None
    if old is not None and _same_deal(old, calls, tricks, last_tricks):
        return Recorded(game, engine.replay(game_record(game, entries)), created=False)
    not_stale(game, entries, number, version)
    if old is None:
        raise Conflict("deal_not_recorded", **hand_params(entries, number), count=len(entries))
    replay_decides(game)
    new = DealEntry(
        game=game,
        number=number,
        calls=calls,
        tricks=tricks,
        last_tricks=last_tricks,
        entered_by=actor,
    )
    state = replay(game_record(game, [*entries[: number - 1], new, *entries[number:]]))
    _set_aside(old, actor)  # first: one live row per number
    new.save()
    store(game, state)
    data = {"before": old.as_record(), "after": new.as_record()}
    log(game, GameChange.Action.DEAL_CORRECTED, actor, number, data)
    return Recorded(game, state, created=True)


def calls_make(
    *, game_id: int, number: object, calls: list[str], actor: str = "", version: object = None
) -> Recorded | None:
    """The calls of the deal being entered, so far. Calls the rules do not open now are
    refused; calls that end in a redeal are recorded at once (a redeal has nothing more to
    enter; `version` as deal_record's); otherwise nothing is written yet and None says the
    tricks are due."""
    game = Game.objects.get(pk=game_id)
    auction = engine_game(game).auction()
    try:
        for name in calls:
            auction = auction.call(name)
    except engine.RuleError:
        raise InvalidInput("call_not_open") from None
    if not auction.redeal:
        return None
    return deal_record(game_id=game_id, number=number, calls=calls, actor=actor, version=version)
