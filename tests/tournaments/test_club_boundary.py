"""The club is the boundary: only a club's organisers (and superusers) create an event in it,
add organisers to its events, enter its members, count a night in its seasons, or change what
its ratings hold. The services refuse (tournaments.common.permissions), so every page, API route,
command and task that goes through them gets the same answer.

The attack: an organiser of club B, with their token, made an event in club A, entered club
A's members by name, played and confirmed a round, and club A's public ratings held results
B chose. Each step is refused here, before anything is written.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.clubs.services import members as member_writes
from tournaments.clubs.services import ratings as rating_writes
from tournaments.clubs.services import seasons as season_writes
from tournaments.common import permissions, tokens
from tournaments.common.errors import Forbidden
from tournaments.events.services.event import club_create, event_create, organiser_add
from tournaments.events.services.registration import players_register
from tournaments.models import Club, Event, Player, Rating, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs(make_user):
    """Club A run by alice with five members from one night; club B run by bob; carol
    organises one event of club B (listed by bob) but does not run club B."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    club_a = club_create(name="Club A", slug="club-a", creator=alice)
    club_b = club_create(name="Club B", slug="club-b", creator=bob)
    night = event_create(club=club_a, name="A night", organisers=[alice], by=alice)
    players_register(event=night, names=[f"A{n} Player" for n in range(5)], by=alice)
    b_night = event_create(club=club_b, name="B night", organisers=[bob], by=bob)
    organiser_add(event=b_night, username="carol", by=bob)
    season = Season.objects.create(club=club_a, name="Autumn")
    return {
        "alice": alice,
        "bob": bob,
        "carol": carol,
        "a": club_a,
        "b": club_b,
        "night": night,
        "b_night": b_night,
        "season": season,
    }


