"""Who the client is behind the proxy, and limits that stop an abuser without locking out the
honest.

Every request here looks as it does behind the nginx of docs/deploy.md (one trusted proxy):
REMOTE_ADDR is nginx (127.0.0.1) and X-Forwarded-For holds exactly one address, the one
nginx saw, written by `proxy_set_header X-Forwarded-For $remote_addr;`.
"""

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

from config.client_ip import client_address
from scoring import services, throttle
from scoring.models import Game

pytestmark = pytest.mark.django_db

BEHIND_NGINX = override_settings(CLIENT_ADDRESS_HEADERS=("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"))
PASSWORD = "the right password 358"
PLAYERS = ["Ana", "Boris", "Vera"]


def via_nginx(address: str) -> Client:
    """A client as Django sees it behind our nginx."""
    return Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)


@pytest.fixture
def game():
    return services.game_create(ruleset="blato", players=PLAYERS, first_dealer=0)


# --- the client's address -------------------------------------------------------------------------


def test_the_address_is_the_one_nginx_wrote_never_one_the_client_chose(rf):
    with BEHIND_NGINX:
        assert client_address(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"
        nginx = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7")
        assert client_address(nginx) == "203.0.113.7"
        # A header of another shape was not written by our nginx: REMOTE_ADDR instead.
        chain = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
        assert client_address(chain) == "127.0.0.1"
        junk = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="<script>")
        assert client_address(junk) == "127.0.0.1"
    # Without a proxy the header is the client's own words: never read.
    direct = rf.get("/", REMOTE_ADDR="198.51.100.4", HTTP_X_FORWARDED_FOR="6.6.6.6")
    assert client_address(direct) == "198.51.100.4"


@BEHIND_NGINX
@pytest.mark.parametrize("login_url", ["login", "admin:login"])
def test_wrong_passwords_from_one_address_do_not_lock_the_organiser_out_elsewhere(login_url):
    """five wrong passwords (varied X-Forwarded-For before nginx overwrote it, so
    all from the attacker's one address) lock that address only."""
    get_user_model().objects.create_user(
        username="olga", password=PASSWORD, is_staff=True, is_superuser=True
    )
    url = reverse(login_url)
    attacker = via_nginx("203.0.113.66")
    for _ in range(5):
        attacker.post(url, {"username": "olga", "password": "wrong"})
    locked = attacker.post(url, {"username": "olga", "password": PASSWORD})
    assert locked.status_code == 429
    assert "_auth_user_id" not in attacker.session
    owner = via_nginx("198.51.100.20")
    ok = owner.post(url, {"username": "olga", "password": PASSWORD})
    assert ok.status_code == 302, ok.status_code
    assert "_auth_user_id" in owner.session


# --- wrong table secrets --------------------------------------------------------------------------


def post_deal(client, game, token):
    return client.post(
        f"/api/games/{game.pk}/deals",
        {"deal": 1, "calls": ["spades"], "tricks": [8, 3, 5]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@BEHIND_NGINX
def test_a_forged_forwarded_header_does_not_escape_the_throttle(game):
    """the attacker varies X-Forwarded-For; nginx appended nothing (it overwrites),
    and a header of another shape is not believed, so every guess counts for one address."""
    for n in range(throttle.FAILURES_ALLOWED):
        forged = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=f"10.9.{n}.1, 203.0.113.5")
        assert post_deal(forged, game, "guess").status_code == 403
    again = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="10.9.99.1, 203.0.113.5")
    assert post_deal(again, game, "guess").status_code == 429


