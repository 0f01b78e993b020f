"""The public event pages on a player's phone: the event's home, "where do I sit?", the
round's tables, a player's page, the projector, and the standings updating by themselves
after a table's result is confirmed. The event is set up through the services (9 players,
round 1 published; the pairing runs at once, Celery being eager)."""

from __future__ import annotations

import datetime as dt
import random
import re

import pytest
from playwright.sync_api import expect

from scoring import autoplay
from scoring import services as scoring
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Event, Round
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen
from .conftest import DESKTOP
from .test_organise import PLAYERS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def event(live_server) -> Event:
    club = club_create(name="Varna Blato Club")
    event = event_create(club=club, name="Spring Open", rounds_planned=2, seed=358, actor="olga")
    players_register(event=event, names=PLAYERS, checked_in=True, actor="olga")
    round_ = round_create(event=event, actor="olga")  # paired once committed
    round_.refresh_from_db()
    assert round_.status == Round.Status.DRAFT, round_.build_error
    round_publish(round_=round_, actor="olga")
    return event


def seat_of(event: Event, name: str) -> tuple[int, int]:
    """(table number, seat 1-3) of a player in round 1, from the database."""
    for table in Round.objects.get(event=event, number=1).tables.all():
        names = [player.name for player in table.seats]
        if name in names:
            return table.number, names.index(name) + 1
    raise AssertionError(f"{name} has no seat")


def find_my_seat(page, typed: str, pick: str | None = None) -> None:
    page.get_by_label("Your name").fill(typed)
    page.get_by_role("button", name="Find my seat").click()
    if pick:
        expect(page.get_by_role("heading", name="Which one are you?")).to_be_visible()
        page.get_by_role("link", name=pick).click()


def test_a_player_finds_the_table_and_the_standings_update_by_themselves(
    live_server, event, new_phone, screenshot
):
    base = f"{live_server.url}/events/{event.slug}/"

    # The standings, open on one phone: built when the round was published, nothing played.
    wall = new_phone()
    wall.goto(base + "standings/")
    rows = wall.locator("#standings tbody tr:not(.unranked-head)")
    expect(rows).to_have_count(len(PLAYERS))
    before = wall.locator("#standings").inner_text()
    wall.evaluate("window.stillTheSamePage = true")

    # Table 1 plays its game and a player confirms the result (as its phone would). The
    # standings are rebuilt at once (Celery eager); the open page polls every 15 s.
    table = Round.objects.get(event=event, number=1).tables.get(number=1)
    autoplay.play(table.game, random.Random(1), actor="table")
    table.game.refresh_from_db()
    scoring.game_confirm(game_id=table.game_id, actor=table.game.players[1])
    snapshot = event.standings.first()
    leader = next(p for p in event.entries.all() if p.player_id == snapshot.rows[0]["player"])

    # Meanwhile a player looks for their seat on another phone.
    phone = new_phone()
    phone.goto(base)
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Spring Open")
    check_screen(phone, "public-event", screenshot)
    phone.get_by_role("link", name="Where do I sit?").first.click()
    # "ova" is in four names: the page asks which one.
    find_my_seat(phone, "ova", pick="Elena Todorova")
    table_number, seat = seat_of(event, "Elena Todorova")
    answer = phone.locator(".seat-answer")
    expect(answer.get_by_role("heading", level=2)).to_have_text("Elena Todorova")
    expect(answer.locator(".where")).to_have_text(f"Table {table_number} seat {seat}")
    expect(answer.locator(".seat-rows li")).to_have_count(2)
    check_screen(phone, "public-seat", screenshot)

    answer.get_by_role("link", name="All your rounds and your standing").click()
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Elena Todorova")
    expect(phone.locator(".table-card")).to_contain_text(f"Table {table_number}, seat {seat}")
    check_screen(phone, "public-player", screenshot)

    phone.get_by_role("link", name="Event", exact=True).click()
    phone.get_by_role("link", name="Round 1: the tables").click()
    expect(phone.locator(".table-card")).to_have_count(3)
    expect(phone.locator(".table-card").first).to_contain_text("Confirmed")
    check_screen(phone, "public-round", screenshot)

    # The standings have changed without a reload: the leader has the first place's points.
    first = rows.first
    expect(first).to_contain_text(leader.player.name, timeout=20_000)
    expect(wall.locator("#standings")).not_to_have_text(before, timeout=20_000)
    assert wall.evaluate("window.stillTheSamePage") is True
    check_screen(wall, "public-standings", screenshot)

    # The projector on the wall, at desktop size.
    projector = new_phone(viewport=DESKTOP, mobile=False)
    projector.emulate_media(reduced_motion="reduce")
    projector.goto(base + "projector/")
    expect(projector.locator(".projector-tables > li")).to_have_count(3)
    players = projector.locator("table.standings tbody tr:not(.unranked-head)")
    expect(players).to_have_count(len(PLAYERS))
    check_screen(projector, "public-projector", screenshot)


