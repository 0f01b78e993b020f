"""A round's life has no dead end (docs/rounds.md): a round that can't be
built is refused at once, a build that fails anyway ends `failed` with its reason, failed,
draft and stuck rounds can be built again or deleted, and every state has a way out by the
same rule the pages offer actions by (selectors.round_actions)."""

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments import pairing, tasks
from tournaments.common import bridge
from tournaments.common.errors import NotAllowed
from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Entry, EventLog, Round
from tournaments.results.services import result_confirm
from tournaments.rounds.selectors import round_actions, round_to_build
from tournaments.rounds.services.rounds import (
    round_close,
    round_create,
    round_delete,
    round_pair,
    round_publish,
    round_retry,
)

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def url(event, name, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def pending_round(event, number=1) -> Round:
    """A round asked for whose task has not run (no worker, or a message the broker lost)."""
    return Round.objects.create(event=event, number=number, pairing_mode="swiss")


def age(round_: Round, seconds: int) -> Round:
    Round.objects.filter(pk=round_.pk).update(
        requested_at=timezone.now() - timedelta(seconds=seconds)
    )
    round_.refresh_from_db()
    return round_


# --- refused at once ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("checked_in", "message"),
    [
        (0, "no player is checked in; a round needs at least 3"),
        (1, "only 1 player is checked in; a round needs at least 3"),
        (2, "only 2 players are checked in; a round needs at least 3"),
    ],
)
def test_a_round_with_fewer_than_3_players_is_refused_at_once(organised_event, checked_in, message):
    register(organised_event, checked_in)
    register(organised_event, 4, checked_in=False, start=10)  # entered, not here
    with pytest.raises(NotAllowed) as refused:
        round_create(event=organised_event, actor="olga")
    assert refused.value.message == message and refused.value.kind == "not_allowed"  # 409
    assert not organised_event.rounds.exists()


def test_withdrawn_players_do_not_count_towards_the_three(organised_event):
    entries = register(organised_event, 3)
    entry_withdraw(entry=entries[0], actor="olga")
    with pytest.raises(NotAllowed, match="only 2 players are checked in"):
        round_create(event=organised_event)


def test_the_dashboard_says_so_before_the_tap_and_the_refusal_comes_back_to_it(
    organiser_client, organised_event
):
    register(organised_event, 2)
    body = text(organiser_client.get(url(organised_event, "organise_event")))
    assert "Only 2 players are checked in; a round needs at least 3." in body
    assert '<button type="submit" class="secondary" aria-describedby="too-few">' in body
    response = organiser_client.post(url(organised_event, "organise_round_create"))
    # POST/redirect/GET: a reload shows the dashboard again, it does not post again
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_event")
    body = text(organiser_client.get(response["Location"]))
    assert '<p class="message error">only 2 players are checked in' in body
    assert not organised_event.rounds.exists()


def test_a_round_still_open_is_named_in_the_refusal(organised_event, build_round):
    register(organised_event, 6)
    build_round(organised_event)
    with pytest.raises(NotAllowed, match="round 1 is a draft: publish it or delete it first"):
        round_create(event=organised_event)


# --- a build that fails anyway ends failed, with its reason ------------------------------------


def test_a_round_whose_field_shrank_before_its_build_fails_with_the_reason(organised_event):
    """Before: the worker raised ValueError and the round stayed pending for ever."""
    register(organised_event, 2)
    round_ = pending_round(organised_event)  # e.g. asked for before a withdrawal
    round_ = round_pair(round_id=round_.pk)
    assert round_.status == Round.Status.FAILED
    assert round_.build_error == "only 2 players are checked in; a round needs at least 3"
    assert tasks.pair_round(round_.pk) == "failed"  # the task again: nothing to do


def test_any_error_in_the_build_ends_it_failed(organised_event, monkeypatch):
    register(organised_event, 6)

    def broken(request):
        raise RuntimeError("the pairing crashed")

    monkeypatch.setattr(pairing, "pair", broken)
    round_ = round_pair(round_id=pending_round(organised_event).pk)
    assert round_.status == Round.Status.FAILED
    assert round_.build_error == "RuntimeError: the pairing crashed"
    assert not round_.tables.exists()

    monkeypatch.undo()

    def no_request(round_):
        raise ValueError("bad history")

    monkeypatch.setattr(bridge, "pairing_request", no_request)
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PENDING)
    assert round_pair(round_id=round_.pk).status == Round.Status.FAILED


