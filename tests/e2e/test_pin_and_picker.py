"""Table PINs and the card picker at 390×844 in English and Bulgarian: the organiser reads a table's
PIN off the round page, a phone whose camera won't scan types the table number and the PIN,
lands on the keeper's page and records a deal; a wrong PIN is refused in words. Then the
referee's card picker, used by taps alone (with and without JavaScript)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scoring.models import DealEntry
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Round, Table
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_a_phone_opens_its_table_by_number_and_pin(
    live_server, new_phone, screenshot, django_user_model, locale
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Plovdiv Blato Club")
    event = event_create(club=club, name="PIN Night", rounds_planned=2, seed=15, organisers=[user])
    names = ["Ana", "Boris", "Vera", "Dimitar", "Elena", "Filip"]
    players_register(event=event, names=names, checked_in=True)
    round_ = Round.objects.get(pk=round_create(event=event).pk)
    round_publish(round_=round_)
    table = Table.objects.get(round=round_, number=2)
    shoot = screenshot if locale == "en-GB" else None
    tag = "en" if locale == "en-GB" else "bg"

    # The organiser reads table 2's PIN off the round page (and finds it on the cards).
    organiser = new_phone(locale=locale)
    log_in(organiser, live_server.url + "/organise/")
    organiser.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/")
    pin = organiser.locator('.pin[data-table="2"]').inner_text().strip()
    assert pin == table.pin and re.fullmatch(r"\d{6}", pin)
    check_screen(organiser, f"pin-round-page-{tag}", shoot)
    organiser.goto(f"{live_server.url}/organise/events/{event.slug}/rounds/1/print/cards/")
    expect(organiser.locator(".card").nth(1).locator(".pin")).to_have_text(pin)
    check_screen(organiser, f"pin-table-cards-{tag}", shoot)

    # A player's phone: the event page links to "Enter your table".
    phone = new_phone(locale=locale)
    phone.goto(f"{live_server.url}/events/{event.slug}/")
    phone.locator(f'a[href="/events/{event.slug}/table/"]').click()
    expect(phone.locator("h1")).to_be_visible()
    check_screen(phone, f"pin-enter-{tag}", shoot)

    # A wrong PIN is refused in words, and what was typed stays.
    phone.locator("#id_table").fill("2")
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    phone.locator("#id_pin").fill(wrong)
    phone.locator("form.pin-form button[type=submit]").click()
    expect(phone.locator(".alert")).to_be_visible()
    expect(phone.locator("#id_pin")).to_have_value(wrong)
    check_screen(phone, f"pin-wrong-{tag}", shoot)

    # The right one: the keeper's page of table 2's game.
    phone.locator("#id_pin").fill(pin)
    phone.locator("form.pin-form button[type=submit]").click()
    expect(phone).to_have_url(re.compile(rf"/games/{table.game_id}/$"))
    check_screen(phone, f"pin-keeper-{tag}", shoot)

    # It records a deal: the call, two counts, Record.
    phone.locator('button[name="call"]').first.click()
    phone.locator('label[for="id_tricks_0_4"]').click()
    phone.locator('label[for="id_tricks_1_7"]').click()
    expect(phone.locator("#id_tricks_2")).to_have_value("5")
    phone.locator("form.tricks-form button[type=submit]").click()
    expect(phone.locator("#deal-heading")).to_contain_text(" 2 ")
    assert DealEntry.objects.filter(game=table.game, undone_at__isnull=True).count() == 1


@pytest.mark.parametrize(
    ("locale", "javascript"), [("en-GB", True), ("bg-BG", True), ("en-GB", False)]
)
def test_the_referee_picker_by_taps(live_server, new_phone, screenshot, locale, javascript):
    page = new_phone(locale=locale, javascript=javascript)
    shoot = screenshot if javascript and locale == "en-GB" else None
    page.goto(live_server.url + "/referee/")
    hand = page.locator('[data-card-picker="id_return-hand"]')
    given = page.locator('[data-card-picker="id_return-given"]')

    def tap(picker, code):  # the card face: the box itself is hidden
        picker.locator(f".pick-card:has(input[value='{code}'])").click()

    for code in ("AH", "9H", "2C"):
        tap(hand, code)
    tap(given, "QH")
    if javascript:  # each tap is written into the field the engine reads
        expect(page.locator("#id_return-hand")).to_have_value("AH 9H 2C")
        expect(page.locator("#id_return-given")).to_have_value("QH")
        tap(hand, "2C")  # a second tap takes a card out again
        expect(page.locator("#id_return-hand")).to_have_value("AH 9H")
    # every card is at least 44 px square on the phone (check_screen: no sideways scroll)
    box = hand.locator(".pick-card").first.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    check_screen(page, "referee-card-picker", shoot)
    page.locator('button[name="ask"][value="return"]').click()
    expect(page.locator(".answer-headline")).to_contain_text("A♥")
    # the chosen cards are still chosen on the answer's page
    expect(hand.locator(".pick-card:has(input[value='AH']:checked)")).to_have_count(1)
    expect(hand.locator(".pick-card:has(input[value='9H']:checked)")).to_have_count(1)
    check_screen(page, "referee-card-picker-answer", shoot)
