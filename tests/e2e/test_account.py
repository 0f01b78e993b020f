"""An organiser makes an API token on their account page at phone size (with and without
JavaScript), uses it, replaces it and removes it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tournaments.common import tokens

from .checks import check_screen
from .organiser import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_an_organiser_makes_replaces_and_removes_a_token(
    live_server, new_phone, screenshot, django_user_model, javascript
):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    page = new_phone(javascript=javascript)
    shoot = screenshot if javascript else None
    page.goto(live_server.url + "/organise/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    # The username in the organiser bar leads to the account page.
    page.get_by_role("navigation", name="Organiser").get_by_role("link", name="olga").click()
    expect(page).to_have_url(live_server.url + "/organise/account/")
    expect(page.get_by_text("You have no token yet.")).to_be_visible()
    check_screen(page, "organise-account", shoot)

    page.get_by_role("button", name="Create a token").click()
    field = page.get_by_label("Token", exact=True)
    token = field.input_value()
    assert re.fullmatch(r"358_[A-Za-z0-9_-]{43}", token)
    assert tokens.token_user(token) == olga
    check_screen(page, "organise-account-token", shoot)

    answer = page.request.post(
        live_server.url + "/api/clubs",
        data='{"name": "Varna Blato Club"}',
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    assert answer.status == 201 and answer.json()["club"] == "varna-blato-club"

    # Back on the page, the token is not shown again; replacing it ends the old one.
    page.goto(live_server.url + "/organise/account/")
    expect(page.get_by_text(re.compile("You have a token, made"))).to_be_visible()
    expect(page.get_by_label("Token", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Replace the token").click()
    new_token = page.get_by_label("Token", exact=True).input_value()
    assert new_token != token and tokens.token_user(token) is None

    page.get_by_role("button", name="Remove the token").click()
    expect(page.get_by_text("Your API token was removed: it no longer works.")).to_be_visible()
    expect(page.get_by_text("You have no token yet.")).to_be_visible()
    assert tokens.token_user(new_token) is None
