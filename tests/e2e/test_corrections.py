"""Correcting a recorded deal in the browser at 390×844, with and without JavaScript: a hand
found wrong three hands later is corrected (or refused, naming the later deal it would break),
and two phones that entered the same deal see both entries and keep either."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import engine
from scoring.models import DealEntry, GameChange
from scoring.presenters import signed
from scoring.selectors import game_record

from .checks import check_screen
from .test_table import deal_heading, game_of, record, start_game, tap_call, type_tricks

pytestmark = pytest.mark.django_db(transaction=True)

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


def keeper_phone(new_phone, live_server, game, **kwargs):
    """Another phone given the keeper link (as its QR code gives it)."""
    page = new_phone(**kwargs)
    page.goto(f"{live_server.url}/games/{game.pk}/keep/{game.secret}/")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    return page


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
