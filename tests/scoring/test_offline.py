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
from scoring.views.offline import CACHED_PAGE, is_cached_page

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


def script_data(page: str, name: str) -> dict:
    return json.loads(
        re.search(rf'<script id="{name}" type="application/json">(.*?)</script>', page, re.S).group(
            1
        )
    )


def test_keeper_page_gives_the_scripts_the_token_the_rules_and_the_engine_state():
    client = Client()
    game = create(client)  # the creator's session keeps the score
    page = client.get(reverse("scoring:table", args=[game.pk])).content.decode()
    assert 'id="offline"' in page
    assert 'rel="manifest"' in page
    for script in ("rules", "deal_view", "queue", "page"):
        assert f"js/offline/{script}.js" in page
    data = script_data(page, "offline-data")
    assert data["token"] == game.secret
    assert data["api"] == f"/api/games/{game.pk}/deals"
    assert data["names"] == ["Ana", "Boris", "Vera"]
    # The game's rules as the engine holds them, not restated in the script.
    assert data["rules"]["targets"] == [3, 8, 5]
    assert data["rules"]["tricks"] == 16
    assert data["rules"]["exchange_skipped_after"] == ["no-trump"]
    # The engine's state the page shows, inside the part each action replaces.
    game_part = page[page.index('id="game"') :]
    assert 'id="offline-state"' in game_part
    shown = script_data(page, "offline-state")
    assert shown == {
        "state": {
            "deal": 1,
            "hand": 1,
            "dealer": 0,
            "totals": [0, 0, 0],
            "passes_left": [1, 1, 1],
            "called": [[], [], []],
            "last": None,
            "end": None,
        },
        "calls": [],
    }


def test_the_engine_state_follows_each_step_of_the_keeper():
    """After a hand and a call, the state the page carries is the engine's after that hand,
    with the call of the deal in hand: the page at its tricks goes offline with the call."""
    client = Client()
    game = create(client)
    table = reverse("scoring:table", args=[game.pk])
    client.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": 1, "calls": "hearts", "tricks_0": 4, "tricks_1": 7, "tricks_2": 5},
    )
    page = client.get(f"{table}?deal=2&calls=spades", HTTP_HX_REQUEST="true").content.decode()
    shown = script_data(page, "offline-state")
    assert shown["calls"] == ["spades"]
    assert shown["state"]["deal"] == 2
    assert shown["state"]["dealer"] == 1
    assert shown["state"]["totals"] == [1, -1, 0]
    assert shown["state"]["last"] == {"points": [1, -1, 0], "targets": [3, 8, 5]}
    assert shown["state"]["called"] == [[], ["hearts"], []]


def test_the_words_for_the_phone_are_the_pages_language():
    client = Client()
    game = create(client)
    page = client.get(
        reverse("scoring:table", args=[game.pk]), HTTP_ACCEPT_LANGUAGE="bg"
    ).content.decode()
    words = script_data(page, "offline-data")["words"]
    with translation.override("bg"):
        assert words["to_call"][2] == gettext("%(name)s calls") % {"name": "Vera"}
        assert words["passes"]["0"] == gettext("pass used")
        assert words["calls"]["hearts"]["label"] == translation.pgettext("call", "hearts")
    assert words["calls"]["hearts"]["symbol"] == "♥"
    assert words["to_call"][2] != "Vera calls"


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
        undone = gettext("%(deal)s was undone on another phone meanwhile")
        words = [
            undone % {"deal": "{deal}"},
            gettext("Not on the score sheet: undone on another phone."),
            gettext("Leave it undone"),
        ]
    for text in words:
        assert f'data-undone="{escape(text)}"' in page
    if language == "bg":
        assert "undone" not in " ".join(words)
    # the clash and a refusal name the kept hand as the players count hands, never "Deal n"
    data = json.loads(re.search(r'id="offline-data"[^>]*>(.*?)</script>', page, re.S).group(1))
    with translation.override(language):
        played, again = gettext("Hand %(n)s"), gettext("Hand %(n)s (dealt again)")
    assert data["words"]["hand_title"] == {
        "played": played % {"n": "{n}"},
        "again": again % {"n": "{n}"},
    }
    assert "data-deal=" not in page
