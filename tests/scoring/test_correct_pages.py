"""The table's pages driven without JavaScript: correcting any deal, two phones that entered
the same deal, the undo bound to its deal and version and the call kept in the address, who
a tie-break is about and the engine's refusals in the page's language."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import presenters, services
from scoring.models import DealEntry, GameChange

from .test_manage import event_game, finish, manage_url  # noqa: F401
from .test_views import create, hidden, page, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


# Blato, Ana deals first (see tests/scoring/test_corrections.py).
FIVE = [
    (["hearts"], [4, 7, 5]),
    (["spades"], [5, 3, 8]),
    (["clubs"], [8, 5, 3]),
    (["pass"], None),
    (["hearts"], [4, 7, 5]),
]


def record(game, deals):
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def correct_url(game, number, **query):
    url = reverse("scoring:correct", args=[game.pk, number])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def post_correction(client, game, number, calls, tricks=None, **extra):
    data = {"calls": calls, **extra}
    for seat, count in enumerate(tricks or []):
        data[f"tricks_{seat}"] = count
    return client.post(correct_url(game, number), data)


# --- correcting any deal --------------------------------------------------------------------------


def test_each_row_of_the_keepers_sheet_links_to_its_correction(keeper):
    game = record(create(keeper), FIVE)
    body = page(keeper, game)
    # Named as the players count hands: deal 4 was redealt, deal 5 is the fourth hand.
    labels = ["hand 1", "hand 2", "hand 3", "hand 4 (dealt again)", "hand 4"]
    for number, label in enumerate(labels, start=1):
        assert f'href="{correct_url(game, number)}"' in body
        assert f'aria-label="Correct {label}"' in body
    watcher = Client().get(reverse("scoring:table", args=[game.pk]))
    assert "/correct/" not in text(watcher)
    assert Client().get(correct_url(game, 2)).status_code == 403
    assert keeper.get(correct_url(game, 6)).status_code == 404


def test_the_correction_form_is_prefilled_and_corrects_three_hands_back(keeper):
    game = record(create(keeper), FIVE)
    form = keeper.get(correct_url(game, 2))
    assert form.status_code == 200 and "no-store" in form["Cache-Control"]
    body = text(form)
    assert "Vera called spades. Tricks: Ana 5, Boris 3, Vera 8." in body
    assert re.search(r'value="spades"[^>]*checked', body)
    # The trick pad of a hand's entry: chips tapped for the first two, the rest worked out.
    assert re.search(r'name="tricks_0" value="5"[^>]*checked', body)
    assert re.search(r'name="tricks_1" value="3"[^>]*checked', body)
    assert re.search(r'type="number" name="tricks_2"(?![^>]*value=)', body)
    assert '<form class="correct-form tricks-form"' in body
    response = post_correction(keeper, game, 2, "spades", [5, 8, 3])
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[game.pk]) + "#sheet-heading"
    entry = DealEntry.objects.get(game=game, number=2, undone_at__isnull=True)
    assert entry.tricks == [5, 8, 3] and entry.entered_by == "table"
    body = page(keeper, game)
    assert "Hand 2 is corrected." in body
    assert "Hand 2, corrected by table" in body
    assert "Ana 5, Boris 3, Vera 8</del> → <ins>" in body.replace("calls: spades; tricks: ", "")
    # Sent again: already so, nothing written twice.
    again = post_correction(keeper, game, 2, "spades", [5, 8, 3])
    assert again.status_code == 302
    assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 1
    assert "Hand 2 already had these values." in page(keeper, game)


def test_a_correction_that_breaks_a_later_deal_names_it_and_saves_nothing(keeper):
    game = record(create(keeper), FIVE)
    response = post_correction(keeper, game, 3, "pass")
    assert response.status_code == 400
    assert (
        "Nothing was saved. With hand 3 corrected, hand 4 (dealt again) no longer fits: Ana "
        "has no pass left. Correct hand 4 (dealt again) first, then hand 3." in text(response)
    )
    assert not DealEntry.objects.filter(undone_at__isnull=False).exists()
    with translation.override("bg"):
        bg = keeper.post(correct_url(game, 3), {"calls": "pass"}, headers={"Accept-Language": "bg"})
    assert bg.status_code == 400 and "seat 0 has no pass left" not in text(bg)


def test_the_form_checks_the_tricks_and_the_calls(keeper):
    game = record(create(keeper), FIVE)
    short = post_correction(keeper, game, 2, "spades", [5])
    assert short.status_code == 400 and "Tap each player&#x27;s tricks." in text(short)
    # Two tapped, the last is the rest (without JavaScript, worked out here).
    rest = post_correction(keeper, game, 2, "spades", [6, 3])
    assert rest.status_code == 302
    assert DealEntry.objects.get(game=game, number=2, undone_at__isnull=True).tricks == [6, 3, 7]
    wrong = post_correction(keeper, game, 2, "spades", [5, 3, 9])
    assert wrong.status_code == 400
    assert "The tricks add up to 17; they must add up to 16." in text(wrong)
    not_open = post_correction(keeper, game, 2, "miz", [5, 3, 8])
    assert not_open.status_code == 400
    # A redeal needs no tricks; typed ones are ignored.
    redeal = post_correction(keeper, game, 1, "pass", [1, 1, 14])
    assert redeal.status_code == 302
    assert DealEntry.objects.get(game=game, number=1, undone_at__isnull=True).tricks is None


def test_a_confirmed_result_is_reopened_by_an_organiser_first(event_game):  # noqa: F811
    game, organiser = event_game
    game = finish(game)
    services.game_confirm(game_id=game.pk, actor="Ana")
    locked = organiser.get(correct_url(game, 4, back="manage"))
    assert locked.status_code == 200
    assert "The result is confirmed and locked." in text(locked)
    assert 'name="calls"' not in text(locked)
    refused = organiser.post(correct_url(game, 4), {"calls": "spades"})
    assert refused.status_code == 409
    manage = text(organiser.get(manage_url(game)))
    assert "To correct a deal, reopen the result first." in manage and "/correct/" not in manage
    organiser.post(manage_url(game, "manage_reopen"), {"reopen-reason": "deal 4 swapped"})
    manage = text(organiser.get(manage_url(game)))
    link = correct_url(game, 4, back="manage")
    assert f'href="{link}"' in manage
    entry = game.entries.get(number=4)
    swapped = [entry.tricks[1], entry.tricks[0], entry.tricks[2]]
    response = post_correction(organiser, game, 4, "spades", swapped, back="manage")
    assert response.status_code == 302 and response["Location"] == manage_url(game)
    manage = text(organiser.get(manage_url(game)))
    assert "Hand 4 is corrected." in manage
    assert "replaced by a correction" in manage
    change = game.changes.get(action=GameChange.Action.DEAL_CORRECTED)
    assert change.actor == "olga"
    assert "Deal corrected" in manage and " → " in manage


# --- two phones on one deal -----------------------------------------------------------------------


def test_two_phones_see_both_versions_and_keep_either(keeper):
    game = create(keeper)
    other = Client()
    other.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    late = other.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "5", "tricks_1": "6", "tricks_2": "5"},
    )
    assert late.status_code == 409
    body = text(late)
    assert "Hand 1 was already recorded on another phone" in body
    assert "already recorded with other values" not in body
    recorded = re.search(r'class="clash-recorded">([^<]*)<', body).group(1)
    mine = re.search(r'class="clash-mine">([^<]*)<', body).group(1)
    assert recorded == "Boris called hearts. Tricks: Ana 4, Boris 7, Vera 5."
    assert mine == "Boris called hearts. Tricks: Ana 5, Boris 6, Vera 5."
    action = reverse("scoring:correct", args=[game.pk, 1])
    assert hidden(body, "calls", action) == "hearts"
    assert hidden(body, "tricks_1", action) == "6"
    # The same values again are no clash: recorded once, answered as done.
    same = other.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "4", "tricks_1": "7", "tricks_2": "5"},
    )
    assert same.status_code == 302
    # Keep mine: one tap, a correction of deal 1.
    keep = other.post(
        action, {"calls": "hearts", "tricks_0": "5", "tricks_1": "6", "tricks_2": "5"}
    )
    assert keep.status_code == 302
    assert DealEntry.objects.get(game=game, undone_at__isnull=True).tricks == [5, 6, 5]


def test_a_redeal_entered_on_two_phones_shows_both(keeper):
    game = create(keeper)
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    late = keeper.post(
        reverse("scoring:call", args=[game.pk]), {"deal": "1", "calls": "", "call": "pass"}
    )
    assert late.status_code == 409
    assert "Boris passed. Redeal." in text(late)


# --- the undo and the call in the address (as in Chromium, here without one) ----------------------


def test_htmx_answers_keep_the_call_in_the_address(keeper):
    game = create(keeper)
    url = reverse("scoring:call", args=[game.pk])
    answer = keeper.post(url, {"deal": "1", "calls": "", "call": "hearts"}, HTTP_HX_REQUEST="true")
    table = reverse("scoring:table", args=[game.pk])
    assert answer["HX-Replace-Url"] == f"{table}?deal=1&calls=hearts"
    done = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "4", "tricks_1": "7", "tricks_2": "5"},
        HTTP_HX_REQUEST="true",
    )
    # A recorded deal is a new step of the history (Back lands on the keeper's page).
    assert done["HX-Push-Url"] == table
    plain = keeper.post(url, {"deal": "2", "calls": "", "call": "spades"})
    assert plain["Location"] == f"{table}?deal=2&calls=spades#now"


# --- tie-breaks and refusals in the page's language -----------------------------------------------


def test_the_tie_break_question_names_who_is_tied(keeper):
    game = create(keeper)
    for number in range(1, 10):
        tricks = [[3, 8, 5], [5, 3, 8], [8, 5, 3]][(number - 1) % 3]
        services.deal_record(game_id=game.pk, number=number, calls=["spades"], tricks=tricks)
    body = page(keeper, game)
    assert (
        "Ana, Boris and Vera are level on totals (0) and on the points of the last hand: who "
        "won the last tricks of the last hand decides their places." in body
    )


def test_engine_refusals_on_pages_are_worded_with_names(keeper):
    game = record(create(keeper), [(["pass"], None)])
    # Boris has used his pass; a page left open from before posts another with tricks.
    refused = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "2", "calls": "pass", "tricks_0": "4", "tricks_1": "7", "tricks_2": "5"},
    )
    assert refused.status_code == 400
    assert "Boris has no pass left." in text(refused)
    assert "seat 1 has no pass left" not in text(refused)


def test_short_names_keep_players_apart():
    assert presenters.short_names(["Ana Petrova", "Boris", "Vera"]) == ["Ana", "Boris", "Vera"]
    assert presenters.short_names(["Ana Petrova", "Ana Ivanova", "Vera"]) == [
        "Ana P.",
        "Ana I.",
        "Vera",
    ]
    assert presenters.short_names(["Ana Petrova", "Ana Popova", "Vera"]) == [
        "Ana Petrova",
        "Ana Popova",
        "Vera",
    ]
    assert presenters.short_names(["Александра Константинова-Петрова", "Bo", "Vi"])[0] == (
        "Александра"
    )
    assert presenters.short_names(["Maximilianus Rex", "Bo", "Vi"])[0] == "Maximili."
