"""What the table pages keep in the cache, for a room of phones polling (bench.site_load).

The watchers' partial is rendered once per game version and language (a table's three
phones each ask for every version), and the poll that finds nothing new reads only the
version; the keeper's QR code is drawn once per link, under a digest of the link, never the
secret itself. Each kept answer is the same as a fresh one, and changes when the game, the
language or the secret does.
"""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import services
from scoring.models import Game
from scoring.views import watch
from scoring.web import pages

from .test_views import create, page, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


@pytest.fixture
def game(keeper) -> Game:
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    game.refresh_from_db()
    return game


def sheet(game: Game, version: int = 0) -> str:
    return reverse("scoring:sheet", args=[game.pk]) + f"?v={version}"


def no_render(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the partial was rendered again")

    monkeypatch.setattr(watch, "render_table", refuse)


def cache_keys() -> list[str]:
    return list(cache._cache)  # the local-memory cache of the tests (settings: no URL)


# --- the watchers' partial ----------------------------------------------------------------------


def test_the_kept_partial_is_a_fresh_render_and_is_not_rendered_again(game, monkeypatch):
    first = Client().get(sheet(game), HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    body = first.content.decode()
    assert "hearts · Boris" in body and f"?v={game.version}" in body
    no_render(monkeypatch)
    kept = Client().get(sheet(game))  # another phone
    assert kept.status_code == 200 and kept.content == first.content
    assert kept["Content-Type"] == first["Content-Type"]
    assert "HX-Request" in kept["Vary"] and "no-cache" in kept["Cache-Control"]
    monkeypatch.undo()
    cache.clear()
    assert Client().get(sheet(game)).content == first.content  # rendered afresh: the same


def test_a_new_deal_is_a_new_partial(keeper, game):
    watcher = Client()
    before = watcher.get(sheet(game)).content.decode()
    old = game.version
    play(keeper, game, ["spades"], [5, 3, 8])
    game.refresh_from_db()
    assert game.version > old
    assert watcher.get(sheet(game, old)).status_code == 200
    after = watcher.get(sheet(game, old)).content.decode()
    assert after != before and "spades · Vera" in after and "spades" not in before
    assert f"?v={game.version}" in after and f"?v={old}" in before
    assert watcher.get(sheet(game, game.version)).status_code == 204


def test_another_language_is_another_partial(game, monkeypatch):
    english = Client().get(sheet(game)).content.decode()
    bulgarian = Client().get(sheet(game), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "Лист с резултатите" in bulgarian and "Score sheet" in english
    assert "Лист с резултатите" not in english
    no_render(monkeypatch)  # both kept now
    assert Client().get(sheet(game)).content.decode() == english
    assert Client().get(sheet(game), HTTP_ACCEPT_LANGUAGE="bg").content.decode() == bulgarian


def test_the_poll_reads_only_the_version(game, django_assert_num_queries):
    watcher = Client()
    with CaptureQueriesContext(connection) as captured:
        assert watcher.get(sheet(game, game.version)).status_code == 204
    assert len(captured) == 1
    sql = captured[0]["sql"]
    assert '"version"' in sql and '"totals"' not in sql and '"players"' not in sql
    with django_assert_num_queries(3):  # the version; not kept: the game and its deals
        assert watcher.get(sheet(game)).status_code == 200
    with django_assert_num_queries(1):  # kept: the version alone
        assert watcher.get(sheet(game)).status_code == 200
    assert watcher.get(reverse("scoring:sheet", args=[game.pk + 1000])).status_code == 404


def test_a_confirmed_game_stops_the_poll_in_its_kept_partial(keeper):
    game = create(keeper, hands="1")
    play(keeper, game, ["hearts"], [4, 7, 5])
    game.refresh_from_db()
    services.game_confirm(game_id=game.pk, actor="Boris")
    game.refresh_from_db()
    for _ in range(2):  # rendered, then kept
        body = Client().get(sheet(game)).content.decode()
        assert "Confirmed by Boris" in body and "hx-get" not in body


# --- the keeper's QR code -----------------------------------------------------------------------


def qr_drawn(monkeypatch) -> list[str]:
    """The contents of every QR code drawn from now on (with nothing kept yet)."""
    cache.clear()  # playing the game showed the page already
    drawn = []
    make = pages.segno.make

    def counting(content, *args, **kwargs):
        drawn.append(content)
        return make(content, *args, **kwargs)

    monkeypatch.setattr(pages.segno, "make", counting)
    return drawn


def keeper_qr(body: str) -> str:
    start = body.index('<div class="qr">')
    return body[start : body.index("</div>", start)]


def test_the_keeper_qr_code_is_drawn_once_and_kept_under_a_digest(keeper, game, monkeypatch):
    drawn = qr_drawn(monkeypatch)
    first = keeper_qr(page(keeper, game))
    assert "<svg" in first and len(drawn) == 1 and game.secret in drawn[0]
    second = keeper_qr(page(keeper, game))
    assert second == first and len(drawn) == 1  # kept
    keys = [key for key in cache_keys() if "keeper-qr" in key]
    assert keys and all(game.secret not in key for key in keys)
    assert all(game.secret not in key for key in cache_keys())


def test_a_new_secret_or_language_draws_a_new_code(keeper, game, monkeypatch):
    drawn = qr_drawn(monkeypatch)
    first = keeper_qr(page(keeper, game))
    bulgarian = keeper_qr(page(keeper, game, HTTP_ACCEPT_LANGUAGE="bg"))
    assert "Връзка за водещия" in bulgarian and "Keeper link" in first and len(drawn) == 2
    old = game.secret
    replaced = services.secret_replace(game_id=game.pk, actor="organiser")
    keeper.get(reverse("scoring:keep", args=[game.pk, replaced.secret]))  # the new link
    fresh = keeper_qr(page(keeper, game))
    assert fresh != first and len(drawn) == 3
    assert replaced.secret in drawn[-1] and old not in drawn[-1]
