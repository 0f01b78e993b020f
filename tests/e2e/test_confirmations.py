"""At 390×844 in English and Bulgarian: an event table's result is confirmed on the players'
own phones, each proven to be its player's. The deals are recorded through the services (the
entry itself has its own journeys). The keeper's phone proves it is its player's (the slip's
link) and confirms on the keeper's page; the other phones prove themselves (one types the
personal code on "Where do I sit?", the others scan their slips), open the public table
page, claim their own seats and confirm, and the result locks under the event's quorum. A
phone that proved nothing, or proved someone else, cannot claim a seat. At another table a
player says "this is wrong", and the organiser's round page shows the table with every side's
words and how each seat was proven."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import Game, Quorum
from tests.scoring.test_manage import finish
from tournaments.events.selectors.identity import slip_token
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry, Round, Table
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


def prove_by_slip(phone, live_server, event, entry: Entry):
    """The slip's QR scanned: "Are you X?" → "Yes, I am X"; the phone is X's now."""
    phone.goto(f"{live_server.url}/events/{event.slug}/me/{entry.pk}/{slip_token(entry)}/")
    phone.locator("form.prove-form button[type=submit]").click()
    expect(phone).to_have_url(re.compile(rf"/events/{event.slug}/seat/$"))


def entry_at(table: Table, seat: int) -> Entry:
    return Entry.objects.select_related("player").get(
        event=table.round.event, player_id=table.seat_ids[seat]
    )


def claim_and_confirm(new_phone, live_server, locale, table, seat, shoot=None, tag=""):
    """A player's phone: proven by the slip, then the public table page, "I am X", then
    "Confirm the result": the proven phone is not asked again who it is."""
    phone = new_phone(locale=locale)
    game = table.game
    prove_by_slip(phone, live_server, table.round.event, entry_at(table, seat))
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.locator(f'.claim-links a[href$="/me/?seat={seat}"]').click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/me/\?seat={seat}$"))
    if shoot:
        check_screen(phone, f"confirm-claim-{tag}", shoot)
    expect(phone.locator("form.claim-form")).to_have_count(0)  # no name to pick again
    expect(phone.locator("form.verdict-form button[value=agree]")).to_be_visible()
    if shoot:
        check_screen(phone, f"confirm-verdict-{tag}", shoot)
    phone.locator("form.verdict-form button[value=agree]").click()
    expect(phone.locator(".message.success[role=status]")).to_be_visible()
    expect(
        phone.locator("p.you-confirmed, p.confirmed").first
    ).to_be_visible()  # no second "Confirm"
    expect(phone.locator("form.verdict-form button[value=agree]")).to_have_count(0)
    return phone


@pytest.mark.parametrize(
    ("locale", "quorum"), [("en-GB", Quorum.ALL), ("bg-BG", Quorum.KEEPER_AND_ONE)]
)
def test_other_phones_confirm_and_a_dispute_reaches_the_organiser(
    live_server, new_phone, screenshot, django_user_model, locale, quorum
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Plovdiv Blato Club")
    event = event_create(
        club=club,
        name="Confirm Night",
        rounds_planned=2,
        seed=15,
        organisers=[user],
        confirm_quorum=quorum,
    )
    names = ["Ana", "Boris", "Vera", "Dimitar", "Elena", "Filip"]
    players_register(event=event, names=names, checked_in=True)
    round_ = Round.objects.get(pk=round_create(event=event).pk)
    round_publish(round_=round_)
    first, second = (Table.objects.get(round=round_, number=n) for n in (1, 2))
    game = finish(first.game)
    other = finish(second.game)
    shoot = screenshot  # both languages: the keeper's box in Bulgarian is in docs/screenshots
    tag = "en" if locale == "en-GB" else "bg"

    # The keeper's phone is not proven yet: the keeper's page offers to prove it, and the
    # seat page leads back to the table, kept on this phone. Proven (the slip: seat 0's
    # player), one tap confirms her own seat and as keeper: under the event's quorum that
    # is not enough yet, and the box names who it waits for.
    keeper = new_phone(locale=locale)
    keeper.goto(f"{live_server.url}/games/{game.pk}/keep/{game.secret}/")
    expect(keeper.locator("#confirmations a.prove-link")).to_be_visible()
    expect(keeper.locator(".keeper-seat-form")).to_have_count(0)
    prove_by_slip(keeper, live_server, event, entry_at(first, 0))
    keeper.locator(f'.seat-answer a[href$="/games/{game.pk}/"]').click()
    expect(keeper.locator(".confirm-form")).to_have_count(0)  # one thing to do, not two
    expect(keeper.locator(".keeper-seat-form button")).to_contain_text(first.seats[0].name)
    keeper.locator(".keeper-seat-form button").click()
    quorum_line = keeper.locator("#confirmations .quorum")
    expect(quorum_line).to_contain_text(first.seats[1].name)
    expect(quorum_line).not_to_contain_text(first.seats[0].name)
    expect(keeper.locator(".keeper-seat-form")).to_have_count(0)
    assert not Game.objects.get(pk=game.pk).confirmed
    check_screen(keeper, f"confirm-keeper-waits-{tag}", shoot)

    # A phone that proved nothing is asked to prove who it is, and claims nothing.
    stranger = new_phone(locale=locale)
    stranger.goto(f"{live_server.url}/games/{game.pk}/me/?seat=1")
    expect(stranger.locator("form.claim-form")).to_have_count(0)
    expect(stranger.locator("a.prove-link")).to_be_visible()
    check_screen(stranger, f"confirm-prove-first-{tag}", shoot)

    # Vera proves herself by typing her code on "Where do I sit?", as a player without a
    # camera would, and claims her seat: "keeper and one other" locks with her (the keeper
    # proved to be seat 0's player), "all" needs every seat.
    vera = entry_at(first, 1)
    stranger.locator("a.prove-link").click()
    stranger.locator("#seat-name").fill(vera.player.name)
    stranger.locator(".seat-form button[type=submit]").click()
    stranger.locator("form.prove-form input[name=code]").fill(vera.code)
    stranger.locator("form.prove-form button[type=submit]").click()
    expect(stranger.locator(".seat-me")).to_contain_text(vera.player.name)
    stranger.locator("a.my-confirmation").click()
    stranger.locator("form.verdict-form button[value=agree]").click()
    last = stranger
    if quorum == Quorum.ALL:
        assert not Game.objects.get(pk=game.pk).confirmed
        last = claim_and_confirm(new_phone, live_server, locale, first, 2, shoot, tag)
    expect(last.locator("p.confirmed")).to_be_visible()
    assert Game.objects.get(pk=game.pk).confirmed
    check_screen(last, f"confirm-locked-{tag}", shoot)

    # At table 2 a phone proven to be table 1's player cannot speak for anyone there.
    elsewhere = new_phone(locale=locale)
    prove_by_slip(elsewhere, live_server, event, entry_at(first, 2))
    elsewhere.goto(f"{live_server.url}/games/{other.pk}/me/?seat=0")
    expect(elsewhere.locator("form.claim-form")).to_have_count(0)
    check_screen(elsewhere, f"confirm-not-your-table-{tag}", shoot)

    # At table 2 a player says the result is wrong, and why.
    player = new_phone(locale=locale)
    prove_by_slip(player, live_server, event, entry_at(second, 1))
    player.goto(f"{live_server.url}/games/{other.pk}/me/")
    player.locator("#reason").fill("Deal 4: I took 6, not 5")
    player.locator("form.verdict-form button[value=wrong]").click()
    expect(player.locator(".seat-word.disputed")).to_be_visible()
    check_screen(player, f"confirm-disputed-{tag}", shoot)

    # The organiser's round page lists the table, with every side's words and how each seat
    # was proven; the organiser confirms for a player without a phone, and resets the claim.
    organiser = new_phone(locale=locale)
    log_in(organiser, live_server.url + "/organise/")
    organiser.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/")
    dispute = organiser.locator("#dispute-2")
    expect(dispute).to_contain_text("Deal 4: I took 6, not 5")
    expect(dispute.locator(".seat-word.disputed .proof-code")).to_be_visible()
    check_screen(organiser, f"confirm-round-dispute-{tag}", shoot)
    dispute.locator(".seat-word").nth(2).locator("form.seat-vouch button").click()
    expect(organiser.locator("#dispute-2 .proof-organiser")).to_be_visible()
    organiser.locator("#dispute-2 .seat-word.disputed form.claim-reset button").click()
    expect(organiser.locator("#dispute-2")).to_have_count(0)

    # The players page shows each player's personal code, and the slips print one a player.
    organiser.goto(f"{live_server.url}/organise/events/{event.slug}/players/")
    code = entry_at(first, 1).code
    expect(organiser.locator(".player-list")).to_contain_text(f"{code[:4]} {code[4:]}")
    check_screen(organiser, f"confirm-player-codes-{tag}", shoot)
    organiser.locator(f'a[href$="/organise/events/{event.slug}/players/slips/"]').click()
    expect(organiser.locator("article.slip")).to_have_count(len(names))
    check_screen(organiser, f"confirm-player-slips-{tag}", shoot)
