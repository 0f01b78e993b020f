"""The shared cache (Redis, DJANGO_CACHE_URL) stopped in the middle of an event.

A real outage: the cache is the one production configures (config.env.cache_from_env with a
redis:// address), pointed at a port where nothing listens, so every call to it fails as it
does when Redis is stopped. Nothing here needs a Redis server. What must hold: no page and no
API call answers 500; the pages are served from the database; deals are kept; the throttles
still slow guessing down; /healthz names the cache.
"""

import logging
import random

import pytest
from django.test import Client
from django.urls import reverse

import engine
from config import shared_cache, window_count
from config.env import cache_from_env
from scoring import throttle
from scoring.autoplay import next_deal
from scoring.models import Game
from scoring.selectors import game_record
from tournaments.events.selectors.identity import identity_cookie, identity_value
from tournaments.models import Standings
from tournaments.rounds.services import pins

from .conftest import register
from .test_services import play_table

#: Nothing listens on port 1: every call to this cache fails (connection refused).
DEAD_CACHE = "redis://127.0.0.1:1/0"
#: A phone on the internet, as Django sees it (not the loopback the test client uses).
VISITOR = "203.0.113.7"


@pytest.fixture
def published(organised_event, build_round):
    """An event with round 1 published (its tables' games started), set up while the cache
    still answered."""
    register(organised_event, 9)
    round_ = build_round(organised_event, publish=True)
    return round_, list(round_.tables.select_related("game").order_by("number"))


@pytest.fixture
def cache_down(settings):
    """From here on the cache is Redis, and Redis is not there."""
    shared_cache.forget()
    settings.CACHES = {"default": cache_from_env({"DJANGO_CACHE_URL": DEAD_CACHE})}
    yield
    window_count.forget()
    shared_cache.forget()


def visitor() -> Client:
    return Client(REMOTE_ADDR=VISITOR)


def deal_body(game: Game) -> dict:
    """The game's next deal as the API takes it: calls the engine allows, tricks that fit."""
    rules_game = engine.game_from_record(game_record(game))
    return {"deal": len(rules_game.deals) + 1, **next_deal(rules_game, random.Random(5))}


def post_deal(client: Client, game: Game, secret: str):
    return client.post(
        f"/api/games/{game.pk}/deals",
        deal_body(game),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {secret}",
    )


def test_with_the_cache_down_every_public_page_is_served_from_the_database(published, cache_down):
    round_, tables = published
    event, game = round_.event, tables[0].game
    names = [player.name for player in tables[0].seats]
    phone = visitor()
    pages = {
        "round": reverse("tournaments:round", args=[event.slug, 1]),
        "standings": reverse("tournaments:standings", args=[event.slug]),
        "standings fragment": reverse("tournaments:standings_live", args=[event.slug]),
        "where do I sit": reverse("tournaments:seat", args=[event.slug]) + f"?name={names[0]}",
        "table PIN form": reverse("tournaments:table_pin", args=[event.slug]),
        "watchers' sheet": reverse("scoring:sheet", args=[game.pk]),
        "watch page": reverse("scoring:table", args=[game.pk]),
    }
    for page, url in pages.items():
        response = phone.get(url)
        assert response.status_code == 200, (page, response.status_code)
    round_page = phone.get(pages["round"]).content.decode()
    assert all(name in round_page for name in names)
    seat_page = phone.get(pages["where do I sit"]).content.decode()
    assert f"Table {tables[0].number}" in seat_page
    assert names[1] in phone.get(pages["watchers' sheet"]).content.decode()


def test_with_the_cache_down_my_next_seat_and_its_poll_answer(published, cache_down):
    round_, tables = published
    event = round_.event
    seated = tables[0].seats[0]
    entry = event.entries.select_related("player").get(player=seated)
    phone = visitor()
    phone.cookies[identity_cookie(event)] = identity_value(entry)
    page = phone.get(reverse("tournaments:next_seat", args=[event.slug]))
    assert page.status_code == 200 and f"Table {tables[0].number}" in page.content.decode()
    poll = reverse("tournaments:next_seat_version", args=[event.slug])
    version = phone.get(poll)
    assert version.status_code == 200
    assert phone.get(poll, HTTP_IF_NONE_MATCH=version["ETag"]).status_code == 304
    part = phone.get(reverse("tournaments:next_seat_live", args=[event.slug]))
    assert part.status_code == 200 and f"Table {tables[0].number}" in part.content.decode()


def test_with_the_cache_down_the_api_answers_and_keeps_every_deal(published, cache_down):
    round_, tables = published
    event, game = round_.event, tables[0].game
    phone = visitor()

    standings = phone.get(f"/api/events/{event.slug}/standings")
    assert standings.status_code == 200 and standings["Content-Type"].startswith("application/json")

    wrong = post_deal(phone, game, "not-the-secret")
    assert wrong.status_code == 403 and wrong.json()["error"]["message"]

    created = phone.post(
        "/api/games",
        {"ruleset": "blato", "players": ["Ana", "Boris", "Vera"], "first_dealer": 0},
        content_type="application/json",
    )
    assert created.status_code == 201, created.content

    for number in range(1, 4):
        kept = post_deal(phone, game, game.secret)
        assert kept.status_code == 201, kept.content
        game.refresh_from_db()
        assert game.entries.filter(undone_at__isnull=True).count() == number


