"""Back on the keeper's phone, and what the keeper page says after an action, in the browser.

Back right after recording a hand lands on the keeper's page as it is now, not on the form
before it (the new game's, or the PIN's: an empty form that looks like being logged out). Back
after an undo finds the undo out of date, with no button to undo one more deal. A success
("Deal 2 is undone.") is said once, in the success style, and goes with the next action.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_table import deal_heading, game_of, play_deal, record, start_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("javascript", [True, False])
def test_back_right_after_a_hand_lands_on_the_keepers_page(live_server, new_phone, javascript):
    page = new_phone(javascript=javascript)
    table = start_game(page, live_server)
    play_deal(page, 1, "hearts", [4, 7, 5], javascript=javascript)
    expect(deal_heading(page)).to_contain_text("Hand 2 ")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/games/\d+/(\?.*)?$"))
    assert page.url.startswith(table)
    # The keeper's page as it is now (reloaded, not an old copy): deal 1 is recorded.
    expect(deal_heading(page)).to_contain_text("Hand 2 ")
    expect(page.locator("form.new-game")).to_have_count(0)


def test_an_undo_says_so_once_in_the_success_style(live_server, new_phone):
    page = new_phone()
    start_game(page, live_server)
    play_deal(page, 1, "hearts", [4, 7, 5])
    play_deal(page, 2, "spades", [5, 3, 8])
    expect(deal_heading(page)).to_contain_text("Hand 3 ")
    page.locator('a[href*="/undo/"]').first.click()
    page.locator("form button[type=submit]", has_text="Yes, undo hand 2").click()
    said = page.locator('.message.success[role="status"]')
    expect(said).to_have_text("Hand 2 is undone.")
    expect(page.locator(".alert:visible")).to_have_count(0)
    # The next action (htmx, the page is not reloaded) takes the message away.
    page.locator('button[name="call"][value="spades"]').click()
    expect(page.locator("form.tricks-form")).to_be_visible()
    expect(page.locator(".message")).to_have_count(0)


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
