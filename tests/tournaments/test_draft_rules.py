"""The draft page says what the draw did with the teams and keep-apart rules (docs/teams.md,
docs/rounds.md): the rounds the plan still gives, and why a rule could not be kept."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournaments.events.services.registration import players_register
from tournaments.models import Event, TeamMember
from tournaments.teams.services import keep_apart_create, team_create

pytestmark = pytest.mark.django_db

CLUBS = {
    "Varna": ["Ana", "Boris", "Vera"],
    "Ruse": ["Gosho", "Dora", "Emil"],
    "Burgas": ["Filip", "Galya", "Hristo"],
}


def page(client, event: Event, number: int = 1) -> str:
    url = reverse("tournaments:organise_round", args=[event.slug, number])
    return html.unescape(client.get(url).content.decode())


def test_three_teams_in_no_repeat_show_the_plans_rounds_and_triangular_tables(
    organised_event, organiser_client, build_round
):
    event = organised_event
    event.pairing_modes = ["no-repeat"]
    event.rounds_planned = 3
    event.save()
    names = [name for members in CLUBS.values() for name in members]
    players_register(event=event, names=names, checked_in=True)
    for club, members in CLUBS.items():
        team_create(
            event=event, name=club, entries=list(event.entries.filter(player__name__in=members))
        )
    round_ = build_round(event)
    team_of = dict(TeamMember.objects.values_list("entry__player_id", "team__name"))
    for table in round_.tables.all():
        assert sorted(team_of[p] for p in table.seat_ids) == sorted(CLUBS)
    assert "The plan gives 3 rounds, this one included, with nobody meeting twice" in page(
        organiser_client, event
    )


def test_a_rule_the_field_cannot_keep_is_flagged_with_why(
    organised_event, organiser_client, build_round
):
    """Three players of one club at two tables: two of them must share one."""
    event = organised_event
    players_register(
        event=event, names=["Ana", "Boris", "Vera", "Gosho", "Dora", "Emil"], checked_in=True
    )
    club = list(event.entries.filter(player__name__in=["Ana", "Boris", "Vera"]))
    keep_apart_create(event=event, entries=club, label="same club")
    build_round(event)
    text = page(organiser_client, event)
    assert "are seated together although they must be kept apart (reason: same club)." in text
    assert "No seating of this round's players keeps them apart." in text
    assert "The plan gives" not in text  # a swiss round follows no plan
