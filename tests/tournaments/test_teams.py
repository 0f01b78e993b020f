"""Teams and keep-apart rules (docs/teams.md): the services' rules, what the draw is given
(tournaments.common.bridge), and the draft's and the log's words."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments import pairing
from tournaments.common.bridge import apart_pairs, pairing_request, team_ids
from tournaments.common.errors import Forbidden, NotAllowed, TournamentError
from tournaments.events.services.event import event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Event, EventLog, KeepApart, Round, Team, TeamMember
from tournaments.rounds.presenters.flags import flag_sentence
from tournaments.rounds.presenters.organise import log_lines
from tournaments.teams.selectors import apart_reasons, team_names_by_player
from tournaments.teams.services import (
    PastedTeam,
    keep_apart_create,
    keep_apart_delete,
    team_create,
    team_delete,
    team_member_remove,
    team_members_add,
    team_rename,
    teams_paste,
)

pytestmark = pytest.mark.django_db

NAMES = ["Ana Petrova", "Boris Ivanov", "Вера Колева", "Georgi Dimov", "Dora Stoeva", "Emil Kanev"]


@pytest.fixture
def event(organised_event):
    players_register(event=organised_event, names=NAMES, checked_in=True)
    return organised_event


def entry(event: Event, name: str) -> Entry:
    return event.entries.select_related("player").get(player__name=name)


def entries(event: Event, *names: str) -> list[Entry]:
    return [entry(event, name) for name in names]


# --- teams -----------------------------------------------------------------------------------


def test_a_team_is_made_with_its_players_and_logged(event, organiser):
    team = team_create(
        event=event,
        name="  Aces  ",
        entries=entries(event, "Ana Petrova", "Boris Ivanov"),
        actor="olga",
        by=organiser,
    )
    assert team.name == "Aces"
    assert sorted(team.members.values_list("entry__player__name", flat=True)) == [
        "Ana Petrova",
        "Boris Ivanov",
    ]
    line = EventLog.objects.get(event=event, action="team_created")
    assert line.data["team"] == "Aces" and len(line.data["players"]) == 2


def test_team_names_are_unique_in_the_event_whatever_their_case(event):
    team_create(event=event, name="Aces")
    with pytest.raises(TournamentError) as refused:
        team_create(event=event, name="aces")
    assert refused.value.code == "team_name_taken"
    with pytest.raises(TournamentError) as refused:
        team_create(event=event, name="   ")
    assert refused.value.code == "team_name_missing"
    with pytest.raises(TournamentError) as refused:
        team_create(event=event, name="x" * 81)
    assert refused.value.code == "team_name_too_long"
    assert Team.objects.filter(event=event).count() == 1


def test_the_same_name_in_another_event_is_fine(event, organiser):
    other = event_create(club=event.club, name="Saturday", organisers=[organiser])
    team_create(event=event, name="Aces")
    assert team_create(event=other, name="Aces").event == other


def test_a_player_is_in_one_team_at_most_and_nothing_is_half_done(event):
    aces = team_create(event=event, name="Aces", entries=entries(event, "Ana Petrova"))
    kings = team_create(event=event, name="Kings")
    with pytest.raises(NotAllowed) as refused:
        team_members_add(team=kings, entries=entries(event, "Boris Ivanov", "Ana Petrova"))
    assert refused.value.code == "entry_in_team"
    assert refused.value.params == {"name": "Ana Petrova", "team": "Aces"}
    assert not kings.members.exists()  # Boris did not join either
    # already in this team: nothing changes
    assert team_members_add(team=aces, entries=entries(event, "Ana Petrova")) == []


def test_a_player_of_another_event_cannot_join(event, organiser):
    other = event_create(club=event.club, name="Saturday", organisers=[organiser])
    (stranger,) = players_register(event=other, names=["Zlatka Z"])
    team = team_create(event=event, name="Aces")
    with pytest.raises(TournamentError) as refused:
        team_members_add(team=team, entries=[stranger])
    assert refused.value.code == "entry_not_in_event"


def test_rename_remove_and_delete_are_logged(event):
    team = team_create(event=event, name="Aces", entries=entries(event, "Ana Petrova"))
    team_create(event=event, name="Kings")
    with pytest.raises(TournamentError):
        team_rename(team=team, name="KINGS")
    team_rename(team=team, name="Jacks", actor="olga")
    team.refresh_from_db()
    assert team.name == "Jacks"
    team_member_remove(team=team, entry=entry(event, "Ana Petrova"))
    with pytest.raises(TournamentError) as refused:
        team_member_remove(team=team, entry=entry(event, "Ana Petrova"))
    assert refused.value.code == "entry_not_in_team"
    assert team_delete(team=team) == "Jacks"
    assert Entry.objects.filter(event=event).count() == len(NAMES)  # players stay entered
    actions = list(EventLog.objects.filter(event=event).values_list("action", flat=True))
    for action in ("team_renamed", "team_member_removed", "team_deleted"):
        assert action in actions


def test_only_the_events_organisers_change_teams(event, make_user):
    intruder = make_user("ivo")
    with pytest.raises(Forbidden):
        team_create(event=event, name="Aces", by=intruder)
    with pytest.raises(Forbidden):
        keep_apart_create(event=event, entries=entries(event, *NAMES[:2]), by=intruder)
    assert not Team.objects.exists() and not KeepApart.objects.exists()


def test_a_closed_event_refuses_changes(event):
    team = team_create(event=event, name="Aces")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.CLOSED)
    event.refresh_from_db()
    team.event.refresh_from_db()
    for change in (
        lambda: team_create(event=event, name="Kings"),
        lambda: team_rename(team=team, name="Jacks"),
        lambda: team_delete(team=team),
        lambda: keep_apart_create(event=event, entries=entries(event, *NAMES[:2])),
    ):
        with pytest.raises(NotAllowed) as refused:
            change()
        assert refused.value.code == "event_closed"


# --- a pasted list ---------------------------------------------------------------------------


def test_a_pasted_list_matches_names_in_either_script(event):
    made = teams_paste(
        event=event,
        teams=[
            PastedTeam(1, "Aces", ["ana petrova", "Борис Иванов"]),
            PastedTeam(2, "Kings", ["Vera Koleva", "Dimov"]),
            PastedTeam(3, "aces", ["Dora Stoeva"]),  # the same team: one more player
        ],
    )
    assert [team.name for team in made] == ["Aces", "Kings"]
    assert team_names_by_player(event) == {
        entry(event, "Ana Petrova").player_id: "Aces",
        entry(event, "Boris Ivanov").player_id: "Aces",
        entry(event, "Dora Stoeva").player_id: "Aces",
        entry(event, "Вера Колева").player_id: "Kings",
        entry(event, "Georgi Dimov").player_id: "Kings",
    }


@pytest.mark.parametrize(
    ("teams", "code"),
    [
        ([PastedTeam(1, "Aces", ["Nobody Here"])], "team_line_unknown"),
        (
            [PastedTeam(1, "Aces", ["Ana Petrova"]), PastedTeam(2, "Kings", ["ana petrova"])],
            "team_line_twice",
        ),
        ([PastedTeam(4, "", ["Ana Petrova"])], "team_line_no_name"),
    ],
)
def test_a_bad_line_refuses_the_whole_list(event, teams, code):
    with pytest.raises(TournamentError) as refused:
        teams_paste(event=event, teams=[PastedTeam(9, "Jacks", ["Emil Kanev"]), *teams])
    assert refused.value.code == code
    assert not Team.objects.filter(event=event).exists()


def test_a_name_that_fits_several_players_is_refused_with_their_names(event):
    players_register(event=event, names=["Ana Dimova"])
    with pytest.raises(TournamentError) as refused:
        teams_paste(event=event, teams=[PastedTeam(3, "Aces", ["Ana"])])
    assert refused.value.code == "team_line_ambiguous"
    assert refused.value.params["line"] == 3
    assert "Ana Dimova" in refused.value.params["names"]


# --- keep apart ------------------------------------------------------------------------------


def test_keep_apart_needs_two_players_and_keeps_the_reason(event):
    with pytest.raises(TournamentError) as refused:
        keep_apart_create(event=event, entries=entries(event, "Ana Petrova") * 2)
    assert refused.value.code == "apart_too_few"
    rule = keep_apart_create(
        event=event, entries=entries(event, *NAMES[:3]), label=" couple ", actor="olga"
    )
    assert rule.label == "couple" and rule.entries.count() == 3
    line = EventLog.objects.get(event=event, action="apart_created")
    assert line.reason == "couple" and len(line.data["players"]) == 3
    keep_apart_delete(rule=rule, actor="olga")
    assert not KeepApart.objects.exists()
    assert EventLog.objects.filter(event=event, action="apart_deleted").exists()


def test_the_draw_is_given_every_pair_of_each_group_and_the_teams_in_player_ids(event):
    group = entries(event, "Ana Petrova", "Boris Ivanov", "Вера Колева")
    keep_apart_create(event=event, entries=group, label="same club")
    keep_apart_create(event=event, entries=entries(event, "Dora Stoeva", "Emil Kanev"))
    team = team_create(
        event=event, name="Aces", entries=entries(event, "Georgi Dimov", "Emil Kanev")
    )
    a, b, c = sorted(e.player_id for e in group)
    d, e = sorted(x.player_id for x in entries(event, "Dora Stoeva", "Emil Kanev"))
    assert apart_pairs(event) == frozenset({(a, b), (a, c), (b, c), (d, e)})
    georgi = entry(event, "Georgi Dimov").player_id
    assert team_ids(event) == {georgi: team.pk, e: team.pk}
    round_ = Round.objects.create(event=event, number=1, pairing_mode="random")
    request = pairing_request(round_)
    assert request.apart == apart_pairs(event)
    assert dict(request.teams) == {georgi: team.pk, e: team.pk}
    assert {x.id for x in request.entrants} >= {a, b, c, d, e, georgi}


def test_no_rules_no_teams_the_request_is_as_before(event):
    round_ = Round.objects.create(event=event, number=1, pairing_mode="random")
    request = pairing_request(round_)
    assert request.apart == frozenset() and dict(request.teams) == {}


# --- words -----------------------------------------------------------------------------------


def test_the_draft_words_the_two_new_flags_with_the_reason(event):
    ana, boris = (x.player_id for x in entries(event, "Ana Petrova", "Boris Ivanov"))
    keep_apart_create(
        event=event, entries=entries(event, "Ana Petrova", "Boris Ivanov"), label="couple"
    )
    names = {ana: "Ana", boris: "Boris"}
    reasons = apart_reasons(event)
    apart = pairing.Flag(pairing.FlagCode.APART, players=(min(ana, boris), max(ana, boris)))
    mates = pairing.Flag(pairing.FlagCode.TEAMMATES, players=(ana, boris))
    assert flag_sentence(apart.as_dict(), names, reasons) == (
        "Ana and Boris are seated together although they must be kept apart (reason: couple)."
    )
    assert flag_sentence(apart.as_dict(), names) == (
        "Ana and Boris are seated together although they must be kept apart."
    )
    assert flag_sentence(mates.as_dict(), names) == "Ana and Boris are teammates."
    with translation.override("bg"):
        said = flag_sentence(apart.as_dict(), names, reasons)
        assert "Ana" in said and "couple" in said and "kept apart" not in said
        assert "teammates" not in flag_sentence(mates.as_dict(), names)


def test_the_log_words_every_team_action(event):
    team = team_create(event=event, name="Aces", entries=entries(event, "Ana Petrova"))
    team_rename(team=team, name="Kings")
    team_member_remove(team=team, entry=entry(event, "Ana Petrova"))
    keep_apart_create(event=event, entries=entries(event, *NAMES[:2]))
    names = {x.player_id: x.player.name for x in event.entries.select_related("player")}
    lines = log_lines(list(EventLog.objects.filter(event=event).order_by("pk")), names)
    said = " ".join(line.what for line in lines)
    assert "Team Aces made: Ana Petrova." in said
    assert "Team Aces renamed Kings." in said
    assert "Ana Petrova taken out of the team Kings." in said
    assert "Kept apart at the tables: Ana Petrova, Boris Ivanov." in said


def test_a_deleted_entry_leaves_its_team(event):
    team = team_create(event=event, name="Aces", entries=entries(event, "Ana Petrova"))
    entry(event, "Ana Petrova").delete()
    assert not TeamMember.objects.filter(team=team).exists()