def test_the_sweep_fails_such_a_round_instead_of_raising_every_minute(organised_event):
    register(organised_event, 2)
    round_ = pending_round(organised_event)
    assert tasks.sweep()["rounds"] == [round_.pk]
    round_.refresh_from_db()
    assert round_.status == Round.Status.FAILED
    assert tasks.sweep()["rounds"] == []


def test_the_failed_round_page_gives_the_reason_and_both_ways_out(
    organiser_client, organised_event
):
    register(organised_event, 2)
    round_pair(round_id=pending_round(organised_event).pk)
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert (
        "The round could not be built: only 2 players are checked in; a round needs at least 3"
        in body
    )
    assert url(organised_event, "organise_round_retry", 1) in body
    assert url(organised_event, "organise_round_delete", 1) in body
    dashboard = text(organiser_client.get(url(organised_event, "organise_event")))
    assert "Could not be built: build it again or delete it" in dashboard


# --- build again, delete --------------------------------------------------------------------------


def test_a_failed_round_built_again_after_check_ins_takes_everyone_entered(
    organised_event, django_capture_on_commit_callbacks
):
    register(organised_event, 2)
    round_ = round_pair(round_id=pending_round(organised_event).pk)
    late = register(organised_event, 4, start=10)  # entered while round 1 had failed
    assert {entry.joined_round for entry in late} == {1}
    with django_capture_on_commit_callbacks(execute=True):
        round_retry(round_=round_, actor="olga")
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.build_error == ""
    assert round_.tables.count() == 2
    # nothing to look at: only the note of the rounds the field still allows
    assert [flag["code"] for flag in round_.flags] == [bridge.ROUNDS_BOUND]


def test_deleting_a_failed_or_draft_round_lets_its_number_be_built_again(
    organiser_client, organised_event, build_round
):
    register(organised_event, 2)
    round_pair(round_id=pending_round(organised_event).pk)
    response = organiser_client.post(url(organised_event, "organise_round_delete", 1))
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_event")
    assert "Round 1 deleted." in text(organiser_client.get(response["Location"]))
    assert not organised_event.rounds.exists()
    log = EventLog.objects.get(event=organised_event, action="round_deleted")
    assert (log.actor, log.data) == ("olga", {"round": 1})
    assert "Round 1 deleted." in text(organiser_client.get(url(organised_event, "organise_log")))

    register(organised_event, 4, start=10)
    draft = build_round(organised_event)
    assert draft.number == 1 and draft.status == Round.Status.DRAFT
    register(organised_event, 3, start=20)  # late entries join round 2 ...
    assert set(
        Entry.objects.filter(player__name__startswith="Player 02").values_list(
            "joined_round", flat=True
        )
    ) == {2}
    round_delete(round_=draft, actor="olga")
    # ... until round 1 is deleted: then they play the round 1 built next
    assert set(Entry.objects.values_list("joined_round", flat=True)) == {1}
    assert build_round(organised_event).tables.count() == 3


def test_published_and_closed_rounds_are_never_deleted(
    organiser_client, organised_event, build_round
):
    register(organised_event, 3)
    round_ = build_round(organised_event, publish=True)
    with pytest.raises(NotAllowed, match="can be deleted"):
        round_delete(round_=round_)
    response = organiser_client.post(url(organised_event, "organise_round_delete", 1))
    assert response.status_code == 302
    assert response["Location"] == url(organised_event, "organise_round", 1)
    assert "can be deleted" in text(organiser_client.get(response["Location"]))
    assert organised_event.rounds.get().status == Round.Status.PUBLISHED


# --- a build no worker takes ------------------------------------------------------------------


def test_a_round_pending_over_a_minute_says_so_and_is_built_on_the_spot(
    organiser_client, organised_event, django_capture_on_commit_callbacks, monkeypatch
):
    register(organised_event, 6)
    round_ = pending_round(organised_event)
    # a fresh build: waiting, polled, nothing to retry yet
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "Building tables…" in body and 'hx-trigger="every 2s"' in body
    assert url(organised_event, "organise_round_retry", 1) not in body
    with pytest.raises(NotAllowed):
        round_retry(round_=round_)

    age(round_, 61)
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "more than a minute ago" in body and "worker seems to have stopped" in body
    assert url(organised_event, "organise_round_retry", 1) in body
    assert 'hx-trigger="every 2s"' not in body  # the buttons hold still under the thumb
    dashboard = text(organiser_client.get(url(organised_event, "organise_event")))
    assert "Still being built after a minute: build it again" in dashboard
    assert 'hx-trigger="every 2s"' not in dashboard

    # no worker: the message is sent nowhere, the page builds the round itself
    monkeypatch.setattr(tasks.pair_round, "delay", lambda *a: None)
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(url(organised_event, "organise_round_retry", 1))
    assert response.status_code == 302
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.tables.count() == 2


