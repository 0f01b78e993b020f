"""The round clock at 390 px, in English and Bulgarian: the organiser starts it on the round's
page; the projector and two keepers' phones show the same time left within a second; time
runs out; one table finishes the deal it was playing and its game ends as it stands; the
organiser gives the other table five minutes more on its page, and its keeper's phone follows
while the wall stays at time."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import autoplay
from scoring.models import Game
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Round, Table
from tournaments.rounds.services.rounds import round_create, round_publish

from .checks import check_screen
from .conftest import DESKTOP
from .organiser import PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en-GB": {"up": "Time is up.", "five": "Five minutes left.", "label": "Time is up"},
    "bg-BG": {"up": "Времето изтече.", "five": "Остават пет минути.", "label": "Времето изтече"},
}


def seconds_left(page) -> int:
    text = page.locator("[data-clock] [data-clock-time]").first.text_content().strip()
    parts = [int(part) for part in text.split(":")]
    return parts[-2] * 60 + parts[-1] + (parts[-3] * 3600 if len(parts) == 3 else 0)


def same_time_left(pages) -> list[int]:
    """The time left each page shows, read one right after the other."""
    return [seconds_left(page) for page in pages]


def played_a_little(game: Game, rng: random.Random) -> None:
    """Hands until the totals differ (so "as it stands" has one order), the game going on."""
    for _ in range(40):
        autoplay.play(game, rng, deals=1, actor="table")
        game.refresh_from_db()
        assert game.result == Game.Result.IN_PLAY
        if len(set(game.totals)) == 3 and game.entries.last().tricks is not None:
            return
    raise AssertionError(game.totals)


@pytest.mark.parametrize("locale", ["en-GB", "bg-BG"])
def test_a_round_clock_runs_out_one_table_ends_as_it_stands_another_is_extended(
    live_server, new_phone, screenshot, django_user_model, locale
):
    user = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Burgas Blato Club")
    event = event_create(
        club=club,
        name="Clock Night",
        rounds_planned=2,
        seed=27,
        organisers=[user],
        clock_minutes=30,
    )
    players_register(
        event=event, names=["Ana", "Boris", "Vera", "Dimitar", "Elena", "Filip"], checked_in=True
    )
    round_ = Round.objects.get(pk=round_create(event=event).pk)
    round_publish(round_=round_)
    first, second = (Table.objects.get(round=round_, number=n) for n in (1, 2))
    rng = random.Random(27)
    played_a_little(first.game, rng)
    played_a_little(second.game, rng)
    tag = "en" if locale == "en-GB" else "bg"
    words = WORDS[locale]

    # The organiser starts the clock on the round's page (a plain form).
    organiser = new_phone(locale=locale)
    round_page = f"{live_server.url}/organise/events/{event.slug}/rounds/1/"
    log_in(organiser, round_page)
    organiser.locator('form[action$="/clock/start/"] button').click()
    expect(organiser.locator("#round-clock [data-clock]")).to_be_visible()
    check_screen(organiser, f"round-clock-organiser-{tag}", screenshot)

    # Two keepers' phones and the wall.
    keepers = []
    for table in (first, second):
        keeper = new_phone(locale=locale)
        keeper.goto(f"{live_server.url}/games/{table.game_id}/keep/{table.game.secret}/")
        expect(keeper.locator("[data-clock]")).to_be_visible()
        keepers.append(keeper)
    wall = new_phone(locale=locale, viewport=DESKTOP, mobile=False)
    wall.goto(f"{live_server.url}/events/{event.slug}/projector/")
    expect(wall.locator(".round-clock-big")).to_be_visible()
    shown = same_time_left([wall, *keepers])
    assert max(shown) - min(shown) <= 1 and 29 * 60 <= min(shown) <= 30 * 60, shown
    # The phones count down by themselves.
    wall.wait_for_timeout(2_100)
    later = same_time_left([wall, *keepers])
    assert all(1 <= before - now <= 3 for before, now in zip(shown, later, strict=True)), later
    check_screen(keepers[0], f"round-clock-keeper-{tag}", screenshot)

    # The round's time is nearly over (as after half an hour): the keepers' polls bring the
    # new deadline, the wall's too; the keepers are warned, then told time is up.
    deadline = timezone.now() + timedelta(seconds=8)
    Round.objects.filter(pk=round_.pk).update(clock_deadline=deadline)
    Game.objects.filter(table__round=round_).update(time_up_at=deadline)
    for keeper in keepers:
        expect(keeper.locator("[data-clock-note]")).to_have_text(words["five"], timeout=8_000)
    for keeper in keepers:
        expect(keeper.locator("[data-clock-note]")).to_have_text(words["up"], timeout=12_000)
        expect(keeper.locator("[data-clock]")).to_have_class(re.compile("clock-at-time"))
        expect(keeper.locator("[data-clock-label]")).to_have_text(words["label"])
    check_screen(keepers[1], f"round-clock-time-up-{tag}", screenshot)

    # Table 1 finishes the deal it was playing: the game ends as it stands, confirmed.
    autoplay.play(Game.objects.get(pk=first.game_id), rng, deals=1, actor="table")
    first.refresh_from_db()
    assert first.outcome == Table.Outcome.ENDED_AT_TIME and first.game.confirmed
    expect(keepers[0].locator("#game")).to_contain_text(
        "Confirmed" if tag == "en" else "Потвърд", timeout=8_000
    )

    # Table 2 is still playing: flagged on the round's page; the organiser gives that table
    # five minutes more on its page (the round's time stays up for everyone else).
    organiser.goto(round_page)
    expect(organiser.locator("#table-2.over-time")).to_be_visible()
    expect(organiser.locator("#table-1")).to_contain_text(
        "ended at time" if tag == "en" else "след изтеклото време", ignore_case=True
    )
    organiser.goto(f"{round_page}tables/2/")
    organiser.locator('#table-clock form[action$="/clock/extend/"] button').click()
    expect(organiser.locator(".message.success")).to_be_visible()
    check_screen(organiser, f"round-clock-table-extended-{tag}", screenshot)
    # Table 2's keeper: the poll brings its five minutes, no reload; the wall stays at time.
    expect(keepers[1].locator("[data-clock]")).to_have_attribute(
        "data-clock-status", "running", timeout=20_000
    )
    # its own five minutes, once the page's countdown has shown the new deadline
    expect(keepers[1].locator("[data-clock] [data-clock-time]").first).to_have_text(
        re.compile(r"^(4:\d\d|5:00)$"), timeout=10_000
    )
    expect(wall.locator("[data-clock]")).to_have_attribute("data-clock-status", "at_time")
    organiser.goto(round_page)
    expect(organiser.locator("#table-2.over-time")).to_have_count(0)
    autoplay.play(Game.objects.get(pk=second.game_id), rng, deals=1, actor="table")
    assert Game.objects.get(pk=second.game_id).result == Game.Result.IN_PLAY  # its time is not up
    check_screen(wall, f"round-clock-projector-{tag}", screenshot, phone=False)
