"""A player who leaves mid-round: the services of rounds.services.walkouts,
the round's close rule, and what the standings make of substituted, void and adjusted tables."""

from __future__ import annotations

import random

import pytest

from scoring import autoplay
from scoring import services as scoring
from scoring.errors import Conflict
from scoring.models import Game, GameChange
from tournaments import standings
from tournaments.common import bridge, event_settings
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services.event import event_update
from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Bye, Entry, EventLog, Player, Round, Table
from tournaments.results.services import standings_build
from tournaments.rounds.services import walkouts
from tournaments.rounds.services.rounds import round_close

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organised_event, build_round):
    """Seven players checked in: round 1 published with two tables and one bye."""
    register(organised_event, 7)
    round_ = build_round(organised_event, publish=True)
    return organised_event, round_


def tables_of(round_: Round) -> list[Table]:
    return list(round_.tables.select_related("game", "round__event").order_by("number"))


def entry_of(event, player_id: int) -> Entry:
    return Entry.objects.get(event=event, player_id=player_id)


def play_some(game: Game, seed: int = 3) -> None:
    """Deals until at least one hand is played and the totals are all different, the game
    still going (so "as it stands" has an unambiguous order)."""
    rng = random.Random(seed)
    for _ in range(40):
        autoplay.play(game, rng, deals=1)
        game.refresh_from_db()
        assert game.result == Game.Result.IN_PLAY, "the game ended before the test could stop"
        if len(set(game.totals)) == 3:
            return
    raise AssertionError(game.totals)


def confirm_rest(round_: Round, but: Table) -> None:
    for table in tables_of(round_):
        if table.pk != but.pk:
            finish_game(table.game, random.Random(table.number))
            scoring.game_confirm(game_id=table.game_id, actor="olga")


# --- the dead end, reproduced --------------------------------------------------------------------


