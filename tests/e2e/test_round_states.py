"""A round built too early, a build no worker takes, a draft deleted, a stale table, and the
poster: an organiser on a phone never meets a dead end, with and
without JavaScript."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import autoplay
from scoring.models import DealEntry
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Round

from .checks import check_screen
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_a_round_built_too_early_and_a_stuck_build_have_a_way_out(
    live_server, new_phone, screenshot, django_user_model, javascript
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Varna Blato Club")
    event = event_create(
        club=club, name="Spring Open", rounds_planned=2, seed=358, organisers=[user]
    )
    names = ["Ana Petrova", "Boris Ivanov", "Vera Georgieva", "Dimitar Kolev"]
    players_register(event=event, names=names[:2], checked_in=True)
    page = new_phone(javascript=javascript)
    shoot = screenshot if javascript else None
    log_in(page, live_server.url + "/organise/")
    dashboard = f"{live_server.url}/organise/events/{event.slug}/"
    page.goto(dashboard)

    # Too early: said before the tap, refused at once after it, and nothing is left waiting.
    expect(page.locator("#too-few")).to_contain_text(
        "Only 2 players are checked in; a round needs at least 3."
    )
    for link in ("Event page", "Where do I sit?", "Standings", "Projector", "QR poster"):
        expect(page.get_by_role("link", name=re.compile(re.escape(link)))).to_be_visible()
    check_screen(page, "organise-too-few", shoot)
    page.get_by_role("button", name="Build round 1").click()
    expect(page).to_have_url(dashboard)
    expect(page.locator(".message.error")).to_contain_text("only 2 players are checked in")
    page.reload()  # a reload shows the dashboard, it does not post again
    assert not event.rounds.exists()

    # The poster for the wall.
    page.get_by_role("link", name="QR poster to print").click()
    expect(page.locator(".poster-qr svg")).to_be_visible()
    check_screen(page, "organise-poster", shoot)

    # More players arrive; the round is asked for, but no worker takes it.
    players_register(event=event, names=names[2:] + ["Elena Todorova"], checked_in=True)
    round_ = Round.objects.create(event=event, number=1, pairing_mode="swiss")
    Round.objects.filter(pk=round_.pk).update(requested_at=timezone.now() - timedelta(minutes=2))
    page.goto(dashboard)
    expect(page.locator(".next-step")).to_have_text(
        "Still being built after a minute: build it again"
    )
    page.get_by_role("link", name="Round 1", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("The site's worker seems to have stopped.")
    check_screen(page, "organise-round-stuck", shoot)
    page.get_by_role("button", name="Build it again").click()
    expect(page.get_by_role("heading", name="Draft")).to_be_visible()

    # The draft deleted, then built again from the dashboard.
    page.get_by_text("Delete round 1…").click()
    page.get_by_role("button", name="Delete round 1").click()
    expect(page).to_have_url(dashboard)
    expect(page.locator(".message")).to_contain_text("Round 1 deleted.")
    assert not event.rounds.exists()
    page.get_by_role("button", name="Build round 1").click()
    if not javascript:  # the page refreshes itself while the task runs
        page.goto(page.url)
    expect(page.get_by_role("heading", name="Draft")).to_be_visible()
    page.get_by_role("button", name="Publish round 1").click()

    # Published: no close button to tap by mistake; a quiet table stands out.
    round_ = event.rounds.get()
    table = round_.tables.select_related("game").get()
    autoplay.play(table.game, random.Random(5), actor="table")
    DealEntry.objects.filter(game=table.game).update(
        entered_at=timezone.now() - timedelta(minutes=3)
    )
    page.goto(page.url)
    expect(page.locator(".settled")).to_have_text("0 of 1 table confirmed")
    expect(page.get_by_role("button", name="Close round 1")).to_be_disabled()
    expect(page.locator(".table-activity")).to_contain_text("last entry 3")
    check_screen(page, "organise-round-progress", shoot)
    page.get_by_role("button", name="Confirm the result").click()
    expect(page.get_by_role("button", name="Close round 1")).to_be_enabled()
