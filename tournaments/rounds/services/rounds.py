"""Writes to rounds: asking for one, the pairing task's build, rebuilding, deleting, swapping
players in a draft, publishing and closing (docs/rounds.md)."""

from __future__ import annotations

import logging
import time

from django.db import DatabaseError, transaction
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Game
from tournaments import pairing
from tournaments.common import bridge
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.common.queue import enqueue_on_commit
from tournaments.common.services import log_action, standings_changed
from tournaments.common.vocabulary import ROUND_MIN_PLAYERS
from tournaments.models import Event, Round, Table
from tournaments.rounds.selectors import (
    round_actions,
    round_field_size,
    round_progress_of,
    round_to_build,
)
from tournaments.rounds.services.clock import clock_autostart
from tournaments.rounds.services.pins import pins_make

log = logging.getLogger(__name__)


def too_few_players(count: int) -> TournamentError | None:
    """The refusal of a round of `count` players (None when they are enough)."""
    if count >= ROUND_MIN_PLAYERS:
        return None
    if count == 0:
        return NotAllowed("no_players_checked_in")
    return NotAllowed("too_few_players", n=count)


def _not_buildable(event: Event, last: Round | None) -> NotAllowed:
    """Why no round can be built now (selectors.round_to_build said None)."""
    if event.status == Event.Status.CLOSED:
        return NotAllowed("event_closed")
    if last.status == Round.Status.CLOSED:  # the last planned round is over
        return NotAllowed("rounds_all_played", n=event.rounds_planned)
    code = {
        Round.Status.PENDING: "round_pending",
        Round.Status.FAILED: "round_failed",
        Round.Status.DRAFT: "round_draft",
    }.get(last.status, "round_not_closed")
    return NotAllowed(code, n=last.number)


def round_refusal(event: Event) -> TournamentError | None:
    """Why round_create would refuse the event's next round now (None: it would build one):
    the pages say it before the organiser taps, with the service's own rule."""
    last = event.rounds.order_by("-number").first()
    number = round_to_build(event, last)
    if number is None:
        return _not_buildable(event, last)
    return too_few_players(round_field_size(event, number))


def _allowed(round_: Round, action: str, code: str) -> None:
    """Refuse an action the round's state does not allow (selectors.round_actions: the rule
    the pages offer actions by)."""
    if action not in round_actions(round_):
        raise NotAllowed(code)


