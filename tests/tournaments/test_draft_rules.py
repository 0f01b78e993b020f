"""The draft page says what the draw did with the teams and keep-apart rules (docs/teams.md,
docs/rounds.md): the rounds the plan still gives, or at most the field still allows, and why
a rule could not be kept."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from tournaments.events.services.registration import players_register
from tournaments.models import Event, TeamMember
from tournaments.rounds.services.rounds import round_swap
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
    text = page(organiser_client, event)
    assert "The plan gives 3 rounds, this one included, with nobody meeting twice" in text
    assert "At most" not in text  # the plan's exact figure, not the bound


def test_a_swap_that_leaves_the_plan_says_the_rounds_without_repeat_are_over(
    organised_event, organiser_client, build_round
):
    """Two clubmates at one table after a swap: the plan's figure goes, the bound says 0."""
    event = organised_event
    event.pairing_modes = ["no-repeat"]
    event.save()
    players_register(event=event, names=[n for ms in CLUBS.values() for n in ms], checked_in=True)
    for club, members in CLUBS.items():
        team_create(
            event=event, name=club, entries=list(event.entries.filter(player__name__in=members))
        )
    round_ = build_round(event)
    first, second = round_.tables.order_by("number")[:2]
    round_swap(round_=round_, first=first.seat_ids[0], second=second.seat_ids[1])
    text = page(organiser_client, event)
    assert "The plan gives" not in text
    assert (
        "No more rounds can pass with nobody meeting twice: this draft already seats together "
        "players who have met or must be kept apart."
    ) in text


def test_a_swiss_draft_says_how_many_rounds_the_field_still_allows(
    organised_event, organiser_client, build_round
):
    """Nine players, round 1: each met two, six left to meet, three rounds more at most."""
    names = [name for members in CLUBS.values() for name in members]
    players_register(event=organised_event, names=names, checked_in=True)
    build_round(organised_event)
    text = page(organiser_client, organised_event)
    assert (
        "At most 3 more rounds can follow with nobody meeting twice and every rule kept. "
        "Ana has 6 players left to meet."
    ) in text
    assert "rounds_bound" not in text  # not shown among the flags as a code


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
    assert "No more rounds can pass with nobody meeting twice" in text
