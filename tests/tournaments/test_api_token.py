"""Organisers' API tokens: stored as digests, one per account, from the account page or
`manage.py api_token USERNAME`."""

from __future__ import annotations

import hashlib
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from tournaments.common import tokens
from tournaments.models import ApiToken

pytestmark = pytest.mark.django_db

ACCOUNT = "/organise/account/"


def works(token: str) -> bool:
    """Whether the API takes the token (a POST that needs one, with a body it refuses)."""
    response = Client().post(
        "/api/clubs", "{}", content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    return response.status_code == 400  # past the token, the missing name


# --- the tokens -------------------------------------------------------------------------------


def test_only_a_digest_is_stored(organiser):
    token = tokens.token_issue(user=organiser)
    assert token.startswith("358_") and len(token) >= 40
    stored = ApiToken.objects.get(user=organiser)
    assert stored.digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(ApiToken.objects.values().get())
    assert tokens.token_user(token) == organiser


def test_a_new_token_replaces_the_old(organiser):
    old = tokens.token_issue(user=organiser)
    new = tokens.token_issue(user=organiser)
    assert old != new
    assert tokens.token_user(old) is None and tokens.token_user(new) == organiser
    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize("offered", [None, "", 5, "358_" + "a" * 43, "x" * 201, "\ud800"])
def test_anything_else_is_no_one_s(organiser, offered):
    tokens.token_issue(user=organiser)
    assert tokens.token_user(offered) is None


def test_an_inactive_account_s_token_is_no_one_s(organiser):
    token = tokens.token_issue(user=organiser)
    organiser.is_active = False
    organiser.save()
    assert tokens.token_user(token) is None


def test_last_use_is_noted(organiser):
    token = tokens.token_issue(user=organiser)
    assert tokens.token_of(organiser).last_used_at is None
    tokens.token_user(token)
    assert tokens.token_of(organiser).last_used_at is not None


def test_revoke(organiser):
    token = tokens.token_issue(user=organiser)
    assert tokens.token_revoke(user=organiser) is True
    assert tokens.token_user(token) is None
    assert tokens.token_revoke(user=organiser) is False


# --- manage.py api_token ----------------------------------------------------------------------


def test_the_command_prints_a_new_token(organiser):
    out = StringIO()
    call_command("api_token", "olga", stdout=out)
    first = out.getvalue().strip()
    assert tokens.token_user(first) == organiser and works(first)
    out = StringIO()
    call_command("api_token", "olga", stdout=out)
    second = out.getvalue().strip()
    assert tokens.token_user(second) == organiser
    assert not works(first)  # the old one stops working


def test_the_command_refuses_unknown_and_inactive_users(make_user):
    with pytest.raises(CommandError, match="no user 'nobody'"):
        call_command("api_token", "nobody", stdout=StringIO())
    make_user("gone", is_active=False)
    with pytest.raises(CommandError, match="not active"):
        call_command("api_token", "gone", stdout=StringIO())
    assert not ApiToken.objects.exists()


# --- the account page -------------------------------------------------------------------------


def test_the_account_page_needs_a_login(client):
    response = client.get(ACCOUNT)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(ACCOUNT, {"action": "create"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_the_organise_bar_links_to_the_account_page(organiser_client):
    page = organiser_client.get("/organise/").content.decode()
    assert f'href="{ACCOUNT}"' in page


def test_create_a_token_shown_once(organiser_client, organiser):
    page = organiser_client.get(ACCOUNT)
    assert page.status_code == 200
    assert "You have no token yet." in page.content.decode()

    response = organiser_client.post(ACCOUNT, {"action": "create"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    token = re.search(r'id="new-token"[^>]*value="([^"]+)"', html).group(1)
    assert "it will not be shown again" in html
    assert tokens.token_user(token) == organiser and works(token)

    later = organiser_client.get(ACCOUNT).content.decode()
    assert token not in later and "You have a token, made" in later
    assert "Replace the token" in later

    organiser_client.post(ACCOUNT, {"action": "create"})  # replace
    assert not works(token)


def test_remove_the_token(organiser_client, organiser):
    token = tokens.token_issue(user=organiser)
    response = organiser_client.post(ACCOUNT, {"action": "revoke"}, follow=True)
    assert "no longer works" in response.content.decode()
    assert not works(token) and not ApiToken.objects.exists()


def test_an_unknown_action_is_a_400(organiser_client):
    response = organiser_client.post(ACCOUNT, {"action": "steal"})
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_the_admin_lists_tokens_without_their_digests(superuser_client, organiser):
    tokens.token_issue(user=organiser)
    page = superuser_client.get("/admin/tournaments/apitoken/")
    assert page.status_code == 200 and "olga" in page.content.decode()
    assert tokens.token_of(organiser).digest not in page.content.decode()
    assert superuser_client.get("/admin/tournaments/apitoken/add/").status_code == 403