@transaction.atomic
def round_create(*, event: Event, actor: str = "") -> Round:
    """Start building the next round; the pairing runs in a Celery task after commit. A round
    that can't be paired (too few players) is refused here, never left to fail later."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    refusal = round_refusal(event)
    if refusal is not None:
        raise refusal
    number = round_to_build(event, event.rounds.order_by("-number").first())
    round_ = Round.objects.create(
        event=event, number=number, pairing_mode=event.pairing_mode(number)
    )
    log_action(event, actor, "round_requested", round=number, mode=round_.pairing_mode)
    enqueue_on_commit("pair_round", round_.pk)
    return round_


def round_pair(*, round_id: int) -> Round:
    """The pairing task's work: build the draft tables. Running it twice changes nothing.

    Any build that fails ends `failed` with the reason, so no round waits for ever: the
    field may have shrunk since the round was asked for, and an unexpected error must not
    leave the round pending for the sweep to fail on again every minute. Only database
    errors propagate (the task retries them).
    """
    try:
        with transaction.atomic():
            round_ = Round.objects.select_for_update().select_related("event").get(pk=round_id)
            if round_.status != Round.Status.PENDING:
                return round_
            count = round_field_size(round_.event, round_.number)
            refusal = too_few_players(count)
            if refusal is not None:
                raise refusal
            request = bridge.pairing_request(round_)
            started = time.perf_counter()
            result = pairing.pair(request)
            round_.pairing_seconds = time.perf_counter() - started
            bridge.store_pairing(round_, result, request)
            round_.status = Round.Status.DRAFT
            round_.built_at = timezone.now()
            round_.save()
            return round_
    except (DatabaseError, Round.DoesNotExist):
        raise
    except TournamentError as error:
        count = error.params.get("n", 0)
        return _round_failed(round_id, "too_few_players", _english(error), count)
    except pairing.PairingError as error:
        return _round_failed(round_id, error.code, error.message, error.data.get("count"))
    except Exception as error:  # noqa: BLE001 - any other failure ends the build too
        log.exception("round %s could not be built", round_id)
        return _round_failed(round_id, "error", f"{type(error).__name__}: {error}")


def _english(error: TournamentError) -> str:
    """The stored reason (the API's "error"), in the site's language: pages word it again
    from the round's flag (organise_presenters.build_error)."""
    from django.conf import settings
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        return error.message


def _round_failed(round_id: int, code: str, message: str, count: int | None = None) -> Round:
    """Store a failed build: the reason in words (the API's "error") and, as the round's one
    flag, its code for the pages to translate (organise_presenters.build_error)."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update().get(pk=round_id)
        if round_.status != Round.Status.PENDING:
            return round_
        round_.status = Round.Status.FAILED
        round_.build_error = message
        round_.flags = [{"code": "build_failed", "reason": code, "amount": count}]
        round_.save()
    return round_


@transaction.atomic
def round_retry(*, round_: Round, actor: str = "") -> Round:
    """Build a failed or draft round again (e.g. after check-ins changed), or one whose build
    was lost (still pending a minute on: no worker took it). Everyone entered by now plays.

    A lost build is run in this process once the change is committed rather than sent to the
    worker again: a stopped worker must not stop the evening (pairing takes well under a
    second). Running twice is harmless: the pairing skips a round no longer pending.
    """
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(round_, "retry", "retry_not_allowed")
    stuck = round_.status == Round.Status.PENDING
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.event.entries.filter(joined_round__gt=round_.number).update(joined_round=round_.number)
    round_.status = Round.Status.PENDING
    round_.build_error = ""
    round_.flags = []
    round_.requested_at = timezone.now()
    round_.save()
    log_action(round_.event, actor, "round_rebuilt", round=round_.number)
    if stuck:
        transaction.on_commit(lambda pk=round_.pk: round_pair(round_id=pk))
    else:
        enqueue_on_commit("pair_round", round_.pk)
    return round_


@transaction.atomic
def round_delete(*, round_: Round, actor: str = "", reason: str = "") -> int:
    """Delete a failed or draft round (or one stuck being built): its number can be built
    again later, and players entered meanwhile join it. Published rounds have games and
    are never deleted. Returns the deleted round's number."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(round_, "delete", "delete_not_allowed")
    event, number = round_.event, round_.number
    round_.delete()  # its tables and byes go with it (no game yet)
    event.entries.filter(joined_round__gt=number).update(joined_round=number)
    log_action(event, actor, "round_deleted", reason, round=number)
    return number


@transaction.atomic
def round_swap(*, round_: Round, first: int, second: int, actor: str = "") -> Round:
    """Swap two players (by player id) in a draft: between tables, seats or a bye."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    _allowed(round_, "swap", "swap_not_allowed")
    places = {}
    for table in round_.tables.all():
        for seat, pid in enumerate(table.seat_ids):
            places[pid] = (table, seat)
    for bye in round_.byes.all():
        places[bye.player_id] = (bye, None)
    if first not in places or second not in places or first == second:
        raise TournamentError("swap_players_invalid")
    (a, seat_a), (b, seat_b) = places[first], places[second]
    _put(a, seat_a, second)  # a and b are one object when both sit at the same table
    _put(b, seat_b, first)
    a.save()
    if b is not a:
        b.save()
    bridge.reflag_round(round_)
    log_action(round_.event, actor, "players_swapped", round=round_.number, players=[first, second])
    return round_


def _put(place, seat, player_id) -> None:
    if seat is None:
        place.player_id = player_id
    else:
        setattr(place, f"seat_{seat}_id", player_id)


@transaction.atomic
def round_publish(*, round_: Round, actor: str = "") -> Round:
    """Publish a draft: every table gets its game (and with it a table secret); its byes
    count from now, so the standings are stale. Once committed, the round's public pages are
    written into the shared cache by a task (prerender_round), not in the organiser's answer:
    ~0.3 s a language at 333 tables; should it fail, they render on demand."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    _allowed(round_, "publish", "publish_not_allowed")
    event = round_.event
    tables = list(round_.tables.select_related("seat_0", "seat_1", "seat_2"))
    for table in tables:
        table.game = scoring.game_create(
            ruleset=event.ruleset,
            options=event.options,
            players=[player.name for player in table.seats],
            first_dealer=table.first_dealer,
            actor=actor,
        )
    Table.objects.bulk_update(tables, ["game"])
    # Who confirms each table's result: the event's rule, kept on the game (scoring decides).
    Game.objects.filter(table__round=round_).update(quorum=event.confirm_quorum)
    pins_make(round_)  # the typeable fallback to each card's keeper QR
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save()
    if event.status == Event.Status.REGISTRATION:
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    log_action(event, actor, "round_published", round=round_.number, tables=len(tables))
    clock_autostart(round_, actor)
    standings_changed(event)
    # The room asks at once: its pages are written out before (tournaments.rounds.render).
    enqueue_on_commit("prerender_round", round_.pk)
    return round_


def close_refusal(round_: Round) -> NotAllowed | None:
    """Why round_close would refuse the round now (None: it would close it): the page asks
    "Close round n?" only of a round that can close, by the service's own rule."""
    if round_.status != Round.Status.PUBLISHED:
        return NotAllowed("close_not_allowed")
    progress = round_progress_of(round_)
    if not progress.all_settled:
        return NotAllowed("tables_unsettled", n=progress.unsettled)
    return None


@transaction.atomic
def round_close(*, round_: Round, actor: str = "") -> Round:
    """Close a published round once every table is settled: final (a result found wrong is
    reopened on its table). The event goes on: the next round, a round more, or its end."""
    round_ = Round.objects.select_for_update().select_related("event").get(pk=round_.pk)
    refusal = close_refusal(round_)
    if refusal is not None:
        raise refusal
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save()
    event = round_.event  # the event goes on: its organisers add a round or end it
    log_action(event, actor, "round_closed", round=round_.number)
    standings_changed(event)
    return round_
