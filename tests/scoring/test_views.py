"""The table pages, driven the way a phone without JavaScript drives them: every step is a
form post answered by a redirect, and the next form is read from the page that follows."""

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game

pytestmark = pytest.mark.django_db

NAMES = {"player_0": "Ana", "player_1": "Boris", "player_2": "Vera"}


# --- helpers ----------------------------------------------------------------------------------


def text(response) -> str:
    return response.content.decode()


def hidden(page: str, name: str, form_action: str) -> str:
    """The value of a hidden input inside the form posting to `form_action`."""
    action = rf'action="{re.escape(form_action)}(?:#[^"]*)?"'  # a fragment only scrolls the page
    form = re.search(rf"<form[^>]*{action}.*?</form>", page, re.S)
    assert form, f"no form posting to {form_action}"
    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', form.group(0))
    assert match, f"no hidden {name} in the form posting to {form_action}"
    return html_lib.unescape(match.group(1))


def create(client, **fields) -> Game:
    data = {"ruleset": "blato", "first_dealer": "0", "exchange_order": "target", **NAMES}
    data.update(fields)
    response = client.post(reverse("scoring:game_new"), data)
    assert response.status_code == 302, text(response)
    game = Game.objects.latest("pk")
    assert response["Location"] == reverse("scoring:table", args=[game.pk])
    return game


def page(client, game, **extra):
    response = client.get(reverse("scoring:table", args=[game.pk]), **extra)
    assert response.status_code == 200
    return text(response)


def call(client, game, name):
    """Tap a call button on the page as it is now (no JS); follow the redirect."""
    url = reverse("scoring:call", args=[game.pk])
    current = client.get(
        reverse("scoring:table", args=[game.pk])
        + (client.next_query if getattr(client, "next_query", "") else "")
    )
    body = text(current)
    assert f'name="call" value="{name}"' in body, f"no {name} button"
    data = {
        "deal": hidden(body, "deal", url),
        "calls": hidden(body, "calls", url),
        "call": name,
    }
    response = client.post(url, data)
    assert response.status_code == 302, text(response)
    location = response["Location"]
    client.next_query = location[location.index("?") :] if "?" in location else ""
    return response


def tricks(client, game, counts, expect=302):
    """Fill in the tricks form of the page as it is now."""
    url = reverse("scoring:deal", args=[game.pk])
    body = text(client.get(reverse("scoring:table", args=[game.pk]) + client.next_query))
    data = {"deal": hidden(body, "deal", url), "calls": hidden(body, "calls", url)}
    data.update({f"tricks_{seat}": count for seat, count in enumerate(counts)})
    response = client.post(url, data)
    assert response.status_code == expect, text(response)
    if response.status_code == 302:
        client.next_query = ""
    return response


def play(client, game, calls, counts=None):
    for name in calls:
        call(client, game, name)
    if counts is not None:
        tricks(client, game, counts)


@pytest.fixture
def keeper():
    client = Client()
    client.next_query = ""
    return client


# --- a new game, keeper rights ----------------------------------------------------------------


def test_new_game_form_lists_the_rulesets_and_directions(client):
    response = client.get(reverse("scoring:game_new"))
    body = text(response)
    assert response.status_code == 200
    for ruleset in ("blato", "three-five-eight", "sergeant-major", "nine-five-two"):
        assert f'value="{ruleset}"' in body
    assert "counter-clockwise" in body and "clockwise" in body
    for seat in range(3):
        assert f'<label for="id_player_{seat}">' in body


def test_create_with_a_chosen_dealer_makes_the_creator_keeper(keeper):
    game = create(keeper, first_dealer="2")
    assert game.first_dealer == 2
    assert game.players == ["Ana", "Boris", "Vera"]
    held = keeper.session[f"keeper:{game.pk}"]
    assert isinstance(held, str) and game.secret not in held
    body = page(keeper, game)
    # Vera deals, so Ana (the next seat) calls first with a target of 8.
    assert re.search(r"Vera</span>.*?deals", body, re.S)
    assert "Ana calls" in body
    assert 'name="call" value="hearts"' in body


