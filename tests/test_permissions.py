"""Who may change what, for every page that changes anything: nothing lost, nobody in where
they don't belong.

The routes are read from the URL resolver, so a page added later is in the matrix without
anyone remembering to add it. Roles: anonymous, the holder of one table's secret (a keeper
session), an organiser of this event, an organiser of another event, a superuser. A refused
request changes nothing in the database; no public page shows a table secret.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import autoplay
from scoring import services as scoring
from scoring.models import DealEntry, Game, GameChange
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, EventLog, KeepApart, Round, Season, Team, TeamMember
from tournaments.rounds.services.rounds import round_create, round_publish
from tournaments.teams.services import keep_apart_create, team_create

pytestmark = pytest.mark.django_db(transaction=True)

SKIPPED_PREFIXES = ("admin/", "api", "i18n/", "accounts/", "healthz", "static/")


def routes() -> list[tuple[str, str]]:
    """(namespaced name, route text) of every named page outside admin, API and auth."""
    found = []

    def walk(patterns, prefix="", namespace=""):
        for item in patterns:
            text = prefix + str(item.pattern)
            if text.startswith(SKIPPED_PREFIXES):
                continue
            if isinstance(item, URLResolver):
                inner = namespace
                if item.namespace:
                    inner = f"{namespace}{item.namespace}:"
                walk(item.url_patterns, text, inner)
            elif isinstance(item, URLPattern) and item.name:
                found.append((namespace + item.name, text))

    walk(get_resolver().url_patterns)
    return found


ARGUMENTS = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>")


def build(name: str, route: str, world) -> str:
    wanted = [a or b for a, b in ARGUMENTS.findall(route)]
    of_club = route.startswith(("clubs/", "^clubs/", "organise/clubs/<"))
    values = {
        "slug": world.club.slug if of_club else world.event.slug,
        "season_id": world.season.pk,
        "seat": 0,
        "number": 1,
        "table_number": 1,
        "entry_id": world.entry.pk,
        "game_id": world.game.pk,
        "player_id": world.entry.player_id,
        "secret": world.game.secret,
        "what": "standings",
        "fmt": "csv",
        "invitation_id": 1,
        "token": "no-such-invitation",
        "request_id": 1,  # a newcomer's request (self check-in): none waits
        "team_id": world.team.pk,  # teams and keep-apart rules (docs/teams.md)
        "rule_id": world.rule.pk,
    }
    return reverse(name, kwargs={key: values[key] for key in wanted})


class World:
    pass


@pytest.fixture
def world(django_user_model):
    w = World()
    users = django_user_model.objects
    w.olga = users.create_user(username="olga", password="x")
    w.petar = users.create_user(username="petar", password="x")
    w.root = users.create_superuser(username="root", password="x")
    w.club = club = club_create(name="Club", creator=w.olga)
    w.season = Season.objects.create(club=club, name="Autumn")
    w.event = event_create(club=club, name="Ours", organisers=[w.olga], seed=1)
    w.other = event_create(club=club, name="Theirs", organisers=[w.petar], seed=2)
    for event, prefix in ((w.event, "A"), (w.other, "B")):
        players_register(event=event, names=[f"{prefix}{n}" for n in range(6)], checked_in=True)
        round_ = round_create(event=event)
        round_publish(round_=Round.objects.get(pk=round_.pk))
    tables = list(Round.objects.get(event=w.event, number=1).tables.order_by("number"))
    w.game, w.second_game = tables[0].game, tables[1].game
    autoplay.play(w.game, random.Random(1))  # finished, awaiting confirmation
    autoplay.play(w.second_game, random.Random(2), deals=2)
    w.entry = Entry.objects.filter(event=w.event).first()
    w.team = team_create(event=w.event, name="Aces", entries=[w.entry])
    w.rule = keep_apart_create(event=w.event, entries=list(w.event.entries.all()[:2]))
    return w


def fingerprint() -> tuple:
    """Enough of the database to notice any write a refused request might have made."""
    return (
        DealEntry.objects.count(),
        DealEntry.objects.filter(undone_at__isnull=False).count(),
        GameChange.objects.count(),
        EventLog.objects.count(),
        Entry.objects.filter(checked_in=True).count(),
        Entry.objects.filter(withdrawn=True).count(),
        tuple(Round.objects.order_by("pk").values_list("status", flat=True)),
        tuple(Game.objects.order_by("pk").values_list("result", "secret")),
        Game.objects.count(),
        tuple(Team.objects.order_by("pk").values_list("pk", "name")),
        TeamMember.objects.count(),
        KeepApart.objects.count(),
    )


def client_for(role: str, world) -> Client:
    client = Client()
    user = {"organiser": world.olga, "other organiser": world.petar, "superuser": world.root}
    if role in user:
        client.force_login(user[role])
    if role == "keeper":
        client.get(reverse("scoring:keep", args=[world.game.pk, world.game.secret]))
    return client


ROLES = ["anonymous", "keeper", "organiser", "other organiser", "superuser"]
KEEPER_PAGES = {"call", "deal", "last_tricks", "confirm", "undo"}
OPEN_PAGES = {"scoring:game_new", "scoring:release", "set_language"}


def expectation(name: str, route: str, role: str) -> str:
    """ "allowed", "login" (sent to log in) or "refused" (403) for a POST by this role."""
    short = name.split(":")[-1]
    if short == "claim_reset":  # an event's game: its organisers free a seat, nobody else
        return "allowed" if role in ("organiser", "superuser") else "refused"
    if route.startswith(("organise/events/", "organise/clubs/<")) or short.startswith("manage"):
        if role in ("organiser", "superuser"):
            return "allowed"
        return "refused" if role == "other organiser" else "login"
    if route.startswith("organise/"):
        # Any account may create a club (and so runs it) and open the new-event form; an
        # event is made only in a club the account runs (tests/test_access_matrix.py).
        return "login" if role in ("anonymous", "keeper") else "allowed"
    if name.startswith("scoring:") and short in KEEPER_PAGES:
        return "refused" if role in ("anonymous", "other organiser") else "allowed"
    return "open"


def outcome(response) -> str:
    if response.status_code == 403:
        return "refused"
    if response.status_code == 302 and "/accounts/login/" in response.get("Location", ""):
        return "login"
    if response.status_code == 429:
        return "refused"
    return "allowed"


def test_every_route_is_in_the_matrix():
    names = {name for name, _ in routes()}
    assert "scoring:manage_reopen" in names and "tournaments:organise_round_publish" in names
    assert "tournaments:seat" in names and "scoring:deal" in names
    assert "tournaments:organise_table_void" in names  # a walkout's choices (walkouts.py)


@pytest.mark.parametrize("role", ROLES)
def test_posts_by_each_role_are_allowed_or_refused_without_a_trace(world, role):
    client = client_for(role, world)
    problems = []
    for name, route in routes():
        expected = expectation(name, route, role)
        if expected == "open":
            continue
        url = build(name, route, world)
        before = fingerprint()
        response = client.post(url, {})
        if response.status_code == 405:  # a page that takes no POST changes nothing
            continue
        got = outcome(response)
        if response.status_code >= 500:
            problems.append(f"{url}: {response.status_code}")
        elif got != expected:
            problems.append(f"{url}: expected {expected}, got {got} ({response.status_code})")
        elif got != "allowed" and fingerprint() != before:
            problems.append(f"{url}: refused but the database changed")
    assert not problems, "\n".join(problems)


def test_a_keeper_of_one_table_cannot_touch_another(world):
    client = client_for("keeper", world)
    before = fingerprint()
    for short in sorted(KEEPER_PAGES):
        url = reverse(f"scoring:{short}", args=[world.second_game.pk])
        assert client.post(url, {"deal": 3, "call": "spades"}).status_code == 403, url
    assert fingerprint() == before


def test_a_keeper_cannot_change_a_confirmed_result(world):
    client = client_for("keeper", world)
    game = world.game
    response = client.post(reverse("scoring:confirm", args=[game.pk]), {"player": "1"})
    assert response.status_code == 302
    before = fingerprint()
    game.refresh_from_db()
    undo = client.post(
        reverse("scoring:undo", args=[game.pk]),
        {"deal": game.entries.count(), "version": game.version},
    )
    assert undo.status_code == 409
    assert fingerprint() == before


def test_every_form_checks_its_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.root)
    client.get(reverse("scoring:keep", args=[world.game.pk, world.game.secret]))
    before = fingerprint()
    refused = []
    for name, route in routes():
        url = build(name, route, world)
        response = client.post(url, {})
        if response.status_code == 405:  # a page that takes no POST
            continue
        if response.status_code != 403:
            refused.append(f"{url}: {response.status_code}")
    assert not refused, "POST without a CSRF token was not refused:\n" + "\n".join(refused)
    assert fingerprint() == before


def test_no_public_page_shows_a_table_secret(world):
    client = Client()
    secrets = list(Game.objects.values_list("secret", flat=True))
    for name, route in routes():
        if route.startswith("organise/") or "manage" in name or "secret" in route:
            continue
        response = client.get(build(name, route, world))
        body = response.content.decode(errors="replace")
        leaked = [s for s in secrets if s in body]
        assert not leaked, f"{name} shows a table secret"
    for game in Game.objects.all():
        api = client.get(f"/api/games/{game.pk}").content.decode()
        assert game.secret not in api
    assert (
        world.game.secret
        not in client.get(f"/api/events/{world.event.slug}/standings").content.decode()
    )


def test_names_full_of_html_render_as_text(world, client):
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    game = scoring.game_create(ruleset="blato", players=[hostile, "B", "C"], first_dealer=0)
    players_register(event=world.event, names=[hostile])
    pages = [
        reverse("scoring:table", args=[game.pk]),
        reverse("tournaments:event", args=[world.event.slug]),
        reverse("tournaments:seat", args=[world.event.slug]) + "?name=script",
    ]
    organiser = client_for("organiser", world)
    pages_as_organiser = [reverse("tournaments:organise_players", args=[world.event.slug])]
    for url in pages:
        body = client.get(url).content.decode()
        assert "<script>alert" not in body and "<img src=x" not in body, url
    for url in pages_as_organiser:
        body = organiser.get(url).content.decode()
        assert "<script>alert" not in body and "<img src=x" not in body, url
        assert "&lt;script&gt;" in body, url


FUZZ_VALUES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", "0", "-1", "1", "2", "999999999999999999999", "spades", "pass", "x"]),
)


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.dictionaries(
        st.sampled_from(
            [
                "deal",
                "calls",
                "call",
                "tricks_0",
                "tricks_1",
                "tricks_2",
                "count",
                "trick_0",
                "player",
                "name",
                "names",
                "reason",
                "first",
                "second",
                "checked_in",
                "username",
                "ruleset",
                "rounds_planned",
                "pairing_mode",
                "bye_policy",
                "placing_points",
                "precedence",
                "club",
                "reopen-reason",
                "void_policy",
                "sub-seat",
                "sub-player",
                "sub-new_name",
                "sub-reason",
                "fin-reason",
                "void-reason",
                "adj-place_0",
                "adj-place_1",
                "adj-total_0",
                "adj-reason",
                "secret-reason",
                "q",
                "csv",
            ]
        ),
        FUZZ_VALUES,
        max_size=8,
    )
)
def test_no_form_answers_500_to_any_input(world, data):
    client = client_for("superuser", world)
    client.get(reverse("scoring:keep", args=[world.game.pk, world.game.secret]))
    for name, route in routes():
        url = build(name, route, world)
        response = client.post(url, data)
        assert response.status_code < 500, (url, data, response.status_code)
