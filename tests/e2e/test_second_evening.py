"""The second real evening, on 390×844 phones, in English and in Bulgarian: no ghosts on the wall.

The club knows Мария Димитрова from last week. The organiser pastes the night's list with two
mistakes in it ("Ivan Petrof" beside Иван Петров, "Maria Dimitrova" beside the member): the
players page shows both pairs as names that look alike; the typo is deleted as entered by
mistake, the second spelling merged into the member (the merge page returns to the players
page). Boris sends word he is ill and is withdrawn before a card is dealt; everyone else is
checked in and round 1 is built under "all three players confirm". A late arrival is entered
while round 1 is played.

- Table 1: the keeper also plays. Her phone proves it is hers (the slip), confirms her own seat
  from the keeper's page, and the other two confirm on their own phones: the result locks.
- Table 2 has two keepers' phones. A hand recorded on one reaches the other by itself; then
  one phone loses the connection, keeps a hand while the other records the same hand
  otherwise: back online the clash offers the recorded hand first, and two more hands kept
  offline arrive once each.
- Table 3: a player walks out after two hands; the bye player takes the seat.

The organiser closes round 1 (asked first), and the standings wall (public page and
projector) ranks only those who played: the withdrawn Boris, the walkout and the late arrival
are listed apart, after everyone who played. Round 2 is played, the last planned; the night
goes on with a round added on the dashboard; round 3 is built, played and closed, and the
event is ended on purpose. On the final standings, the public page, the projector and the
standings CSV, nobody who never played is ranked between players who did."""

from __future__ import annotations

import random
import re
import time

import pytest
from django.utils.text import capfirst
from playwright.sync_api import expect

from scoring import autoplay
from scoring.models import DealEntry, Quorum
from tests.scoring.test_manage import finish
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import players_register
from tournaments.models import Bye, Entry, Event, Player, Round, Table
from tournaments.results.services import result_confirm
from tournaments.rounds.services.rounds import round_close, round_create, round_publish

from . import every_screen
from .checks import check_screen
from .organiser import PASSWORD, log_in
from .test_confirmations import claim_and_confirm, entry_at, prove_by_slip
from .test_evening import Words, download_csv, enter_hand, keeper_phone
from .test_offline import banner_text, tricks, wait_until_kept

pytestmark = pytest.mark.django_db(transaction=True)

LOCALES = {"en": "en-GB", "bg": "bg-BG"}
MEMBER = "Мария Димитрова"  # played in the club last week
PLAYERS = [  # the night's players, in Cyrillic and Latin as the club writes them
    "Иван Петров",
    "Ivan Georgiev",
    MEMBER,
    "Elena Todorova",
    "Стоян Стоянов",
    "Boris Kolev",
    "Вера Георгиева",
    "Dimitar Nikolov",
    "Галина Маринова",
    "Filip Yordanov",
    "Христо Павлов",
]
TYPO = "Ivan Petrof"  # Иван Петров typed again, misspelt: deleted as entered by mistake
SECOND_SPELLING = "Maria Dimitrova"  # the member typed in Latin: merged into the member
ILL = "Boris Kolev"  # withdrawn before round 1: never plays
LATE = "Лиляна Колева"  # arrives while round 1 is played


def wall(page) -> list[tuple[str, str]]:
    """The standings table as shown, top to bottom: (rank cell, player's name), with the
    "not ranked" heading as ("", "—")."""
    return page.evaluate(
        """() => [...document.querySelectorAll("table.standings tbody tr")].map(tr => {
            if (tr.classList.contains("unranked-head")) return ["", "—"];
            const th = tr.querySelector("th.player");
            const holder = th.querySelector("a") || th;
            return [tr.querySelector("td").textContent.trim(),
                    holder.childNodes[0].textContent.trim()];
        })"""
    )


def never_played(event: Event) -> set[str]:
    """Who has neither a seat at a table (as the tables ended: a substitute carries the seat)
    nor a bye: worked out from the tables, not by the standings code."""
    seated = set()
    for table in Table.objects.filter(round__event=event):
        seated |= set(table.seat_ids)
    seated |= set(Bye.objects.filter(round__event=event).values_list("player_id", flat=True))
    entries = Entry.objects.filter(event=event).select_related("player")
    return {e.player.name for e in entries if e.player_id not in seated}


def assert_no_ghosts(rows: list[tuple[str, str]], never: set[str]) -> None:
    """Everyone who played is ranked 1, 2, 3… above the "not ranked" heading; those who never
    played are below it, unranked; nobody else is there."""
    rows = [tuple(row) for row in rows]
    names = [name for _, name in rows if name != "—"]
    played = [name for rank, name in rows if rank not in ("", "–") and name != "—"]
    assert len(names) == len(set(names)), rows
    assert set(names) - set(played) == never, rows
    assert names[: len(played)] == played, rows  # nobody unranked above a ranked player
    ranks = [int(rank) for rank, name in rows[: len(played)]]
    assert ranks == sorted(ranks) and ranks[0] == 1, rows  # ties may share a rank
    if never:
        assert rows[len(played)] == ("", "—"), rows
        assert all(rank == "–" for rank, _ in rows[len(played) + 1 :]), rows


