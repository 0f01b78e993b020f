"""A keeper's page never goes on showing an outdated game: it asks every few seconds with the
version it shows (the watchers' one-query check: 204 while unchanged), and when another phone,
an organiser or a substitution moved the game on, it gets the page as it is now with what
changed meanwhile, in words. A tap's own answer says what other phones did too."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.models import Game
from scoring.views.offline import is_cached_page

from .test_views import create, page, text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
THREE = [(["hearts"], [4, 7, 5]), (["spades"], [5, 3, 8]), (["clubs"], [8, 5, 3])]


def record(game, deals):
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)
    game.refresh_from_db()
    return game


def poll_url(body: str) -> str:
    """The address the keeper's page asks every few seconds."""
    found = re.search(r'class="keeper-poll"[^>]*data-hx-get="([^"]+)"', body)
    assert found, "the keeper's page does not ask whether the game moved on"
    return found.group(1).replace("&amp;", "&")


def meanwhile(body: str) -> list[str]:
    block = re.search(r'<div class="notice meanwhile"[^>]*>(.*?)</div>', body, re.S)
    if block is None:
        return []
    return [re.sub(r"\s+", " ", line).strip() for line in re.findall(r"<li>(.*?)</li>", block[1])]


@pytest.fixture
def keeper():
    return Client()


def test_the_keepers_page_asks_the_cheap_versioned_check_and_hears_nothing_while_unchanged(
    keeper, django_assert_max_num_queries
):
    game = record(create(keeper), THREE)
    url = poll_url(page(keeper, game))
    assert f"v={game.version}" in url
    with django_assert_max_num_queries(1):
        answer = keeper.get(url, **HTMX)
    assert answer.status_code == 204
    assert "no-cache" in answer["Cache-Control"]


def test_keep_mine_on_another_phone_reaches_the_first_phone_at_once_with_a_notice(keeper):
    game = record(create(keeper), THREE)
    url = poll_url(page(keeper, game))
    # The second phone kept its own hand 3 over this one's.
    services.deal_correct(
        game_id=game.pk, number=3, calls=["clubs"], tricks=[7, 5, 4], actor="table"
    )
    answer = keeper.get(url, **HTMX)
    assert answer.status_code == 200
    body = text(answer)
    assert meanwhile(body) == [
        "Hand 3 was corrected on another phone: calls: clubs; tricks: Ana 8, Boris 5, Vera 3 "
        "→ calls: clubs; tricks: Ana 7, Boris 5, Vera 4."
    ]
    game.refresh_from_db()
    assert f'data-version="{game.version}"' in body
    assert f"v={game.version}&" in poll_url(body)
    assert keeper.get(poll_url(body), **HTMX).status_code == 204


def test_a_substitution_and_an_organisers_correction_reach_the_keepers_page(keeper):
    game = record(create(keeper), THREE[:2])
    url = poll_url(page(keeper, game))
    services.seat_substitute(game_id=game.pk, seat=1, name="Dora", actor="maria", reason="ill")
    services.deal_correct(
        game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5], actor="maria"
    )
    body = text(keeper.get(url, **HTMX))
    assert meanwhile(body) == [
        "Dora plays in place of Boris from hand 3 on (by maria).",
        "Hand 1 was corrected by maria: calls: hearts; tricks: Ana 4, Dora 7, Vera 5 → "
        "calls: hearts; tricks: Ana 5, Dora 6, Vera 5.",
    ]
    # The seat that left calls no more: the page shows the substitute.
    assert "Boris" not in re.sub(r'<div class="notice meanwhile".*?</div>', "", body, flags=re.S)


def test_the_call_chosen_stays_chosen_when_the_page_is_brought_up_to_date(keeper):
    game = record(create(keeper), THREE[:1])
    step = reverse("scoring:table", args=[game.pk]) + "?deal=2&calls=spades"
    url = poll_url(text(keeper.get(step)))
    assert "deal=2" in url and "calls=spades" in url
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    body = text(keeper.get(url, **HTMX))
    assert 'class="tricks-form"' in body
    assert len(meanwhile(body)) == 1


def test_a_taps_answer_says_what_other_phones_did_but_not_its_own(keeper):
    game = record(create(keeper), THREE[:1])
    shown = game.version
    services.deal_correct(game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5])
    deal = reverse("scoring:deal", args=[game.pk])
    mine = {"deal": 2, "calls": "spades", "tricks_0": 5, "tricks_1": 3, "version": shown}
    body = text(keeper.post(deal, mine, **HTMX))
    assert meanwhile(body) == [
        "Hand 1 was corrected on another phone: calls: hearts; tricks: Ana 4, Boris 7, Vera 5 "
        "→ calls: hearts; tricks: Ana 5, Boris 6, Vera 5."
    ]
    # Without JavaScript, the page after the redirect says it.
    game.refresh_from_db()
    services.deal_undo(game_id=game.pk, number=2)
    services.deal_record(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 3, 8])
    game.refresh_from_db()
    later = {"deal": 3, "calls": "clubs", "tricks_0": 8, "tricks_1": 5, "version": shown + 2}
    response = keeper.post(deal, later)
    assert response.status_code == 302
    body = text(keeper.get(response["Location"]))
    assert "Hand 2 was undone on another phone." in body
    assert "Hand 2 was recorded on another phone: calls: spades; tricks: Ana 5, Boris 3" in body


def test_the_keepers_poll_is_never_a_watchers_nor_the_offline_copy_of_the_page(keeper):
    game = record(create(keeper), THREE[:1])
    url = poll_url(page(keeper, game))
    # Not the table page's own address: the service worker keeps those answers as the
    # page's offline copy, and a poll's (a 204, a part) must never replace it.
    assert not is_cached_page(url.split("?")[0])
    services.deal_record(game_id=game.pk, number=2, calls=["spades"], tricks=[5, 3, 8])
    # A watcher asking as the keeper gets the watchers' partial: no forms, no notice.
    watcher = text(Client().get(url, **HTMX))
    assert meanwhile(watcher) == [] and "keeper-poll" not in watcher
    assert 'class="call-form"' not in watcher
    # The keeper's answer is its own, never kept for anyone else.
    answer = keeper.get(url, **HTMX)
    assert "no-store" in answer["Cache-Control"] and "Cookie" in answer["Vary"]
    assert 'class="call-form"' in text(answer) and len(meanwhile(text(answer))) == 1
    again = text(Client().get(url, **HTMX))
    assert 'class="call-form"' not in again


def test_the_notice_is_written_in_bulgarian(keeper):
    game = record(create(keeper), THREE)
    url = poll_url(page(keeper, game))
    services.deal_undo(game_id=game.pk, number=3)
    with translation.override("bg"):
        body = text(keeper.get(url, HTTP_ACCEPT_LANGUAGE="bg", **HTMX))
    assert meanwhile(body) == ["Раздаване 3 беше отменено на друг телефон."]
    assert Game.objects.get(pk=game.pk).version > 0
