"""The table page's dead ends of issue 12, in the browser at 390×844 (items 3, 5, 6, 7, 8, 11).

Each test reproduces what a player hit on a real club night, then checks the way forward:
correcting a hand found wrong three hands later, a score sheet that fits the phone with long
names, the card exchange in sight after the call, trick boxes that replace instead of
append, a reload that keeps the call, Back after an undo, and two phones on one table.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import engine
from scoring import services
from scoring.models import DealEntry, Game, GameChange
from scoring.presenters import signed
from scoring.selectors import game_record

from .checks import check_screen
from .test_table import deal_heading, start_game, tap_call, type_tricks

pytestmark = pytest.mark.django_db(transaction=True)

LONG = [
    "Александра Константинова-Петрова",
    "Maximilian Alexander Hohenberg",
    "Борислав Христофоров",
]
# First names as long as the sheet shows whole (ten letters: presenters.SHORT_NAME), wide ones.
WIDE = ["Светослава Жекова", "Константин Шишманов-Щерев", "Александър Мишев"]


def game_of(page) -> Game:
    number = int(re.search(r"/games/(\d+)/", page.url).group(1))
    return Game.objects.get(pk=number)


def record(game, deals):
    """Deals entered by another phone (through the same service as the pages)."""
    for calls, tricks in deals:
        number = game.entries.filter(undone_at__isnull=True).count() + 1
        services.deal_record(game_id=game.pk, number=number, calls=calls, tricks=tricks)


def right_edges_fit(page) -> list[str]:
    """The score sheet's cells whose right edge is beyond the viewport."""
    return page.evaluate(
        """() => { const width = document.documentElement.clientWidth;
            return [...document.querySelectorAll('table.sheet th, table.sheet td')]
              .filter(el => el.getBoundingClientRect().right > width + 0.5)
              .map(el => el.textContent.trim().slice(0, 40)); }"""
    )


def words_broken_inside(page, selector: str) -> list[str]:
    """Text in `selector` laid out on more lines than its words allow: a word split
    mid-word shows as a line that starts without a space or hyphen before it."""
    return page.evaluate(
        """(selector) => {
          const broken = [];
          for (const el of document.querySelectorAll(selector)) {
            const text = el.textContent;
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              const range = document.createRange();
              let lastTop = null;
              for (let i = 0; i < node.length; i++) {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                if (lastTop !== null && rect.top > lastTop + 2) {
                  const before = node.data[i - 1];
                  if (!/[\\s\\-‐]/.test(before) && !/\\s/.test(node.data[i]))
                    broken.push(text.trim().slice(0, 40));
                }
                lastTop = rect.top;
              }
            }
          }
          return broken;
        }""",
        selector,
    )


# --- item 5: the score sheet fits the phone --------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "names"), [("en-GB", LONG), ("bg-BG", LONG), ("bg-BG", WIDE), ("en-GB", WIDE)]
)
def test_all_three_columns_fit_a_phone_with_long_names(
    live_server, new_phone, screenshot, locale, names
):
    page = new_phone(locale=locale)
    start_game(page, live_server, names=names)
    record(game_of(page), [(["hearts"], [4, 7, 5]), (["no-trump"], [5, 3, 8]), (["pass"], None)])
    page.reload()
    expect(page.locator("table.sheet tbody tr.deal-row")).to_have_count(3)
    check_screen(page, f"table-long-names-{locale[:2]}-{names is LONG}", screenshot)
    assert right_edges_fit(page) == []
    assert page.evaluate(
        "(() => { const s = document.querySelector('.sheet-scroll');"
        " return s.scrollWidth <= s.clientWidth + 1; })()"
    ), "the sheet scrolls sideways"
    assert words_broken_inside(page, "table.sheet th.seat, table.sheet td.call") == []
    overflowing = page.evaluate(
        """() => [...document.querySelectorAll('table.sheet th, table.sheet td, .seat-card')]
            .filter(el => el.scrollWidth > el.clientWidth + 1)
            .map(el => el.textContent.trim().slice(0, 40))"""
    )
    assert overflowing == [], "content wider than its column"
    headings = page.locator("table.sheet thead th.seat")
    expect(headings.nth(1).locator(".visually-hidden")).to_have_text(names[1])


def keeper_phone(new_phone, live_server, game, **kwargs):
    """Another phone given the keeper link (as its QR code gives it)."""
    page = new_phone(**kwargs)
    page.goto(f"{live_server.url}/games/{game.pk}/keep/{game.secret}/")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    return page