def api_post(token: str, path: str, body: dict):
    return Client().post(
        path,
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


def club_a_state(club: Club) -> tuple:
    return (
        tuple(Event.objects.filter(club=club).order_by("pk").values_list("pk", "season_id")),
        tuple(Player.objects.filter(club=club).order_by("pk").values_list("pk", "name")),
        Rating.objects.filter(player__club=club).count(),
        tuple(Season.objects.filter(club=club).order_by("pk").values_list("pk", "name")),
        tuple(club.organisers.order_by("pk").values_list("pk", flat=True)),
        (club.ratings_public, club.rate_casual_games),
    )


@pytest.mark.parametrize("who", ["bob", "carol"])
def test_another_clubs_organiser_cannot_make_an_event_in_club_a_by_the_api(clubs, who):
    before = club_a_state(clubs["a"])
    token = tokens.token_issue(user=clubs[who])
    answer = api_post(
        token,
        "/api/events",
        {
            "club": "club-a",
            "name": "Mine now",
            "ruleset": "blato",
            "rounds": 1,
            "pairing": "random",
        },
    )
    assert answer.status_code == 403, answer.content
    assert "error" in answer.json()
    assert club_a_state(clubs["a"]) == before
    # ... and their own club still works for bob (carol runs no club)
    own = api_post(
        token,
        "/api/events",
        {"club": "club-b", "name": "Ours", "ruleset": "blato", "rounds": 1, "pairing": "random"},
    )
    assert own.status_code == (201 if who == "bob" else 403), own.content


def test_the_rights_are_answered_before_the_body(clubs):
    """The order of the API's checks (docs/api.md): another's club is 403 whatever the rest of
    the body; an unknown club is 400."""
    token = tokens.token_issue(user=clubs["bob"])
    answer = api_post(token, "/api/events", {"club": "club-a", "name": "", "rounds": "many"})
    assert answer.status_code == 403, answer.content
    assert "does not run the club Club A" in answer.json()["error"]["message"]
    assert api_post(token, "/api/events", {"club": "nowhere"}).status_code == 400


def test_the_new_event_form_lists_only_the_clubs_the_user_runs(clubs):
    client = Client()
    client.force_login(clubs["bob"])
    page = client.get(reverse("tournaments:organise_event_new"))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Club B" in body and "Club A" not in body
    before = club_a_state(clubs["a"])
    posted = client.post(
        reverse("tournaments:organise_event_new"),
        {"club": clubs["a"].pk, "name": "Mine now", "ruleset": "blato", "rounds_planned": 1},
    )
    assert posted.status_code == 400
    assert club_a_state(clubs["a"]) == before


def attempts_by(who, clubs, members) -> list:
    """Every write into club A, each as `who`."""
    club_a, night = clubs["a"], clubs["night"]
    return [
        lambda: event_create(club=club_a, name="X", organisers=[who], by=who),
        lambda: players_register(event=night, names=["A0 Player", "New"], by=who),
        lambda: member_writes.members_enter(event=night, players=members[:2], by=who),
        lambda: organiser_add(event=night, username=who.username, by=who),
        lambda: season_writes.season_create(club=club_a, name="Mine", by=who),
        lambda: season_writes.season_add_event(clubs["season"], night, by=who),
        lambda: member_writes.member_rename(player=members[0], name="Renamed", by=who),
        lambda: member_writes.club_settings_update(
            club=club_a, ratings_public=False, rate_casual_games=True, by=who
        ),
        lambda: member_writes.casual_game_start(
            club=club_a, seats=["A0 Player", "A1 Player", "Stranger"], by=who
        ),
        lambda: member_writes.members_merge(club=club_a, keep=members[0], gone=members[1], by=who),
        lambda: season_writes.season_delete(clubs["season"], by=who),
        lambda: member_writes.club_organiser_add(club=club_a, username=who.username, by=who),
        lambda: rating_writes.rebuild(club_a, by=who),
    ]


def test_the_services_refuse_whoever_does_not_run_the_club(clubs):
    bob, carol, club_a, night = clubs["bob"], clubs["carol"], clubs["a"], clubs["night"]
    members = list(Player.objects.filter(club=club_a))
    before = club_a_state(club_a)
    for who in (bob, carol):
        for attempt in attempts_by(who, clubs, members):
            with pytest.raises(Forbidden):
                attempt()
    assert club_a_state(club_a) == before
    assert not night.organisers.filter(pk__in=[bob.pk, carol.pk]).exists()


def test_a_clubs_organisers_run_every_event_of_it_and_an_events_organisers_that_event_only(
    clubs,
):
    alice, bob, carol = clubs["alice"], clubs["bob"], clubs["carol"]
    assert permissions.runs_event(alice, clubs["night"])
    assert permissions.runs_event(bob, clubs["b_night"]) and permissions.runs_event(
        carol, clubs["b_night"]
    )
    assert not permissions.runs_event(carol, clubs["night"])
    assert not permissions.runs_club(carol, clubs["b"])
    # carol runs the night bob listed her for: she enters its players (new ones join club B) ...
    players_register(event=clubs["b_night"], names=["Newcomer"], by=carol)
    assert Player.objects.filter(club=clubs["b"], name="Newcomer").exists()
    # ... but does not make events in club B nor hand the night to others
    with pytest.raises(Forbidden):
        event_create(club=clubs["b"], name="X", organisers=[carol], by=carol)
    with pytest.raises(Forbidden):
        organiser_add(event=clubs["b_night"], username="alice", by=carol)


#: The services that cross into a club, each asking tournaments.common.permissions of its `by`.
GUARDED = {
    "event_create",
    "organiser_add",
    "players_register",
    "members_enter",
    "member_rename",
    "members_merge",
    "casual_game_start",
    "club_settings_update",
    "club_organiser_add",
    "club_organiser_remove",
    "season_create",
    "season_update",
    "season_add_event",
    "season_remove_event",
    "season_delete",
    "season_set_events",
    "season_save",
}


def _named(node) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def test_every_page_and_api_call_of_a_guarded_service_says_who_acts():
    """A page or API route that called one of these services without `by` would act as the
    site itself (no account to check): each call, or each `submit(form, service, ...)`, names
    the account."""
    root = Path(__file__).resolve().parents[2] / "tournaments"
    # the feature folders' pages and API modules (tournaments/<feature>/views/, api[/])
    edges = [*root.glob("*/views/*.py"), *root.glob("*/api.py"), *root.glob("*/api/*.py")]
    missing, seen = [], 0
    for path in edges:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            called = {_named(node.func)} | {_named(arg) for arg in node.args}
            if not called & GUARDED:
                continue
            seen += 1
            if not any(keyword.arg == "by" for keyword in node.keywords):
                missing.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert seen >= 15, seen  # the walk found the calls at all
    assert not missing, f"calls without by=: {missing}"


def test_only_the_clubs_organisers_are_offered_the_add_an_organiser_form(clubs):
    night = clubs["b_night"]
    url = reverse("tournaments:organise_settings", args=[night.slug])
    form = reverse("tournaments:organise_organiser_add", args=[night.slug])
    pages = {}
    for who in ("bob", "carol"):
        client = Client()
        client.force_login(clubs[who])
        pages[who] = client.get(url).content.decode()
    assert f'action="{form}"' in pages["bob"]
    assert f'action="{form}"' not in pages["carol"]
    assert "The club's organisers choose who runs its events." in pages["carol"]
    refused = client.post(form, {"username": "alice"})  # carol's own client
    assert refused.status_code == 403
    assert "does not run the club Club B" in refused.content.decode()
    assert not night.organisers.filter(username="alice").exists()
