"""What search engines are told: robots.txt, a meta description on every page,
noindex on the organisers' and keepers' pages; and `<time datetime>` in whole seconds."""

import re
from datetime import UTC, datetime

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.templatetags.timestamps import machine_time

from .test_public_pages import make_event, numbered, publish_round, running

pytestmark = pytest.mark.django_db(transaction=True)

NOINDEX = '<meta name="robots" content="noindex">'
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]+)">')


def body(response) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def test_robots_txt_keeps_crawlers_out_of_the_private_parts():
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert "User-agent: *" in lines
    for private in ("/organise/", "/accounts/", "/api/", "/games/*/keep/"):
        assert f"Disallow: {private}" in lines
    assert "Disallow: /" not in lines and "Disallow: /events/" not in lines


def test_public_pages_have_their_own_description_and_may_be_indexed():
    event, _, _ = running(numbered(9), name="Varna open")
    client = Client()
    pages = [
        reverse("home"),
        reverse("tournaments:events"),
        reverse("tournaments:event", args=[event.slug]),
        reverse("tournaments:standings", args=[event.slug]),
        reverse("tournaments:round", args=[event.slug, 1]),
        reverse("tournaments:projector", args=[event.slug]),
        reverse("scoring:game_new"),
    ]
    for url in pages:
        page = body(client.get(url))
        description = DESCRIPTION.findall(page)
        assert len(description) == 1, url
        assert NOINDEX not in page, url
    standings = body(client.get(reverse("tournaments:standings", args=[event.slug])))
    assert "Standings of Varna open" in DESCRIPTION.search(standings).group(1)


def test_the_description_is_bulgarian_on_a_bulgarian_page():
    page = body(Client().get(reverse("home"), HTTP_ACCEPT_LANGUAGE="bg"))
    assert re.search("[а-я]", DESCRIPTION.search(page).group(1))


def test_organiser_pages_and_the_login_are_noindex(organiser_client, organised_event):
    for url in (
        reverse("tournaments:organise_home"),
        reverse("tournaments:organise_event", args=[organised_event.slug]),
        reverse("tournaments:organise_log", args=[organised_event.slug]),
    ):
        assert NOINDEX in body(organiser_client.get(url)), url
    assert NOINDEX in body(Client().get(reverse("login")))


def test_the_table_page_is_noindex_for_its_keeper_only():
    keeper = Client()
    names = {"player_0": "Ana", "player_1": "Boris", "player_2": "Vera"}
    data = {"ruleset": "blato", "first_dealer": "0", "exchange_order": "target", **names}
    assert keeper.post(reverse("scoring:game_new"), data).status_code == 302
    game = Game.objects.latest("pk")
    url = reverse("scoring:table", args=[game.pk])
    assert NOINDEX in body(keeper.get(url))
    watched = body(Client().get(url))
    assert NOINDEX not in watched
    assert "Ana, Boris, Vera" in DESCRIPTION.search(watched).group(1)


def test_machine_time_keeps_whole_seconds():
    at = datetime(2026, 5, 1, 18, 30, 12, 345678, tzinfo=UTC)
    assert machine_time(at) == "2026-05-01T18:30:12+00:00"
    assert machine_time(None) == ""


def test_time_datetime_attributes_have_no_microseconds(organiser_client, organised_event):
    event = make_event(numbered(9), name="Burgas open")
    publish_round(event)
    pages = [
        Client().get(reverse("tournaments:standings", args=[event.slug])),
        organiser_client.get(reverse("tournaments:organise_log", args=[organised_event.slug])),
    ]
    player = event.entries.first().player_id
    pages.append(Client().get(reverse("tournaments:player", args=[event.slug, player])))
    seen = []
    for response in pages:
        seen += re.findall(r'<time datetime="([^"]+)"', body(response))
    assert seen, "no <time datetime> on the pages"
    for value in seen:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", value), value
