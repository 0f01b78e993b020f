"""The keeper's page never goes on showing an outdated game, at 390×844: an organiser's
substitution and correction reach it within seconds, untouched, with what changed said at the
top; chips the keeper was tapping for the hand under way stay tapped."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import services
from scoring.models import Game
from scoring.presenters import signed

from .checks import check_screen
from .test_table import deal_heading, start_game, tap_call, tap_chip

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_substitution_and_a_correction_reach_the_keepers_page_at_once(
    live_server, new_phone, screenshot
):
    page = new_phone()
    start_game(page, live_server)
    game = Game.objects.latest("pk")
    services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    page.reload()
    expect(deal_heading(page)).to_contain_text("Hand 2 ")
    # The keeper is in the middle of hand 2: the call made, one chip tapped.
    tap_call(page, "spades")
    tap_chip(page, 0, 5)
    # Boris leaves; the organiser puts Dora in his seat and corrects hand 1.
    services.seat_substitute(game_id=game.pk, seat=1, name="Dora", actor="olga", reason="ill")
    services.deal_correct(
        game_id=game.pk, number=1, calls=["hearts"], tricks=[5, 6, 5], actor="olga"
    )
    notice = page.locator(".notice.meanwhile")
    expect(notice).to_contain_text("Dora plays in place of Boris from hand 2 on", timeout=5_000)
    expect(notice).to_contain_text("Hand 1 was corrected by olga")
    # The seat that left calls no more: the substitute's name, everywhere on the step.
    expect(page.locator("#game .seats")).not_to_contain_text("Boris")
    expect(page.locator("#game .seats")).to_contain_text("Dora")
    game.refresh_from_db()
    totals = page.locator("table.sheet tfoot td.seat")
    for seat in range(3):
        expect(totals.nth(seat)).to_have_text(signed(game.totals[seat]))
    # The hand under way is as the keeper left it.
    expect(page.locator("form.tricks-form")).to_be_visible()
    expect(page.locator("#id_tricks_0_5")).to_be_checked()
    check_screen(page, "table-changed-meanwhile", screenshot)
    tap_chip(page, 1, 3)
    expect(page.locator("form.tricks-form input[name=tricks_2]")).to_have_value("8")
    page.get_by_role("button", name="Record hand 2").click()
    expect(deal_heading(page)).to_contain_text("Hand 3 ")
    expect(notice).to_have_count(0)  # said once; the keeper's own step says nothing of it
    assert game.entries.get(number=2, undone_at=None).tricks == [5, 3, 8]
