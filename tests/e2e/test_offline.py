"""A dropped connection loses nothing, in the browser at 390×844, in English and Bulgarian.

The keeper plays a Blato game; the connection is cut for three hands: each is kept on the
phone (the banner counts 1, 2, 3, the sheet shows them waiting), the page reloads offline
from the service worker's copy, and when the connection returns the hands reach the server
once each, in order. Then a conflict: another phone records the same deal while this one is
offline; back online, both versions are shown side by side and "Keep mine" keeps the
keeper's.

The automatic screen checks (every_screen) are paused while hands wait on the phone: their
copies of the page, opened online with this phone's storage, would send the waiting hands
themselves. The screens before and after are checked by name.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from scoring import services
from scoring.models import DealEntry, Game

from . import checks, every_screen
from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)


def banner_text(language: str, count: int) -> str:
    """The banner's words as the catalogue has them (the Bulgarian: var/po/offline.po)."""
    with translation.override(language):
        template = ngettext("{n} hand waiting to send", "{n} hands waiting to send", count)
    return template.replace("{n}", str(count))


def start(page, live_server) -> Game:
    page.goto(live_server.url + "/games/new/")
    for seat, name in enumerate(["Ana", "Boris", "Vera"]):
        page.locator(f"#id_player_{seat}").fill(name)
    page.locator('input[name="first_dealer"][value="0"]').check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return Game.objects.latest("pk")


def online_hand(page, number: int, call: str, counts) -> None:
    expect(page.locator("#deal-heading")).to_contain_text(f" {number}")
    page.locator(f'button[name="call"][value="{call}"]').click()
    page.locator(f'label[for="id_tricks_0_{counts[0]}"]').click()
    page.locator(f'label[for="id_tricks_1_{counts[1]}"]').click()
    page.locator("form.tricks-form button[type=submit]").click()
    expect(page.locator("#deal-heading")).to_contain_text(f" {number + 1}")


def offline_hand(page, call: str, counts) -> None:
    """A hand on the phone's own deal section, as on the table page: the call button, two
    chips tapped (the third count fills itself in), keep."""
    deal = page.locator("#game section.offline-deal")
    expect(deal).to_be_visible()
    deal.locator(f'button.call[value="{call}"]').click()
    tricks(page, counts)


def tricks(page, counts) -> None:
    deal = page.locator("#game section.offline-deal")
    deal.locator(f'label[for="offline-tricks_0_{counts[0]}"]').click()
    deal.locator(f'label[for="offline-tricks_1_{counts[1]}"]').click()
    expect(deal.locator("#offline-tricks_2")).to_have_value(str(counts[2]))
    deal.locator("form.tricks-form button[type=submit]").click()


def recorded(game: Game) -> list[tuple[int, list, list]]:
    entries = DealEntry.objects.filter(game=game, undone_at__isnull=True).order_by("pk")
    return [(entry.number, entry.calls, entry.tricks) for entry in entries]


