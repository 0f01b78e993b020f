"""PINs once the play is over: a finished event, or one between rounds, says so in words that
fit (not "round 2 is closed" for a round-1 PIN after the event), does not offer the PIN entry,
and the printed table card shows the PIN and the QR codes but never the table's secret as
text (the secret is the keeper link itself: whoever reads it off a card keeps the score)."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tournaments.events.services.event import event_end
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db

OVER = {
    "en": "This event is over: the tables&#x27; scores are final",
    "bg": "Турнирът приключи: резултатите на масите са окончателни",
}
ROUND_CLOSED = {
    "en": "Round 1 is closed: its tables&#x27; scores are final",
    "bg": "Кръг 1 е приключен: резултатите на масите му са окончателни",
}


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _play_round(event, build_round, rng):
    round_ = build_round(event, publish=True)
    tables = list(round_.tables.select_related("game").order_by("number"))
    for table in tables:
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    round_close(round_=round_, actor="olga")
    return round_, tables


@pytest.fixture
def between_rounds(organised_event, build_round):
    """Round 1 of 2 played and closed; round 2 not built yet."""
    register(organised_event, 6)
    _round, tables = _play_round(organised_event, build_round, random.Random(2))
    return organised_event, tables


@pytest.fixture
def finished(between_rounds, build_round):
    """Both planned rounds played and closed: the event is over."""
    event, round_1_tables = between_rounds
    _play_round(event, build_round, random.Random(3))
    event = event_end(event=event, actor="olga")  # the organiser ends it (docs/rounds.md)
    assert event.status == event.Status.CLOSED
    return event, round_1_tables


def _type(event, table, language: str):
    url = reverse("tournaments:table_pin", args=[event.slug])
    data = {"table": table.number, "pin": table.pin}
    return Client().post(url, data, HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_pin_after_the_event_says_the_event_is_over(finished, language):
    event, round_1_tables = finished
    response = _type(event, round_1_tables[0], language)
    assert response.status_code == 409
    body = response.content.decode()
    assert OVER[language] in body
    assert "closed" not in body and "приключен" not in body  # no "round 2 is closed"


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_pin_between_rounds_says_the_round_is_closed_and_final(between_rounds, language):
    event, tables = between_rounds
    response = _type(event, tables[0], language)
    assert response.status_code == 409
    assert ROUND_CLOSED[language] in response.content.decode()


@pytest.mark.parametrize("language", ["en", "bg"])
def test_no_pin_entry_is_offered_when_no_round_is_being_played(
    between_rounds, build_round, language
):
    event, _tables = between_rounds
    pin_url = reverse("tournaments:table_pin", args=[event.slug])
    page = reverse("tournaments:event", args=[event.slug])
    assert pin_url not in Client().get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    _play_round(event, build_round, random.Random(4))  # the last round: the event is over
    assert pin_url not in Client().get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_pin_entry_is_offered_while_a_round_is_played(organised_event, build_round, language):
    register(organised_event, 6)
    build_round(organised_event, publish=True)
    pin_url = reverse("tournaments:table_pin", args=[organised_event.slug])
    page = reverse("tournaments:event", args=[organised_event.slug])
    body = Client().get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert pin_url in body


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_printed_card_shows_pin_and_codes_but_never_the_secret(
    organiser_client, organised_event, build_round, language
):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    tables = list(round_.tables.select_related("game").order_by("number"))
    url = reverse("tournaments:organise_print_cards", args=[organised_event.slug, 1])
    body = organiser_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for table in tables:
        assert f'<strong class="pin">{table.pin}</strong>' in body
        assert table.game.secret not in body
    assert body.count("<svg") == 2 * len(tables)  # each card: the players' and the keeper's
    assert "card-secret" not in body
