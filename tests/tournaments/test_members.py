"""A club's members: renaming, merging two records of one person (everything re-pointed,
audited, refused when they are two people), entering picked members, casual games."""

import random

import pytest

from tournaments.clubs.services import members
from tournaments.common.errors import NotAllowed, TournamentError
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import (
    Bye,
    ClubGame,
    ClubLog,
    Entry,
    Event,
    EventLog,
    Player,
    Rating,
    RatingStep,
    Standings,
    Table,
)
from tournaments.results.services import result_confirm

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def night(club, name, organiser, names, build_round, publish=True):
    event = event_create(
        club=club, name=name, rounds_planned=2, seed=5, organisers=[organiser], actor="olga"
    )
    players_register(event=event, names=names, checked_in=True)
    round_ = build_round(event, publish=publish) if publish is not None else None
    return event, round_


def seated(round_, player):
    for table in round_.tables.all():
        if player.pk in (table.seat_0_id, table.seat_1_id, table.seat_2_id):
            return table
    return None


@pytest.fixture
def two_nights(organised_event, organiser, build_round, django_capture_on_commit_callbacks):
    """Week 1: "Ivan Petrov" plays and the round is confirmed; week 2 he is entered again as
    "Иван Петров", a second record of one person."""
    club = organised_event.club
    players_register(event=organised_event, names=["Ivan Petrov"], checked_in=True)
    register(organised_event, 5)
    round1 = build_round(organised_event, publish=True)
    for table in round1.tables.all():
        finish_game(table.game, random.Random(table.number))
        with django_capture_on_commit_callbacks(execute=True):
            result_confirm(table=table, actor="olga")
    names = ["Иван Петров", *(f"Player {n:03d}" for n in range(1, 7))]
    week2, round2 = night(club, "Week 2", organiser, names, build_round)
    keep = Player.objects.get(club=club, name="Ivan Petrov")
    gone = Player.objects.get(club=club, name="Иван Петров")
    return organised_event, week2, round2, keep, gone


def test_a_merge_re_points_every_trace_and_is_audited(two_nights, organiser):
    week1, week2, round2, keep, gone = two_nights
    club = week1.club
    table = seated(round2, gone)
    bye = Bye.objects.filter(round=round2).first()
    # JSON that names the second record: a substitution, a void table, a pairing flag
    other = Table.objects.filter(round=round2).exclude(pk=table.pk if table else None).first()
    move = {"seat": 0, "left": gone.pk, "joined": 99999, "from_deal": 2}
    Table.objects.filter(pk=other.pk).update(
        substitutions=[move], void_players=[gone.pk], flags=[{"code": "x", "players": [gone.pk]}]
    )
    Bye.objects.filter(pk=bye.pk).update(flags=[{"code": "x", "players": [gone.pk, 1]}])
    snap = Standings.objects.create(event=week2, rows=[{"player": gone.pk, "rank": 1}])
    casual = members.casual_game_start(club=club, seats=[gone, "Ana", "Boris"], actor="olga")
    for player in (keep, gone):
        Rating.objects.update_or_create(
            player=player, defaults={"mu": 25, "sigma": 8, "ordinal": 1, "games": 1}
        )
        RatingStep.objects.create(
            club=club,
            player=player,
            game=casual.game,
            batch_at=casual.game.created_at,
            batch="c",
            place=1,
            mu=25,
            sigma=8,
            ordinal=1,
        )
    version = Event.objects.get(pk=week2.pk).results_version

    merged = members.members_merge(club=club, keep=keep, gone=gone, actor="olga")

    assert not Player.objects.filter(pk=gone.pk).exists()
    assert [e.pk for e in merged.events] == [week2.pk]
    assert Entry.objects.filter(event=week2, player=keep).count() == 1
    if table is not None:
        table.refresh_from_db()
        assert keep.pk in (table.seat_0_id, table.seat_1_id, table.seat_2_id)
    else:
        assert Bye.objects.get(round=round2).player_id == keep.pk
    other.refresh_from_db()
    assert other.substitutions == [{**move, "left": keep.pk}]
    assert other.void_players == [keep.pk] and other.flags[0]["players"] == [keep.pk]
    assert Bye.objects.get(pk=bye.pk).flags[0]["players"] == [keep.pk, 1]
    assert Standings.objects.get(pk=snap.pk).rows[0]["player"] == keep.pk
    entered = EventLog.objects.filter(event=week2, action="player_entered")
    assert gone.pk not in [row.data["player"] for row in entered]
    assert keep.pk in [row.data["player"] for row in entered]
    assert ClubGame.objects.get(pk=casual.pk).seat_0_id == keep.pk
    assert not Rating.objects.filter(player__in=[keep.pk, gone.pk]).exists()
    assert not RatingStep.objects.filter(player_id__in=[keep.pk, gone.pk]).exists()
    assert Event.objects.get(pk=week2.pk).results_version > version
    log = ClubLog.objects.get(club=club, action="members_merged")
    assert log.actor == "olga" and log.at is not None
    assert log.data["kept"] == {"id": keep.pk, "name": "Ivan Petrov"}
    assert log.data["gone"] == {"id": gone.pk, "name": "Иван Петров"}
    assert [e["slug"] for e in log.data["events"]] == [week2.slug]
    assert log.data["casual_games"] == 1