def test_create_with_a_random_dealer(keeper):
    dealers = {create(keeper, first_dealer="random").first_dealer for _ in range(12)}
    assert dealers <= {0, 1, 2}
    assert len(dealers) > 1  # 12 draws all alike: 1 in 3**11


def test_create_with_options_and_errors(keeper):
    game = create(keeper, ruleset="blato", hands="3", pass_turns="on")
    assert game.options == {"hands": 3, "pass_turns": True}
    response = keeper.post(
        reverse("scoring:game_new"),
        {"ruleset": "three-five-eight", "first_dealer": "random", "pass_turns": "on", **NAMES},
    )
    assert response.status_code == 400
    assert "3-5-8 has no pass." in text(response)
    response = keeper.post(
        reverse("scoring:game_new"), {"ruleset": "blato", "first_dealer": "0", "player_0": "A"}
    )
    assert response.status_code == 400
    assert "Fill this in." in text(response)
    assert "This field is required." not in text(response)
    assert Game.objects.count() == 1


def test_keep_link_grants_the_right_and_a_wrong_secret_is_refused(keeper):
    game = create(keeper)
    other = Client()
    assert 'action="/games/' not in page(other, game)
    wrong = other.get(reverse("scoring:keep", args=[game.pk, "not-the-secret"]))
    assert wrong.status_code == 403
    assert game.secret not in text(wrong)
    assert other.post(reverse("scoring:call", args=[game.pk]), {"call": "pass"}).status_code == 403
    right = other.get(reverse("scoring:keep", args=[game.pk, game.secret]))
    assert right.status_code == 302
    assert right["Location"] == reverse("scoring:table", args=[game.pk])
    assert "no-store" in right["Cache-Control"]
    assert f'action="{reverse("scoring:call", args=[game.pk])}"' in page(other, game)


def test_the_keeper_sees_the_keep_link_and_a_watcher_never_sees_the_secret(keeper):
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    assert game.secret in page(keeper, game)  # inside "Give the keeping to another phone"
    watcher = Client()
    urls = [
        reverse("scoring:table", args=[game.pk]),
        reverse("scoring:sheet", args=[game.pk]) + "?v=0",
        reverse("scoring:qr", args=[game.pk]),
        reverse("scoring:referee_game", args=[game.pk]),
        reverse("scoring:referee") + "?ask=return&return-hand=AH&return-given=KH",
        reverse("scoring:undo", args=[game.pk]),
        reverse("scoring:keep", args=[game.pk, "guess"]),
        reverse("scoring:game_new"),
    ]
    for url in urls:
        for extra in ({}, {"HTTP_HX_REQUEST": "true"}, {"HTTP_ACCEPT_LANGUAGE": "bg"}):
            response = watcher.get(url, **extra)
            assert response.status_code in (200, 204, 403), url
            assert game.secret not in response.content.decode("utf-8", "replace"), url
    body = page(watcher, game)
    assert "<form" not in body.replace('<form class="language-switch"', "")
    assert "hx-post" not in body
    assert "Give the keeping" not in body
    assert 'hx-trigger="every 5s"' in body


# --- whole games through the forms ------------------------------------------------------------


