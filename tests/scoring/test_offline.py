"""The keeper page as an installable app that works offline: the manifest, the service
worker's route and rule of what it keeps, and what the keeper page gives the offline script."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from scoring.models import Game
from scoring.offline import CACHED_PAGE, is_cached_page

pytestmark = pytest.mark.django_db

NAMES = {"player_0": "Ana", "player_1": "Boris", "player_2": "Vera"}


def create(client) -> Game:
    data = {"ruleset": "blato", "first_dealer": "0", "exchange_order": "target", **NAMES}
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302
    return Game.objects.latest("pk")


def test_service_worker_is_served_from_the_root_as_javascript():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    config = json.loads(re.search(r"var CONFIG = (\{.*?\});", body).group(1))
    assert config["page"] == CACHED_PAGE
    # Only GET requests of this site, and only the table pages and static files, are kept.
    assert 'request.method !== "GET"' in body
    assert "/static/" in body


def test_the_worker_keeps_table_pages_but_no_secret_api_or_organiser_page():
    assert is_cached_page("/games/7/")
    for path in (
        "/games/7/keep/s3cr3t-secret-value/",
        "/games/7/manage/",
        "/games/7/sheet/",
        "/games/7/undo/",
        "/api/games/7/deals",
        "/organise/",
        "/accounts/login/",
        "/sw.js",
    ):
        assert not is_cached_page(path), path


def test_manifest_names_the_table_and_its_icons():
    client = Client()
    game = create(client)
    response = client.get(reverse("scoring:manifest", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    body = json.loads(response.content)
    assert body["start_url"] == reverse("scoring:table", args=[game.pk])
    assert body["display"] == "standalone"
    assert "Ana" in body["name"]
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512", "any"} <= sizes
    assert game.secret not in response.content.decode()


def test_manifest_of_an_unknown_game_is_404():
    assert Client().get(reverse("scoring:manifest", args=[999999])).status_code == 404


def test_keeper_page_gives_the_script_the_token_and_next_deal():
    client = Client()
    game = create(client)  # the creator's session keeps the score
    page = client.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert 'id="offline"' in page
    assert 'rel="manifest"' in page
    assert "js/offline.js" in page
    data = json.loads(
        re.search(
            r'<script id="offline-data" type="application/json">(.*?)</script>', page, re.S
        ).group(1)
    )
    assert data["token"] == game.secret
    assert data["api"] == f"/api/games/{game.pk}/deals"
    assert data["names"] == ["Ana", "Boris", "Vera"]
    # The offline form's call buttons are the call form's, remembered by the script: no
    # call is offered here that the server did not offer (a pass already used, say).
    offline_part = page[page.index('id="offline"') : page.index('id="game"')]
    assert 'value="pass"' not in offline_part and "hearts" not in offline_part
    assert 'max="16"' in page
    assert 'data-next="1"' in page


def test_watchers_get_neither_the_token_nor_the_offline_part():
    keeper = Client()
    game = create(keeper)
    page = Client().get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert game.secret not in page
    assert 'id="offline"' not in page
    assert 'rel="manifest"' not in page


def test_the_banner_words_are_translated_with_plural_forms():
    client = Client()
    game = create(client)
    page = client.get(
        reverse("scoring:table", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert 'data-one="{n} hand waiting to send"' in page
    assert 'data-many="{n} hands waiting to send"' in page


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_script_is_given_the_version_each_hand_is_made_against_and_the_clash_words(
    language,
):
    """A kept hand is sent with the game's version the page shows (#game's data-version,
    renewed with every swap of #game), and a hand whose deal was undone meanwhile is shown as
    a clash in the page's language: the words are in the page, for the script."""
    client = Client()
    game = create(client)
    page = client.get(
        reverse("scoring:table", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert f'<div id="game" class="game" data-version="{game.version}"' in page
    with translation.override(language):
        undone = gettext("Deal %(n)s was undone on another phone meanwhile")
        words = [
            undone % {"n": "{n}"},
            gettext("Not on the score sheet: undone on another phone."),
            gettext("Leave it undone"),
        ]
    for text in words:
        assert f'data-undone="{escape(text)}"' in page
    if language == "bg":
        assert "undone" not in " ".join(words)
