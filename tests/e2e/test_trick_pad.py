"""The trick pad in the browser, at 390×844: a whole Blato game played to its end on the
keeper's page by tapping only (no keyboard), in English and in Bulgarian, with and without
JavaScript. The test counts the taps (clicks) of each ordinary hand: the call, a chip for
each of the first two players, Record — at most 4; the last player's count fills itself in
(with JavaScript on the phone, else on the server).

Not ordinary, and counted apart: deal 1, where Boris passes (one tap: a redeal, recorded at
once), and the tie-break at the end, where the keeper taps who won the last two tricks (two
chips, two "Settle" taps). Then, where am I: the heading names the game, "New game with the
same players" starts the next one in one tap with the next dealer, and the new game page lists
both games under "My games on this phone".

Typing into a count already filled in replaces it ("6", not "56").
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import DealEntry, Game

from .checks import check_screen
from .test_table import LATER_DEALS, deal_heading, start_game, tap_call

pytestmark = pytest.mark.django_db(transaction=True)

# Ana deals first. Deal 1: Boris passes (a redeal). Then nine hands, as tests/e2e/test_table.
HANDS = [("hearts", [4, 7, 5]), ("no-trump", [4, 4, 8]), *LATER_DEALS]
ORDINARY_TAPS = 4


class Taps:
    """Every tap the keeper makes goes through here, so the test can count them."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def on(self, selector: str) -> None:
        target = self.page.locator(selector)
        expect(target).to_have_count(1)
        target.click()
        self.count += 1


def start(page, live_server, names) -> Game:
    page.goto(live_server.url + "/games/new/")
    for seat, name in enumerate(names):
        page.locator(f"#id_player_{seat}").fill(name)
    page.locator('input[name="first_dealer"][value="0"]').check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return Game.objects.latest("pk")


def play_hand(page, taps: Taps, number: int, call: str, counts, *, javascript: bool) -> int:
    """One ordinary hand by taps alone; returns how many it took."""
    before = taps.count
    # Named as the players count hands: deal 1 was redealt, so deal n is hand n - 1.
    expect(page.locator("#deal-heading")).to_contain_text(f" {number - 1} ")
    taps.on(f'button[name="call"][value="{call}"]')
    taps.on(f'label[for="id_tricks_0_{counts[0]}"]')
    taps.on(f'label[for="id_tricks_1_{counts[1]}"]')
    if javascript:  # the rest is on the phone before Record
        expect(page.locator("form.tricks-form input[name=tricks_2]")).to_have_value(str(counts[2]))
        expect(page.locator(".tricks-sum")).to_have_class(re.compile(r"\bok\b"))
    taps.on("form.tricks-form button[type=submit]")
    return taps.count - before


