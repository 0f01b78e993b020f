"""The keeper's pages send the game version they were shown at with every form that changes a
deal or confirms: a form sent late (left open, Back, a retry) whose deal another phone changed
since is refused and shows both, the deal as recorded now and as entered here, in words, in
the page's language; one tap then keeps either. Driven without JavaScript."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import DealEntry, Game

from .test_manage import event_game, finish, manage_url  # noqa: F401 (a fixture)
from .test_views import create, hidden, page, text

pytestmark = pytest.mark.django_db

THREE = [(["hearts"], [4, 7, 5]), (["spades"], [5, 3, 8]), (["clubs"], [8, 5, 3])]
TIED_BLATO = [(["spades"], [3, 8, 5]), (["spades"], [5, 3, 8]), (["spades"], [8, 5, 3])] * 3


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


def record(game, deals):
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def live(game, number):
    entry = DealEntry.objects.filter(game=game, number=number, undone_at__isnull=True).first()
    return None if entry is None else (entry.calls, entry.tricks)


def found(body, css_class):
    return re.search(rf'class="{css_class}">([^<]*)<', body).group(1)


def test_every_form_that_changes_a_deal_carries_the_version_the_page_shows(keeper):
    game = record(create(keeper), THREE)
    body = page(keeper, game)
    assert f'<div id="game" class="game" data-version="{game.version}"' in body
    call = reverse("scoring:call", args=[game.pk])
    assert hidden(body, "version", call) == str(game.version)
    keeper.post(call, {"deal": "4", "calls": "", "call": "hearts", "version": game.version})
    body = text(keeper.get(reverse("scoring:table", args=[game.pk]) + "?deal=4&calls=hearts"))
    assert hidden(body, "version", reverse("scoring:deal", args=[game.pk])) == str(game.version)
    correct = reverse("scoring:correct", args=[game.pk, 2])
    assert hidden(text(keeper.get(correct)), "version", correct) == str(game.version)


def test_a_correction_page_left_open_never_overwrites_a_newer_correction(keeper):
    game = record(create(keeper), THREE)
    url = reverse("scoring:correct", args=[game.pk, 2])
    shown = hidden(text(keeper.get(url)), "version", url)
    # Another phone corrects deal 2 meanwhile.
    services.deal_correct(game_id=game.pk, number=2, calls=["spades"], tricks=[6, 3, 7])
    mine = {"calls": "spades", "tricks_0": "5", "tricks_1": "4", "tricks_2": "7"}
    late = keeper.post(url, {**mine, "version": shown})
    assert late.status_code == 409
    body = text(late)
    assert "Hand 2 was changed on another phone since this page was opened" in body
    assert found(body, "clash-recorded") == "Vera called spades. Tricks: Ana 6, Boris 3, Vera 7."
    assert found(body, "clash-mine") == "Vera called spades. Tricks: Ana 5, Boris 4, Vera 7."
    assert f"version {shown} of the game" in body  # both versions, in words
    assert live(game, 2) == (["spades"], [6, 3, 7])
    # The page now carries the version it shows: saving again keeps this phone's, knowingly.
    game.refresh_from_db()
    assert hidden(body, "version", url) == str(game.version)
    keep = keeper.post(url, {**mine, "version": hidden(body, "version", url)})
    assert keep.status_code == 302 and live(game, 2) == (["spades"], [5, 4, 7])


def test_the_refusal_is_in_the_pages_language(keeper):
    game = record(create(keeper), THREE)
    url = reverse("scoring:correct", args=[game.pk, 2])
    shown = game.version
    services.deal_correct(game_id=game.pk, number=2, calls=["spades"], tricks=[6, 3, 7])
    mine = {"calls": "spades", "tricks_0": "5", "tricks_1": "4", "tricks_2": "7"}
    with translation.override("bg"):
        late = keeper.post(url, {**mine, "version": shown}, headers={"Accept-Language": "bg"})
    body = text(late)
    assert late.status_code == 409
    assert "was changed on another phone" not in body and "changed on another phone" not in body
    assert "Ana 6" in body and "Ana 5" in body  # both, side by side


def test_a_deal_resent_after_another_phone_undid_it_shows_both_and_keeps_either(keeper):
    game = record(create(keeper), THREE[:1])
    url = reverse("scoring:deal", args=[game.pk])
    form = {"deal": "2", "calls": "spades", "tricks_0": "5", "tricks_1": "3", "tricks_2": "8"}
    form["version"] = str(game.version)  # the page this deal was entered on
    assert keeper.post(url, form).status_code == 302
    services.deal_undo(game_id=game.pk, number=2, actor="other phone")
    late = keeper.post(url, form)  # the same form again: a retry, Back and send
    assert late.status_code == 409
    body = text(late)
    assert "Hand 2 was undone on another phone meanwhile" in body
    assert found(body, "clash-recorded") == "Not on the score sheet: undone on another phone."
    assert found(body, "clash-mine") == "Vera called spades. Tricks: Ana 5, Boris 3, Vera 8."
    assert "Leave it undone" in body
    assert live(game, 2) is None
    # Keep mine: recorded anew, against the version now shown.
    game.refresh_from_db()
    assert hidden(body, "version", url) == str(game.version)
    keep = {name: hidden(body, name, url) for name in ("deal", "calls", "version")}
    keep.update({f"tricks_{seat}": hidden(body, f"tricks_{seat}", url) for seat in range(3)})
    assert keeper.post(url, keep).status_code == 302
    assert live(game, 2) == (["spades"], [5, 3, 8])


def test_a_redeal_resent_after_another_phone_undid_it_is_kept_through_the_call_form(keeper):
    game = record(create(keeper), THREE)
    url = reverse("scoring:call", args=[game.pk])
    form = {"deal": "4", "calls": "", "call": "pass", "version": str(game.version)}
    assert keeper.post(url, form).status_code == 302
    services.deal_undo(game_id=game.pk, number=4)
    late = keeper.post(url, form)
    assert late.status_code == 409
    body = text(late)
    assert "Hand 4 (dealt again) was undone on another phone meanwhile" in body
    keep = {name: hidden(body, name, url) for name in ("deal", "calls", "version")}
    assert keeper.post(url, {**keep, "call": "pass"}).status_code == 302
    assert live(game, 4) == (["pass"], None)


def test_a_confirmation_left_open_never_confirms_a_result_changed_since(keeper):
    game = record(create(keeper), TIED_BLATO)
    services.last_tricks_add(game_id=game.pk, number=9, last_tricks=[2, 0])
    game.refresh_from_db()
    url = reverse("scoring:confirm", args=[game.pk])
    shown = hidden(page(keeper, game), "version", url)
    services.deal_correct(game_id=game.pk, number=1, calls=["spades"], tricks=[4, 7, 5])
    late = keeper.post(url, {"player": "1", "version": shown})
    assert late.status_code == 409
    assert f"the game changed after version {shown}" in text(late)
    game.refresh_from_db()
    assert not game.confirmed
    now = hidden(text(late), "version", url)
    assert now == str(game.version)
    assert keeper.post(url, {"player": "1", "version": now}).status_code == 302
    assert Game.objects.get(pk=game.pk).confirmed


def test_an_undo_page_left_open_never_undoes_a_deal_corrected_since(keeper):
    game = record(create(keeper), THREE)
    url = reverse("scoring:undo", args=[game.pk])
    confirm = text(keeper.get(url, {"deal": 3, "v": game.version}))
    posted = {"deal": hidden(confirm, "deal", url), "version": hidden(confirm, "version", url)}
    services.deal_correct(game_id=game.pk, number=3, calls=["clubs"], tricks=[7, 6, 3])
    late = keeper.post(url, posted)
    assert late.status_code == 409 and "out of date" in text(late)
    assert live(game, 3) == (["clubs"], [7, 6, 3])
    back = keeper.get(url, {"deal": 3, "v": posted["version"]})
    assert back.status_code == 409 and "Yes, undo" not in text(back)
    # A change to another deal since does not stop it: deal 3 is as the page showed it.
    fresh = text(keeper.get(url, {"deal": 3, "v": Game.objects.get(pk=game.pk).version}))
    posted = {"deal": hidden(fresh, "deal", url), "version": hidden(fresh, "version", url)}
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    assert keeper.post(url, posted).status_code == 302
    assert live(game, 3) is None


def test_the_organisers_confirmation_left_open_never_confirms_a_result_changed_since(
    event_game,  # noqa: F811
):
    game, organiser = event_game
    game = finish(game)
    url = manage_url(game, "manage_confirm")
    shown = hidden(text(organiser.get(manage_url(game))), "version", url)
    services.deal_correct(game_id=game.pk, number=9, calls=["spades"], tricks=[3, 8, 5])
    late = organiser.post(url, {"version": shown})
    assert late.status_code == 409 and f"after version {shown}" in text(late)
    assert not Game.objects.get(pk=game.pk).confirmed
    now = hidden(text(late), "version", url)
    assert organiser.post(url, {"version": now}).status_code == 302
    assert Game.objects.get(pk=game.pk).confirmed
