"""What the keeper's pages say, and how: a success in the success style, once; an error in the
error style; every refusal of a typed value in the product's own words and the page's
language; and Back after a recorded hand lands on the keeper's page, not the page before it."""

from __future__ import annotations

import re

import pytest
from django import forms
from django.contrib.messages import constants
from django.contrib.messages.storage.cookie import CookieStorage
from django.core import validators
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.views.seat_claim import COOKIE
from tests.scoring.test_correct_pages import FIVE, correct_url, post_correction, record
from tests.scoring.test_verdicts import K, _game
from tests.scoring.test_views import create, play, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


def game_part(body: str) -> str:
    """The `game` partial of a whole table page: what each htmx answer replaces."""
    start = body.index('<div id="game"')
    return body[start:]


def messages_of(body: str) -> list[tuple[str, str, str]]:
    """Each message shown: (its kind, its role, its words)."""
    return re.findall(
        r'<p class="message (\w+)" role="(\w+)">([^<]*)</p>',
        body,
    )


# --- a success is shown as one, once ---------------------------------------------------------


def test_an_undo_says_so_in_the_success_style_and_the_next_action_drops_it(keeper):
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    play(keeper, game, ["spades"], [5, 3, 8])
    game.refresh_from_db()
    url = reverse("scoring:undo", args=[game.pk])
    keeper.post(url, {"deal": 2, "version": game.version})
    body = text(keeper.get(reverse("scoring:table", args=[game.pk])))
    said = ("success", "status", "Hand 2 is undone.")
    # Inside the part each action replaces (with JavaScript only that part is swapped).
    assert messages_of(game_part(body)) == [said]
    assert 'class="alert"' not in body
    # The next action's answer (htmx: the partial) and the next page no longer say it.
    answer = keeper.post(
        reverse("scoring:call", args=[game.pk]),
        {"deal": "2", "calls": "", "call": "spades"},
        HTTP_HX_REQUEST="true",
    )
    assert "is undone" not in text(answer)
    assert "is undone" not in text(keeper.get(reverse("scoring:table", args=[game.pk])))