@pytest.mark.parametrize(
    ("locale", "javascript"),
    [("en-GB", True), ("bg-BG", True), ("en-GB", False)],
    ids=["english", "bulgarian", "english-no-js"],
)
def test_a_whole_game_by_taps_at_most_four_a_hand(
    live_server, new_phone, screenshot, locale, javascript
):
    page = new_phone(locale=locale, javascript=javascript)
    names = ["Ана", "Борис", "Вера"] if locale.startswith("bg") else ["Ana", "Boris", "Vera"]
    game = start(page, live_server, names)
    shoot = screenshot if javascript else None
    taps = Taps(page)
    expect(page.locator("h1 .where")).to_have_text(re.compile(rf"\b{game.pk}\b"))

    # Deal 1, not ordinary: Boris passes, one tap, the redeal is recorded at once.
    taps.on('button[name="call"][value="pass"]')
    expect(page.locator("table.sheet tr.redeal")).to_have_count(1)
    assert taps.count == 1

    for number, (call, counts) in enumerate(HANDS, start=2):
        if number == 2:  # the pad, shown once: the chips, the target marked, the rest box
            taps.on(f'button[name="call"][value="{call}"]')
            pad = page.locator("form.tricks-form")
            expect(pad.locator("input.chip-input[name=tricks_0]")).to_have_count(17)
            expect(pad.locator("input.chip-input[name=tricks_1]")).to_have_count(17)
            expect(pad.locator("input.chip-input[name=tricks_2]")).to_have_count(0)
            expect(pad.locator("label.chip-target")).to_have_count(2)
            taps.on(f'label[for="id_tricks_0_{counts[0]}"]')
            taps.on(f'label[for="id_tricks_1_{counts[1]}"]')
            if javascript:
                expect(pad.locator("input[name=tricks_2]")).to_have_value(str(counts[2]))
            check_screen(page, f"trick-pad-{locale[:2]}", shoot)
            taps.on("form.tricks-form button[type=submit]")
            used = 4
        else:
            used = play_hand(page, taps, number, call, counts, javascript=javascript)
        assert used <= ORDINARY_TAPS, f"deal {number} took {used} taps"
        expect(page.locator("table.sheet tbody tr.deal-row")).to_have_count(number)
        entry = game.entries.get(number=number, undone_at__isnull=True)
        assert (entry.calls, entry.tricks) == ([call], counts)

    # The tie-break, not ordinary: who won trick 16 (Vera), then trick 15 (Ana).
    result = page.locator("section.result")
    expect(result.locator("form.last-tricks-form")).to_be_visible()
    taps.on('form.last-tricks-form input[name="trick_0"][value="2"]')
    taps.on("form.last-tricks-form button[type=submit]")
    taps.on('form.last-tricks-form input[name="trick_1"][value="0"]')
    taps.on("form.last-tricks-form button[type=submit]")
    expect(result.locator(".placings li")).to_have_count(3)
    expect(result.locator(".placings li").first).to_contain_text(names[2])
    game.refresh_from_db()
    assert game.placings == [2, 0, 1] and game.entries.filter(undone_at=None).count() == 10
    assert taps.count == 1 + 9 * ORDINARY_TAPS + 4
    check_screen(page, f"trick-pad-result-{locale[:2]}", shoot)

    # New game with the same players: one tap, Boris deals first now, so Vera calls first.
    taps.on("form.again-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    follow = Game.objects.latest("pk")
    assert follow.pk != game.pk and follow.players == names and follow.first_dealer == 1
    expect(page.locator("h1 .where")).to_have_text(re.compile(rf"\b{follow.pk}\b"))
    expect(page.locator(".seat-card.to-call")).to_contain_text(names[2])
    expect(page.locator('button[name="call"]').first).to_be_visible()  # this phone keeps it

    # My games on this phone: both, the latest first, each a tap away.
    page.goto(live_server.url + "/games/new/")
    listed = page.locator(".my-games-list li a")
    expect(listed).to_have_count(2)
    expect(listed.nth(0)).to_have_attribute("href", f"/games/{follow.pk}/")
    expect(listed.nth(1)).to_have_attribute("href", f"/games/{game.pk}/")
    expect(listed.nth(1)).to_contain_text(", ".join(names))
    check_screen(page, f"my-games-{locale[:2]}", shoot)
    listed.nth(1).click()
    expect(page.locator("section.result .placings li")).to_have_count(3)


def test_typing_into_a_filled_in_count_replaces_it(live_server, phone):
    start_game(phone, live_server)
    tap_call(phone, "hearts")
    phone.locator('label[for="id_tricks_0_4"]').click()
    phone.locator('label[for="id_tricks_1_7"]').click()
    rest = phone.locator("input.tricks-input")
    expect(rest).to_have_value("5")  # filled in
    rest.tap()
    phone.keyboard.type("6")
    expect(rest).to_have_value("6")  # not "56"
    expect(phone.locator(".tricks-sum")).to_have_class(re.compile(r"\bwrong\b"))
    # Another chip makes the sum right again.
    phone.locator('label[for="id_tricks_1_6"]').click()
    expect(phone.locator(".tricks-sum")).to_have_class(re.compile(r"\bok\b"))
    phone.get_by_role("button", name="Record hand 1").click()
    expect(deal_heading(phone)).to_contain_text("Hand 2 ")
    assert DealEntry.objects.get().tricks == [4, 6, 6]
