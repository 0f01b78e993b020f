"""The table page in the browser: a whole Blato game scored by tapping the real buttons and
the trick pad, watched from a second phone, in Bulgarian, and without JavaScript.

The game is the one of tests/scoring/test_views.py: Boris passes (a redeal), a hand in
hearts, one in no-trump, seven more, and a tie-break that asks who won the last two tricks;
Boris confirms.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game

from .checks import check_screen

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Boris", "Vera"]
# After the redeal (deal 1) and the hearts and no-trump hands (deals 2 and 3).
LATER_DEALS = [
    ("spades", [8, 5, 3]),
    ("clubs", [3, 8, 5]),
    ("diamonds", [5, 3, 8]),
    ("spades", [8, 5, 3]),
    ("hearts", [3, 8, 5]),
    ("spades", [5, 3, 8]),
    ("spades", [8, 5, 3]),
]


# --- steps ------------------------------------------------------------------------------------


def start_game(page, live_server, names=NAMES, screenshot=None) -> str:
    """The new game form, filled in as a person does; returns the table page's address."""
    page.goto(live_server.url + "/games/new/")
    check_screen(page, "game-new", screenshot)
    for seat, name in enumerate(names):
        page.locator(f"#id_player_{seat}").fill(name)
    page.locator('input[name="first_dealer"][value="0"]').check()  # Ana deals first
    page.locator("form.new-game button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return page.url


def game_of(page) -> Game:
    """The game whose table page `page` shows."""
    number = int(re.search(r"/games/(\d+)/", page.url).group(1))
    return Game.objects.get(pk=number)


def record(game, deals):
    """Deals entered by another phone (through the same service as the pages)."""
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)


def tap_call(page, call: str) -> None:
    page.locator(f'button[name="call"][value="{call}"]').click()


def deal_heading(page):
    return page.locator("#deal-heading")


def tap_chip(page, seat: int, count: int) -> None:
    page.locator(f'label[for="id_tricks_{seat}_{count}"]').click()


def type_tricks(page, counts, *, javascript=True) -> None:
    """Tap the first two seats' tricks on the pad; the last seat's is the rest, filled in
    (with JavaScript on the page, else by the server; without, it is typed here)."""
    rest = page.locator("input.tricks-input")
    expect(rest).to_have_count(1)
    tap_chip(page, 0, counts[0])
    tap_chip(page, 1, counts[1])
    if not javascript:
        rest.fill(str(counts[2]))
        return
    expect(rest).to_have_value(str(counts[2]))
    expect(page.locator(".tricks-sum")).to_have_class(re.compile(r"\bok\b"))


def in_view(page, selector: str, javascript=True) -> None:
    """With JavaScript, each step the keeper takes brings the next one into view (table.js);
    without, the page starts at the top, and a step is a scroll away."""
    if javascript:
        expect(page.locator(selector)).to_be_in_viewport(ratio=1)


def play_deal(page, hand: int, call: str, counts, *, javascript=True) -> None:
    """Hand `hand` as the players count it (a redeal deals the same hand again)."""
    expect(deal_heading(page)).to_contain_text(f"Hand {hand} ")
    in_view(page, ".call-buttons", javascript)
    tap_call(page, call)
    in_view(page, "form.tricks-form button[type=submit]", javascript)
    type_tricks(page, counts, javascript=javascript)
    page.locator("form.tricks-form button[type=submit]").click()


def settle_and_confirm(page, screenshot=None, javascript=True) -> None:
    """The tie-break: trick 16 to Vera, then trick 15 to Ana; Boris confirms."""
    result = page.locator("section.result")
    expect(result).to_contain_text("The game is over after 9 hands.")
    expect(result).to_contain_text("Who won the last tricks?")
    expect(page.get_by_role("group", name="Trick 15")).to_have_count(0)
    expect(page.locator("form.confirm-form")).to_have_count(0)  # not settled yet
    check_screen(page, "table-tie-break", screenshot)
    in_view(page, "form.last-tricks-form button[type=submit]", javascript)
    vera_16 = page.get_by_role("group", name="Trick 16").get_by_role("radio", name="Vera")
    vera_16.check()
    page.get_by_role("button", name="Settle the tie").click()
    # Vera is first; Ana and Boris still need the trick before it.
    trick_15 = page.get_by_role("group", name="Trick 15")
    expect(trick_15).to_be_visible()
    expect(vera_16).to_be_checked()
    trick_15.get_by_role("radio", name="Ana").check()
    page.get_by_role("button", name="Settle the tie").click()
    expect(result).to_contain_text("Vera is ahead of Ana: Vera won trick 16 of the last hand.")
    expect(result).to_contain_text("Ana is ahead of Boris: Ana won trick 15 of the last hand.")
    expect(page.locator(".placings li").first).to_contain_text("Vera")
    confirm = page.locator("form.confirm-form")
    expect(confirm).to_contain_text("A second player checks the score sheet")
    in_view(page, "form.confirm-form button[type=submit]", javascript)
    confirm.get_by_role("radio", name="Boris").check()
    confirm.get_by_role("button", name="Confirm the result").click()
    expect(result).to_contain_text("Confirmed by Boris: the result is locked.")
    in_view(page, ".confirmed", javascript)
    expect(page.get_by_role("link", name="New game").last).to_be_visible()
    expect(page.locator("form.confirm-form, form.tricks-form, form.call-form")).to_have_count(0)
    expect(page.get_by_text("Undo the last deal")).to_have_count(0)
    check_screen(page, "table-confirmed", screenshot)


