"""Team standings on the site (docs/team-standings.md): built with the snapshot, shown on the
standings page, its poll and the projector, downloaded, read from the API, set on the event's
settings; teams made straight with the models (the teams pages are another feature's)."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import autoplay
from tournaments.clubs.services import seasons as writes
from tournaments.common import bridge
from tournaments.events.forms import EventSettingsForm
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Event, Team, TeamMember
from tournaments.results.presenters import team_context
from tournaments.results.selectors import standings_latest
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_pair, round_publish
from tournaments.standings import build_team_standings

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [f"Player {n}" for n in range(1, 10)]
TEAMS = {"Орлите": NAMES[0:3], "Lions": NAMES[3:6], "=SUM(A1)": NAMES[6:9]}


def make_teams(event: Event, teams=TEAMS) -> dict[str, Team]:
    made = {}
    for name, members in teams.items():
        team = made[name] = Team.objects.create(event=event, name=name)
        for member in members:
            TeamMember.objects.create(
                team=team, entry=Entry.objects.get(event=event, player__name=member)
            )
    return made


def play_round(event: Event, seed: int = 5) -> None:
    rng = random.Random(seed)
    round_ = round_pair(round_id=round_create(event=event).pk)
    round_publish(round_=round_)
    for table in round_.tables.select_related("game"):
        autoplay.play(table.game, rng, actor="test")
        result_confirm(table=table, actor="test")
    round_close(round_=round_)


@pytest.fixture
def night():
    """Nine players in three teams (one named in Cyrillic, one like a formula), round 1 played."""
    event = event_create(club=club_create(name="Sofia Blato Club"), name="Teams", seed=3)
    players_register(event=event, names=NAMES, checked_in=True)
    make_teams(event)
    play_round(event)
    standings_build(event_id=event.pk)
    event.refresh_from_db()
    return event


def test_the_snapshot_holds_the_team_rows_the_pure_build_gives(night):
    snapshot = night.standings.first()
    players, results, byes = bridge.standings_inputs(night)
    expected = build_team_standings(
        bridge.event_teams(night), players, results, byes, bridge.team_config(night)
    )
    assert snapshot.team_rows == [row.as_dict() for row in expected]
    assert [row["rank"] for row in snapshot.team_rows] == [1, 2, 3]
    placing = {row["player"]: row["metrics"]["placing_points"] for row in snapshot.rows}
    for row in snapshot.team_rows:
        assert row["points"] == sum(placing[p] for p in row["members"])
        assert len(row["members"]) == 3


def test_an_event_without_teams_stores_none_and_shows_none(client):
    event = event_create(club=club_create(name="Sofia Blato Club"), name="Solo", seed=3)
    players_register(event=event, names=NAMES[:6], checked_in=True)
    play_round(event)
    snapshot = standings_build(event_id=event.pk)
    assert snapshot.team_rows == []
    page = client.get(reverse("tournaments:standings", args=[event.slug])).text
    assert "team-standings" not in page
    body = client.get(f"/api/events/{event.slug}/team-standings").json()
    assert body["rows"] == [] and body["unranked"] == []


def test_game_points_scoring_sums_the_players_game_points(night):
    Event.objects.filter(pk=night.pk).update(
        team_scoring="game_points", results_version=night.results_version + 1
    )
    snapshot = standings_build(event_id=night.pk)
    score = {row["player"]: row["metrics"]["score"] for row in snapshot.rows}
    for row in snapshot.team_rows:
        assert row["points"] == sum(score[p] for p in row["members"]) == sum(row["per_round"])


def _team_names_in_order(html: str) -> list[str]:
    section = html[html.index('class="team-standings"') :]
    return [name for name in ("Орлите", "Lions", "=SUM(A1)") if name in section]


def test_the_standings_page_and_its_poll_show_the_teams(client, night):
    page = client.get(reverse("tournaments:standings", args=[night.slug])).text
    assert 'class="team-standings"' in page
    rows = night.standings.first().team_rows
    names = {team.pk: team.name for team in night.teams.all()}
    section = page[page.index('class="team-standings"') :]
    positions = [section.index(names[row["team"]].replace("'", "&#x27;")) for row in rows]
    assert positions == sorted(positions)  # in rank order
    assert "Player 1, Player 2 and Player 3" in section  # the members under the name
    poll = client.get(reverse("tournaments:standings_live", args=[night.slug])).text
    assert 'class="team-standings"' in poll


def test_the_projector_shows_the_teams_big_without_the_players(client, night):
    page = client.get(reverse("tournaments:projector", args=[night.slug])).text
    section = page[page.index('class="team-standings"') :]
    assert "Орлите" in section and "Lions" in section
    assert "Player 1, Player 2" not in section
    live = client.get(reverse("tournaments:projector_live", args=[night.slug])).text
    assert 'class="team-standings"' in live


def test_the_page_speaks_bulgarian(night):
    client = Client(headers={"accept-language": "bg"})
    page = client.get(reverse("tournaments:standings", args=[night.slug])).text
    section = page[page.index('class="team-standings"') :]
    assert "Отбори" in section
    assert "Teams are ranked" not in section


def test_a_tie_is_explained_in_words(night):
    snapshot = night.standings.first()
    rows = snapshot.team_rows
    rows[1]["points"] = rows[0]["points"]
    rows[1]["decided_by"] = "round_wins"
    snapshot.team_rows = rows
    view = standings_latest(night)
    view = type(view)(snapshot, False, view.names, view.withdrawn)
    with translation.override("en"):
        lines = team_context(night, view)["teams"]
    assert lines[1].tie == "Level with the team above on points: placed below on rounds won."
    assert lines[1].tie_marker == "by rounds won"
    assert lines[0].tie == ""


def test_the_api_answers_the_team_standings(client, night):
    body = client.get(f"/api/events/{night.slug}/team-standings").json()
    assert body["event"] == night.slug
    assert body["scoring"] == "placing"
    assert body["order"][0] == "points" and body["order"][-1] == "lot"
    assert body["stale"] is False and body["rounds_complete"] == 1
    assert [row["rank"] for row in body["rows"]] == [1, 2, 3]
    assert {row["team"] for row in body["rows"]} == set(TEAMS)
    for row in body["rows"]:
        assert row["players"] == TEAMS[row["team"]]
        assert row["points"] == sum(row["per_round"])
    assert client.get("/api/events/no-such-event/team-standings").status_code == 404


def test_the_api_says_when_the_team_standings_are_stale(client, night):
    Event.objects.filter(pk=night.pk).update(results_version=night.results_version + 1)
    assert client.get(f"/api/events/{night.slug}/team-standings").json()["stale"] is True


def test_the_download_lists_the_teams_with_formulas_neutralised(night, organiser_client, organiser):
    night.organisers.add(organiser)
    url = reverse("tournaments:organise_export", args=[night.slug, "team-standings", "csv"])
    response = organiser_client.get(url)
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["Rank", "Team", "Players"]
    assert "Round 1" in rows[0] and "Team points" in rows[0]
    names = [row[1] for row in rows[1:]]
    assert sorted(names) == sorted(["Орлите", "Lions", "'=SUM(A1)"])
    dashboard = organiser_client.get(reverse("tournaments:organise_event", args=[night.slug])).text
    assert url in dashboard
    assert Client().get(url).status_code in (302, 403, 404)


def test_the_settings_form_sets_the_team_scoring_and_tie_breaks(night, organiser_client, organiser):
    night.organisers.add(organiser)
    url = reverse("tournaments:organise_settings", args=[night.slug])
    page = organiser_client.get(url).text
    assert 'name="team_scoring"' in page and 'name="team_precedence_1"' in page
    data = {
        key: value
        for key, value in EventSettingsForm.initial_from(night).items()
        if value is not None and not isinstance(value, list | dict)
    }
    data.update(team_scoring="game_points", team_precedence_1="firsts", team_precedence_2="lot")
    for n in range(3, 7):
        data[f"team_precedence_{n}"] = ""
    response = organiser_client.post(url, data)
    assert response.status_code in (200, 302), response.text[:500]
    night.refresh_from_db()
    assert night.team_scoring == "game_points"
    assert night.team_precedence == ["firsts", "lot"]
    data.update(team_precedence_1="lot", team_precedence_2="firsts")
    response = organiser_client.post(url, data)
    night.refresh_from_db()
    assert night.team_precedence == ["firsts", "lot"]  # refused: the lot must come last
    assert "The drawing of lots must be the last tie-break" in response.text


def test_the_season_lists_each_nights_teams(client, night):
    season = writes.season_create(club=night.club, name="Autumn")
    writes.season_add_event(season, night)
    solo = event_create(club=night.club, name="Solo night", seed=4)
    players_register(event=solo, names=NAMES[:3], checked_in=True)
    play_round(solo)
    standings_build(event_id=solo.pk)
    writes.season_add_event(season, solo)
    page = client.get(reverse("tournaments:club_season", args=[night.club.slug, season.pk])).text
    section = page[page.index('id="team-nights-heading"') :]
    assert f">{night.name}</a>" in section
    assert "Solo night" not in section  # a night without teams has no team list
    ranked = night.standings.first().team_rows
    names = {team.pk: team.name for team in night.teams.all()}
    first = names[ranked[0]["team"]]
    assert f'<td class="rank">1</td><th scope="row">{first}' in section.replace("&#x27;", "'")
    with translation.override("bg"):
        bg = (
            Client(headers={"accept-language": "bg"})
            .get(reverse("tournaments:club_season", args=[night.club.slug, season.pk]))
            .text
        )
    assert "Отборите вечер по вечер" in bg


def test_a_season_without_team_nights_has_no_team_section(client):
    event = event_create(club=club_create(name="Sofia Blato Club"), name="Solo", seed=3)
    players_register(event=event, names=NAMES[:3], checked_in=True)
    play_round(event)
    standings_build(event_id=event.pk)
    season = writes.season_create(club=event.club, name="Autumn")
    writes.season_add_event(season, event)
    page = client.get(reverse("tournaments:club_season", args=[event.club.slug, season.pk])).text
    assert "team-nights-heading" not in page


def test_a_renamed_team_shows_its_new_name_at_once(client, night):
    team = night.teams.get(name="Lions")
    team.name = "Tigers"
    team.save()  # on commit (this test's transaction is real): written out again
    page = client.get(reverse("tournaments:standings", args=[night.slug])).text
    section = page[page.index('class="team-standings"') :]
    assert "Tigers" in section and "Lions" not in section


def test_the_final_standings_to_print_have_the_teams(night, organiser_client, organiser):
    night.organisers.add(organiser)
    page = organiser_client.get(reverse("tournaments:organise_event_final", args=[night.slug]))
    section = page.text[page.text.index('class="team-standings"') :]
    assert "Lions" in section and "Player 4, Player 5 and Player 6" in section


def _team_headings(client, event) -> str:
    page = client.get(reverse("tournaments:standings", args=[event.slug])).text
    section = page[page.index('class="team-standings"') :]
    return section[: section.index("</thead>")]


def test_the_total_is_not_shown_twice(client, night):
    headings = _team_headings(client, night)
    assert "Rounds won" in headings and "Game points" in headings
    assert "Placing points" not in headings  # under "placing" it is the total itself
    Event.objects.filter(pk=night.pk).update(
        team_scoring="game_points", results_version=night.results_version + 1
    )
    standings_build(event_id=night.pk)
    headings = _team_headings(client, night)
    assert "Placing points" in headings and "Game points" not in headings


def test_a_team_made_or_changed_through_the_services_makes_the_standings_stale(night):
    """Membership is what a team's points are summed over: a new team, a player joining or
    leaving, a team deleted, each makes the snapshot stale and the next build counts it."""
    from tournaments.teams import services as teams

    lions = Team.objects.get(event=night, name="Lions")
    mover = Entry.objects.get(event=night, player__name=NAMES[3])
    steps = [
        lambda: teams.team_member_remove(team=lions, entry=mover, actor="olga"),
        lambda: teams.team_create(event=night, name="Newcomers", entries=[mover], actor="olga"),
        lambda: teams.team_delete(team=Team.objects.get(name="Newcomers"), actor="olga"),
    ]
    for step in steps:
        before = Event.objects.get(pk=night.pk).results_version
        step()
        assert Event.objects.get(pk=night.pk).results_version > before
        snapshot = standings_build(event_id=night.pk)
        counted = {p for row in snapshot.team_rows for p in row["members"]}
        in_teams = set(
            TeamMember.objects.filter(team__event=night).values_list("entry__player_id", flat=True)
        )
        assert counted == in_teams