def test_withdrawing_a_seated_player_names_the_table_left_to_settle(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    leaver = table.seat_1
    entry_withdraw(entry=entry_of(event, leaver.pk), actor="olga", reason="went home")
    assert walkouts.open_table_of(event, leaver.pk) == table
    line = EventLog.objects.filter(event=event, action="withdrawn").get()
    assert line.data == {"player": leaver.pk, "round": 1, "table": table.number}


def test_a_round_with_a_walked_out_table_closes_once_that_table_is_void(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    confirm_rest(round_, but=table)
    entry_withdraw(entry=entry_of(event, table.seat_0_id), actor="olga")
    with pytest.raises(NotAllowed, match="1 table is neither confirmed nor void"):
        round_close(round_=round_, actor="olga")
    walkouts.table_void(table=table, reason="Ana left, no substitute", actor="olga")
    round_close(round_=round_, actor="olga")
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


# --- substitute ---------------------------------------------------------------------------------


def test_a_substitute_takes_the_seat_from_the_next_deal_and_the_deals_so_far_stand(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    play_some(table.game)
    deals_before = list(table.game.entries.values_list("pk", "number"))
    leaver = table.seat_2
    bye = Bye.objects.get(round=round_)
    substitute = bye.player
    entry_withdraw(entry=entry_of(event, leaver.pk), actor="olga")

    walkouts.table_substitute(
        table=table, seat=2, player=substitute, reason="left for a train", actor="olga"
    )

    table.refresh_from_db()
    game = table.game
    assert table.seat_2 == substitute
    assert game.players[2] == substitute.name
    assert list(game.entries.values_list("pk", "number")) == deals_before
    move = table.substitutions[0]
    assert move == {
        "seat": 2,
        "left": leaver.pk,
        "joined": substitute.pk,
        "from_deal": len(deals_before) + 1,
        "from_hand": 1 + game.entries.filter(undone_at=None).exclude(tricks=None).count(),
    }
    change = game.changes.get(action=GameChange.Action.SEAT_SUBSTITUTED)
    assert change.data["before"] == leaver.name and change.data["after"] == substitute.name
    assert change.deal_number == len(deals_before) + 1 and change.reason == "left for a train"
    assert not Bye.objects.filter(round=round_).exists()  # the bye was given up for the game
    assert walkouts.open_table_of(event, leaver.pk) is None
    assert walkouts.left_table_of(round_, leaver.pk) == table
    # The keeper goes on with the next deal.
    autoplay.play(game, random.Random(5), deals=1)
    game.refresh_from_db()
    assert game.entries.filter(undone_at__isnull=True).count() == len(deals_before) + 1


def test_the_substitute_gets_the_seats_result_and_the_leaver_no_game(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    leaver, substitute = table.seat_0, Bye.objects.get(round=round_).player
    walkouts.table_substitute(table=table, seat=0, player=substitute, reason="ill", actor="o")
    for each in tables_of(round_):
        finish_game(each.game, random.Random(each.number))
        scoring.game_confirm(game_id=each.game_id, actor="olga")
    players, results, byes = bridge.standings_inputs(event)
    seated = {pid for result in results for pid in result.players}
    assert substitute.pk in seated and leaver.pk not in seated
    assert byes == []
    rows = {
        row.player: row
        for row in standings.build_standings(players, results, byes, bridge.standings_config(event))
    }
    assert rows[leaver.pk].metrics["games"] == 0
    assert rows[substitute.pk].metrics["games"] == 1


@pytest.mark.parametrize(
    "who, message",
    [
        ("seated", "already plays at table"),
        ("withdrawn", "is not checked in"),
        ("not_checked_in", "is not checked in"),
        ("stranger", "is not in this event"),
    ],
)
def test_a_substitute_must_be_free_and_checked_in(evening, who, message):
    event, round_ = evening
    first, second = tables_of(round_)
    bye_player = Bye.objects.get(round=round_).player
    if who == "seated":
        player = second.seat_0
    elif who == "withdrawn":
        player = bye_player
        entry_withdraw(entry=entry_of(event, player.pk))
    elif who == "not_checked_in":
        player = register(event, 1, checked_in=False, start=50)[0].player
    else:
        player = Player.objects.create(club=event.club, name="Nobody Here")
    with pytest.raises(TournamentError, match=message) as refused:
        walkouts.table_substitute(table=first, seat=1, player=player, reason="x", actor="o")
    assert refused.value.kind == "invalid"  # the API answers 400
    first.refresh_from_db()
    assert first.substitutions == [] and first.game.changes.count() == 1


def test_substitution_needs_a_reason_a_seat_and_an_open_table(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    player = Bye.objects.get(round=round_).player
    with pytest.raises(TournamentError, match="say why"):
        walkouts.table_substitute(table=table, seat=0, player=player, reason=" ", actor="o")
    with pytest.raises(TournamentError, match="seat must be"):
        walkouts.table_substitute(table=table, seat=3, player=player, reason="x", actor="o")
    finish_game(table.game, random.Random(1))
    scoring.game_confirm(game_id=table.game_id, actor="olga")
    with pytest.raises(NotAllowed, match="reopen it first"):
        walkouts.table_substitute(table=table, seat=0, player=player, reason="x", actor="o")


# --- finish as it stands --------------------------------------------------------------------------


def test_finishing_as_it_stands_places_by_the_score_so_far_and_confirms(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    play_some(table.game)
    totals = list(table.game.totals)
    walkouts.table_finish(table=table, reason="out of time", actor="olga")
    table.refresh_from_db()
    game = table.game
    assert game.result == Game.Result.CONFIRMED
    assert game.placings == sorted(range(3), key=lambda seat: -totals[seat])
    assert table.outcome == Table.Outcome.ENDED_EARLY
    ended = game.changes.get(action=GameChange.Action.ENDED_EARLY)
    assert ended.reason == "out of time" and ended.data["placings"] == game.placings
    assert walkouts.table_data(table)["status"] == "confirmed"
    with pytest.raises(Conflict):  # no more deals into a confirmed game
        autoplay.play(game, random.Random(1), deals=1)


def test_early_placings_break_equal_totals_by_the_engines_rule():
    """Equal totals: the engine's tie-breaks (the last hand's points first), not a new rule."""
    import engine

    record = {
        "ruleset": "blato",
        "options": {},
        "first_dealer": 0,
        "deals": [{"calls": ["hearts"], "tricks": [4, 7, 5]}],
    }
    state = engine.replay(record)
    placings = scoring.early_placings(state)
    from engine.placings import place

    last = state.hands[-1]
    expected = place(state.totals, last.points, last.tricks, (), 16, None).placings
    assert placings == expected
    assert placings[0] == max(range(3), key=lambda seat: state.totals[seat])


def test_a_game_with_no_hand_cannot_be_finished_as_it_stands(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    with pytest.raises(NotAllowed, match="no hand has been played") as refused:
        walkouts.table_finish(table=table, reason="left at once", actor="olga")
    assert refused.value.kind == "not_allowed"  # the API answers 409
    table.refresh_from_db()
    assert table.game.result == Game.Result.IN_PLAY and table.outcome == Table.Outcome.PLAYED


def test_finishing_a_game_already_over_just_confirms_it(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    finish_game(table.game, random.Random(2))
    table.game.refresh_from_db()
    placings = table.game.placings
    walkouts.table_finish(table=table, reason="keeper left", actor="olga")
    table.refresh_from_db()
    assert table.game.confirmed and table.game.placings == placings
    assert table.outcome == Table.Outcome.PLAYED


# --- void -----------------------------------------------------------------------------------------


def test_a_void_table_takes_no_more_deals(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    play_some(table.game)
    walkouts.table_void(table=table, reason="two left", actor="olga")
    table.refresh_from_db()
    assert table.game.result == Game.Result.VOID and table.outcome == Table.Outcome.VOID
    assert walkouts.table_data(table)["status"] == "void"
    with pytest.raises(Conflict, match="void"):
        autoplay.play(table.game, random.Random(9), deals=1)
    with pytest.raises(Conflict):
        scoring.deal_undo(game_id=table.game_id, number=table.game.entries.count(), actor="k")
    with pytest.raises(NotAllowed, match="void"):
        walkouts.table_void(table=table, reason="again", actor="olga")
    assert table.game.changes.filter(action=GameChange.Action.VOIDED).count() == 1


@pytest.mark.parametrize(
    "policy, placing_points, score",
    [("none", 0, 0), ("bye", 1, 0), ("average", None, None)],
)
def test_void_players_get_the_events_void_policy(evening, policy, placing_points, score):
    event, round_ = evening
    event.void_policy = policy
    event.save()
    void, other = tables_of(round_)
    leaver = void.seat_0
    entry_withdraw(entry=entry_of(event, leaver.pk), actor="olga")
    walkouts.table_void(table=void, reason="left", actor="olga")
    void.refresh_from_db()
    assert void.void_players == [void.seat_1_id, void.seat_2_id]
    finish_game(other.game, random.Random(4))
    scoring.game_confirm(game_id=other.game_id, actor="olga")
    players, results, byes = bridge.standings_inputs(event)
    assert [(b.round, b.player) for b in byes if b.policy or policy == "bye"][-2:] == [
        (1, void.seat_1_id),
        (1, void.seat_2_id),
    ]
    rows = {
        row.player: row
        for row in standings.build_standings(players, results, byes, bridge.standings_config(event))
    }
    stayed = rows[void.seat_1_id]
    assert stayed.metrics["games"] == 0
    if placing_points is not None:
        assert stayed.metrics["placing_points"] == placing_points
        assert stayed.metrics["score"] == score
    else:  # their own average, with no other game: nothing
        assert stayed.metrics["placing_points"] == 0
    assert rows[leaver.pk].metrics["placing_points"] == 0  # who walked out gets nothing


def test_voiding_moves_the_results_version_and_so_rebuilds_the_standings(evening):
    event, round_ = evening
    event.refresh_from_db()
    before = event.results_version
    walkouts.table_void(table=tables_of(round_)[0], reason="left", actor="olga")
    event.refresh_from_db()
    assert event.results_version > before


# --- adjusted result ----------------------------------------------------------------------------


def test_an_adjusted_result_is_confirmed_audited_and_counted(evening):
    event, round_ = evening
    table, other = tables_of(round_)
    play_some(table.game)
    walkouts.table_adjust(
        table=table, placings=[2, 0, 1], totals=[3, -1, 5], reason="penalty", actor="olga"
    )
    table.refresh_from_db()
    game = table.game
    assert game.confirmed and game.placings == [2, 0, 1] and game.totals == [3, -1, 5]
    assert table.outcome == Table.Outcome.ADJUSTED and table.outcome_reason == "penalty"
    change = game.changes.get(action=GameChange.Action.RESULT_ADJUSTED)
    assert change.data["after"] == {"placings": [2, 0, 1], "totals": [3, -1, 5]}
    assert change.actor == "olga" and change.reason == "penalty"
    log = EventLog.objects.get(event=event, action="result_adjusted")
    assert log.reason == "penalty" and log.data["placings"] == [2, 0, 1]
    data = walkouts.table_data(table)
    assert data["status"] == "adjusted" and data["placings"] == [2, 0, 1]
    _players, results, _byes = bridge.standings_inputs(event)
    (result,) = [r for r in results if r.table == table.number]
    assert result.placings == (table.seat_2_id, table.seat_0_id, table.seat_1_id)
    assert result.totals == (3, -1, 5)


def test_an_adjusted_result_without_totals_keeps_the_score_so_far(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    play_some(table.game)
    totals = list(table.game.totals)
    walkouts.table_adjust(table=table, placings=[1, 2, 0], totals=None, reason="r", actor="o")
    table.refresh_from_db()
    assert table.game.totals == totals and table.game.placings == [1, 2, 0]


@pytest.mark.parametrize(
    "placings, totals",
    [([0, 0, 1], None), ([0, 1], None), ([0, 1, 2], [1, 2]), ([True, 0, 2], None)],
)
def test_an_adjusted_result_must_name_each_seat_once(evening, placings, totals):
    event, round_ = evening
    table = tables_of(round_)[0]
    with pytest.raises(TournamentError) as refused:
        walkouts.table_adjust(table=table, placings=placings, totals=totals, reason="r")
    assert refused.value.kind == "invalid"  # the API answers 400
    table.refresh_from_db()
    assert table.outcome == Table.Outcome.PLAYED and not table.game.confirmed


# --- the table's JSON, and rounds that are not published ----------------------------------------


def test_table_data_has_what_the_api_promises(evening):
    event, round_ = evening
    table = tables_of(round_)[0]
    data = walkouts.table_data(table)
    assert data["table"] == table.number
    assert data["players"] == [player.name for player in table.seats]
    assert data["player_ids"] == list(table.seat_ids)
    assert data["game"] == table.game_id
    assert data["finished"] is False and data["status"] == "playing"
    finish_game(table.game, random.Random(3))
    table.refresh_from_db()
    assert walkouts.table_data(table)["status"] == "finished"


def test_a_closed_rounds_tables_cannot_change(evening):
    event, round_ = evening
    for table in tables_of(round_):
        finish_game(table.game, random.Random(table.number))
        scoring.game_confirm(game_id=table.game_id, actor="olga")
    round_close(round_=round_, actor="olga")
    table = tables_of(round_)[0]
    with pytest.raises(NotAllowed, match="published round"):
        walkouts.table_void(table=table, reason="late", actor="olga")


def test_the_void_policy_is_an_editable_setting(organised_event):
    assert "void_policy" in event_settings.SETTING_NAMES
    assert "void_policy" in event_settings.STANDINGS_SETTINGS
    assert organised_event.void_policy == "bye"
    event_update(
        event=organised_event,
        name=organised_event.name,
        rounds_planned=2,
        pairing_modes=["swiss"],
        precedence=[],
        placing_points=[],
        bye_policy="second",
        void_policy="none",
        actor="olga",
    )
    organised_event.refresh_from_db()
    assert organised_event.void_policy == "none"
    line = EventLog.objects.filter(event=organised_event, action="event_updated").get()
    assert line.data["changed"] == {"void_policy": "none"}
    with pytest.raises(TournamentError):
        event_update(
            event=organised_event,
            name="x",
            rounds_planned=2,
            pairing_modes=["swiss"],
            precedence=[],
            placing_points=[],
            bye_policy="second",
            void_policy="half",
        )


def test_the_public_pages_notice_a_void_table_as_a_change_to_the_standings(evening):
    from tournaments.results.selectors import standings_head

    event, round_ = evening
    snapshot = standings_build(event_id=event.pk)
    assert not standings_head(event).stale
    walkouts.table_void(table=tables_of(round_)[0], reason="left", actor="olga")
    assert standings_head(event).stale
    newer = standings_build(event_id=event.pk)
    assert newer.pk != snapshot.pk
    assert not standings_head(event).stale


def test_a_bye_may_carry_its_own_policy_and_averages_see_games_only():
    """Pure standings: a void table's players are byes with the void policy; an "average"
    is taken over games alone, whatever other byes are added first."""
    game = standings.GameResult(
        round=1, table=1, players=(1, 2, 3), totals=(6, 2, -2), placings=(1, 2, 3)
    )
    byes = [
        standings.Bye(round=2, player=1),  # the event's policy: a second place
        standings.Bye(round=3, player=1, policy="average"),
        standings.Bye(round=2, player=2, policy="zero"),
    ]
    rows = {
        row.player: row
        for row in standings.build_standings(
            [1, 2, 3], [game], byes, standings.Config(bye_policy="second")
        )
    }
    assert rows[1].metrics["placing_points"] == 2 + 1 + 2  # game, second place, average
    assert rows[1].metrics["score"] == 6 + 0 + 6
    assert rows[2].metrics["placing_points"] == 1 and rows[2].metrics["score"] == 2
    with pytest.raises(standings.StandingsInputError):
        standings.Bye(round=1, player=1, policy="half")