# --- every state has a way out -------------------------------------------------------------------


def _published_and_played(event, build_round) -> Round:
    round_ = build_round(event, publish=True)
    rng = random.Random(7)
    for table in round_.tables.select_related("game"):
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    return round_


def _state(event, status: str, build_round) -> Round:
    """A round of `event` in `status` (pending: stuck, as a stopped worker leaves it)."""
    if status == Round.Status.PENDING:
        return age(pending_round(event), 120)
    if status == Round.Status.FAILED:
        Entry.objects.filter(event=event).update(checked_in=False)
        round_ = round_pair(round_id=pending_round(event).pk)
        Entry.objects.filter(event=event).update(checked_in=True)
        return round_
    if status == Round.Status.DRAFT:
        return build_round(event)
    round_ = _published_and_played(event, build_round)
    if status == Round.Status.CLOSED:
        return round_close(round_=round_, actor="olga")
    return round_


ACTIONS = {
    "retry": lambda r: round_retry(round_=r, actor="olga"),
    "delete": lambda r: round_delete(round_=r, actor="olga"),
    "publish": lambda r: round_publish(round_=r, actor="olga"),
    "close": lambda r: round_close(round_=r, actor="olga"),
    "swap": None,  # stays a draft by design: not a way out
}


@pytest.mark.parametrize("status", [s.value for s in Round.Status])
def test_every_state_has_a_way_out(
    status, organised_event, build_round, django_capture_on_commit_callbacks
):
    register(organised_event, 6)
    offered = round_actions(_state(organised_event, status, build_round))
    if status == Round.Status.CLOSED:
        # final for the round: the way forward is the event's next round
        assert offered == frozenset()
        assert round_to_build(organised_event, organised_event.rounds.last()) == 2
        return
    left = []
    for action in sorted(offered):
        if ACTIONS[action] is None:
            continue
        Round.objects.filter(event=organised_event).delete()
        round_ = _state(organised_event, status, build_round)
        with django_capture_on_commit_callbacks(execute=True):
            ACTIONS[action](round_)
        after = Round.objects.filter(pk=round_.pk).values_list("status", flat=True).first()
        if after != status:
            left.append(action)
    assert left, f"no offered action leads out of {status!r} (offered: {sorted(offered)})"


@pytest.mark.parametrize("status", ["pending", "failed", "draft", "published", "closed"])
def test_the_page_offers_exactly_the_actions_the_rule_allows(
    status, organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    round_ = _state(organised_event, status, build_round)
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    allowed = round_actions(round_)
    for action in ("retry", "delete", "publish", "swap", "close"):
        offered = url(organised_event, f"organise_round_{action}", 1) in body
        assert offered == (action in allowed), (status, action)


# --- the organiser's round page: each table's progress -----------------------------------------


def test_each_table_shows_its_deals_last_entry_and_stale_tables(
    organiser_client, organised_event, build_round
):
    from scoring import services as scoring
    from scoring.models import DealEntry

    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    first, second = round_.tables.select_related("game").order_by("number")
    for number in (1, 2):
        scoring.deal_record(
            game_id=first.game_id, number=number, calls=["spades"], tricks=[3, 8, 5]
        )
    DealEntry.objects.filter(game=first.game).update(
        entered_at=timezone.now() - timedelta(minutes=3)
    )
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert "2 deals · last entry 3\xa0minutes ago" in body
    assert "0 deals · nothing entered yet" in body
    assert 'class="table-card result-in_play stale"' not in body

    # table 2 has entered nothing for 20 minutes since publishing, table 1 for 16
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=20))
    DealEntry.objects.filter(game=first.game).update(
        entered_at=timezone.now() - timedelta(minutes=16)
    )
    body = text(organiser_client.get(url(organised_event, "organise_round", 1)))
    assert len(re.findall(r'class="table-card result-in_play stale" id="table-\d"', body)) == 2
    assert body.count("no entry for 15 minutes") == 2