def wait_until_kept(page) -> None:
    """The service worker is active and the copy of this page has the deals recorded."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function(
        """caches.open('table-v1').then(c => c.match(location.pathname))
        .then(hit => hit ? hit.text() : '').then(text => text.includes('class="deal-row'))"""
    )


@pytest.mark.parametrize("language", ["en", "bg"])
def test_three_hands_offline_arrive_once_in_order(new_phone, live_server, screenshot, language):
    page = new_phone(locale="bg-BG" if language == "bg" else "en-GB")
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    check_screen(page, f"offline-{language}-keeper-online", screenshot)
    wait_until_kept(page)
    assert page.locator("#offline").is_hidden()  # online and nothing waiting: as today

    with every_screen.paused():
        hands_offline(page, language, game, screenshot)
    check_screen(page, f"offline-{language}-all-sent", screenshot)


def hands_offline(page, language, game, screenshot):
    page.context.set_offline(True)
    banner = page.locator("#offline .offline-banner")
    # Offline, the phone shows each next hand itself, as the table page does.
    page.locator('#game section.offline-deal button.call[value="no-trump"]').click()
    tricks(page, [4, 4, 8])
    expect(banner).to_have_text(banner_text(language, 1))
    offline_hand(page, "spades", [8, 5, 3])
    expect(banner).to_have_text(banner_text(language, 2))
    offline_hand(page, "clubs", [3, 8, 5])
    expect(banner).to_have_text(banner_text(language, 3))
    expect(page.locator("#game tr.offline-row.deal-row")).to_have_count(3)
    expect(page.locator("#offline-deal-heading")).to_contain_text("5")
    screenshot(page, f"offline-{language}-three-waiting")
    assert recorded(game) == [(1, ["hearts"], [4, 7, 5])]

    # The page loads without a connection once it was opened (the service worker's copy).
    page.reload()
    expect(banner).to_have_text(banner_text(language, 3))
    # The copy is the page as it last was online: deal 1 recorded, then the waiting hands.
    expect(page.locator("#game tr.deal-row:not(.offline-row)")).to_have_count(1)
    expect(page.locator("#game tr.offline-row.deal-row")).to_have_count(3)
    screenshot(page, f"offline-{language}-reloaded-offline")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#deal-heading")).to_contain_text(" 5", timeout=15_000)
    expect(page.locator("#offline")).to_be_hidden()
    assert recorded(game) == [
        (1, ["hearts"], [4, 7, 5]),
        (2, ["no-trump"], [4, 4, 8]),
        (3, ["spades"], [8, 5, 3]),
        (4, ["clubs"], [3, 8, 5]),
    ]


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_deal_recorded_meanwhile_on_another_phone_is_a_clash(
    new_phone, live_server, screenshot, language
):
    page = new_phone(locale="bg-BG" if language == "bg" else "en-GB")
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    wait_until_kept(page)

    with every_screen.paused():
        page.context.set_offline(True)
        page.locator('#game section.offline-deal button.call[value="spades"]').click()
        tricks(page, [8, 5, 3])
        expect(page.locator("#offline .offline-banner")).to_have_text(banner_text(language, 1))
        # Meanwhile another phone records deal 2 otherwise.
        services.deal_record(
            game_id=game.pk, number=2, calls=["diamonds"], tricks=[5, 3, 8], actor="table"
        )

        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        clash = page.locator("#offline .offline-clash")
        expect(clash).to_be_visible(timeout=15_000)
        expect(clash.locator(".clash-recorded")).to_contain_text("5, Boris 3")
        expect(clash.locator(".clash-mine")).to_contain_text("Ana 8, Boris 5")
        # Nothing dropped: the hand still waits.
        expect(page.locator("#offline .offline-banner")).to_have_text(banner_text(language, 1))
        screenshot(page, f"offline-{language}-clash")

        clash.locator(".offline-keep-mine").click()
    expect(page.locator("#deal-heading")).to_contain_text(" 3", timeout=15_000)
    live = [(n, c, t) for n, c, t in recorded(game) if n == 2]
    state = DealEntry.objects.filter(game=game, number=2, undone_at__isnull=True).get()
    assert (state.calls, state.tricks) == (["spades"], [8, 5, 3]), live


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_hand_resent_after_another_phone_undid_it_never_brings_it_back(
    new_phone, live_server, screenshot, language
):
    """The hand reached the server but its answer was lost; another phone undid that deal.
    Sent again, it carries the version it was entered against: refused, shown as a clash
    (nothing on the sheet / the keeper's hand), never silently recorded again. A third phone
    then records the deal otherwise before "Keep mine" is tapped: that tap is refused in turn
    and shows the newest, and the next tap keeps the keeper's over it."""
    page = new_phone(locale="bg-BG" if language == "bg" else "en-GB")
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    wait_until_kept(page)
    shown = Game.objects.get(pk=game.pk).version

    with every_screen.paused():
        page.context.set_offline(True)
        page.locator('#game section.offline-deal button.call[value="spades"]').click()
        tricks(page, [8, 5, 3])
        banner = page.locator("#offline .offline-banner")
        expect(banner).to_have_text(banner_text(language, 1))
        # The first send arrived (its answer did not); another phone then undid deal 2.
        services.deal_record(
            game_id=game.pk, number=2, calls=["spades"], tricks=[8, 5, 3], version=shown
        )
        services.deal_undo(game_id=game.pk, number=2, actor="table")

        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        clash = page.locator("#offline .offline-clash")
        expect(clash).to_be_visible(timeout=15_000)
        with translation.override(language):
            # the kept hand named as the players count hands (presenters.numbering)
            undone = gettext("%(deal)s was undone on another phone meanwhile")
            hand = gettext("Hand %(n)s") % {"n": 2}
            nothing = gettext("Not on the score sheet: undone on another phone.")
            leave = gettext("Leave it undone")
        expect(clash.locator(".offline-clash-heading")).to_have_text(undone % {"deal": hand})
        expect(clash.locator(".clash-recorded")).to_have_text(nothing)
        expect(clash.locator(".offline-keep-recorded")).to_have_text(leave)
        expect(clash.locator(".clash-mine")).to_contain_text("Ana 8, Boris 5")
        expect(banner).to_have_text(banner_text(language, 1))  # nothing dropped
        assert not DealEntry.objects.filter(game=game, number=2, undone_at__isnull=True).exists()
        screenshot(page, f"offline-{language}-clash-undone")

        # A third phone records deal 2 otherwise before the keeper taps "Keep mine".
        services.deal_record(game_id=game.pk, number=2, calls=["diamonds"], tricks=[5, 3, 8])
        clash.locator(".offline-keep-mine").click()
        expect(clash.locator(".clash-recorded")).to_contain_text("5, Boris 3", timeout=15_000)
        live = DealEntry.objects.filter(game=game, number=2, undone_at__isnull=True).get()
        assert (live.calls, live.tricks) == (["diamonds"], [5, 3, 8])
        clash.locator(".offline-keep-mine").click()
    expect(page.locator("#deal-heading")).to_contain_text(" 3", timeout=15_000)
    live = DealEntry.objects.filter(game=game, number=2, undone_at__isnull=True).get()
    assert (live.calls, live.tricks) == (["spades"], [8, 5, 3])


def test_a_post_lost_on_the_network_is_kept_and_sent(new_phone, live_server, screenshot):
    """The phone thinks it is online, but the hand's POST gets no answer (the Wi-Fi without
    internet, a dropped request): the hand is kept and sent through the API all the same."""
    page = new_phone()
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    with every_screen.paused():
        page.route("**/games/*/deal/", lambda route: route.abort())
        page.locator('button[name="call"][value="clubs"]').click()
        page.locator('label[for="id_tricks_0_3"]').click()
        page.locator('label[for="id_tricks_1_8"]').click()
        page.locator("form.tricks-form button[type=submit]").click()
        # Sent at once through the API (not routed away), then the page reloads at deal 3.
        expect(page.locator("#deal-heading")).to_contain_text(" 3", timeout=15_000)
    assert recorded(game) == [(1, ["hearts"], [4, 7, 5]), (2, ["clubs"], [3, 8, 5])]


def seat_cards(page, section: str) -> list[str]:
    return [
        " ".join(text.split())
        for text in page.locator(f"#game {section} .seats li.seat-card").all_inner_texts()
    ]


@pytest.mark.parametrize("language", ["en", "bg"])
def test_offline_the_page_still_guides_the_table(new_phone, live_server, screenshot, language):
    """Offline, the keeper's page shows what the table page shows before each hand, worked
    out on the phone from the last state the server gave and the hands kept since: the seat
    cards (targets, totals, who deals, who calls, passes left), the card exchange, the call
    buttons with their suits, the trick pad; a pass redeals as the rules say (Blato: the
    caller's pass redeals at once, the same dealer deals again); the hands kept are rows of
    the sheet like the others."""
    page = new_phone(locale="bg-BG" if language == "bg" else "en-GB")
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    wait_until_kept(page)
    online_cards = seat_cards(page, "section.deal:not(.offline-deal)")
    online_exchange = page.locator("#game section.deal .exchange").inner_text()
    online_calls = page.locator("#game .call-form button.call").all_inner_texts()

    with every_screen.paused():
        page.context.set_offline(True)
        page.evaluate("window.dispatchEvent(new Event('offline'))")
        deal = page.locator("#game section.offline-deal")
        expect(deal).to_be_visible()
        expect(page.locator("#game section.deal:not(.offline-deal)")).to_be_hidden()
        # Deal 2 as the table page showed it online: the same cards, exchange and calls.
        assert seat_cards(page, "section.offline-deal") == online_cards
        assert deal.locator(".exchange").inner_text() == online_exchange
        assert deal.locator("button.call").all_inner_texts() == online_calls
        expect(deal.locator('button.call[value="hearts"] .suit')).to_have_text("♥")
        expect(deal.locator('button.call[value="hearts"]')).to_have_class(re.compile(r"\bred\b"))

        # Vera calls first and passes: Blato redeals at once, Boris deals again.
        deal.locator('button.call[value="pass"]').click()
        banner = page.locator("#offline .offline-banner")
        expect(banner).to_have_text(banner_text(language, 1))
        # The same hand dealt again (players count hands, not deals).
        expect(page.locator("#offline-deal-heading")).to_contain_text("2")
        vera = deal.locator("li.seat-card").nth(2)
        with translation.override(language):
            used = gettext("pass used")
            before_play = gettext("Before the play:")
        expect(vera).to_contain_text(used)
        expect(vera).to_have_class(re.compile(r"\bto-call\b"))
        expect(deal.locator("li.seat-card").nth(1).locator(".badge")).to_have_count(1)
        expect(deal.locator('button.call[value="pass"]')).to_have_count(0)

        # Vera calls spades: the exchange due before the play, then the trick pad.
        deal.locator('button.call[value="spades"]').click()
        expect(deal.locator(".exchange")).to_contain_text(before_play)
        expect(deal.locator(".exchange li")).to_have_count(1)
        expect(deal.locator("form.tricks-form .chip-row")).to_have_count(2)
        tricks(page, [5, 3, 8])
        expect(banner).to_have_text(banner_text(language, 2))

        # The kept hands are rows of the sheet like the recorded ones: a redeal, then a hand
        # with each seat's total and "tricks · points" in the seats' columns.
        rows = page.locator("#game table.sheet tbody")
        expect(rows.locator("tr.offline-row.redeal")).to_have_count(1)
        # numbered as the sheet numbers them: the redeal deals hand 2 again, then hand 2
        numbers = rows.locator("tr.offline-row.deal-row td.number")
        expect(numbers).to_have_text(["2", "2"])
        score = rows.locator("tr.offline-row.score-row td.seat")
        expect(score).to_have_count(3)
        expect(score.nth(0).locator(".total")).to_have_text("+1")
        expect(score.nth(0).locator(".detail")).to_have_text("5 · 0")
        # Hand 3 (deal 4): Vera deals now, the totals carried on.
        expect(page.locator("#offline-deal-heading")).to_contain_text("3")
        expect(deal.locator("li.seat-card").nth(2).locator(".badge").first).to_be_visible()
        expect(deal.locator("li.seat-card").nth(0).locator(".seat-total")).to_contain_text("+1")
        screenshot(page, f"offline-keeper-{language}")
        # The phone's own screen holds to the checks every screen is held to (in this page:
        # a copy opened online would send the hands).
        assert checks.screen_problems(page) == {}

        page.context.set_offline(False)  # the page reloads once the hands are sent
        expect(page.locator("#deal-heading")).to_contain_text(" 3", timeout=15_000)
    assert recorded(game) == [
        (1, ["hearts"], [4, 7, 5]),
        (2, ["pass"], None),
        (3, ["spades"], [5, 3, 8]),
    ]


def test_a_busy_server_is_asked_again_and_nothing_is_offered_to_discard(
    new_phone, live_server, screenshot
):
    """The server answers 503 (its database away a moment) or 429: the hand is no refusal,
    it waits and goes again, never "Discard this hand"."""
    page = new_phone()
    game = start(page, live_server)
    online_hand(page, 1, "hearts", [4, 7, 5])
    wait_until_kept(page)
    busy = {"left": 2}

    def answer(route):
        if busy["left"]:
            busy["left"] -= 1
            status = 503 if busy["left"] else 429
            route.fulfill(
                status=status,
                headers={"Retry-After": "1"},
                content_type="application/json",
                body='{"error": {"message": "busy"}}',
            )
        else:
            route.continue_()

    with every_screen.paused():
        page.context.set_offline(True)
        page.locator('#game section.offline-deal button.call[value="clubs"]').click()
        tricks(page, [3, 8, 5])
        page.route("**/api/games/*/deals", answer)
        page.context.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("#deal-heading")).to_contain_text(" 3", timeout=20_000)
        assert busy["left"] == 0
    assert recorded(game) == [(1, ["hearts"], [4, 7, 5]), (2, ["clubs"], [3, 8, 5])]


