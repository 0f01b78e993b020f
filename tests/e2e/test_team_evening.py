"""A three-club team evening on 390×844 phones, in Bulgarian (docs/teams.md and
docs/team-standings.md).

Nine players of three clubs meet for three rounds. The organiser opens the teams page from
the players page and pastes the three clubs as teams, their players' names typed as the clubs
write them (Latin or Cyrillic, any word order). Each round is built and published on the
dashboard: every table seats one player of each club (a triangular match), and over the three
rounds nobody meets anyone twice. The tables are played and confirmed, each round closed; the
projector shows the team standings beside the players', big, and they add up to the players'
own placing points."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from django.utils.text import capfirst
from playwright.sync_api import expect

from scoring import autoplay
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Round, Table, TeamMember
from tournaments.results.services import result_confirm

from .checks import check_screen
from .organiser import PASSWORD, log_in
from .test_evening import Words

pytestmark = pytest.mark.django_db(transaction=True)

CLUBS = {
    "Варна": ["Иван Петров", "Elena Todorova", "Стоян Стоянов"],
    "Русе": ["Вера Георгиева", "Dimitar Nikolov", "Галина Маринова"],
    "Бургас": ["Filip Yordanov", "Христо Павлов", "Мария Димитрова"],
}
#: The list as the organiser pastes it: names in the other alphabet or order, too.
PASTED = "\n".join(
    [
        "Варна: Ivan Petrov, Елена Тодорова, Stoyan Stoyanov",
        "Русе: Vera Georgieva, Димитър Николов, Marinova Galina",
        "Бургас: Филип Йорданов, Hristo Pavlov, Maria Dimitrova",
    ]
)


def play_and_confirm(round_: Round, seed: int) -> None:
    rng = random.Random(seed)
    for table in round_.tables.select_related("game"):
        autoplay.play(table.game, rng, actor="table")
        table.game.refresh_from_db()
        if not table.game.confirmed:
            result_confirm(table=Table.objects.get(pk=table.pk), actor="olga")


def test_a_three_club_team_evening_in_bulgarian(
    live_server, new_phone, screenshot, django_user_model
):
    t = Words("bg")
    user = django_user_model.objects.create_user("olga", password=PASSWORD)
    club = club_create(name="Блато София", creator=user)
    event = event_create(club=club, name="Три клуба", rounds_planned=3, seed=7, by=user)
    names = [name for members in CLUBS.values() for name in members]
    players_register(event=event, names=names, checked_in=True, by=user)

    page = new_phone(locale="bg-BG")
    organise = f"{live_server.url}/organise/events/{event.slug}/"
    log_in(page, organise + "players/")

    # 1. The teams: pasted as the clubs write their players.
    page.get_by_role("link", name=t("Teams and players kept apart")).click()
    expect(page).to_have_url(organise + "teams/")
    page.locator("details.paste summary").click()
    page.locator("details.paste textarea").fill(PASTED)
    page.get_by_role("button", name=t("Enter these teams")).click()
    teams = page.locator("li.team")
    expect(teams).to_have_count(3)
    for club_name, members in CLUBS.items():
        team = teams.filter(has_text=club_name)
        for member in members:
            expect(team).to_contain_text(member)
    check_screen(page, "team-evening-teams-bg", screenshot)
    team_of = {
        m.entry.player_id: m.team.name
        for m in TeamMember.objects.filter(team__event=event).select_related("entry", "team")
    }
    assert sorted(team_of.values()) == sorted(c for c, ms in CLUBS.items() for _ in ms)

    # 2. Three rounds built and published on the dashboard: one player of each club at every
    # table, and nobody meets anyone twice.
    met: set[tuple[int, int]] = set()
    for number in (1, 2, 3):
        page.goto(organise)
        page.get_by_role("button", name=t("Build round %(n)s", n=number)).click()
        expect(page).to_have_url(f"{organise}rounds/{number}/")
        page.get_by_role("button", name=t("Publish round %(n)s", n=number)).click()
        expect(page.locator(".round-state")).to_have_text(
            t("Status: %(status)s", status=capfirst(t("published")))
        )
        if number == 1:
            check_screen(page, "team-evening-round-bg", screenshot)
        round_ = Round.objects.get(event=event, number=number)
        for table in round_.tables.all():
            seats = table.seat_ids
            assert sorted(team_of[p] for p in seats) == sorted(CLUBS), (number, seats)
            pairs = set(combinations(sorted(seats), 2))
            assert not pairs & met, (number, seats)
            met |= pairs
        play_and_confirm(round_, seed=number)
        page.reload()  # every table confirmed: the round may be closed
        page.get_by_role("button", name=t("Close round %(n)s", n=number)).click()
        page.get_by_role("button", name=t("Yes, close round %(n)s", n=number)).click()
        expect(page).to_have_url(organise)
    assert len(met) == 27  # each player met the six of the other clubs, once each

    # 3. The projector: the team standings beside the players', each team's points the sum
    # of its players' placing points.
    projector = new_phone(locale="bg-BG")
    projector.goto(f"{live_server.url}/events/{event.slug}/projector/")
    counted = projector.locator("#projector-standings .subtitle").first
    expect(counted).to_contain_text(t.plural("After %(n)s round", "After %(n)s rounds", 3))
    wall = projector.locator("section.team-standings")
    expect(wall).to_be_visible()
    expect(wall.locator("tbody tr")).to_have_count(3)
    snapshot = event.standings.first()
    placing = {row["player"]: row["metrics"]["placing_points"] for row in snapshot.rows}
    shown = {}
    for row in wall.locator("tbody tr").all():
        text = row.inner_text()
        club_name = next(name for name in CLUBS if name in text)
        shown[club_name] = text
    for team_row in snapshot.team_rows:
        members = team_row["members"]
        assert team_row["points"] == sum(placing[p] for p in members)
        club_name = team_of[members[0]]
        assert str(team_row["points"]) in shown[club_name]
    check_screen(projector, "team-evening-projector-bg", screenshot, phone=False)