def fresh_standings(page, url: str, rounds: int, t: Words) -> None:
    """Open the standings once they count `rounds` rounds (built after the close's commit):
    the public page's "After N rounds", the projector's heading."""
    label = t.plural("After %(n)s round", "After %(n)s rounds", rounds)
    counted = page.locator(".counted, #projector-standings .subtitle").first
    for _attempt in range(40):
        page.goto(url)
        if counted.count() and label in counted.inner_text():
            break
        time.sleep(0.25)
    expect(counted).to_contain_text(label)
    expect(page.locator(".stale")).to_have_count(0)


def finish_and_confirm(round_: Round, seed: int) -> None:
    """The other tables of a round end and are confirmed (their phones, fast)."""
    rng = random.Random(seed)
    for table in round_.tables.select_related("game"):
        autoplay.play(table.game, rng, actor="table")  # a game already over is left as it is
        table.game.refresh_from_db()
        if not table.game.confirmed:
            result_confirm(table=Table.objects.get(pk=table.pk), actor="olga")


@pytest.mark.parametrize("language", ["en", "bg"])
def test_the_second_evening_leaves_no_ghosts_on_the_wall(
    live_server, new_phone, screenshot, django_user_model, language
):
    t = Words(language)
    locale = LOCALES[language]
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    club = club_create(name="Клуб „Блато“ Варна", slug="varna", creator=olga)
    last_week = event_create(club=club, name="Last Friday", organisers=[olga])
    players_register(event=last_week, names=[MEMBER, "Petar Iliev", "Rosa Pavlova"])
    event = event_create(
        club=club,
        name="Friday Night",
        rounds_planned=2,
        seed=26,
        organisers=[olga],
        confirm_quorum=Quorum.ALL,
    )
    member = Player.objects.get(club=club, name=MEMBER)
    dashboard = f"{live_server.url}/organise/events/{event.slug}/"
    players_url = f"{dashboard}players/"

    # 1. The list pasted with its two mistakes: both pairs shown as names that look alike.
    page = new_phone(locale=locale)
    log_in(page, players_url)
    pasted = [*PLAYERS[:1], TYPO, *PLAYERS[1:3], SECOND_SPELLING, *PLAYERS[3:]]
    page.locator("details.paste summary").click()
    page.locator("details.paste textarea").fill("\n".join(pasted))
    page.get_by_role("button", name=t("Enter these players")).click()
    counts = page.locator("#counts .counts-line")
    expect(counts).to_have_text(t.counts(entered=len(pasted), checked=0, withdrawn=0))
    alike = page.locator("section.names-alike li.alike")
    expect(alike).to_have_count(2)
    check_screen(page, f"second-evening-alike-{language}", screenshot)

    # The typo never played: deleted as entered by mistake, and logged.
    typo = alike.filter(has_text=TYPO)
    typo.get_by_role("button", name=t("Delete “%(name)s” (entered by mistake)", name=TYPO)).click()
    expect(counts).to_have_text(t.counts(entered=len(pasted) - 1, checked=0, withdrawn=0))
    expect(alike).to_have_count(1)
    assert not Entry.objects.filter(event=event, player__name=TYPO).exists()
    assert event.log.filter(action="entry_deleted").count() == 1

    # The second spelling is the member: merged, the member's record and name stay.
    alike.get_by_role("link", name=t("Merge the two records…")).click()
    page.get_by_role("radio", name=re.compile(rf"^{MEMBER}")).check()
    check_screen(page, f"second-evening-merge-{language}", screenshot)
    page.get_by_role("button", name=t("Merge")).click()
    expect(page).to_have_url(players_url)
    expect(counts).to_have_text(t.counts(entered=len(PLAYERS), checked=0, withdrawn=0))
    expect(page.locator("section.names-alike")).to_have_count(0)
    assert Entry.objects.get(event=event, player__name=MEMBER).player_id == member.pk
    assert last_week.entries.filter(player=member).exists()  # last week's record is hers
    assert not Player.objects.filter(club=club, name=SECOND_SPELLING).exists()

    # Boris is ill: withdrawn before a card is dealt; everyone else checked in.
    row = page.locator(".player-row", has_text=ILL)
    row.locator("summary", has_text=t("Withdraw…")).click()
    row.get_by_role("button", name=t("Withdraw %(name)s", name=ILL)).click()
    page.get_by_role("button", name=t("Check in everyone")).click()
    field = len(PLAYERS) - 1
    expect(counts).to_have_text(t.counts(entered=len(PLAYERS), checked=field, withdrawn=1))

    # 2. Round 1 built and published: three tables and a bye.
    page.goto(dashboard)
    page.get_by_role("button", name=t("Build round %(n)s", n=1)).click()
    expect(page).to_have_url(f"{dashboard}rounds/1/")
    page.get_by_role("button", name=t("Publish round %(n)s", n=1)).click()
    expect(page.locator(".round-state")).to_have_text(
        t("Status: %(status)s", status=capfirst(t("published")))
    )
    round_1 = Round.objects.get(event=event, number=1)
    first, second, third = round_1.tables.select_related("game").order_by("number")
    bye_player = Bye.objects.get(round=round_1).player

    # The late arrival is entered while round 1 is played: she joins in round 2.
    page.goto(players_url)
    page.locator("#id_name").fill(LATE)
    page.get_by_role("button", name=t("Add"), exact=True).click()
    late = page.locator(".player-row", has_text=LATE)
    expect(late).to_contain_text(t("joins in round %(n)s", n=2))
    late.get_by_role("button", name=f"{t('Check in')} {LATE}").click()
    expect(late).to_contain_text(capfirst(t("checked in")))

    # 3. Table 1: the keeper plays at seat 1. Her phone proves it is hers and speaks for her
    # own seat from the keeper's page; the other two confirm on their own phones.
    game_1 = finish(first.game)
    keeper = new_phone(locale=locale)
    keeper.goto(f"{live_server.url}/games/{game_1.pk}/keep/{game_1.secret}/")
    prove_by_slip(keeper, live_server, event, entry_at(first, 0))
    keeper.locator(f'.seat-answer a[href$="/games/{game_1.pk}/"]').click()
    own_seat = keeper.locator(".keeper-seat-form button")
    expect(own_seat).to_contain_text(first.seats[0].name)
    own_seat.click()
    expect(keeper.locator("#confirmations .quorum")).to_contain_text(first.seats[1].name)
    check_screen(keeper, f"second-evening-keeper-confirms-{language}", screenshot)
    for seat in (1, 2):
        claim_and_confirm(new_phone, live_server, locale, first, seat)
    game_1.refresh_from_db()
    assert game_1.confirmed

    # 4. Table 2: two keepers' phones. A hand on one reaches the other by itself.
    game_2 = second.game
    phone_a = keeper_phone(new_phone, live_server, game_2, locale)
    phone_b = keeper_phone(new_phone, live_server, game_2, locale)
    enter_hand(phone_a, "hearts", [4, 7, 5])
    expect(phone_b.locator("table.sheet tbody tr.deal-row")).to_have_count(1, timeout=15_000)
    wait_until_kept(phone_a)
    with every_screen.paused():
        # Phone A loses the connection and keeps hand 2; phone B records hand 2 otherwise.
        phone_a.context.set_offline(True)
        phone_a.locator('#game section.offline-deal button.call[value="spades"]').click()
        tricks(phone_a, [8, 5, 3])
        banner = phone_a.locator("#offline .offline-banner")
        expect(banner).to_have_text(banner_text(language, 1))
        enter_hand(phone_b, "diamonds", [5, 3, 8])
        phone_a.context.set_offline(False)
        phone_a.evaluate("window.dispatchEvent(new Event('online'))")
        clash = phone_a.locator("#offline .offline-clash")
        expect(clash).to_be_visible(timeout=15_000)
        # The hand that reached the server first is the first choice.
        expect(clash.locator("button.primary")).to_have_class(re.compile("offline-keep-recorded"))
        screenshot(phone_a, f"second-evening-clash-{language}")
        clash.locator(".offline-keep-recorded").click()
        expect(phone_a.locator("#offline")).to_be_hidden(timeout=15_000)
        live = DealEntry.objects.get(game=game_2, number=2, undone_at__isnull=True)
        assert (live.calls, live.tricks) == (["diamonds"], [5, 3, 8])

        # Two more hands kept offline arrive once each, in order.
        wait_until_kept(phone_a)
        phone_a.context.set_offline(True)
        for call, counts_ in (("clubs", [3, 8, 5]), ("hearts", [5, 5, 6])):
            phone_a.locator(f'#game section.offline-deal button.call[value="{call}"]').click()
            tricks(phone_a, counts_)
        expect(banner).to_have_text(banner_text(language, 2))
        screenshot(phone_a, f"second-evening-offline-{language}")
        phone_a.context.set_offline(False)
        phone_a.evaluate("window.dispatchEvent(new Event('online'))")
        expect(phone_a.locator("#offline")).to_be_hidden(timeout=15_000)
    entries = DealEntry.objects.filter(game=game_2, undone_at__isnull=True).order_by("number")
    assert [(e.number, e.tricks) for e in entries] == [
        (1, [4, 7, 5]),
        (2, [5, 3, 8]),
        (3, [3, 8, 5]),
        (4, [5, 5, 6]),
    ]
    expect(phone_b.locator("table.sheet tbody tr.deal-row")).to_have_count(4, timeout=15_000)

    # 5. Table 3: a player walks out after two hands; the bye player takes the seat.
    autoplay.play(third.game, random.Random(3), deals=2, actor="table")
    leaver = third.seat_1
    page.goto(players_url)
    row = page.locator(".player-row", has_text=leaver.name)
    row.locator("summary", has_text=t("Withdraw…")).click()
    row.get_by_role("button", name=t("Withdraw %(name)s", name=leaver.name)).click()
    expect(page).to_have_url(f"{dashboard}rounds/1/tables/3/")
    page.locator("#id_sub-seat").select_option(
        label=t("Seat %(n)s · %(name)s", n=2, name=leaver.name)
    )
    page.locator("#id_sub-player").select_option(label=bye_player.name)
    page.locator("#id_sub-reason").fill("went home")
    page.get_by_role("button", name=t("Substitute")).click()
    expect(page.locator(".messages")).to_contain_text(bye_player.name)

    # The organiser confirms the other tables and closes round 1, asked first.
    finish_and_confirm(Round.objects.get(pk=round_1.pk), seed=1)
    page.goto(f"{dashboard}rounds/1/")
    page.get_by_role("button", name=t("Close round %(n)s", n=1)).click()
    page.get_by_role("button", name=t("Yes, close round %(n)s", n=1)).click()
    expect(page).to_have_url(dashboard)

    # 6. The wall after round 1: the withdrawn Boris, the walkout and the late arrival have
    # played no game: listed apart, after everyone who did.
    never = never_played(event)
    assert never == {ILL, leaver.name, LATE}
    standings = f"{live_server.url}/events/{event.slug}/standings/"
    fresh_standings(page, standings, 1, t)
    assert_no_ghosts(wall(page), never)
    check_screen(page, f"second-evening-standings-{language}", screenshot)
    projector = new_phone(locale=locale)
    fresh_standings(projector, f"{live_server.url}/events/{event.slug}/projector/", 1, t)
    assert_no_ghosts(wall(projector), never)

    # 7. Round 2, the last planned, then one more added on the night; then the end.
    for number in (2, 3):
        if number == 3:
            page.goto(dashboard)
            page.get_by_role("button", name=t("Add a round")).click()
        round_ = round_create(event=Event.objects.get(pk=event.pk), actor="olga")
        round_ = round_publish(round_=Round.objects.get(pk=round_.pk), actor="olga")
        assert round_.number == number
        finish_and_confirm(round_, seed=number)
        round_close(round_=Round.objects.get(pk=round_.pk), actor="olga")
    page.goto(dashboard)
    page.get_by_role("link", name=t("End the event")).click()
    page.get_by_role("button", name=t("Yes, end the event")).click()
    event.refresh_from_db()
    assert event.status == Event.Status.CLOSED and event.rounds.count() == 3

    never = never_played(event)
    assert never == {ILL, leaver.name}  # the late arrival played rounds 2 and 3
    page.goto(dashboard)
    final = page.locator("section.final-standings")
    for _attempt in range(40):
        if final.locator(".counted").count() and not final.locator(".stale").count():
            break
        time.sleep(0.25)
        page.reload()
    expect(final.locator(".counted")).to_have_text(
        t.plural("After %(n)s round", "After %(n)s rounds", 3)
    )
    assert_no_ghosts(wall(page), never)
    check_screen(page, f"second-evening-final-{language}", screenshot)
    fresh_standings(page, standings, 3, t)
    assert_no_ghosts(wall(page), never)
    fresh_standings(projector, f"{live_server.url}/events/{event.slug}/projector/", 3, t)
    assert_no_ghosts(wall(projector), never)

    # The standings CSV: the same order, the withdrawn marked, the games counted.
    page.goto(dashboard)
    _raw, table = download_csv(page, t("Standings"))
    header, body = table[0], table[1:]
    rank, name = header.index(t("Rank")), header.index(t("Player"))
    games, withdrawn = header.index(capfirst(t("games played"))), header.index(t("Withdrawn"))
    assert_no_ghosts(
        [(row[rank] or "–", row[name]) for row in body if row[rank]]
        + ([("", "—")] if never else [])
        + [("–", row[name]) for row in body if not row[rank]],
        never,
    )
    for row in body:
        assert (int(row[games]) == 0) == (row[name] in never), row
        assert (row[withdrawn] == t("yes")) == (row[name] in {ILL, leaver.name}), row