def play_whole_game(page, *, javascript=True, screenshot=None, after_deal=None) -> None:
    """From deal 1 to the confirmed result; `after_deal(n)` runs once deal n is recorded."""
    after = after_deal or (lambda number: None)
    heading = deal_heading(page)
    expect(heading).to_have_text("Hand 1 of 9")
    expect(page.get_by_role("heading", name="Boris calls")).to_be_visible()
    check_screen(page, "table-calls", screenshot)

    # Deal 1: Boris passes; the deal is redealt and recorded at once.
    tap_call(page, "pass")
    # One numbering, the players': after the redeal it is still the first hand.
    expect(heading).to_have_text("Hand 1 of 9")
    expect(page.locator("table.sheet tr.redeal")).to_contain_text("Redeal: Boris passed.")
    expect(page.locator(".seat-card").nth(1)).to_contain_text("pass used")
    expect(page.locator('button[name="call"][value="pass"]')).to_have_count(0)
    after(1)

    # Deal 2: Boris calls hearts; tricks 4 7 5 (Ana one up, Boris one down).
    tap_call(page, "hearts")
    expect(page.locator(".calls-made")).to_contain_text("Boris called hearts.")
    rest = page.locator("input.tricks-input")  # Vera's: the rest of the hand
    total = page.locator(".tricks-sum")
    expect(total).to_have_text("The three add up to 16.")
    if javascript:
        # Too many tricks: said at once, and nothing is filled in.
        tap_chip(page, 0, 9)
        tap_chip(page, 1, 9)
        expect(total).to_have_class(re.compile(r"\bwrong\b"))
        expect(total).to_have_text("Together 18 of 16.")
        expect(rest).to_have_value("")
        expect(rest).to_have_attribute("aria-invalid", "true")
        tap_chip(page, 0, 4)
        tap_chip(page, 1, 7)
        expect(rest).to_have_value("5")
        expect(total).to_have_text("Together 16 of 16. Vera: filled in with 5.")
        expect(total).to_have_class(re.compile(r"\bok\b"))
        # Another chip updates the filled-in count.
        tap_chip(page, 1, 6)
        expect(rest).to_have_value("6")
        tap_chip(page, 1, 7)
        expect(rest).to_have_value("5")
        check_screen(page, "table-tricks", screenshot)
    else:
        # A wrong sum is refused next to the form, with the tapped and typed counts kept.
        tap_chip(page, 0, 4)
        tap_chip(page, 1, 7)
        rest.fill("6")
        page.locator("form.tricks-form button[type=submit]").click()
        error = page.locator("form.tricks-form [role=alert]")
        expect(error).to_contain_text("The tricks add up to 17; they must add up to 16.")
        # The answer is a whole page: it opens at the form (#tricks), the error in sight.
        expect(page).to_have_url(re.compile(r"#tricks$"))
        expect(error).to_be_in_viewport()
        expect(rest).to_have_attribute("aria-describedby", "tricks-error")
        expect(rest).to_have_value("6")
        expect(page.locator("#id_tricks_1_7")).to_be_checked()
        check_screen(page, "table-tricks-error", screenshot)
        rest.fill("")  # left empty, the rest is worked out
    page.get_by_role("button", name="Record hand 1").click()
    expect(heading).to_have_text("Hand 2 of 9")
    after(2)

    # Deal 3: a card exchange is due, but not after no-trump; Vera calls no-trump.
    exchange = page.locator(".exchange")
    expect(exchange).to_contain_text("Ana gives 1 card to Boris")
    expect(exchange).to_contain_text("not after no-trump")
    check_screen(page, "table-exchange", screenshot)
    tap_call(page, "no-trump")
    expect(page.locator(".calls-made")).to_contain_text("Vera called no-trump.")
    expect(exchange).to_contain_text("no card exchange this hand")
    type_tricks(page, [4, 4, 8], javascript=javascript)
    page.get_by_role("button", name="Record hand 2").click()
    expect(heading).to_have_text("Hand 3 of 9")
    after(3)

    for number, (call, counts) in enumerate(LATER_DEALS, start=4):
        play_deal(page, number - 1, call, counts, javascript=javascript)
        if number < 10:
            expect(heading).to_contain_text(f"Hand {number} ")
        else:
            expect(heading).to_have_count(0)  # the game is over
        after(number)
    # Ten deals on the sheet, the redeal among them.
    expect(page.locator("table.sheet tbody tr.deal-row")).to_have_count(10)
    expect(page.locator("table.sheet tr.redeal")).to_have_count(1)
    expect(page.locator("table.sheet")).to_contain_text("no-trump · Vera")
    settle_and_confirm(page, screenshot, javascript)


