"""The referee's card picker: cards tapped instead of typed. Without
JavaScript the picked boxes are sent beside the text field and read as one text; the page
draws the deck by suit with what was picked, and the engine answers as if it had been typed."""

import re

import pytest
from django.urls import reverse

import engine
from scoring.forms import LegalCardsForm, ReturnCardForm
from scoring.presenters.card_picker import RANKS, SUIT_ORDER, Picked, picker

BLATO = engine.RULESETS["blato"]


def ask(client, **params):
    return client.get(reverse("scoring:referee"), params)


def test_picked_cards_are_read_with_the_typed_ones():
    form = ReturnCardForm(
        {"return-hand": "9s", "return-hand-pick": ["AH", "3H", "9S"], "return-given-pick": "10H"},
        prefix="return",
    )
    assert form.is_valid(), form.errors
    assert [str(card) for card in form.cleaned_data["hand"]] == ["9S", "AH", "3H"]
    assert str(form.cleaned_data["given"]) == "10H"


def test_a_card_picked_and_typed_twice_by_hand_is_still_refused():
    form = LegalCardsForm(
        {"play-contract": "hearts", "play-hand": "AS AS", "play-hand-pick": ["KD"]},
        prefix="play",
        ruleset=BLATO,
    )
    assert not form.is_valid()
    assert "written twice" in str(form.errors["hand"])


def test_the_given_card_must_be_one_card_typed_or_picked():
    form = ReturnCardForm(
        {"return-hand": "AH", "return-given": "QH", "return-given-pick": "10H"}, prefix="return"
    )
    assert not form.is_valid() and "Write one card." in str(form.errors["given"])


def test_nothing_picked_leaves_the_text_as_typed():
    form = ReturnCardForm({"return-hand": "AH 3H", "return-given": "10H"}, prefix="return")
    assert form.is_valid() and [str(c) for c in form.cleaned_data["hand"]] == ["AH", "3H"]
    assert not isinstance(form["hand"].value(), Picked)


def test_the_picker_draws_52_cards_by_suit_with_the_picked_ones_ticked():
    form = ReturnCardForm({"return-hand": "KS", "return-hand-pick": ["10H"]}, prefix="return")
    drawn = picker(form["hand"])
    assert [row.symbol for row in drawn.rows] == ["♠", "♥", "♣", "♦"]
    assert [row.red for row in drawn.rows] == [False, True, False, True]
    assert all(len(row.cards) == len(RANKS) == 13 for row in drawn.rows)
    assert drawn.rows[1].cards[4].code == "10H" and drawn.rows[1].cards[4].checked
    # a typed card stays in the text field (unticking a box must be able to take a card out)
    assert not drawn.rows[0].cards[1].checked
    assert drawn.rows[1].cards[0].name == "A of hearts"
    assert drawn.input_name == "return-hand-pick" and drawn.target == "id_return-hand"
    assert len(SUIT_ORDER) == 4


def test_with_the_script_the_text_alone_ticks_the_cards():
    form = ReturnCardForm({"return-hand": "AS 10h"}, prefix="return")
    drawn = picker(form["hand"])
    ticked = {card.code for row in drawn.rows for card in row.cards if card.checked}
    assert ticked == {"AS", "10H"}


@pytest.mark.django_db
def test_the_page_answers_picked_cards_without_javascript(client):
    response = ask(
        client,
        ask="play",
        **{
            "play-contract": "hearts",
            "play-hand-pick": ["AS", "2H", "KD"],
            "play-trick": "9H",
        },
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "You may play this card:" in body
    answer = body[body.index('class="answer"') :]
    assert 'title="2H"' in answer and 'title="AS"' not in answer
    # the picked cards are drawn ticked again, the text field keeps only what was typed
    for code in ("AS", "2H", "KD"):
        assert re.search(rf'name="play-hand-pick" value="{code}" aria-label="[^"]+" checked', body)
    field = re.search(r'<input type="text" name="play-hand"[^>]*>', body).group(0)
    assert 'value=""' in field
    assert " required" not in field  # ticking the cards alone must be able to send the form


@pytest.mark.django_db
def test_the_page_draws_three_pickers_with_names_for_screen_readers(client):
    body = ask(client).content.decode()
    assert body.count('type="checkbox" name="return-hand-pick"') == 52
    assert body.count('type="checkbox" name="play-hand-pick"') == 52
    assert body.count('type="radio" name="return-given-pick"') == 52
    assert 'aria-label="Q of spades"' in body
    assert "css/card_picker.css" in body and "js/card_picker.js" in body


@pytest.mark.django_db
def test_the_picker_speaks_bulgarian(client):
    client.cookies["django_language"] = "bg"
    body = ask(client, ruleset="blato").content.decode()
    assert 'lang="bg"' in body
    assert "пики</legend>" in body and "купи</legend>" in body
