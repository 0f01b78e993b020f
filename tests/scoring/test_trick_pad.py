"""The trick pad: a chip (radio button) for each count, 0 to the tricks of a hand, for each
seat but the last; the last seat's count is the rest. An ordinary hand is the call, two chips
and Record, with or without JavaScript, and a bad count is refused in words with nothing
lost."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import engine
from scoring.forms import COUNTED_SEAT, TricksForm
from scoring.models import Game

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Boris", "Vera"]


def form(data: dict, per_hand: int = 16) -> TricksForm:
    return TricksForm({"deal": 1, "calls": "hearts", **data}, names=NAMES, per_hand=per_hand)


def new_game(client: Client, **options) -> Game:
    data = {"ruleset": "blato", "first_dealer": "0", "exchange_order": "target"}
    data.update({f"player_{seat}": name for seat, name in enumerate(NAMES)}, **options)
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302, response.content.decode()
    return Game.objects.latest("pk")


def chips(body: str, seat: int) -> list[str]:
    return re.findall(rf'<input type="radio" name="tricks_{seat}" value="(\d+)"', body)


# --- the form ---------------------------------------------------------------------------------


def test_two_chips_and_the_rest_is_worked_out():
    assert COUNTED_SEAT == 2
    tapped = form({"tricks_0": "4", "tricks_1": "7"})
    assert tapped.is_valid(), tapped.errors
    assert tapped.cleaned_data["tricks"] == [4, 7, 5]
    # The rest filled in by the page's script (or typed) is checked with the others.
    assert form({"tricks_0": "4", "tricks_1": "7", "tricks_2": "5"}).is_valid()
    all_to_boris = form({"tricks_0": "0", "tricks_1": "16"})
    assert all_to_boris.is_valid() and all_to_boris.cleaned_data["tricks"] == [0, 16, 0]


def test_bad_counts_are_refused_in_words():
    too_many = form({"tricks_0": "9", "tricks_1": "9"})
    assert not too_many.is_valid()
    assert too_many.non_field_errors() == ["The tricks add up to 18; they must add up to 16."]
    wrong_rest = form({"tricks_0": "4", "tricks_1": "7", "tricks_2": "6"})
    assert wrong_rest.non_field_errors() == ["The tricks add up to 17; they must add up to 16."]
    missing = form({"tricks_0": "4"})
    assert missing.errors["tricks_1"] == ["Tap the tricks of Boris."]
    off_the_pad = form({"tricks_0": "17", "tricks_1": "0"})
    assert "tricks_0" in off_the_pad.errors
    negative_rest = form({"tricks_0": "4", "tricks_1": "7", "tricks_2": "-1"})
    assert "tricks_2" in negative_rest.errors
    with translation.override("bg"):
        in_bulgarian = form({"tricks_0": "9", "tricks_1": "9"})
        assert not in_bulgarian.is_valid()
        (message,) = in_bulgarian.non_field_errors()
    assert "18" in message and "16" in message and "tricks" not in message


@pytest.mark.parametrize("ruleset", sorted(engine.RULESETS))
def test_the_pad_has_a_chip_for_each_count_the_rules_allow(ruleset):
    per_hand = engine.Rules.build(ruleset, {}).tricks_per_hand
    pad = TricksForm(names=NAMES, per_hand=per_hand)
    for seat in range(3):
        field = pad.fields[f"tricks_{seat}"]
        if seat == COUNTED_SEAT:
            assert field.max_value == per_hand and not field.required
        else:
            assert [value for value, _label in field.choices] == list(range(per_hand + 1))


def test_seventeen_tricks_a_hand_give_seventeen_and_a_zero():
    pad = form({"tricks_0": "17", "tricks_1": "0"}, per_hand=17)
    assert pad.is_valid(), pad.errors
    assert pad.cleaned_data["tricks"] == [17, 0, 0]


# --- the page, without JavaScript: four taps a hand -------------------------------------------


def test_an_ordinary_hand_is_four_posts_of_one_tap_each():
    keeper = Client()
    game = new_game(keeper)
    table = reverse("scoring:table", args=[game.pk])
    # Tap 1: the call (Boris calls first: Ana deals). The page that follows shows the pad.
    response = keeper.post(
        reverse("scoring:call", args=[game.pk]), {"deal": 1, "calls": "", "call": "hearts"}
    )
    assert response.status_code == 302
    body = keeper.get(response["Location"]).content.decode()
    assert chips(body, 0) == [str(n) for n in range(17)]
    assert chips(body, 1) == [str(n) for n in range(17)]
    assert chips(body, 2) == []  # the rest: a box, filled in
    assert 'name="tricks_2"' in body and "the rest, filled in" in body
    # Each seat's target chip is marked for the eye: Ana deals (3), Boris calls first (8).
    assert re.findall(r'class="chip chip-target" for="id_tricks_(\d_\d+)"', body) == ["0_3", "1_8"]
    # Taps 2 and 3: a chip for Ana and one for Boris; tap 4: Record. Vera's is the rest.
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": 1, "calls": "hearts", "tricks_0": "4", "tricks_1": "7"},
    )
    assert response.status_code == 302 and response["Location"] == table
    entry = game.entries.get()
    assert (entry.calls, entry.tricks) == (["hearts"], [4, 7, 5])


def test_a_refused_pad_comes_back_with_the_chips_tapped():
    keeper = Client()
    game = new_game(keeper)
    keeper.post(reverse("scoring:call", args=[game.pk]), {"deal": 1, "calls": "", "call": "hearts"})
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": 1, "calls": "hearts", "tricks_0": "9", "tricks_1": "9"},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "The tricks add up to 18; they must add up to 16." in body
    # Nothing lost: the call and both chips are still chosen.
    assert re.search(r'name="tricks_0" value="9"[^>]*checked', body)
    assert re.search(r'name="tricks_1" value="9"[^>]*checked', body)
    assert 'name="calls" value="hearts"' in body
    assert not game.entries.exists()
    # One chip missing: said next to that seat's chips, in the page's language.
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": 1, "calls": "hearts", "tricks_0": "4"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "Tap the tricks of Boris." in response.content.decode()
    assert not game.entries.exists()


def test_with_htmx_the_pad_comes_in_the_partial():
    keeper = Client()
    game = new_game(keeper)
    response = keeper.post(
        reverse("scoring:call", args=[game.pk]),
        {"deal": 1, "calls": "", "call": "hearts"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert "<html" not in body and len(chips(body, 0)) == 17
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": 1, "calls": "hearts", "tricks_0": "4", "tricks_1": "7", "tricks_2": "5"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert game.entries.get().tricks == [4, 7, 5]