def next_poll(watcher, check) -> None:
    """Move the watcher's clock on to its next 5 s poll, then `check` what it brought. A real
    poll already on its way (answered "unchanged") makes htmx drop the one the jump fires;
    the next jump then fetches the change."""
    for attempt in range(3):
        watcher.clock.fast_forward(5_000)
        try:
            check()
            return
        except AssertionError:
            if attempt == 2:
                raise


# --- the journeys -----------------------------------------------------------------------------


def test_a_whole_blato_game_on_a_phone_watched_from_another(live_server, new_phone, screenshot):
    keeper = new_phone()
    errors = []  # in the console (a missing favicon would be one: a 404)
    keeper.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    url = start_game(keeper, live_server, screenshot=screenshot)

    # A second phone follows the table. Its clock is Playwright's: time runs as usual (the
    # first deal arrives by a real 5 s poll), and for the later deals it is moved on 5 s at
    # once instead of waiting for each poll. No reload: a mark left in the page stays.
    watcher = new_phone()
    watcher.clock.install()
    watcher.goto(url)
    expect(watcher.locator("#deal-heading")).to_have_text("Hand 1 of 9")
    expect(watcher.get_by_text("Waiting for the call of Boris.")).to_be_visible()
    expect(watcher.locator("button[name=call], form.tricks-form")).to_have_count(0)
    watcher.evaluate("window.stillTheSamePage = true")
    polls = []
    watcher.on("request", lambda r: polls.append(r.url) if "/sheet/" in r.url else None)

    def watcher_sees(number: int) -> None:
        rows = watcher.locator("table.sheet tbody tr.deal-row")
        if number == 1:
            expect(rows).to_have_count(1, timeout=8_000)  # the real poll, every 5 s
        else:
            next_poll(watcher, lambda: expect(rows).to_have_count(number, timeout=2_000))
        if number < 10:
            expect(watcher.locator("#deal-heading")).to_contain_text(f"Hand {number} ")
        if number == 1:
            check_screen(watcher, "table-watcher", screenshot)

    play_whole_game(keeper, screenshot=screenshot, after_deal=watcher_sees)

    result = watcher.locator("section.result")
    confirmed = "Confirmed by Boris: the result is locked."
    next_poll(watcher, lambda: expect(result).to_contain_text(confirmed, timeout=2_000))
    expect(watcher.locator("form.confirm-form")).to_have_count(0)
    assert watcher.evaluate("window.stillTheSamePage") is True
    assert len(polls) >= 10
    assert errors == []

    # The referee's help, from the table page.
    keeper.get_by_role("link", name="Which card must I return?").click()
    expect(keeper.get_by_role("heading", level=1)).to_contain_text("Referee help")
    keeper.get_by_label("Your cards").first.fill("AS KH 10H 7C")
    keeper.get_by_label("The card you were given").fill("QH")
    keeper.get_by_role("button", name="Which card?").click()
    expect(keeper.locator(".answer")).to_be_visible()
    check_screen(keeper, "referee-help", screenshot)


def test_a_whole_blato_game_without_javascript(live_server, new_phone, screenshot):
    page = new_phone(javascript=False)
    start_game(page, live_server)

    def shoot(page, name):  # the screens as with JavaScript are checked, not saved again
        if name == "table-tricks-error":
            screenshot(page, name)

    play_whole_game(page, javascript=False, screenshot=shoot)


def latin_words(page) -> list[str]:
    """Words in Latin letters in the page's main text, addresses aside: English left over
    (the players here have Bulgarian names)."""
    text = re.sub(r"https?://\S+", " ", page.locator("main").inner_text())
    return sorted(set(re.findall(r"[A-Za-z]{2,}", text)))


def test_the_table_page_in_bulgarian(live_server, new_phone, screenshot):
    page = new_phone(locale="bg-BG")
    start_game(page, live_server, names=["Ана", "Борис", "Вера"])
    heading = deal_heading(page)
    expect(heading).to_have_text("Раздаване 1 от 9")
    expect(page.locator("html")).to_have_attribute("lang", "bg")
    tap_call(page, "pass")
    expect(heading).to_have_text("Раздаване 1 от 9")
    tap_call(page, "hearts")
    expect(page.locator(".calls-made")).to_contain_text("купа")
    type_tricks(page, [4, 7, 5])  # table.js words its hint from the page: Bulgarian too
    expect(page.locator(".tricks-sum")).to_contain_text("16")
    assert latin_words(page) == []
    page.locator("form.tricks-form button[type=submit]").click()
    expect(heading).to_contain_text("Раздаване 2")
    expect(page.locator('button[name="call"][value="hearts"]')).to_have_text("♥купа")
    check_screen(page, "table-bulgarian", screenshot)
    assert latin_words(page) == []
