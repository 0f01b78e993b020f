"""Text no database stores, session fixation, private pages.

- A NUL character (or a lone surrogate) anywhere in a request's path, query or form fields is
  refused at the door (config.input) with a 400, before any view or query runs.
- Every grant of rights (a keeper link, starting a game, an organiser's login) rotates the
  session key: a session id planted beforehand gains nothing.
- Every private page answers a well-formed ``Cache-Control`` with ``private`` and ``no-store``.
"""

import re

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from scoring import services as scoring_services
from scoring.views.table import keeper_key
from tests.tournaments import conftest as tournament_fixtures
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

# The organiser fixtures of tests/tournaments (pytest finds fixtures among module attributes).
make_user = tournament_fixtures.make_user
organiser = tournament_fixtures.organiser
organiser_client = tournament_fixtures.organiser_client
outsider_client = tournament_fixtures.outsider_client
organised_event = tournament_fixtures.organised_event
build_round = tournament_fixtures.build_round
register = tournament_fixtures.register

PLAYERS = ["Ana", "Boris", "Vera"]


def players_url(event, name="organise_players", *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


# --- NUL and lone surrogates ----------------------------------------------------------------------


@pytest.fixture
def entries(organised_event):
    register(organised_event, 3, checked_in=False)
    return list(Entry.objects.filter(event=organised_event).order_by("pk"))


def entry_state():
    return sorted(Entry.objects.values_list("pk", "player__name", "checked_in", "withdrawn"))


def test_a_nul_in_the_players_filter_is_refused_not_a_server_error(organiser_client, entries):
    event = entries[0].event
    response = organiser_client.get(players_url(event), {"q": "\x00"})
    assert response.status_code == 400
    assert "cannot be stored" in response.content.decode()
    assert organiser_client.get(players_url(event), {"q": "Player"}).status_code == 200


def test_a_nul_in_any_players_form_changes_nothing(organiser_client, entries):
    event, entry = entries[0].event, entries[0]
    before = entry_state()
    posts = [
        (players_url(event, "organise_player_add"), {"name": "Ana", "q": "\x00"}),
        (players_url(event, "organise_player_add"), {"name": "An\x00a"}),
        (players_url(event, "organise_players_paste"), {"names": "Ana\nBo\x00ris"}),
        (players_url(event, "organise_check_in", entry.pk), {"checked_in": "on", "q": "a\x00"}),
        (players_url(event, "organise_check_in_all"), {"q": "\x00"}),
        (players_url(event, "organise_withdraw", entry.pk), {"reason": "ill", "q": "\x00"}),
        (players_url(event, "organise_reinstate", entry.pk), {"q": "\x00"}),
        (players_url(event, "organise_players"), {"q\x00": "x"}),
    ]
    for url, data in posts:
        response = organiser_client.post(url, data)
        assert response.status_code == 400, (url, data, response.status_code)
    assert entry_state() == before
    assert not any("\x00" in name for name in Entry.objects.values_list("player__name", flat=True))


def test_nul_in_the_path_is_no_address_and_in_the_query_a_bad_request(client):
    assert client.get("/events/%00/").status_code == 404
    assert client.get("/games/1/keep/%00/").status_code == 404
    assert client.get("/api/events/x/rounds/%00").status_code == 404
    # Under /api/ the refusal is the API's JSON error shape.
    api = client.get("/api/events", {"q": "\x00"})
    assert api.status_code == 400 and api.json()["error"]["message"]


def test_a_cookie_holding_a_nul_is_dropped_not_looked_up(client):
    """The table page reads the session (is this phone the keeper?): with a NUL in the session
    cookie, PostgreSQL refused the lookup (500)."""
    game = scoring_services.game_create(ruleset="blato", players=PLAYERS, first_dealer=0)
    client.cookies[settings.SESSION_COOKIE_NAME] = "abc\x00defghijk"
    assert client.get(reverse("scoring:table", args=[game.pk])).status_code == 200


@pytest.mark.postgres
def test_on_postgresql_nul_anywhere_is_a_400_never_a_500(organiser_client, entries):
    """The probe's case: PostgreSQL refuses NUL in a text value, so without the middleware the
    filter raised inside the query (500). (The cookie case above runs here too.)"""
    event = entries[0].event
    assert organiser_client.get(players_url(event), {"q": "\x00"}).status_code == 400
    url = players_url(event, "organise_check_in", entries[0].pk)
    assert organiser_client.post(url, {"checked_in": "on", "q": "\x00"}).status_code == 400
    assert not Entry.objects.get(pk=entries[0].pk).checked_in


# --- session fixation -----------------------------------------------------------------------------


def new_game(client):
    data = {
        "ruleset": "blato",
        "player_0": "Ana",
        "player_1": "Boris",
        "player_2": "Vera",
        "first_dealer": "0",
        "exchange_order": "target",
    }
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302
    return response


def planted_session() -> str:
    """A session id the attacker holds and slips to a victim's phone."""
    attacker = Client()
    new_game(attacker)  # any visit that makes a session
    return attacker.cookies[settings.SESSION_COOKIE_NAME].value


def test_a_planted_session_id_does_not_gain_the_table_through_the_keeper_link():
    game = scoring_services.game_create(ruleset="blato", players=PLAYERS, first_dealer=0)
    planted = planted_session()
    victim = Client()
    victim.cookies[settings.SESSION_COOKIE_NAME] = planted
    assert victim.get(reverse("scoring:keep", args=[game.pk, game.secret])).status_code == 302
    rotated = victim.cookies[settings.SESSION_COOKIE_NAME].value
    assert rotated != planted
    assert keeper_key(game.pk) in SessionStore(rotated).load()
    assert keeper_key(game.pk) not in SessionStore(planted).load()
    attacker = Client()
    attacker.cookies[settings.SESSION_COOKIE_NAME] = planted
    page = attacker.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert game.secret not in page


def test_starting_a_game_rotates_the_session_too():
    planted = planted_session()
    phone = Client()
    phone.cookies[settings.SESSION_COOKIE_NAME] = planted
    new_game(phone)
    assert phone.cookies[settings.SESSION_COOKIE_NAME].value != planted


def test_an_organisers_login_rotates_the_session(make_user):
    make_user("olga2", password="a long enough password 358")
    planted = planted_session()
    browser = Client()
    browser.cookies[settings.SESSION_COOKIE_NAME] = planted
    login = {"username": "olga2", "password": "a long enough password 358"}
    assert browser.post(reverse("login"), login).status_code == 302
    assert browser.cookies[settings.SESSION_COOKIE_NAME].value != planted
    assert "_auth_user_id" not in SessionStore(planted).load()


# --- Cache-Control on private pages ---------------------------------------------------------------

DIRECTIVE = re.compile(r"^(?:[a-z-]+|max-age=\d+)$")


def assert_never_stored(response, what):
    header = response.get("Cache-Control", "")
    directives = [part.strip() for part in header.split(",")]
    assert all(DIRECTIVE.match(d) for d in directives), f"{what}: malformed {header!r}"
    assert {"private", "no-store"} <= set(directives), f"{what}: {header!r}"


def test_every_private_page_kind_is_never_stored(
    organiser_client, outsider_client, organised_event, build_round
):
    event = organised_event
    register(event, 7)
    round_ = build_round(event, publish=True)
    game = round_.tables.order_by("number").first().game
    pages = {
        "organiser home": reverse("tournaments:organise_home"),
        "event": players_url(event, "organise_event"),
        "players": players_url(event),
        "round": players_url(event, "organise_round", 1),
        "table cards": players_url(event, "organise_print_cards", 1),
        "score sheets": players_url(event, "organise_print_sheets", 1),
        "pairing list": players_url(event, "organise_print_pairings", 1),
        "export csv": players_url(event, "organise_export", "standings", "csv"),
        "export xlsx": players_url(event, "organise_export", "pairings", "xlsx"),
        "game's organiser page": reverse("scoring:manage", args=[game.pk]),
    }
    for what, url in pages.items():
        response = organiser_client.get(url)
        assert response.status_code == 200, (what, response.status_code)
        assert_never_stored(response, what)
    denied = outsider_client.get(players_url(event, "organise_print_cards", 1))
    assert denied.status_code == 403
    assert_never_stored(denied, "refused table cards")
    keep = Client().get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert_never_stored(keep, "keeper link")
