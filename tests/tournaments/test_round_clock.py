"""The round clock (tournaments.rounds.services.clock): its moves, its refusals, the event's
rule at time, and how a game it ended is shown."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

import engine
from scoring import autoplay
from scoring import services as scoring
from scoring.models import Game, GameChange
from scoring.presenters.history import history
from scoring.selectors import game_record
from tournaments.common import event_settings
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services.event import event_update
from tournaments.models import EventLog, Round, Table
from tournaments.results import exports
from tournaments.rounds.presenters.organise import log_lines
from tournaments.rounds.presenters.tables import state_words
from tournaments.rounds.selectors import ClockStatus, clock_of, table_state, tables_over_time
from tournaments.rounds.services import clock
from tournaments.rounds.services.walkouts import settled_tables

from .conftest import register

pytestmark = pytest.mark.django_db


def set_clock(event, **values):
    event_settings.apply(event, {"clock_minutes": 30, **values})
    event.save()


@pytest.fixture
def clocked(organised_event, build_round):
    """Six players, a 30-minute clock, round 1 published (two tables), clock not started."""
    set_clock(organised_event)
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    return organised_event, round_


def fresh(round_: Round) -> Round:
    return Round.objects.select_related("event").get(pk=round_.pk)


def time_up(round_: Round, ago: int = 0) -> None:
    """The round's time ran out `ago` seconds ago (its games told, as the clock's moves do)."""
    deadline = timezone.now() - timedelta(seconds=ago)
    Round.objects.filter(pk=round_.pk).update(clock_deadline=deadline)
    Game.objects.filter(table__round=round_).update(time_up_at=deadline)


def tables_of(round_: Round) -> list[Table]:
    return list(round_.tables.select_related("game", "round__event").order_by("number"))


def next_deal(game: Game, rng: random.Random) -> None:
    """One more deal at the table (skipping all-pass redeals, so a hand is played)."""
    while True:
        autoplay.play(game, rng, deals=1)
        game.refresh_from_db()
        entries = game.entries.filter(undone_at__isnull=True).order_by("-number")
        if entries.first().tricks is not None or game.result != Game.Result.IN_PLAY:
            return


def play_until_distinct(game: Game, rng: random.Random) -> None:
    for _ in range(40):
        next_deal(game, rng)
        assert game.result == Game.Result.IN_PLAY
        if len(set(game.totals)) == 3:
            return
    raise AssertionError(game.totals)


# --- its moves -----------------------------------------------------------------------------------


def test_start_pause_resume_extend_stop_each_move_the_deadline_and_are_logged(clocked):
    event, round_ = clocked
    assert clock_of(fresh(round_)).status == ClockStatus.IDLE

    before = timezone.now()
    clock.clock_start(round_=round_, actor="olga")
    state = clock_of(fresh(round_))
    assert state.status == ClockStatus.RUNNING
    # The round's games know when their time is up: the deal write asks the rule only then.
    assert set(Game.objects.filter(table__round=round_).values_list("time_up_at", flat=True)) == {
        state.deadline
    }
    after = timezone.now()
    assert before + timedelta(minutes=30) <= state.deadline <= after + timedelta(minutes=30)
    assert 29 * 60 < state.remaining <= 30 * 60

    clock.clock_pause(round_=round_, actor="olga")
    paused = clock_of(fresh(round_))
    assert paused.status == ClockStatus.PAUSED and paused.deadline is None
    assert not Game.objects.filter(table__round=round_, time_up_at__isnull=False).exists()
    left = paused.remaining
    clock.clock_extend(round_=round_, actor="olga")
    assert clock_of(fresh(round_)).remaining == left + 300

    clock.clock_resume(round_=round_, actor="olga")
    resumed = clock_of(fresh(round_))
    assert resumed.status == ClockStatus.RUNNING
    assert left + 298 <= resumed.remaining <= left + 300

    deadline = resumed.deadline
    clock.clock_extend(round_=round_, actor="olga")
    assert fresh(round_).clock_deadline == deadline + timedelta(minutes=5)

    clock.clock_stop(round_=round_, actor="olga")
    assert clock_of(fresh(round_)).status == ClockStatus.STOPPED
    actions = list(
        EventLog.objects.filter(event=event, action__startswith="clock_")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "clock_started",
        "clock_paused",
        "clock_extended",
        "clock_resumed",
        "clock_extended",
        "clock_stopped",
    ]
    words = [line.what for line in log_lines(list(event.log.all()), {})]
    assert "Round 1: clock extended by 5 minutes." in words
    # Stopped, it may start again, at the full length.
    clock.clock_start(round_=round_, actor="olga")
    assert clock_of(fresh(round_)).status == ClockStatus.RUNNING


def test_extending_a_clock_at_time_gives_five_minutes_from_now(clocked):
    _event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    time_up(round_, ago=600)
    assert clock_of(fresh(round_)).at_time
    clock.clock_extend(round_=round_, actor="olga")
    state = clock_of(fresh(round_))
    assert state.running and 298 <= state.remaining <= 300


def test_the_refusals_are_typed(clocked, organised_event, build_round):
    event, round_ = clocked
    with pytest.raises(NotAllowed) as refused:
        clock.clock_pause(round_=round_)
    assert refused.value.code == "clock_not_running"
    with pytest.raises(NotAllowed, match="not paused"):
        clock.clock_resume(round_=round_)
    with pytest.raises(NotAllowed) as refused:
        clock.clock_stop(round_=round_)
    assert refused.value.code == "clock_not_started"
    clock.clock_start(round_=round_)
    with pytest.raises(NotAllowed) as refused:
        clock.clock_start(round_=round_)
    assert refused.value.code == "clock_running"
    with pytest.raises(TournamentError) as refused:
        clock.clock_extend(round_=round_, minutes=0)
    assert refused.value.code == "clock_minutes_invalid"
    # No clock set: nothing to start.
    event.clock_minutes = 0
    event.save()
    with pytest.raises(NotAllowed) as refused:
        clock.clock_stop(round_=round_)
    assert refused.value.code == "clock_off"


def test_a_draft_round_has_no_clock_to_start(organised_event, build_round):
    set_clock(organised_event)
    register(organised_event, 6)
    draft = build_round(organised_event)
    with pytest.raises(NotAllowed) as refused:
        clock.clock_start(round_=draft)
    assert refused.value.code == "clock_round_not_open"
    assert clock_of(fresh(draft)).status == ClockStatus.IDLE


def test_the_clock_starts_by_itself_when_the_event_says_so(organised_event, build_round):
    set_clock(organised_event, clock_autostart=True)
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    state = clock_of(fresh(round_))
    assert state.running and state.deadline == round_.published_at + timedelta(minutes=30)
    line = EventLog.objects.get(event=organised_event, action="clock_started")
    assert line.data["by_itself"] is True


def test_no_clock_by_default(organised_event, build_round):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    assert organised_event.clock_minutes == 0
    assert clock_of(fresh(round_)).status == ClockStatus.OFF
    assert not EventLog.objects.filter(action="clock_started").exists()


# --- the settings --------------------------------------------------------------------------------


def test_the_clock_settings_are_checked_and_logged(organised_event):
    with pytest.raises(TournamentError) as refused:
        event_update(event=organised_event, clock_minutes=-5, actor="olga")
    assert refused.value.code == "clock_minutes_invalid"
    with pytest.raises(TournamentError) as refused:
        event_update(event=organised_event, clock_at_time="sudden", actor="olga")
    assert refused.value.code == "clock_at_time_unknown"
    with pytest.raises(TournamentError):
        event_update(event=organised_event, clock_more_deals=0, actor="olga")
    event_update(event=organised_event, clock_minutes=45, clock_at_time="more", clock_more_deals=2)
    organised_event.refresh_from_db()
    assert (organised_event.clock_minutes, organised_event.clock_at_time) == (45, "more")


# --- at time -------------------------------------------------------------------------------------


def test_finish_the_deal_the_next_deal_after_time_ends_the_game_as_it_stands(clocked):
    event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    first, second = tables_of(round_)
    rng = random.Random(5)
    play_until_distinct(first.game, rng)  # before time: the game goes on
    assert first.game.result == Game.Result.IN_PLAY
    time_up(round_)

    next_deal(first.game, rng)  # the deal being played at time

    first.refresh_from_db()
    game = first.game
    assert game.result == Game.Result.CONFIRMED and game.confirmed_by == "clock"
    assert first.outcome == Table.Outcome.ENDED_AT_TIME
    assert sorted(game.placings) == [0, 1, 2]
    # The second table, which recorded nothing since, still plays: flagged for the organiser.
    assert tables_over_time(fresh(round_), tables_of(round_)) == {second.number}
    # Shown as ended by the clock: the round pages, the standings' notes, the exports...
    words = state_words(table_state(first))
    assert words == "ended at time as it stood (round clock), confirmed"
    assert [t.pk for t in settled_tables(event)] == [first.pk]
    pairings = [row.record for row in exports.pairings_table(event).rows]
    assert {row["result"] for row in pairings if row.get("table") == first.number} == {words}
    # ...and the game's history, by the clock.
    change = game.changes.get(action=GameChange.Action.ENDED_EARLY)
    assert change.data["at_time"] is True and change.actor == "clock"
    line = next(view for view in history(game, [change]))
    assert line.actor == "round clock"
    assert line.detail.startswith("at time: the round clock ran out")
    assert EventLog.objects.filter(event=event, action="table_ended_at_time").count() == 1
    # Nothing more is recorded at that table.
    with pytest.raises(Exception):  # noqa: B017 - scoring's Conflict
        autoplay.play(game, rng, deals=1)


def test_play_n_more_deals_ends_the_game_after_the_deal_being_played_and_n_more(clocked):
    event, round_ = clocked
    set_clock(event, clock_at_time="more", clock_more_deals=2)
    clock.clock_start(round_=round_, actor="olga")
    table = tables_of(round_)[0]
    rng = random.Random(8)
    play_until_distinct(table.game, rng)
    time_up(round_)
    ended_after = 0
    for _ in range(3):
        game = Game.objects.get(pk=table.game_id)
        if game.result != Game.Result.IN_PLAY:
            break
        autoplay.play(game, rng, deals=1)
        ended_after += 1
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENDED_AT_TIME
    assert ended_after == 3  # the deal being played, then two more
    assert clock.deals_after_time(table, fresh(round_).clock_deadline) == 3


def offline_deal(client: Client, game: Game, rng: random.Random, age: int):
    """The next deal as a keeper's offline queue sends it: kept `age` seconds on the phone."""
    rules_game = engine.game_from_record(game_record(game))
    body = {"deal": len(rules_game.deals) + 1, **autoplay.next_deal(rules_game, rng), "age": age}
    answer = client.post(
        f"/api/games/{game.pk}/deals",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {game.secret}"},
    )
    assert answer.status_code == 201, answer.content
    return game.entries.get(number=body["deal"], undone_at__isnull=True)