# --- item 6: the card exchange is in sight once the call is made ------------------------------


@pytest.mark.parametrize("javascript", [True, False])
def test_the_card_exchange_is_in_view_after_the_call(live_server, new_phone, javascript):
    page = new_phone(javascript=javascript)
    start_game(page, live_server)
    record(game_of(page), [(["pass"], None), (["hearts"], [4, 7, 5])])
    page.reload()
    expect(deal_heading(page)).to_contain_text("Hand 2 ")
    tap_call(page, "spades")  # Vera calls: Ana gives Boris a card before the play
    exchange = page.locator(".exchange")
    expect(exchange).to_contain_text("Before the play:")
    expect(exchange).to_contain_text("Ana gives 1 card to Boris")
    expect(exchange).to_be_in_viewport(ratio=1)
    expect(page.locator(".calls-made")).to_be_in_viewport()
    expect(page.locator("form.tricks-form button[type=submit]")).to_be_in_viewport()


# --- item 7: trick boxes, reload mid-entry, Back after an undo --------------------------------


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


def test_a_reload_mid_entry_keeps_the_call(live_server, phone):
    start_game(phone, live_server)
    tap_call(phone, "hearts")
    expect(phone.locator(".calls-made")).to_contain_text("Boris called hearts.")
    expect(phone).to_have_url(re.compile(r"\?deal=1&calls=hearts"))
    phone.reload()
    expect(phone.locator(".calls-made")).to_contain_text("Boris called hearts.")
    type_tricks(phone, [4, 7, 5])
    phone.get_by_role("button", name="Record hand 1").click()
    expect(deal_heading(phone)).to_contain_text("Hand 2 ")
    expect(phone).to_have_url(re.compile(r"/games/\d+/$"))  # the call is not carried on
    phone.reload()
    expect(phone.get_by_role("heading", name="Vera calls")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False])
def test_back_after_an_undo_undoes_nothing_more(live_server, new_phone, javascript):
    page = new_phone(javascript=javascript)
    start_game(page, live_server)
    game = game_of(page)
    record(game, [(["hearts"], [4, 7, 5]), (["spades"], [5, 3, 8])])
    page.reload()
    page.get_by_role("link", name="Undo the last deal…").click()
    page.get_by_role("button", name="Yes, undo hand 2").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.locator(".message.success[role=status]")).to_contain_text("Hand 2 is undone.")
    expect(page.locator("table.sheet tbody tr.deal-row")).to_have_count(1)
    page.go_back()
    expect(page.locator("main")).to_contain_text("out of date")
    expect(page.get_by_role("button", name=re.compile("Yes, undo"))).to_have_count(0)
    assert game.entries.filter(undone_at__isnull=True).count() == 1


# --- item 3: correcting a hand found wrong later ----------------------------------------------

# Blato, Ana deals first: Boris calls in deal 1, Vera in 2, Ana in 3; in deal 4 Ana passes
# (a redeal); deal 5 is played.
FIVE = [
    (["hearts"], [4, 7, 5]),
    (["spades"], [5, 3, 8]),
    (["clubs"], [8, 5, 3]),
    (["pass"], None),
    (["hearts"], [4, 7, 5]),
]


