"""Guessing is slowed down and written down: wrong table secrets (API and keeper links) per
address and game, wrong organiser passwords per username and address (django-axes). A right
secret always works. (Behind the proxy: tests/test_security_addresses.py.)"""

import logging

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring import services, throttle

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return services.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)


def post_deal(client, game, token, address="10.0.0.1"):
    return client.post(
        f"/api/games/{game.pk}/deals",
        {"deal": 1, "calls": ["spades"], "tricks": [8, 3, 5]},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        REMOTE_ADDR=address,
    )


def test_wrong_api_tokens_are_logged_then_refused_but_the_right_one_still_works(
    client, game, caplog
):
    caplog.set_level(logging.WARNING, logger="scoring.secrets")
    for _ in range(throttle.FAILURES_ALLOWED):
        assert post_deal(client, game, "guess").status_code == 403
    logged = [r for r in caplog.records if r.name == "scoring.secrets"]
    assert len(logged) == throttle.FAILURES_ALLOWED
    assert "10.0.0.1" in logged[0].getMessage()
    blocked = post_deal(client, game, "guess")
    assert blocked.status_code == 429 and blocked.json()["error"]["message"]
    assert game.entries.count() == 0
    # A right token is never blocked: guessing cannot find one.
    assert post_deal(client, game, game.secret).status_code == 201
    assert post_deal(client, game, "guess", address="10.0.0.2").status_code == 403


def test_wrong_keeper_links_are_refused_then_blocked(game):
    phone = Client(REMOTE_ADDR="10.0.0.9")
    wrong = reverse("scoring:keep", args=[game.pk, "not-the-secret"])
    for _ in range(throttle.FAILURES_ALLOWED):
        assert phone.get(wrong).status_code == 403
    blocked = phone.get(wrong)
    assert blocked.status_code == 429
    assert "Too many wrong keeper links" in blocked.content.decode()
    assert phone.get(reverse("scoring:keep", args=[game.pk, game.secret])).status_code == 302
    other_phone = Client(REMOTE_ADDR="10.0.0.10")
    assert other_phone.get(wrong).status_code == 403


def test_repeated_wrong_passwords_lock_the_login_for_a_while():
    get_user_model().objects.create_user(username="olga", password="the right password 358")
    client = Client(REMOTE_ADDR="10.1.1.1")
    login = reverse("login")
    for _ in range(4):
        response = client.post(login, {"username": "olga", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    assert client.post(login, {"username": "olga", "password": "wrong"}).status_code == 429
    locked = client.post(login, {"username": "olga", "password": "the right password 358"})
    assert locked.status_code == 429
    assert "Too many attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    attempt = AccessAttempt.objects.get(username="olga")
    assert attempt.failures_since_start >= 5 and attempt.ip_address == "10.1.1.1"
    elsewhere = Client(REMOTE_ADDR="10.1.1.2")
    ok = elsewhere.post(login, {"username": "olga", "password": "the right password 358"})
    assert ok.status_code == 302 and "_auth_user_id" in elsewhere.session
