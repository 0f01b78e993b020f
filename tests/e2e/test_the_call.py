"""Once a call is made on the keeper's phone: the card exchange it brings is in sight with the
trick boxes, and a reload mid-entry keeps the call (it is in the page's address) until the
deal is recorded."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .test_table import deal_heading, game_of, record, start_game, tap_call, type_tricks

pytestmark = pytest.mark.django_db(transaction=True)


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