def test_a_message_is_shown_even_when_the_browser_holds_the_page_as_it_was(keeper):
    """A correction to the same values changes nothing, so the page's validator is unchanged:
    the message must still be shown (not a 304 that leaves it waiting for a later page)."""
    game = record(create(keeper), FIVE)
    table = reverse("scoring:table", args=[game.pk])
    etag = keeper.get(table)["ETag"]
    post_correction(keeper, game, 2, "spades", [5, 3, 8])
    again = keeper.get(table, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200
    assert messages_of(text(again)) == [("info", "status", "Hand 2 already had these values.")]
    assert "already had" not in text(keeper.get(table))


def test_a_refusal_in_the_messages_is_shown_as_an_error(keeper):
    game = create(keeper)
    # A refusal carried over a redirect (e.g. "play again" refused) is an alert, not a status.
    storage = CookieStorage(keeper.get(reverse("scoring:table", args=[game.pk])).wsgi_request)
    storage.add(constants.ERROR, "the result is confirmed")
    response = HttpResponse()
    storage.update(response)
    keeper.cookies.update(response.cookies)
    body = text(keeper.get(reverse("scoring:table", args=[game.pk])))
    assert messages_of(body) == [("error", "alert", "the result is confirmed")]


def test_a_players_thank_you_is_a_success_and_confirm_is_no_longer_the_main_button():
    game = _game(K)
    vera = Client()
    vera.post(reverse("scoring:claim", args=[game.pk]), {"seat": "2"})
    assert COOKIE in vera.cookies
    before = text(vera.get(reverse("scoring:me", args=[game.pk])))
    assert 'value="agree" class="primary"' in before
    vera.post(reverse("scoring:verdict", args=[game.pk]), {"verdict": "agree"})
    after = text(vera.get(reverse("scoring:me", args=[game.pk])))
    assert ("success", "status", "Thank you: your confirmation is recorded.") in messages_of(after)
    assert 'class="notice"' not in after
    assert "You confirmed this result." in after
    assert 'value="agree" class="primary"' not in after
    again = text(vera.get(reverse("scoring:me", args=[game.pk])))
    assert "Thank you" not in again and "You confirmed this result." in again


# --- a refused value in the product's words ---------------------------------------------------


def django_wordings(language: str) -> list[str]:
    """The start of each of Django's own refusals for a number or a choice, in `language`
    (from Django's catalogue): none of them may reach a table page."""
    with translation.override(language):
        texts = [
            validators.MinValueValidator.message,
            validators.MaxValueValidator.message,
            forms.IntegerField.default_error_messages["invalid"],
            forms.ChoiceField.default_error_messages["invalid_choice"],
            forms.Field.default_error_messages["required"],
        ]
        return [str(words).split("%(")[0].strip() for words in texts]


@pytest.mark.parametrize("language", ["en", "bg"])
def test_bad_trick_counts_are_refused_in_the_products_words(keeper, language):
    game = create(keeper)
    play(keeper, game, ["hearts"])
    url = reverse("scoring:deal", args=[game.pk])
    stems = django_wordings(language)
    assert all(stems)
    for counts in (["4", "13", "-1"], ["4", "7", "99"], ["4", "7", "x"], ["21", "", ""]):
        data = {"deal": "1", "calls": "hearts"}
        data.update({f"tricks_{seat}": count for seat, count in enumerate(counts)})
        response = keeper.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400
        body = text(response)
        for stem in stems:
            assert stem not in body, (counts, stem)
        assert re.search(r'class="errorlist"', body)
    expected = {
        "en": "Tricks are whole numbers from 0 to 16.",
        "bg": "Ръцете са цели числа от 0 до 16.",
    }[language]
    assert expected in body
    # The organiser's (and the keeper's) correction form says it the same way.
    game = record(game, [(["hearts"], [4, 7, 5])])
    response = keeper.post(
        correct_url(game, 1),
        {"calls": "hearts", "tricks_0": "-1", "tricks_1": "x", "tricks_2": "30"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    body = text(response)
    assert response.status_code == 400
    for stem in stems:
        assert stem not in body, stem
    assert expected in body
    bad_call = keeper.post(
        correct_url(game, 1), {"calls": "nonsense"}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert bad_call.status_code == 400
    for stem in stems:
        assert stem not in text(bad_call), stem


def test_a_bad_hidden_field_says_the_page_is_out_of_date(keeper):
    game = create(keeper)
    play(keeper, game, ["hearts"])
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "0", "calls": "hearts", "version": "-3", "tricks_0": "4", "tricks_1": "7"},
    )
    assert response.status_code == 400
    assert "This page is out of date: open the score sheet again." in text(response)


# --- Back after a recorded hand ---------------------------------------------------------------


def test_a_recorded_hand_is_a_step_in_the_phones_history(keeper):
    """With JavaScript a hand is recorded without leaving the page: the answer pushes the
    keeper's page as a new step of the history (so Back lands on the keeper's page, not on
    the PIN or new-game form before it), and htmx keeps no copy of a page to restore: Back
    asks the server for the page as it is now."""
    game = create(keeper)
    table = reverse("scoring:table", args=[game.pk])
    keeper.post(
        reverse("scoring:call", args=[game.pk]),
        {"deal": "1", "calls": "", "call": "hearts"},
        HTTP_HX_REQUEST="true",
    )
    answer = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "4", "tricks_1": "7"},
        HTTP_HX_REQUEST="true",
    )
    assert answer["HX-Push-Url"] == table
    assert "HX-Replace-Url" not in answer
    body = text(keeper.get(table))
    config = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", body).group(1)
    assert '"historyCacheSize": 0' in config and '"refreshOnHistoryMiss": true' in config


def test_the_keepers_page_is_never_kept_so_back_shows_it_as_it_is_now(keeper):
    """Without JavaScript a hand is POST, redirect, GET: Back lands on the keeper's page of
    the step before, which must be asked for again (no-store), not shown from the browser's
    copy with the tricks form of a hand already recorded."""
    game = create(keeper)
    table = reverse("scoring:table", args=[game.pk])
    assert "no-store" in keeper.get(table)["Cache-Control"]
    assert "no-store" in keeper.get(table + "?deal=1&calls=hearts")["Cache-Control"]
    watched = Client().get(table)
    assert "no-store" not in watched["Cache-Control"] and watched["ETag"]
