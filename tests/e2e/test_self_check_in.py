"""Players check themselves in, on 390 px phones in English and Bulgarian: the organiser opens
self check-in and prints the door poster; three players each find their name ("boris ivanov"
for Борис Иванов, "Вера Георгиева" for Vera Georgieva) and check in on their own phone with
their personal code; a newcomer asks to be entered; the organiser's players page shows the
request by itself (polled) and accepts it with one tap; nobody is left missing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Entry

from .conftest import no_horizontal_scroll
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = {"Ana Petrova": "ana", "Борис Иванов": "boris ivanov", "Vera Georgieva": "Вера Георгиева"}


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_three_players_check_in_from_their_phones_and_a_newcomer_is_accepted(
    live_server, new_phone, screenshot, django_user_model, locale
):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Sofia Blato Club", creator=olga)
    event = event_create(club=club, name="Friday night", ruleset="blato", by=olga)
    players_register(event=event, names=list(PLAYERS), by=olga)
    language = locale[:2]

    organiser = new_phone(locale=locale)
    players_url = f"{live_server.url}/organise/events/{event.slug}/players/"
    log_in(organiser, players_url)
    organiser.locator("form[action$='/self-check-in/'] button").click()
    expect(organiser.locator("#arrivals .missing a")).to_have_count(3)
    organiser.locator("#arrivals a[href$='/door-poster/']").click()
    expect(organiser.locator(".poster-qr svg")).to_be_visible()
    here_url = f"{live_server.url}/events/{event.slug}/here/"
    expect(organiser.locator(".poster-url")).to_have_text(here_url)
    if language == "en":
        screenshot(organiser, "door-poster")
    organiser.goto(players_url)

    for name, typed in PLAYERS.items():
        phone = new_phone(locale=locale)
        phone.goto(here_url)
        expect(phone.locator("html")).to_have_attribute("lang", language)
        phone.locator("#here-name").fill(typed)
        phone.locator("form[role=search] button[type=submit]").click()
        if typed == "ana":  # a part of a name: pick yours
            phone.locator(".card-list a", has_text=name).click()
        expect(phone.locator("#picked-heading")).to_have_text(name)
        code = Entry.objects.get(event=event, player__name=name).code
        phone.locator("#here-code").fill(code)
        phone.locator(".prove-form button[type=submit]").click()
        expect(phone.locator("#me-heading")).to_have_text(name)
        expect(phone.locator(".checked-in")).to_be_visible()
        assert no_horizontal_scroll(phone)
        if name == "Ana Petrova":
            screenshot(phone, f"self-check-in-{language}")

    newcomer = new_phone(locale=locale)
    newcomer.goto(here_url)
    newcomer.locator("#newcomer-name").fill("Dimitar Kolev")
    newcomer.locator(".newcomer button[type=submit]").click()
    expect(newcomer.locator(".newcomer [role=status]")).to_contain_text("Dimitar Kolev")
    assert no_horizontal_scroll(newcomer)

    # the organiser's page, untouched since: the request and the arrivals come by themselves
    request = organiser.locator("#arrivals .newcomers .player-row", has_text="Dimitar Kolev")
    expect(request).to_be_visible(timeout=15_000)
    expect(organiser.locator("#arrivals .missing")).to_have_count(0)
    for name in PLAYERS:  # the list's own rows say so too, without a reload
        expect(organiser.locator("li.player-row.is-in", has_text=name)).to_have_count(1)
    assert no_horizontal_scroll(organiser)
    if language == "en":
        screenshot(organiser, "self-check-in-arrivals")
    request.locator("form[action$='/accept/'] button").click()
    expect(organiser.locator("#arrivals .newcomers")).to_have_count(0)
    expect(organiser.locator("#counts")).to_contain_text(re.compile(r"\b4\b"))
    # the newcomer's phone, untouched: its page reloads itself (15 s) and it is proven as them
    expect(newcomer.locator("#me-heading")).to_have_text("Dimitar Kolev", timeout=25_000)
    expect(newcomer.locator(".checked-in")).to_be_visible()
    assert no_horizontal_scroll(newcomer)

    entries = {e.player.name: e for e in Entry.objects.filter(event=event).select_related("player")}
    assert {n: e.checked_in_by for n, e in entries.items()} == {
        **dict.fromkeys(PLAYERS, "phone"),
        "Dimitar Kolev": "organiser",
    }
    assert all(entry.checked_in for entry in entries.values())
    organiser.reload()
    for name in PLAYERS:
        row = organiser.locator(".player-row", has_text=name)
        expect(row.locator("form.check-in input[name=checked_in]")).to_have_value("0")