def test_two_records_that_both_played_one_event_are_two_people(
    organised_event, organiser, build_round
):
    register(organised_event, 6)
    build_round(organised_event, publish=True)
    a, b = (Player.objects.get(name=f"Player {n:03d}") for n in (1, 2))
    with pytest.raises(NotAllowed) as refused:
        members.members_merge(club=organised_event.club, keep=a, gone=b, actor="olga")
    assert refused.value.code == "merge_both_played"
    assert "Friday night" in refused.value.message
    assert Player.objects.filter(pk=b.pk).exists()
    assert not ClubLog.objects.filter(action="members_merged").exists()


def test_entered_twice_but_played_once_keeps_the_entry_that_played(
    organised_event, organiser, build_round
):
    register(organised_event, 6)
    players_register(event=organised_event, names=["Extra"], checked_in=False)
    round_ = build_round(organised_event, publish=True)
    Bye.objects.filter(round=round_).delete()  # "Extra" (or whoever) did not play after all
    gone = Player.objects.get(name="Player 001")
    keep = Player.objects.get(name="Extra")
    if seated(round_, keep):  # make sure `keep` is the one who never sat
        keep, gone = gone, keep
    assert not seated(round_, keep)
    played = Entry.objects.get(event=organised_event, player=gone)
    members.members_merge(club=organised_event.club, keep=keep, gone=gone, actor="olga")
    entries = Entry.objects.filter(event=organised_event, player=keep)
    assert [e.pk for e in entries] == [played.pk]


def test_a_merge_is_refused_for_one_record_or_another_clubs(organised_event):
    register(organised_event, 2)
    a, b = Player.objects.filter(club=organised_event.club)[:2]
    other_club = club_create(name="Plovdiv")
    stranger = Player.objects.create(club=other_club, name="Stranger")
    with pytest.raises(TournamentError) as same:
        members.members_merge(club=organised_event.club, keep=a, gone=a)
    assert same.value.code == "merge_same_member"
    with pytest.raises(TournamentError) as foreign:
        members.members_merge(club=organised_event.club, keep=a, gone=stranger)
    assert foreign.value.code == "member_other_club"
    assert Player.objects.filter(pk__in=[a.pk, b.pk, stranger.pk]).count() == 3


def test_two_records_at_one_casual_table_are_two_people(organised_event):
    club = organised_event.club
    game = members.casual_game_start(club=club, seats=["Ana", "Ani", "Boris"], actor="olga")
    ana, ani = Player.objects.get(name="Ana"), Player.objects.get(name="Ani")
    with pytest.raises(NotAllowed) as refused:
        members.members_merge(club=club, keep=ana, gone=ani)
    assert refused.value.code == "merge_same_table"
    assert ClubGame.objects.get(pk=game.pk).seat_1_id == ani.pk


def test_rename_is_logged_and_a_taken_name_is_refused(organised_event):
    players_register(event=organised_event, names=["Ivan Petrov", "Maria"])
    ivan = Player.objects.get(name="Ivan Petrov")
    members.member_rename(player=ivan, name="  Ivan   Petrov-Dimov ", actor="olga")
    ivan.refresh_from_db()
    assert ivan.name == "Ivan Petrov-Dimov"
    log = ClubLog.objects.get(action="member_renamed")
    assert log.data == {"player": ivan.pk, "old": "Ivan Petrov", "new": "Ivan Petrov-Dimov"}
    with pytest.raises(TournamentError) as taken:
        members.member_rename(player=ivan, name="MARÍA", actor="olga")
    assert taken.value.code == "member_name_taken"
    with pytest.raises(TournamentError):
        members.member_rename(player=ivan, name="   ")


def test_picked_members_are_entered_as_those_very_records(organised_event):
    club = organised_event.club
    old = Player.objects.create(club=club, name="Ivan Petrov")
    Player.objects.create(club=club, name="ivan petrov")  # an old duplicate row
    entries = members.members_enter(event=organised_event, players=[old], actor="olga")
    assert [e.player_id for e in entries] == [old.pk]
    members.members_enter(event=organised_event, players=[old])  # again: nothing new
    assert Entry.objects.filter(event=organised_event).count() == 1
    stranger = Player.objects.create(club=club_create(name="Other"), name="S")
    with pytest.raises(TournamentError):
        members.members_enter(event=organised_event, players=[stranger])


def test_a_casual_game_maps_names_to_members_and_adds_new_ones(organised_event):
    club = organised_event.club
    players_register(event=organised_event, names=["Ivan Petrov", "Maria"])
    maria = Player.objects.get(name="Maria")
    count = Player.objects.count()
    casual = members.casual_game_start(
        club=club, seats=[maria, "ivan  PETROV", "Nikola"], actor="olga"
    )
    assert Player.objects.count() == count + 1
    assert casual.game.players == ["Maria", "Ivan Petrov", "Nikola"]
    assert casual.seat_1_id == Player.objects.get(name="Ivan Petrov").pk
    assert not Table.objects.filter(game=casual.game).exists()
    with pytest.raises(TournamentError) as twice:
        members.casual_game_start(club=club, seats=[maria, "maria", "Nikola"])
    assert twice.value.code == "casual_seats"


def test_a_substitute_seat_without_an_entry_still_counts_as_playing(organised_event, build_round):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    first, second = round_.tables.order_by("number")[:2]
    substitute = Player.objects.create(club=organised_event.club, name="Substitute")
    Table.objects.filter(pk=second.pk).update(seat_2=substitute)  # seated, never entered
    with pytest.raises(NotAllowed) as refused:
        members.members_merge(club=organised_event.club, keep=first.seat_0, gone=substitute)
    assert refused.value.code == "merge_both_played"