def test_with_the_cache_down_the_table_pin_opens_the_keepers_page(published, cache_down):
    round_, tables = published
    table = tables[1]
    phone = visitor()
    url = reverse("tournaments:table_pin", args=[round_.event.slug])
    wrong = f"{(int(table.pin) + 1) % 10**pins.PIN_LENGTH:0{pins.PIN_LENGTH}d}"
    assert phone.post(url, {"table": table.number, "pin": wrong}).status_code == 403
    right = phone.post(url, {"table": table.number, "pin": table.pin})
    assert right.status_code == 302
    keeper_page = phone.get(right["Location"])  # with the keeper link's QR code on it
    assert keeper_page.status_code == 200
    assert reverse("scoring:release", args=[table.game_id]) in keeper_page.content.decode()


def test_with_the_cache_down_a_round_is_published_played_and_its_standings_shown(
    organised_event, build_round, cache_down, django_capture_on_commit_callbacks
):
    """The organiser's side too: publishing (whose pre-render of the pages fails), results
    confirmed, the standings built by their task (which keeps its timing in the cache)."""
    register(organised_event, 9)
    round_ = build_round(organised_event, publish=True)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.select_related("game"):
            play_table(table)
    organised_event.refresh_from_db()
    newest = Standings.objects.filter(event=organised_event).order_by("-pk").first()
    assert newest is not None and newest.is_current(organised_event)
    page = visitor().get(reverse("tournaments:standings", args=[organised_event.slug]))
    assert page.status_code == 200
    assert all(f"Player {n:03d}" in page.content.decode() for n in range(1, 10))


# --- the throttles still hold -----------------------------------------------------------------


def test_with_the_cache_down_wrong_secrets_are_still_stopped(published, cache_down):
    _round, tables = published
    game = tables[0].game
    phone = visitor()
    answers = [
        post_deal(phone, game, f"guess-{n}").status_code
        for n in range(throttle.FAILURES_ALLOWED + 3)
    ]
    assert answers == [403] * throttle.FAILURES_ALLOWED + [429] * 3
    assert post_deal(phone, game, game.secret).status_code == 201  # a right one still passes


def test_with_the_cache_down_wrong_pins_are_still_stopped_and_stay_stopped_after(
    published, cache_down, settings
):
    round_, tables = published
    table = tables[0]
    phone = visitor()
    url = reverse("tournaments:table_pin", args=[round_.event.slug])
    guesses = [
        phone.post(url, {"table": table.number, "pin": f"{n:06d}"}).status_code
        for n in range(pins.ADDRESS_FAILURES_ALLOWED + 2)
        if f"{n:06d}" != table.pin
    ][: pins.ADDRESS_FAILURES_ALLOWED + 1]
    assert guesses == [403] * pins.ADDRESS_FAILURES_ALLOWED + [429]
    assert phone.post(url, {"table": table.number, "pin": table.pin}).status_code == 429
    # The cache comes back (empty, as a restarted Redis may): the count kept meanwhile holds.
    settings.CACHES = {"default": cache_from_env({})}
    assert phone.post(url, {"table": table.number, "pin": table.pin}).status_code == 429


def test_with_the_cache_down_new_games_are_still_limited(db, cache_down):
    phone = visitor()
    body = {"ruleset": "blato", "players": ["Ana", "Boris", "Vera"], "first_dealer": 0}
    answers = [
        phone.post("/api/games", body, content_type="application/json").status_code
        for _ in range(throttle.GAMES_PER_ADDRESS + 1)
    ]
    assert answers == [201] * throttle.GAMES_PER_ADDRESS + [429]
    assert Game.objects.count() == throttle.GAMES_PER_ADDRESS


# --- what the operator sees -------------------------------------------------------------------


def test_healthz_names_the_cache_when_it_is_down(client, db, cache_down, caplog):
    caplog.set_level(logging.ERROR, logger="config.health")
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503 and body["ok"] is False
    assert body["cache"]["status"] == "error"
    assert body["database"]["status"] == "ok"
    assert "127.0.0.1:1" not in response.content.decode()
    assert any(r.name == "config.health" and "cache" in r.getMessage() for r in caplog.records)


def test_healthz_says_the_cache_is_ok_when_it_answers(client, db):
    body = client.get("/healthz").json()
    assert body["cache"]["status"] == "ok"


def test_an_outage_is_logged_once_not_once_per_call(published, cache_down, caplog):
    round_, _tables = published
    caplog.set_level(logging.WARNING)
    phone = visitor()
    for _ in range(5):
        phone.get(reverse("tournaments:standings", args=[round_.event.slug]))
    said = [r for r in caplog.records if r.name == "config.shared_cache"]
    assert len(said) == 1 and "cache" in said[0].getMessage()