def test_a_whole_blato_game_with_a_pass_no_trump_and_a_tie_break(keeper):
    game = create(keeper)
    # Deal 1: Boris (the caller) passes: the deal is redealt and recorded at once.
    play(keeper, game, ["pass"])
    body = page(keeper, game)
    assert "Redeal: Boris passed." in body
    # One numbering, the players': the hand after a redeal is still the first.
    assert '<h2 id="deal-heading">Hand 1 of 9</h2>' in body
    assert "Record hand 1" in page(keeper, game, QUERY_STRING="deal=2&calls=hearts")
    assert 'value="pass"' not in body  # Boris has used his pass ...
    assert "pass used" in body
    play(keeper, game, ["hearts"], [4, 7, 5])  # Ana +1, Boris −1
    body = page(keeper, game)
    # Hand 2: Ana was up one, Boris down one; only if a suit is called.
    assert "Ana gives 1 card to Boris" in body
    assert "not after no-trump" in body
    call(keeper, game, "no-trump")
    body = text(keeper.get(reverse("scoring:table", args=[game.pk]) + keeper.next_query))
    assert "Vera called no-trump." in body
    assert "no card exchange this hand" in body
    tricks(keeper, game, [4, 4, 8])  # targets 5 3 8: Ana −1, Boris +1: totals level again
    for calls, counts in [
        (["spades"], [8, 5, 3]),
        (["clubs"], [3, 8, 5]),
        (["diamonds"], [5, 3, 8]),
        (["spades"], [8, 5, 3]),
        (["hearts"], [3, 8, 5]),
        (["spades"], [5, 3, 8]),
        (["spades"], [8, 5, 3]),
    ]:
        play(keeper, game, calls, counts)
    body = page(keeper, game)
    assert "The game is over after 9 hands." in body
    assert "Who won the last tricks?" in body
    assert "Trick 16 (the last)" in body
    assert "Trick 15" not in body  # only as many as asked
    assert "Confirm the result" not in body  # not settled yet
    url = reverse("scoring:last_tricks", args=[game.pk])
    response = keeper.post(url, {"deal": hidden(body, "deal", url), "count": "1", "trick_0": "2"})
    assert response.status_code == 302
    body = page(keeper, game)
    assert "Trick 15" in body  # Vera is first; Ana and Boris still need one more
    response = keeper.post(
        url, {"deal": hidden(body, "deal", url), "count": "2", "trick_0": "2", "trick_1": "0"}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.placings == [2, 0, 1]
    body = page(keeper, game)
    assert "Vera is ahead of Ana: Vera won trick 16 of the last hand." in body
    assert "Ana is ahead of Boris: Ana won trick 15 of the last hand." in body
    assert re.search(r'class="place">1\.</span> <span class="name">Vera', body)
    # The sheet: ten deals, the redeal among them.
    assert body.count('<tr class="deal-row redeal') == 1
    assert "no-trump · Vera" in body

    confirm = reverse("scoring:confirm", args=[game.pk])
    response = keeper.post(confirm, {"player": "1"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.confirmed and game.confirmed_by == "Boris"
    body = page(keeper, game)
    assert "Confirmed by Boris: the result is locked." in body
    assert f'action="{confirm}"' not in body and "Undo the last deal" not in body
    # Locked: further posts are refused with the service's message, never a 500.
    refused = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "11", "calls": "spades", "tricks_0": "3", "tricks_1": "8", "tricks_2": "5"},
    )
    assert refused.status_code == 409
    assert "the result is confirmed: no more deals" in text(refused)
    refused = keeper.post(url, {"deal": "10", "count": "1", "trick_0": "1"})
    assert refused.status_code == 409
    assert "the result is confirmed" in text(refused)
    game.refresh_from_db()
    refused = keeper.post(
        reverse("scoring:undo", args=[game.pk]), {"deal": "10", "version": game.version}
    )
    assert refused.status_code == 409
    assert "reopen it before undoing" in text(refused)


def test_blato_pass_turns_calls_one_by_one(keeper):
    game = create(keeper, pass_turns="on")
    play(keeper, game, ["pass"])
    body = text(keeper.get(reverse("scoring:table", args=[game.pk]) + keeper.next_query))
    assert "Boris passed." in body and "Vera calls" in body
    assert hidden(body, "calls", reverse("scoring:call", args=[game.pk])) == "pass"
    play(keeper, game, ["pass", "pass"])  # Vera, then Ana the dealer: a redeal, at once
    game.refresh_from_db()
    assert game.entries.get().calls == ["pass", "pass", "pass"]
    assert "Redeal: everyone passed." in page(keeper, game)
    # Nobody has a pass left: the caller must call.
    assert 'value="pass"' not in page(keeper, game)
    play(keeper, game, ["diamonds"], [2, 9, 5])
    game.refresh_from_db()
    assert game.totals == [-1, 1, 0]


def test_calls_that_no_longer_fit_are_dropped(keeper):
    game = create(keeper, pass_turns="on")
    url = reverse("scoring:table", args=[game.pk])
    body = text(keeper.get(url + "?deal=1&calls=pass,pass,pass,pass"))
    assert "Those calls no longer fit this deal" in body
    assert "Boris calls" in body
    body = text(keeper.get(url + "?deal=7&calls=pass"))
    assert "Those calls no longer fit this deal" in body
    response = keeper.post(
        reverse("scoring:call", args=[game.pk]), {"deal": "1", "calls": "", "call": "miz"}
    )
    assert response.status_code == 400
    assert "That call is not open now" in text(response)


def test_a_three_five_eight_game_to_ten_points(keeper):
    game = create(keeper, ruleset="three-five-eight", first_dealer="1")
    body = page(keeper, game)
    assert "Boris calls" in body  # the dealer calls
    assert 'value="no-trump"' not in body and 'value="pass"' not in body
    assert "Play goes clockwise" in body
    play(keeper, game, ["hearts"], [5, 8, 3])
    body = page(keeper, game)
    assert "Before the call:" in body
    play(keeper, game, ["clubs"], [11, 2, 3])
    play(keeper, game, ["spades"], [12, 2, 2])
    game.refresh_from_db()
    assert game.result == Game.Result.FINISHED
    assert max(game.totals) >= 10
    body = page(keeper, game)
    assert "a total reached 10 points" in body
    assert re.search(r'class="place">1\.</span> <span class="name">Ana</span>', body)
    assert "Who won the last tricks?" not in body
    assert "Confirm the result" in body


def test_tricks_are_checked_next_to_the_form(keeper):
    game = create(keeper)
    call(keeper, game, "hearts")
    response = tricks(keeper, game, [4, 4, 4], expect=400)
    assert "The tricks add up to 12; they must add up to 16." in text(response)
    # Without JavaScript the page comes back scrolled to the form and its error.
    deal_url = reverse("scoring:deal", args=[game.pk])
    assert (
        f'<form id="tricks" class="tricks-form" method="post" action="{deal_url}#tricks"'
        in text(response)
    )
    # The sum's error sits above the three counts, each of which points at it.
    assert '<div id="tricks-error" class="error" role="alert">' in text(response)
    # The pad: chips (radios) for the first two seats, a box for the rest.
    inputs = re.findall(r'<input type="(?:radio|number)" name="tricks_\d"[^>]*>', text(response))
    assert len(inputs) == 2 * 17 + 1
    assert all(
        'aria-invalid="true"' in i and 'aria-describedby="tricks-error"' in i for i in inputs
    )
    response = tricks(keeper, game, [4, 13, -1], expect=400)
    # A field's own error comes right after that field, which alone is marked invalid.
    field = re.search(
        r'<input type="number" name="tricks_2"[^>]*>\s*<ul class="errorlist"[^>]*>'
        r"<li>([^<]*)</li>",
        text(response),
    )
    assert field and field.group(1) == "Tricks are whole numbers from 0 to 16."
    assert 'aria-describedby="tricks-error"' not in text(response)
    assert not game.entries.exists()


def test_undo_asks_once_then_undoes(keeper):
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    play(keeper, game, ["spades"], [5, 3, 8])
    game.refresh_from_db()
    url = reverse("scoring:undo", args=[game.pk])
    bound = f"{url}?deal=2&amp;v={game.version}"
    assert f'href="{bound}"' in page(keeper, game)
    confirm = keeper.get(url, {"deal": 2, "v": game.version})
    assert confirm.status_code == 200
    assert confirm["Cache-Control"].startswith("no-store") or "no-store" in confirm["Cache-Control"]
    assert "Hand 2: Vera called spades; tricks Ana 5, Boris 3, Vera 8." in text(confirm)
    assert "Yes, undo hand 2" in text(confirm)
    assert game.entries.filter(undone_at__isnull=True).count() == 2  # the GET changed nothing
    posted = {"deal": hidden(text(confirm), "deal", url)}
    posted["version"] = hidden(text(confirm), "version", url)
    response = keeper.post(url, posted)
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:table", args=[game.pk])
    assert game.entries.filter(undone_at__isnull=True).count() == 1
    # A second tap of the same button does not undo deal 1 too.
    again = keeper.post(url, posted)
    assert again.status_code == 409
    assert "out of date" in text(again) and "Yes, undo" not in text(again)
    assert game.entries.filter(undone_at__isnull=True).count() == 1
    # Back to the confirmation: out of date, no button to tap.
    back = keeper.get(url, {"deal": 2, "v": posted["version"]})
    assert back.status_code == 409
    assert "out of date" in text(back) and "Yes, undo deal 1" not in text(back)
    assert "<form" not in text(back).split("<main")[1].split("No, back to the table")[0]
    assert game.entries.filter(undone_at__isnull=True).count() == 1
    assert Client().get(url).status_code == 403


# --- htmx, polling, conditional GET -----------------------------------------------------------


def test_htmx_gets_the_partial_without_the_layout(keeper):
    game = create(keeper)
    response = keeper.get(reverse("scoring:table", args=[game.pk]), HTTP_HX_REQUEST="true")
    body = text(response)
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="game"')
    assert "<html" not in body and "site-header" not in body
    assert "HX-Request" in response["Vary"]
    response = keeper.post(
        reverse("scoring:call", args=[game.pk]),
        {"deal": "1", "calls": "", "call": "hearts"},
        HTTP_HX_REQUEST="true",
    )
    body = text(response)
    assert response.status_code == 200 and "<html" not in body
    assert 'class="tricks-form"' in body
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "1", "tricks_1": "1", "tricks_2": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200  # htmx swaps only 2xx: the error is in the partial
    assert "must add up to 16" in text(response)
    response = keeper.post(
        reverse("scoring:deal", args=[game.pk]),
        {"deal": "1", "calls": "hearts", "tricks_0": "4", "tricks_1": "7", "tricks_2": "5"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "Hand 2 of 9" in text(response)


def test_the_poll_answers_204_until_the_game_changes(keeper):
    game = create(keeper)
    url = reverse("scoring:sheet", args=[game.pk])
    watcher = Client()
    assert watcher.get(f"{url}?v={game.version}").status_code == 204
    play(keeper, game, ["hearts"], [4, 7, 5])
    response = watcher.get(f"{url}?v={game.version}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = text(response)
    assert "<html" not in body and "hearts · Boris" in body
    game.refresh_from_db()
    assert f"?v={game.version}" in body  # the next poll asks about the new version
    assert "hx-post" not in body and "<form" not in body
    assert watcher.get(f"{url}?v={game.version}").status_code == 204
    assert watcher.get(reverse("scoring:sheet", args=[999])).status_code == 404


def test_the_page_answers_304_to_a_matching_etag(keeper):
    game = create(keeper)
    url = reverse("scoring:table", args=[game.pk])
    watcher = Client()
    first = watcher.get(url)
    etag = first["ETag"]
    second = watcher.get(url, HTTP_IF_NONE_MATCH=etag)
    assert second.status_code == 304
    assert second["ETag"] == etag
    assert keeper.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200  # keepers see more
    play(keeper, game, ["hearts"], [4, 7, 5])
    assert watcher.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_qr_code_of_the_watch_link(keeper):
    game = create(keeper)
    response = Client().get(reverse("scoring:qr", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content


def test_query_counts(keeper, django_assert_max_num_queries):
    game = create(keeper)
    for calls, counts in [(["hearts"], [4, 7, 5]), (["spades"], [5, 3, 8]), (["pass"], None)]:
        play(keeper, game, calls, counts)
    game.refresh_from_db()
    table = reverse("scoring:table", args=[game.pk])
    sheet = reverse("scoring:sheet", args=[game.pk])
    with django_assert_max_num_queries(4):  # session, game, live deals, its place (an event's?)
        assert keeper.get(table).status_code == 200
    watcher = Client()
    with django_assert_max_num_queries(3):  # game, live deals, its place
        assert watcher.get(table).status_code == 200
    with django_assert_max_num_queries(1):  # the game's version
        assert watcher.get(f"{sheet}?v={game.version}").status_code == 204
    with django_assert_max_num_queries(3):  # the version; then, rendered once, game and deals
        assert watcher.get(f"{sheet}?v=0").status_code == 200
    with django_assert_max_num_queries(1):  # the version: the partial is kept
        assert watcher.get(f"{sheet}?v=0").status_code == 200


# --- the referee's help -----------------------------------------------------------------------


def test_referee_answers_from_the_engine(keeper):
    game = create(keeper)
    url = reverse("scoring:referee_game", args=[game.pk])
    assert f'href="{url}"' in page(keeper, game)
    body = text(keeper.get(url, {"ask": "return", "return-hand": "AH 9H 2C", "return-given": "QH"}))
    assert "Return A♥." in body
    body = text(keeper.get(url, {"ask": "return", "return-hand": "9H 2C", "return-given": "qh"}))
    assert "Return the same card: Q♥." in body
    # Blato: void in the led suit, trumps must be played.
    query = {"ask": "play", "play-contract": "hearts", "play-hand": "2H 3C 4D", "play-trick": "KS"}
    body = text(keeper.get(url, query))
    answer = body.split("You may play this card:")[1]  # the card picker shows every card
    assert "2♥" in answer and "3♣" not in answer
    assert "So far the trick goes to K♠, card 1 in the order played." in body
    query["play-trick"] = "KS 3H"
    body = text(keeper.get(url, query))
    assert "So far the trick goes to 3♥, card 2 in the order played." in body
    # Elsewhere only following suit is compulsory.
    generic = reverse("scoring:referee")
    body = text(keeper.get(generic, {**query, "ruleset": "three-five-eight"}))
    assert "You may play any of your cards." in body


def test_referee_explains_bad_card_text(client):
    url = reverse("scoring:referee")
    response = client.get(url, {"ask": "return", "return-hand": "AH 1X", "return-given": "QH"})
    assert response.status_code == 400
    assert "“1X” is not a card" in text(response)
    response = client.get(url, {"ask": "return", "return-hand": "AH AH", "return-given": "QH"})
    assert "A card is written twice" in text(response)
    query = {"ask": "play", "play-contract": "hearts", "play-hand": "2H", "play-trick": "2H"}
    assert "2H is both in your cards and in the trick." in text(client.get(url, query))
    query["play-trick"] = "3H 4H 5H"
    assert "At most 2 cards" in text(client.get(url, query))


# --- Bulgarian --------------------------------------------------------------------------------


def test_the_table_page_in_bulgarian(keeper):
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    body = page(keeper, game, HTTP_ACCEPT_LANGUAGE="bg")
    assert '<html lang="bg">' in body
    assert "Блато" in body
    assert "купа (Борис)" not in body  # names are not translated ...
    assert "купа · Boris" in body  # ... calls are
    assert ">купа</span>" in body and ">пика</span>" in body and ">без коз</span>" in body
    assert ">пас</span>" in body
    assert "Лист с резултатите" in body
    assert "Раздаване 2" in body
    assert "Ana дава 1 карта на Boris" in body
    # No English word shown: the calls' names are only values of buttons and the data the
    # keeper's offline scripts read (JSON, not shown).
    data = r'<script id="[\w-]+" type="application/json">.*?</script>'
    shown = re.sub(data, "", body, flags=re.S)
    assert "hearts" not in shown.replace('value="hearts"', "")
    new = text(keeper.get(reverse("scoring:game_new"), HTTP_ACCEPT_LANGUAGE="bg"))
    for name in ("Блато", "Сержант-майор", "Сержант-майор (редуващ)", "9-5-2"):
        assert name in new
    referee = text(
        keeper.get(
            reverse("scoring:referee"),
            {"ask": "play", "play-contract": "hearts", "play-hand": "2H 3C"},
            HTTP_ACCEPT_LANGUAGE="bg",
        )
    )
    assert "Коз: купи." in referee
