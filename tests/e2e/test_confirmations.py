"""Issue 15, item 2, at 390×844 in English and Bulgarian: an event table's result is
confirmed on the players' own phones. The deals are recorded through the services (the entry
itself has its own journeys); the keeper confirms on the keeper's page, two other phones open
the public table page, claim their seats and confirm, and the result locks under the event's
quorum. At another table a player says "this is wrong", and the organiser's round page shows
the table with every side's words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Quorum
from tests.scoring.test_manage import finish
from tournaments import services
from tournaments.models import Round, Table

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


def claim_and_confirm(new_phone, live_server, locale, game, seat, shoot=None, tag=""):
    """A player's phone: the public table page, "I am X", then "Confirm the result"."""
    phone = new_phone(locale=locale)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.locator(f'.claim-links a[href$="/me/?seat={seat}"]').click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/me/\?seat={seat}$"))
    if shoot:
        check_screen(phone, f"confirm-claim-{tag}", shoot)
    phone.locator(f'form.claim-form button[value="{seat}"]').click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/me/$"))
    expect(phone.locator("form.verdict-form button[value=agree]")).to_be_visible()
    if shoot:
        check_screen(phone, f"confirm-verdict-{tag}", shoot)
    phone.locator("form.verdict-form button[value=agree]").click()
    expect(phone.locator(".said .notice")).to_be_visible()
    return phone


@pytest.mark.parametrize(
    ("locale", "quorum"), [("en-GB", Quorum.ALL), ("bg-BG", Quorum.KEEPER_AND_ONE)]
)
def test_other_phones_confirm_and_a_dispute_reaches_the_organiser(
    live_server, new_phone, screenshot, django_user_model, locale, quorum
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = services.club_create(name="Plovdiv Blato Club")
    event = services.event_create(
        club=club,
        name="Confirm Night",
        rounds_planned=2,
        seed=15,
        organisers=[user],
        confirm_quorum=quorum,
    )
    names = ["Ana", "Boris", "Vera", "Dimitar", "Elena", "Filip"]
    services.players_register(event=event, names=names, checked_in=True)
    round_ = Round.objects.get(pk=services.round_create(event=event).pk)
    services.round_publish(round_=round_)
    first, second = (Table.objects.get(round=round_, number=n) for n in (1, 2))
    game = finish(first.game)
    other = finish(second.game)
    shoot = screenshot if locale == "en-GB" else None
    tag = "en" if locale == "en-GB" else "bg"

    # The keeper confirms: under the event's quorum that is not enough yet.
    keeper = new_phone(locale=locale)
    keeper.goto(f"{live_server.url}/games/{game.pk}/keep/{game.secret}/")
    keeper.locator(".confirm-form label.pill").first.click()
    keeper.locator(".confirm-form button[type=submit]").click()
    expect(keeper.locator("#confirmations .quorum")).to_be_visible()
    assert not Game.objects.get(pk=game.pk).confirmed
    check_screen(keeper, f"confirm-keeper-waits-{tag}", shoot)

    # Other phones claim their seats and confirm: "keeper and one" locks with the first,
    # "all" needs every seat.
    last = claim_and_confirm(new_phone, live_server, locale, game, 1, shoot, tag)
    if quorum == Quorum.ALL:
        assert not Game.objects.get(pk=game.pk).confirmed
        claim_and_confirm(new_phone, live_server, locale, game, 2)
        assert not Game.objects.get(pk=game.pk).confirmed
        last = claim_and_confirm(new_phone, live_server, locale, game, 0)
    expect(last.locator("p.confirmed")).to_be_visible()
    assert Game.objects.get(pk=game.pk).confirmed
    check_screen(last, f"confirm-locked-{tag}", shoot)

    # A seat claimed meanwhile on another phone is refused, with whom to ask.
    vera = new_phone(locale=locale)
    vera.goto(f"{live_server.url}/games/{other.pk}/me/?seat=0")
    stranger = new_phone(locale=locale)
    stranger.goto(f"{live_server.url}/games/{other.pk}/me/")
    stranger.locator('form.claim-form button[value="0"]').click()
    expect(stranger).to_have_url(re.compile(rf"/games/{other.pk}/me/$"))
    vera.locator('form.claim-form button[value="0"]').click()
    expect(vera.locator(".alert[role=alert]")).to_be_visible()
    check_screen(vera, f"confirm-seat-taken-{tag}", shoot)

    # At table 2 a player says the result is wrong, and why.
    player = new_phone(locale=locale)
    player.goto(f"{live_server.url}/games/{other.pk}/me/")
    player.locator('form.claim-form button[value="1"]').click()
    player.locator("#reason").fill("Deal 4: I took 6, not 5")
    player.locator("form.verdict-form button[value=wrong]").click()
    expect(player.locator(".seat-word.disputed")).to_be_visible()
    check_screen(player, f"confirm-disputed-{tag}", shoot)

    # The organiser's round page lists the table, with every side's words, and resets.
    organiser = new_phone(locale=locale)
    log_in(organiser, live_server.url + "/organise/")
    organiser.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/")
    dispute = organiser.locator("#dispute-2")
    expect(dispute).to_contain_text("Deal 4: I took 6, not 5")
    check_screen(organiser, f"confirm-round-dispute-{tag}", shoot)
    dispute.locator(".seat-word.disputed form.claim-reset button").click()
    expect(organiser.locator("#dispute-2")).to_have_count(0)
