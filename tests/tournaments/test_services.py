"""Running an event through the tournaments services, with tasks run in process."""

import json
from itertools import combinations

import pytest
from django.core.management import call_command

from scoring import services as scoring
from scoring.models import Game
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import (
    entry_check_in,
    entry_reinstate,
    entry_withdraw,
    players_register,
)
from tournaments.models import Bye, Entry, EventLog, Player, Round, Table
from tournaments.results.services import result_confirm, result_reopen, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_publish, round_swap

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event():
    club = club_create(name="Sofia Blato Club")
    return event_create(club=club, name="Friday night", rounds_planned=2, seed=11)


def field(event, count, checked_in=True):
    names = [f"Player {n}" for n in range(1, count + 1)]
    return players_register(event=event, names=names, checked_in=checked_in)


def play_table(table: Table, tricks=(3, 8, 5)):
    """Everybody makes their target: a tie for all nine hands, settled by the last tricks."""
    game = table.game
    for number in range(1, 10):
        scoring.deal_record(
            game_id=game.pk,
            number=number,
            calls=["spades"],
            tricks=None or list(_rotate(tricks, game.first_dealer, number)),
        )
    scoring.last_tricks_add(game_id=game.pk, number=9, last_tricks=[0, 1])
    result_confirm(table=table, actor="org")


def _rotate(tricks, first_dealer, number):
    dealer = (first_dealer + number - 1) % 3
    return tuple(tricks[(seat - dealer) % 3] for seat in range(3))


def test_event_settings_are_checked(event):
    club = event.club
    for bad in (
        dict(ruleset="poker"),
        dict(options={"hands": 0}),
        dict(pairing_modes=["fast"]),
        dict(precedence=["height"]),
        dict(placing_points=[0, 1, 2]),
        dict(bye_policy="x"),
    ):
        with pytest.raises(TournamentError):
            event_create(club=club, name="Bad", **bad)


def test_a_player_keeps_one_identity_across_the_clubs_events(event):
    field(event, 3)
    other = event_create(club=event.club, name="Saturday")
    players_register(event=other, names=["Player  1", "Newcomer"])
    assert Player.objects.filter(club=event.club).count() == 4
    assert Entry.objects.filter(player__name="Player 1").count() == 2
    with pytest.raises(TournamentError):
        players_register(event=other, names=["   "])


def test_a_round_is_paired_by_the_task_reviewed_swapped_published_and_closed(event):
    entries = field(event, 10)
    entry_check_in(entry=entries[9], checked_in=False)  # 9 play
    round_ = round_create(event=event, actor="org")
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT and round_.pairing_seconds is not None
    tables = list(round_.tables.all())
    assert len(tables) == 3 and not Bye.objects.filter(round=round_).exists()
    seated = sorted(pid for table in tables for pid in table.seat_ids)
    assert seated == sorted(entry.player_id for entry in entries[:9])
    a, b = tables[0].seat_0_id, tables[1].seat_2_id
    round_swap(round_=round_, first=a, second=b, actor="org")
    assert Table.objects.get(pk=tables[0].pk).seat_0_id == b
    assert Table.objects.get(pk=tables[1].pk).seat_2_id == a
    with pytest.raises(NotAllowed):
        round_create(event=event)
    round_publish(round_=round_, actor="org")
    with pytest.raises(NotAllowed):
        round_swap(round_=round_, first=a, second=b)
    with pytest.raises(NotAllowed, match="neither confirmed nor void"):
        round_close(round_=round_)
    for table in round_.tables.select_related("game"):
        assert table.game.players == [player.name for player in table.seats]
        play_table(table)
    round_close(round_=round_, actor="org")
    snapshot = event.standings.first()
    assert snapshot.rounds_complete == 1 and len(snapshot.rows) == 10
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    assert {"round_requested", "players_swapped", "round_published", "round_closed"} <= set(actions)


def test_swapping_into_a_repeat_is_flagged(event):
    field(event, 6)
    first = round_create(event=event)
    round_publish(round_=first)
    for table in first.tables.all():
        play_table(table)
    round_close(round_=first)
    second = round_create(event=event)
    second.refresh_from_db()
    old = first.tables.order_by("number")[0].seat_ids
    t1, t2 = second.tables.order_by("number")
    # put two players who met in round 1 at one table again
    mover = next(p for p in old if p not in t1.seat_ids)
    partner = next(p for p in old if p in t1.seat_ids)
    out = next(p for p in t1.seat_ids if p != partner)
    round_swap(round_=second, first=mover, second=out)
    flags = Table.objects.get(pk=t1.pk).flags
    assert any(flag["code"] == "repeat" for flag in flags)
    assert t2.pk  # the other table is flagged again too (and may be clean)