def test_where_do_i_sit_without_javascript(live_server, event, new_phone, screenshot):
    phone = new_phone(javascript=False)
    phone.goto(f"{live_server.url}/events/{event.slug}/")
    phone.get_by_role("link", name="Where do I sit?").first.click()
    # Nothing typed: said next to the field.
    phone.get_by_role("button", name="Find my seat").click()
    expect(phone.locator("#seat-error")).to_have_text("Type your name, or a part of it.")
    expect(phone.get_by_label("Your name")).to_have_attribute("aria-invalid", "true")
    check_screen(phone, "public-seat-error", None)
    find_my_seat(phone, "boris ivanov")
    table_number, seat = seat_of(event, "Boris Ivanov")
    expect(phone.locator(".where")).to_have_text(re.compile(rf"Table {table_number}\s+seat {seat}"))
    check_screen(phone, "public-seat-nojs", None)
    phone.get_by_role("link", name="Follow your table's score sheet").click()
    expect(phone.locator("#deal-heading")).to_have_text("Hand 1 of 9")


def test_built_ago_moves_on_by_itself_whatever_the_phones_clock(live_server, event, new_phone):
    """The poll's answer leaves "built … ago" out (a new minute is a 304): the page's script
    words it again every 30 s (static/js/built/page.js) from the moment the page carries and
    the server's time, whatever the phone's own clock says, in the page's language."""
    errors: list[str] = []
    phone = new_phone()
    phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    phone.clock.install(time=dt.datetime.now(dt.UTC) + dt.timedelta(minutes=7))  # 7 min fast
    phone.goto(f"{live_server.url}/events/{event.slug}/standings/")
    built = phone.locator("#standings time[data-built]")
    expect(built).to_have_text("built just now")
    phone.clock.fast_forward("02:30")
    expect(built).to_have_text("built 2 minutes ago")
    phone.clock.fast_forward("01:00:00")
    expect(built).to_have_text("built 1 hour ago")
    assert not errors, errors

    player = event.entries.order_by("pk").first().player_id
    bulgarian = new_phone(locale="bg-BG")
    bulgarian.clock.install(time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=40))  # slow
    bulgarian.goto(f"{live_server.url}/events/{event.slug}/players/{player}/")
    built = bulgarian.locator(".built time[data-built]")
    expect(built).to_have_text("изчислено току-що")
    bulgarian.clock.fast_forward("03:10")
    expect(built).to_have_text("изчислено преди 3 минути")

    wall = new_phone(viewport=DESKTOP, mobile=False)
    wall.clock.install(time=dt.datetime.now(dt.UTC))
    wall.goto(f"{live_server.url}/events/{event.slug}/projector/")
    built = wall.locator("#projector-standings time[data-built]")
    expect(built).to_have_text("built just now")
    wall.clock.fast_forward("05:00")
    expect(built).to_have_text("built 5 minutes ago")