def test_a_hand_kept_offline_from_before_time_is_not_the_hand_being_played_at_time(clocked, client):
    """The phone was offline: two hands kept from before the deadline arrive after it. Neither
    is the hand being played at time; the one entered after the deadline is."""
    event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    table = tables_of(round_)[0]
    rng = random.Random(5)
    play_until_distinct(table.game, rng)
    ten_minutes_ago = timezone.now() - timedelta(minutes=10)
    table.game.entries.update(entered_at=ten_minutes_ago, played_at=ten_minutes_ago)
    time_up(round_, ago=120)  # the time ran out two minutes ago

    early = offline_deal(client, table.game, rng, age=400)
    later = offline_deal(client, table.game, rng, age=200)
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.PLAYED and table.game.result == Game.Result.IN_PLAY
    assert early.played_at <= later.played_at < table.game.time_up_at < later.entered_at
    assert clock.deals_after_time(table, fresh(round_).clock_deadline) == 0

    offline_deal(client, table.game, rng, age=30)  # entered after time: the game ends on it
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENDED_AT_TIME


def test_an_age_cannot_put_a_hand_before_the_one_before_it_nor_be_nonsense(clocked, client):
    event, round_ = clocked
    game = tables_of(round_)[0].game
    rng = random.Random(3)
    first = offline_deal(client, game, rng, age=60)
    second = offline_deal(client, game, rng, age=10 * 3600)  # older than the first: taken as it
    assert second.played_at == first.played_at
    assert timezone.now() - first.played_at >= timedelta(seconds=60)
    rules_game = engine.game_from_record(game_record(game))
    for age in (-1, "60", 1.5, True):
        body = {"deal": len(rules_game.deals) + 1, **autoplay.next_deal(rules_game, rng)}
        answer = client.post(
            f"/api/games/{game.pk}/deals",
            json.dumps({**body, "age": age}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {game.secret}"},
        )
        assert answer.status_code == 400
        assert "age must be" in answer.json()["error"]["message"]


def test_the_organiser_decides_the_clock_ends_nothing_itself(clocked):
    event, round_ = clocked
    set_clock(event, clock_at_time="organiser")
    clock.clock_start(round_=round_, actor="olga")
    table = tables_of(round_)[0]
    rng = random.Random(5)
    play_until_distinct(table.game, rng)
    with pytest.raises(NotAllowed) as refused:
        clock.table_end_at_time(table=table, actor="olga")
    assert refused.value.code == "clock_not_at_time"
    time_up(round_)
    next_deal(table.game, rng)
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.PLAYED and table.game.result == Game.Result.IN_PLAY
    assert table.number in tables_over_time(fresh(round_), tables_of(round_))

    clock.table_end_at_time(table=table, actor="olga")
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.ENDED_AT_TIME and table.game.confirmed
    assert table.number not in tables_over_time(fresh(round_), tables_of(round_))


def test_a_stopped_or_paused_clock_ends_no_game(clocked):
    _event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    clock.clock_stop(round_=round_, actor="olga")
    table = tables_of(round_)[0]
    rng = random.Random(5)
    play_until_distinct(table.game, rng)
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.PLAYED
    assert table.game.result == Game.Result.IN_PLAY


def test_a_game_with_no_hand_played_plays_on_at_time(clocked):
    """The engine cannot place a game with no hand yet: the clock leaves it (flagged); the
    deal that was recorded stands."""
    _event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    time_up(round_)
    table = tables_of(round_)[0]
    scoring.deal_record(game_id=table.game_id, number=1, calls=["pass"])  # the caller's pass
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.PLAYED
    assert table.game.result == Game.Result.IN_PLAY
    assert table.game.entries.count() == 1


# --- one slow table's extension ------------------------------------------------------------------


def test_one_slow_table_gets_five_minutes_beyond_the_round_and_the_other_ends_at_time(clocked):
    """At time, the organiser gives table 2 five minutes more: table 1's next deal ends its
    game as it stands, table 2 plays on (not flagged, not ended) until its own time is up."""
    event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    first, second = tables_of(round_)
    rng = random.Random(5)
    for table in (first, second):
        play_until_distinct(table.game, rng)
    time_up(round_)
    assert tables_over_time(fresh(round_), tables_of(round_)) == {1, 2}

    clock.table_clock_extend(table=second, actor="olga")

    second.refresh_from_db()
    mine = clock_of(fresh(round_), extra=second.clock_extra)
    assert mine.running and 298 <= mine.remaining <= 300
    assert clock_of(fresh(round_)).at_time  # the round's own time is still up
    assert tables_over_time(fresh(round_), tables_of(round_)) == {1}
    second.game.refresh_from_db()
    assert second.game.time_up_at > timezone.now() + timedelta(seconds=290)
    next_deal(second.game, rng)  # its time is not up: the game goes on
    assert second.game.result == Game.Result.IN_PLAY
    with pytest.raises(NotAllowed):  # nor can the organiser end it at time yet
        clock.table_end_at_time(table=Table.objects.get(pk=second.pk), actor="olga")
    next_deal(first.game, rng)  # table 1's time is up: the deal being played ends it
    assert Table.objects.get(pk=first.pk).outcome == Table.Outcome.ENDED_AT_TIME
    extended = list(EventLog.objects.filter(event=event, action="table_clock_extended"))
    words = [line.what for line in log_lines(extended, {})]
    assert words == ["Round 1, table 2: 5 minutes more for this table."]


def test_a_table_extended_while_the_clock_runs_keeps_its_minutes_when_the_round_moves(clocked):
    _event, round_ = clocked
    clock.clock_start(round_=round_, actor="olga")
    _first, second = tables_of(round_)
    clock.table_clock_extend(table=second, actor="olga")
    clock.clock_extend(round_=round_, actor="olga")  # the round's five minutes come on top
    second.refresh_from_db()
    assert second.clock_extra == 300
    round_ = fresh(round_)
    assert clock_of(round_, extra=300).remaining - clock_of(round_).remaining == 300
    second.game.refresh_from_db()
    assert second.game.time_up_at == round_.clock_deadline + timedelta(seconds=300)


def test_a_table_extension_is_refused_without_a_clock_or_once_its_game_is_over(clocked):
    _event, round_ = clocked
    first, second = tables_of(round_)
    with pytest.raises(NotAllowed):  # the clock was not started
        clock.table_clock_extend(table=first, actor="olga")
    clock.clock_start(round_=round_, actor="olga")
    autoplay.play(first.game, random.Random(2), actor="table")
    with pytest.raises(NotAllowed):
        clock.table_clock_extend(table=Table.objects.get(pk=first.pk), actor="olga")
    with pytest.raises(TournamentError):
        clock.table_clock_extend(table=second, minutes=0, actor="olga")
