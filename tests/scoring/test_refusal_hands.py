"""A refusal about a deal names it as the players count hands (scoring.presenters.numbering):
after a redeal, deal 3 is hand 2, and every refusal says "hand 2", in English and in
Bulgarian ("раздаване 2"), on the pages and in the API's words alike; the API's fields keep
the deal's own number."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.errors import Conflict
from scoring.models import Game

pytestmark = pytest.mark.django_db

#: Deal 1 a hand, deal 2 dealt again (the caller passed), deal 3 the second hand.
DEALS = [(["hearts"], [4, 7, 5]), (["pass"], None), (["spades"], [5, 6, 5])]


def redealt() -> Game:
    game = services.game_create(ruleset="blato", players=["Ana", "Boris", "Vera"], first_dealer=0)
    for number, (calls, tricks) in enumerate(DEALS, start=1):
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    return Game.objects.get(pk=game.pk)


def words(error) -> tuple[str, str]:
    with translation.override("en"):
        english = error.message
    with translation.override("bg"):
        bulgarian = error.message
    return english, bulgarian


def refused(write, **kwargs) -> Conflict:
    with pytest.raises(Conflict) as caught:
        write(**kwargs)
    return caught.value


def test_a_deal_recorded_differently_is_named_by_its_hand():
    game = redealt()
    error = refused(
        services.deal_record, game_id=game.pk, number=3, calls=["clubs"], tricks=[8, 5, 3]
    )
    assert error.code == "deal_taken" and error.params["n"] == 3  # the API's number
    assert words(error) == (
        "hand 2 is already recorded with other values",
        "раздаване 2 вече е записано с други стойности",
    )


def test_a_redeal_is_named_as_the_hand_dealt_again():
    game = redealt()
    error = refused(
        services.deal_record, game_id=game.pk, number=2, calls=["hearts"], tricks=[4, 7, 5]
    )
    assert words(error)[0] == "hand 2 (dealt again) is already recorded with other values"
    assert words(error)[1].startswith("раздаване 2 (раздадено отново) ")


def test_a_deal_out_of_turn_names_the_next_hand():
    game = redealt()
    error = refused(services.deal_record, game_id=game.pk, number=6, calls=["pass"])
    assert (error.params["n"], error.params["next"]) == (6, 4)
    assert words(error) == (
        "that is not the next hand to record: the next is hand 3",
        "това не е следващото раздаване за записване: следващото е раздаване 3",
    )


def test_undoing_a_deal_not_last_names_the_last_hand():
    game = redealt()
    error = refused(services.deal_undo, game_id=game.pk, number=2)
    assert words(error) == (
        "only the last hand on the score sheet (hand 2) can be undone",
        "може да се отмени само последното раздаване в листа с резултатите (раздаване 2)",
    )


def test_correcting_a_deal_not_recorded_names_its_hand():
    game = redealt()
    error = refused(
        services.deal_correct, game_id=game.pk, number=4, calls=["clubs"], tricks=[8, 5, 3]
    )
    assert error.code == "deal_not_recorded"
    assert words(error) == (
        "hand 3 is not on the score sheet yet",
        "раздаване 3 още не е в листа с резултатите",
    )


def test_a_late_write_names_the_hand_another_phone_changed():
    game = redealt()
    seen = game.version
    services.deal_correct(game_id=game.pk, number=3, calls=["clubs"], tricks=[8, 5, 3])
    error = refused(
        services.deal_correct,
        game_id=game.pk,
        number=3,
        calls=["diamonds"],
        tricks=[3, 8, 5],
        version=seen,
    )
    english, bulgarian = words(error)
    assert english.startswith("hand 2 changed on another phone after version")
    assert bulgarian.startswith("раздаване 2 е променено на друг телефон след версия")
    stale_undo = refused(services.deal_undo, game_id=game.pk, number=3, version=seen)
    assert "out of date: hand 2 changed after version" in words(stale_undo)[0]


def test_the_undo_page_and_the_api_say_the_hand_too():
    game = redealt()
    keeper = Client()
    keeper.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    # a confirmation of the undo offered before the last deal changed: out of date
    old = game.version
    services.deal_correct(game_id=game.pk, number=3, calls=["clubs"], tricks=[8, 5, 3])
    page = keeper.get(reverse("scoring:undo", args=[game.pk]), {"deal": 3, "v": old})
    assert page.status_code == 409
    assert "out of date: hand 2 changed after version" in page.content.decode()
    api = Client().post(
        f"/api/games/{game.pk}/deals",
        json.dumps({"deal": 3, "calls": ["hearts"], "tricks": [4, 7, 5]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {game.secret}",
        HTTP_ACCEPT_LANGUAGE="bg",
    )
    assert api.status_code == 409
    body = api.json()
    assert body["error"]["message"] == "раздаване 2 вече е записано с други стойности"
    assert body["error"]["current"]["deal"]["deal"] == 3  # the API's fields: the deal's number
