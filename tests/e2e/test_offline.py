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

from . import every_screen
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
    """A hand on the page's own form: the call, two counts (the third fills itself in), keep."""
    entry = page.locator("#offline form.offline-entry")
    expect(entry).to_be_visible()
    entry.locator(f'.offline-call button[value="{call}"]').click()
    entry.locator("#offline-tricks-0").fill(str(counts[0]))
    entry.locator("#offline-tricks-1").fill(str(counts[1]))
    expect(entry.locator("#offline-tricks-2")).to_have_value(str(counts[2]))
    entry.locator("button[type=submit]").click()


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
    # Deal 2 starts on the page's own call buttons, the rest on the offline form.
    page.locator('#game button[name="call"][value="no-trump"]').click()
    entry = page.locator("#offline form.offline-entry")
    entry.locator("#offline-tricks-0").fill("4")
    entry.locator("#offline-tricks-1").fill("4")
    expect(entry.locator("#offline-tricks-2")).to_have_value("8")
    entry.locator("button[type=submit]").click()
    expect(banner).to_have_text(banner_text(language, 1))
    offline_hand(page, "spades", [8, 5, 3])
    expect(banner).to_have_text(banner_text(language, 2))
    offline_hand(page, "clubs", [3, 8, 5])
    expect(banner).to_have_text(banner_text(language, 3))
    expect(page.locator("#game tr.offline-row.deal-row")).to_have_count(3)
    expect(page.locator("#offline .offline-deal")).to_contain_text("5")
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
        page.locator('#game button[name="call"][value="spades"]').click()
        entry = page.locator("#offline form.offline-entry")
        entry.locator("#offline-tricks-0").fill("8")
        entry.locator("#offline-tricks-1").fill("5")
        entry.locator("button[type=submit]").click()
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
        page.locator('#game button[name="call"][value="spades"]').click()
        entry = page.locator("#offline form.offline-entry")
        entry.locator("#offline-tricks-0").fill("8")
        entry.locator("#offline-tricks-1").fill("5")
        entry.locator("button[type=submit]").click()
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
            undone = gettext("Deal %(n)s was undone on another phone meanwhile")
            nothing = gettext("Not on the score sheet: undone on another phone.")
            leave = gettext("Leave it undone")
        expect(clash.locator(".offline-clash-heading")).to_have_text(undone % {"n": 2})
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