@pytest.mark.parametrize("javascript", [True, False])
def test_a_hand_found_wrong_three_hands_later_is_corrected(
    live_server, new_phone, screenshot, javascript
):
    page = new_phone(javascript=javascript)
    start_game(page, live_server)
    game = game_of(page)
    record(game, FIVE)
    page.reload()
    # Hand 3 would break the redeal after it if Ana had passed in it: refused, that named,
    # as the players count hands (the redeal deals hand 4 again).
    page.get_by_role("link", name="Correct hand 3", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Correct hand 3")
    page.get_by_role("radio", name="Ana passed. Redeal.").check()
    page.get_by_role("button", name="Save hand 3").click()
    alert = page.locator("#correct-error")
    expect(alert).to_contain_text("Nothing was saved.")
    expect(alert).to_contain_text("hand 4 (dealt again) no longer fits: Ana has no pass left.")
    assert game.entries.filter(undone_at__isnull=False).count() == 0
    check_screen(page, "table-correct-refused", screenshot if javascript else None)
    # Deal 2 had Boris's and Vera's tricks swapped: one correction, three hands back.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Correct hand 2", exact=True).click()
    # The entry's trick pad, prefilled: two chips tapped, the last count the rest.
    expect(page.locator("#id_tricks_0_5")).to_be_checked()
    expect(page.locator("#id_tricks_1_3")).to_be_checked()
    if javascript:
        expect(page.locator("input[name=tricks_2]")).to_have_value("8")
    page.locator('label[for="id_tricks_1_8"]').click()
    if javascript:
        expect(page.locator("input[name=tricks_2]")).to_have_value("3")
    check_screen(page, "table-correct", screenshot if javascript else None)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/#sheet-heading$"))
    expect(page.locator(".message.success[role=status]")).to_contain_text("Hand 2 is corrected.")
    notes = page.locator("ul.corrections li")
    expect(notes).to_have_count(1)
    expect(notes.first).to_contain_text("Hand 2, corrected by table")
    expect(notes.first).to_contain_text("Ana 5, Boris 3, Vera 8")
    expect(notes.first).to_contain_text("Ana 5, Boris 8, Vera 3")
    game.refresh_from_db()
    assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 1
    want = engine.replay(game_record(game)).totals
    assert game.totals == list(want)
    totals = page.locator("table.sheet tfoot td.seat")
    for seat in range(3):
        expect(totals.nth(seat)).to_have_text(signed(want[seat]))


# --- item 8: two phones on one table ----------------------------------------------------------


@pytest.mark.parametrize("javascript", [False, True])
def test_two_phones_entering_the_same_deal_see_both_and_keep_either(
    live_server, new_phone, javascript
):
    first = new_phone()
    start_game(first, live_server)
    game = game_of(first)
    second = keeper_phone(new_phone, live_server, game, javascript=javascript)
    # Both tap hearts; the second types its tricks but the first records first.
    tap_call(second, "hearts")
    second.locator('label[for="id_tricks_0_5"]').click()
    second.locator('label[for="id_tricks_1_6"]').click()
    second.locator("input.tricks-input").fill("5")
    tap_call(first, "hearts")
    type_tricks(first, [4, 7, 5])
    first.get_by_role("button", name="Record hand 1").click()
    expect(deal_heading(first)).to_contain_text("Hand 2 ")
    second.get_by_role("button", name="Record hand 1").click()
    clash = second.locator("section.clash")
    expect(clash).to_contain_text("Hand 1 was already recorded on another phone")
    # What the table recorded first is the primary choice; "Keep mine" the secondary.
    recorded_first = clash.get_by_role("link", name="Keep the recorded one")
    expect(recorded_first).to_have_class(re.compile(r"\bprimary\b"))
    keep_mine = clash.get_by_role("button", name="Keep mine")
    expect(keep_mine).to_have_class(re.compile(r"\bsecondary\b"))
    expect(clash.locator(".clash-recorded")).to_contain_text("Ana 4, Boris 7, Vera 5")
    expect(clash.locator(".clash-mine")).to_contain_text("Ana 5, Boris 6, Vera 5")
    check_screen(second, "table-two-phones")
    if javascript:
        expect(clash).to_be_in_viewport()
    else:
        # Keep what is recorded: nothing changes.
        clash.get_by_role("link", name="Keep the recorded one").click()
        expect(second.locator("section.clash")).to_have_count(0)
        assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 0
        # Again, and this time keep mine: a correction of deal 1, in the history.
        second.go_back()
        expect(clash).to_be_visible()
    clash.get_by_role("button", name="Keep mine").click()
    expect(second.locator(".message.success[role=status]")).to_contain_text("Hand 1 is corrected.")
    assert DealEntry.objects.get(game=game, undone_at__isnull=True).tricks == [5, 6, 5]
    assert game.changes.filter(action=GameChange.Action.DEAL_CORRECTED).count() == 1
    # The first phone learns it at once, untouched: its sheet as it is now, and why.
    notice = first.locator(".notice.meanwhile")
    expect(notice).to_contain_text("Hand 1 was corrected on another phone", timeout=5_000)
    expect(notice).to_contain_text("Ana 4, Boris 7, Vera 5 → calls: hearts; tricks: Ana 5, Boris 6")
    totals = first.locator("table.sheet tfoot td.seat")
    for seat, total in enumerate(DealEntry.objects.get(game=game, undone_at=None).game.totals):
        expect(totals.nth(seat)).to_have_text(signed(total))
    # The next poll has nothing new: the notice stays until the keeper's next step.
    first.wait_for_timeout(3_500)
    expect(notice).to_be_visible()