def test_kept_hands_that_end_the_game_say_so_until_the_result_comes(
    new_phone, live_server, screenshot
):
    """A kept hand ends the game (Sergeant Major: twelve tricks in one hand win at once): the
    phone asks for no more hands and says the result comes once the hands are sent; back
    online, the server's result."""
    page = new_phone()
    page.goto(live_server.url + "/games/new/")
    for seat, name in enumerate(["Ana", "Boris", "Vera"]):
        page.locator(f"#id_player_{seat}").fill(name)
    page.locator('input[name="ruleset"][value="sergeant-major"]').check()
    page.locator('input[name="first_dealer"][value="0"]').check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.latest("pk")
    assert game.ruleset == "sergeant-major"
    online_hand(page, 1, "spades", [8, 5, 3])
    wait_until_kept(page)

    with every_screen.paused():
        page.context.set_offline(True)
        offline_hand(page, "hearts", [2, 12, 2])
        deal = page.locator("#game section.offline-deal")
        with translation.override("en"):
            over = gettext(
                "The game is over with the hands kept on this phone: the result shows once "
                "they are sent."
            )
        expect(deal.locator(".notice")).to_have_text(over)
        expect(deal.locator("button.call")).to_have_count(0)
        # Back online (the browser's own "online" event, else the next try in 5 s): the
        # page reloads once the hand is sent, so nothing is asked of it meanwhile.
        page.context.set_offline(False)
        expect(page.locator("#result-heading")).to_be_visible(timeout=15_000)
    assert recorded(game) == [(1, ["spades"], [8, 5, 3]), (2, ["hearts"], [2, 12, 2])]
