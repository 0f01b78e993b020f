"""Closing a round is final, so the page asks first (a page of its own: no JavaScript); and
an organiser's answer to a dispute (the result confirmed with a note, or reopened with a
reason) reaches the disputing player's phone and the table's page."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import Game, Quorum
from tests.tournaments.test_seat_attacks import evening, phone, prove
from tournaments.common import tokens
from tournaments.models import Round
from tournaments.results.services import result_confirm

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def squash(page: str) -> str:
    return " ".join(page.split())


# --- closing asks first -------------------------------------------------------------------------


def test_closing_a_round_asks_first_on_a_page_of_its_own(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    round_ = build_round(organised_event, publish=True)
    rng = random.Random(4)
    for table in round_.tables.all():
        finish_game(table.game, rng)
        result_confirm(table=table, actor="olga")
    close = reverse("tournaments:organise_round_close", args=[organised_event.slug, 1])
    page = text(
        organiser_client.get(reverse("tournaments:organise_round", args=[organised_event.slug, 1]))
    )
    # the round page's button asks (a GET to the question), it does not close
    assert f'<form class="close-round" method="get" action="{close}">' in page
    question = text(organiser_client.get(close))
    assert "Close round 1?" in question and f'action="{close}"' in question
    assert 'method="post"' in question and "Yes, close round 1" in question
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED  # asking changed nothing
    answer = organiser_client.post(close)
    assert answer["Location"] == reverse("tournaments:organise_event", args=[organised_event.slug])
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_the_question_is_not_asked_of_a_round_that_cannot_close(
    organiser_client, organised_event, build_round
):
    register(organised_event, 6)
    build_round(organised_event, publish=True)  # nothing played yet
    close = reverse("tournaments:organise_round_close", args=[organised_event.slug, 1])
    answer = organiser_client.get(close, follow=True)
    assert "neither confirmed nor void yet" in text(answer)
    assert "Yes, close round 1" not in text(answer)


# --- the answer to a dispute --------------------------------------------------------------------


def disputed(capture):
    """An event asking all three players; Vera's phone says the finished result is wrong."""
    event, table, game = evening(Quorum.ALL, capture)
    organiser = get_user_model().objects.create_user(username="olga")
    event.organisers.add(organiser)
    olga = Client()
    olga.force_login(organiser)
    vera = phone()
    name = game.players[2]
    prove(vera, event, name)
    vera.post(reverse("scoring:claim", args=[game.pk]), {"seat": 2})
    vera.post(
        reverse("scoring:verdict", args=[game.pk]),
        {"verdict": "wrong", "reason": "deal 5: I made my 8"},
    )
    return event, table, game, olga, vera


def test_confirming_a_disputed_result_with_a_note_answers_the_player(
    django_capture_on_commit_callbacks,
):
    event, table, game, olga, vera = disputed(django_capture_on_commit_callbacks)
    round_page = reverse("tournaments:organise_round", args=[event.slug, 1])
    page = text(olga.get(round_page))
    assert 'name="note"' in page  # the dispute's card offers an answer
    confirm = reverse("tournaments:organise_result_confirm", args=[event.slug, 1, table.number])
    note = "I checked the paper sheet: deal 5 stands"
    assert olga.post(confirm, {"note": note}).status_code == 302
    game.refresh_from_db()
    assert game.confirmed
    mine = squash(text(vera.get(reverse("scoring:me", args=[game.pk]))))
    assert "The organiser confirmed the result: “I checked the paper sheet: deal 5 stands”" in mine
    sheet = squash(text(Client().get(reverse("scoring:table", args=[game.pk]))))
    assert note in sheet


def test_the_token_api_confirms_with_the_organisers_note_as_the_page_does(
    django_capture_on_commit_callbacks,
):
    """POST /api/games/{id}/confirm takes the same answer as the dispute's card: `note`."""
    event, table, game, olga, vera = disputed(django_capture_on_commit_callbacks)
    url = f"/api/games/{game.pk}/confirm"
    api = Client()

    def confirm(body: dict, token: str):
        return api.post(
            url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
        )

    # the table's token speaks for the keeper, whose page gives no word: refused, nothing locked
    refused = confirm({"note": "fine by me"}, game.secret)
    assert refused.status_code == 400 and "organiser" in refused.json()["error"]["message"]
    assert confirm({"note": 5}, game.secret).status_code == 400
    game.refresh_from_db()
    assert not game.confirmed
    token = tokens.token_issue(user=get_user_model().objects.get(username="olga"))
    assert confirm({"note": ["no"]}, token).status_code == 400
    too_long = confirm({"note": "x" * 501}, token)
    assert too_long.status_code == 400 and "500" in too_long.json()["error"]["message"]
    note = "I checked   the paper sheet: deal 5 stands"
    answer = confirm({"note": note, "version": game.version}, token)
    assert answer.status_code == 200, answer.content
    assert answer.json()["confirmed"] is True
    mine = squash(text(vera.get(reverse("scoring:me", args=[game.pk]))))
    assert "The organiser confirmed the result: “I checked the paper sheet: deal 5 stands”" in mine
    log = event.log.filter(action="result_confirmed").get()
    assert log.reason == "I checked the paper sheet: deal 5 stands"


def test_reopening_a_disputed_result_tells_the_player_why(django_capture_on_commit_callbacks):
    event, table, game, olga, vera = disputed(django_capture_on_commit_callbacks)
    result_confirm(table=table, actor="olga")  # confirmed without a word
    mine = squash(text(vera.get(reverse("scoring:me", args=[game.pk]))))
    assert "The organiser" not in mine
    reopen = reverse("tournaments:organise_result_reopen", args=[event.slug, 1, table.number])
    answer = olga.post(reopen, {f"t{table.number}-reason": "Vera is right: deal 5 corrected"})
    assert answer.status_code == 302
    game.refresh_from_db()
    assert game.result == Game.Result.FINISHED
    mine = squash(text(vera.get(reverse("scoring:me", args=[game.pk]))))
    assert "The organiser reopened the result: “Vera is right: deal 5 corrected”" in mine