def test_byes_go_round_and_a_withdrawn_player_is_left_out(event):
    entries = field(event, 7)
    first = round_create(event=event)
    first_bye = set(first.byes.values_list("player_id", flat=True))
    assert len(first_bye) == 1
    round_publish(round_=first)
    for table in first.tables.all():
        play_table(table)
    round_close(round_=first)
    entry_withdraw(entry=entries[0], actor="org", reason="went home")
    second = round_create(event=event)
    seated = {pid for table in second.tables.all() for pid in table.seat_ids}
    assert entries[0].player_id not in seated
    assert len(seated) == 6 and not second.byes.exists()


def test_a_withdrawal_is_final_even_for_a_stale_copy_of_the_entry(event):
    entry = field(event, 3)[0]
    stale = Entry.objects.get(pk=entry.pk)  # read before the withdrawal, as a second tab would
    entry_withdraw(entry=entry, actor="org", reason="went home")
    with pytest.raises(NotAllowed, match="has withdrawn"):
        entry_check_in(entry=stale, checked_in=False, actor="org")
    with pytest.raises(NotAllowed, match="has withdrawn"):
        entry_withdraw(entry=stale, actor="org", reason="again")
    entry.refresh_from_db()
    assert entry.withdrawn and entry.checked_in
    assert EventLog.objects.filter(event=event, action="withdrawn").count() == 1


def test_a_reinstated_player_is_paired_again_from_the_next_round(event):
    entries = field(event, 6)
    entry_withdraw(entry=entries[0], actor="org", reason="ill")
    with pytest.raises(NotAllowed, match="has not withdrawn"):
        entry_reinstate(entry=entries[1], actor="org")
    first = round_create(event=event)
    assert entries[0].player_id not in {p for t in first.tables.all() for p in t.seat_ids}
    round_publish(round_=first)
    for table in first.tables.all():
        play_table(table)
    round_close(round_=first)
    entry_reinstate(entry=entries[0], actor="org", reason="better")
    second = round_create(event=event)
    seated = {p for t in second.tables.all() for p in t.seat_ids}
    byes = set(second.byes.values_list("player_id", flat=True))
    assert entries[0].player_id in seated | byes and len(seated | byes) == 6


def test_standings_rebuild_only_when_results_change_and_follow_a_reopened_result(event):
    field(event, 3)
    round_ = round_create(event=event)
    round_publish(round_=round_)
    table = round_.tables.get()
    play_table(table)
    first = event.standings.first()
    assert standings_build(event_id=event.pk).pk == first.pk  # nothing new: no build
    result_reopen(table=table, actor="org", reason="wrong tricks in hand 9")
    assert event.standings.first().pk != first.pk
    assert Game.objects.get(pk=table.game_id).result == Game.Result.FINISHED


def test_simulate_event_prints_the_spec_shape(capsys):
    call_command("simulate_event", players=8, rounds=2, pairing="swiss", seed=5)
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"event", "players", "rounds", "seconds"}
    assert len(out["players"]) == 8 and len(out["rounds"]) == 2
    met = set()
    for round_ in out["rounds"]:
        assert len(round_["tables"]) == 2 and len(round_["byes"]) == 2
        for table in round_["tables"]:
            assert sorted(table["placings"]) == sorted(table["seats"])
            assert sum(table["totals"]) == 0
            for pair in combinations(sorted(table["seats"]), 2):
                assert pair not in met
                met.add(pair)
        assert [row["rank"] for row in round_["standings"]] == list(range(1, 9))
    assert len(out["seconds"]["pairing"]) == len(out["seconds"]["standings"]) == 2


def test_simulate_event_is_deterministic_for_a_seed(capsys):
    def run():
        call_command("simulate_event", players=9, rounds=2, pairing="random", seed=42)
        out = json.loads(capsys.readouterr().out)
        names = {p["id"]: p["name"] for p in out["players"]}
        return [
            [([names[s] for s in t["seats"]], t["totals"]) for t in r["tables"]]
            for r in out["rounds"]
        ]

    assert run() == run()


def test_a_simulated_31_player_swiss_event_has_valid_rounds_fair_byes_and_no_repeats(capsys):
    """A whole event through the simulator: 31 players, 4 rounds of swiss."""
    call_command("simulate_event", players=31, rounds=4, pairing="swiss", seed=7)
    out = json.loads(capsys.readouterr().out)
    everyone = {p["id"] for p in out["players"]}
    met, byes = set(), []
    for round_ in out["rounds"]:
        seated = [seat for table in round_["tables"] for seat in table["seats"]]
        assert len(round_["tables"]) == 10 and len(seated) == len(set(seated)) == 30
        assert set(seated) | set(round_["byes"]) == everyone
        byes.extend(round_["byes"])
        for table in round_["tables"]:
            for pair in combinations(sorted(table["seats"]), 2):
                assert pair not in met, f"{pair} meet twice"
                met.add(pair)
    assert len(byes) == 4 and len(set(byes)) == 4  # a different player sits out each round