@BEHIND_NGINX
def test_one_phone_full_of_wrong_links_blocks_no_one_else(game):
    """20 wrong keeper links from one phone block no correct link and no other game's API
    scoring: only that phone's wrong guesses for that game are refused."""
    other_game = services.game_create(ruleset="blato", players=PLAYERS, first_dealer=1)
    phone = via_nginx("198.51.100.9")
    wrong = reverse("scoring:keep", args=[game.pk, "not-the-secret"])
    for _ in range(throttle.FAILURES_ALLOWED):
        assert phone.get(wrong).status_code == 403
    blocked = phone.get(wrong)
    assert blocked.status_code == 429
    assert "Too many wrong keeper links" in blocked.content.decode()
    # The right secret is never blocked: not from that phone, not from another table's keeper,
    # not for the API.
    assert phone.get(reverse("scoring:keep", args=[game.pk, game.secret])).status_code == 302
    assert post_deal(phone, game, game.secret).status_code == 201
    neighbour = via_nginx("198.51.100.10")
    keep_other = reverse("scoring:keep", args=[other_game.pk, other_game.secret])
    assert neighbour.get(keep_other).status_code == 302
    assert post_deal(neighbour, other_game, other_game.secret).status_code == 201
    # Another game's wrong link from the same phone is its own count.
    assert phone.get(reverse("scoring:keep", args=[other_game.pk, "x"])).status_code == 403


@BEHIND_NGINX
def test_a_script_walking_the_games_is_blocked_across_games_and_logged_briefly(caplog):
    caplog.set_level(logging.WARNING, logger="scoring.secrets")
    games = [
        services.game_create(ruleset="blato", players=PLAYERS, first_dealer=0) for _ in range(6)
    ]
    script = via_nginx("203.0.113.99")
    answers = []
    for n in range(throttle.ADDRESS_FAILURES_ALLOWED + 10):
        target = games[n % len(games)]
        answers.append(script.get(reverse("scoring:keep", args=[target.pk, "guess"])).status_code)
    assert answers[: throttle.ADDRESS_FAILURES_ALLOWED] == [403] * throttle.ADDRESS_FAILURES_ALLOWED
    assert set(answers[throttle.ADDRESS_FAILURES_ALLOWED :]) == {429}
    logged = [r for r in caplog.records if r.name == "scoring.secrets"]
    assert len(logged) == throttle.ADDRESS_FAILURES_ALLOWED  # not one line per blocked guess
    assert "203.0.113.99" in logged[0].getMessage()


# --- new games ------------------------------------------------------------------------------------


def new_game_form(client):
    return client.post(
        reverse("scoring:game_new"),
        {
            "ruleset": "blato",
            "player_0": "Ana",
            "player_1": "Boris",
            "player_2": "Vera",
            "first_dealer": "0",
            "exchange_order": "target",
        },
    )


def new_game_api(client):
    body = {"ruleset": "blato", "players": PLAYERS}
    return client.post("/api/games", body, content_type="application/json")


@BEHIND_NGINX
def test_one_client_cannot_flood_the_api_with_games_and_gets_a_clear_429():
    script = via_nginx("203.0.113.50")
    for _ in range(throttle.GAMES_PER_ADDRESS):
        assert new_game_api(script).status_code == 201
    refused = new_game_api(script)
    assert refused.status_code == 429
    assert "too many new games" in refused.json()["error"]["message"]
    assert refused["Retry-After"] == str(throttle.GAMES_WINDOW_SECONDS)
    assert Game.objects.count() == throttle.GAMES_PER_ADDRESS
    # Anyone else still starts games.
    assert new_game_api(via_nginx("198.51.100.51")).status_code == 201


@BEHIND_NGINX
def test_the_new_game_page_limits_a_session_but_not_a_club_behind_one_router():
    phone = via_nginx("192.0.2.30")
    for _ in range(throttle.GAMES_PER_SESSION):
        assert new_game_form(phone).status_code == 302
    refused = new_game_form(phone)
    assert refused.status_code == 429
    assert "Too many new games from here" in refused.content.decode()
    assert Game.objects.count() == throttle.GAMES_PER_SESSION
    # The same router's other phones (own sessions): 30 of them start a game each.
    club = [via_nginx("192.0.2.30") for _ in range(30)]
    assert {new_game_form(other).status_code for other in club} == {302}


@BEHIND_NGINX
def test_the_address_budget_covers_the_page_and_the_api_together():
    address = "192.0.2.77"
    created = 0
    while created < throttle.GAMES_PER_ADDRESS:
        client = via_nginx(address)  # a new session each time: only the address counts
        assert new_game_form(client).status_code == 302
        created += 1
    assert new_game_form(via_nginx(address)).status_code == 429
    assert new_game_api(via_nginx(address)).status_code == 429
