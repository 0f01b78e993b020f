"""A whole club evening on phones, in English and in Bulgarian.

An organiser on a 390×844 phone logs in, creates the club and the event (placing points
3-1-0, a void table scores what a bye scores), enters thirteen players and taps "Build round
1" before checking anyone in: refused at once, nothing left "being built". Then everyone is
checked in, round 1 is built and published (four tables and a bye). At table 1 the keeper's
phone enters five hands and corrects hand 2 three hands later; at table 2 a player walks out:
withdrawn on the players page, the organiser is sent to the table and puts the bye player in
the seat; the keeper's phone of table 2 goes on entering and the substitute's phone finds the
seat; table 3 is voided; table 4 gets an adjusted result. The rest of the games is recorded
through the scoring services (as the tables' phones would, to keep the run short), the
organiser confirms and closes the round, and the public standings, the standings CSV and the
pairings CSV are checked against an expectation worked out here from the games' placings and
the event's points (not by the standings code).
"""

from __future__ import annotations

import codecs
import csv
import io
import random
import re
import time

import pytest
from django.utils import translation
from django.utils.text import capfirst
from playwright.sync_api import expect

from scoring import autoplay
from scoring.presenters import signed
from tournaments.models import Bye, Entry, Event, Round, Table

from .checks import check_screen
from .organiser import PASSWORD
from .test_table import tap_call, type_tricks

pytestmark = pytest.mark.django_db(transaction=True)

POINTS = (3, 1, 0)  # first, second, third: not the default 2-1-0, so the setting is read
NAMES = {
    "en": [
        "Ana Petrova",
        "Boris Ivanov",
        "Vera Georgieva",
        "Dimitar Kolev",
        "Elena Todorova",
        "Filip Marinov",
        "Galina Stoyanova",
        "Hristo Nikolov",
        "Irina Dimitrova",
        "Kamen Yordanov",
        "Lyubomir Pavlov",
        "Maria Koleva",
        "Nikolay Stefanov",
    ],
    "bg": [
        "Ана Петрова",
        "Борис Иванов",
        "Вера Георгиева",
        "Димитър Колев",
        "Елена Тодорова",
        "Филип Маринов",
        "Галина Стоянова",
        "Христо Николов",
        "Ирина Димитрова",
        "Камен Йорданов",
        "Любомир Павлов",
        "Мария Колева",
        "Николай Стефанов",
    ],
}
LOCALES = {"en": "en-GB", "bg": "bg-BG"}
PLAYERS = 13  # four tables and a bye
# What the organiser types as the reasons, as an organiser of that language would.
REASONS = {
    "en": {
        "left": "went home ill",
        "void": "the table broke up",
        "adjusted": "a disputed hand, agreed by all three",
    },
    "bg": {
        "left": "разболя се и си тръгна",
        "void": "масата се разпадна",
        "adjusted": "спорна ръка, тримата се разбраха",
    },
}
ADJUSTED = (2, 0, 1)  # table 4's placings as the organisers agreed them: seats, first to last
# Table 1's first five hands, typed on the keeper's phone; hand 2 had the second and third
# players' tricks swapped, which the keeper notices at hand 5.
FIVE = [
    ("hearts", [4, 7, 5]),
    ("spades", [5, 3, 8]),
    ("clubs", [8, 5, 3]),
    ("hearts", [3, 8, 5]),
    ("spades", [5, 3, 8]),
]
HAND_2_RIGHT = [5, 8, 3]
MINUS = "\N{MINUS SIGN}"


class Words:
    """The site's own words in the page's language, from the same catalogue the pages use:
    the journey reads the same in English and Bulgarian."""

    def __init__(self, language: str):
        self.language = language

    def __call__(self, msgid: str, context: str = "", **values) -> str:
        with translation.override(self.language):
            text = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
        return text % values if values else text

    def plural(self, singular: str, plural: str, n: int, **values) -> str:
        with translation.override(self.language):
            return translation.ngettext(singular, plural, n) % {"n": n, **values}

    def counts(self, entered: int, checked: int, withdrawn: int) -> str:
        """The players page's counts line: each count agrees with its own number."""
        return " · ".join(
            self.plural(f"%(n)s {what}", f"%(n)s {what}", n)
            for what, n in (("entered", entered), ("checked in", checked), ("withdrawn", withdrawn))
        )


def exactly(text: str) -> re.Pattern:
    return re.compile(re.escape(text), re.IGNORECASE)


def number(cell: str) -> int:
    return int(cell.strip().replace(MINUS, "-"))


# --- the independent expectation ---------------------------------------------------------


def expected_standings(event: Event) -> dict[int, dict[str, int]]:
    """Each player's placing points, score, firsts, opponents and games, from the tables as
    they ended: a confirmed game pays its seats (as they are at the end: a substitute carries
    the seat) by their placing; a void table pays its players who have not withdrawn what a
    bye scores under the bye policy "second" (a second place's points, no game points); a
    player who walked out has no game. Opponents: the final placing points of the two players
    met at each game played."""
    first, second, third = event.placing_points
    by_place = (first, second, third)
    withdrawn = set(event.entries.filter(withdrawn=True).values_list("player_id", flat=True))
    rows = {
        pid: {"placing_points": 0, "score": 0, "firsts": 0, "opponents": 0, "games": 0}
        for pid in event.entries.values_list("player_id", flat=True)
    }
    played = []
    for table in Table.objects.filter(round__event=event).select_related("game"):
        seats = [table.seat_0_id, table.seat_1_id, table.seat_2_id]
        if table.outcome == Table.Outcome.VOID:
            assert event.bye_policy == "second" and event.void_policy == "bye"
            for pid in seats:
                if pid not in withdrawn:
                    rows[pid]["placing_points"] += second
            continue
        game = table.game
        assert game.result == "confirmed"
        for place, seat in enumerate(game.placings):
            rows[seats[seat]]["placing_points"] += by_place[place]
            rows[seats[seat]]["firsts"] += place == 0
        for seat, pid in enumerate(seats):
            rows[pid]["score"] += game.totals[seat]
            rows[pid]["games"] += 1
        played.append(seats)
    for seats in played:
        for pid in seats:
            rows[pid]["opponents"] += sum(rows[o]["placing_points"] for o in seats if o != pid)
    return rows


RANKED_BY = ("placing_points", "score", "firsts", "opponents")  # the default precedence's start


def assert_ranked(
    names_in_order: list[str], expected: dict[str, dict[str, int]], unranked: int = 0
) -> None:
    """Everyone ranked once, and nobody ranked above a player better on the precedence's
    metrics (head to head and the lot may order players equal on all of them)."""
    assert set(names_in_order) <= set(expected)
    assert len(set(names_in_order)) == len(names_in_order) == len(expected) - unranked
    keys = [tuple(expected[name][m] for m in RANKED_BY) for name in names_in_order]
    assert keys == sorted(keys, reverse=True), list(zip(names_in_order, keys, strict=True))


# --- steps -----------------------------------------------------------------------------------


def keeper_phone(new_phone, live_server, game, locale):
    """The phone that scanned a table's keeper QR code."""
    page = new_phone(locale=locale)
    page.goto(f"{live_server.url}/games/{game.pk}/keep/{game.secret}/")
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    return page


def enter_hand(page, call: str, tricks: list[int]) -> None:
    rows = page.locator("table.sheet tbody tr.deal-row")
    before = rows.count()
    tap_call(page, call)
    type_tricks(page, tricks)
    page.locator("form.tricks-form button[type=submit]").click()
    expect(rows).to_have_count(before + 1)


def sheet_totals(page) -> list[str]:
    return page.locator("table.sheet tfoot td.seat").all_inner_texts()


def download_csv(page, label: str) -> tuple[bytes, list[list[str]]]:
    row = page.locator("ul.downloads li", has_text=label)
    with page.expect_download() as download:
        row.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename.endswith(".csv")
    with open(download.value.path(), "rb") as file:
        raw = file.read()
    return raw, list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


@pytest.mark.parametrize("language", ["en", "bg"])
def test_a_club_evening_with_every_mishap(
    live_server, new_phone, screenshot, django_user_model, language
):
    t = Words(language)
    locale = LOCALES[language]
    names = NAMES[language]
    reasons = REASONS[language]
    django_user_model.objects.create_user(username="olga", password=PASSWORD)
    page = new_phone(locale=locale)

    def shoot(name: str, on=None, *, check: bool = True) -> None:
        """The screen's screenshot for this language; then the checks under one name for
        both languages (checks.py opens each screen in the other language once anyway)."""
        on = on or page
        screenshot(on, f"evening-{name}-{language}")
        if check:
            check_screen(on, f"evening-{name}")

    # 1. Log in; a club, then the event with its points and its void policy.
    page.goto(live_server.url + "/organise/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.locator("#id_username").fill("olga")
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name=t("Log in")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(t("My events"))
    page.get_by_label(t("Club name")).fill("Varna Blato Club")
    page.get_by_role("button", name=t("Create the club")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(t("New event"))
    page.locator("#id_name").fill("Friday Night")
    page.locator("#id_rounds_planned").fill("2")
    for field, points in zip(("first", "second", "third"), POINTS, strict=True):
        page.locator(f"#id_placing_{field}").fill(str(points))
    page.locator("#id_bye_policy").select_option("second")
    page.locator("#id_void_policy").select_option("bye")
    shoot("event-new", check=False)
    page.get_by_role("button", name=t("Create the event")).click()
    event = Event.objects.get()
    assert (tuple(event.placing_points), event.void_policy) == (POINTS, "bye")
    Event.objects.filter(pk=event.pk).update(seed=358)  # the same tables every run
    dashboard = f"{live_server.url}/organise/events/{event.slug}/"
    expect(page).to_have_url(dashboard)

    # Ten players entered, nobody checked in yet: "Build round 1" is refused at once.
    page.get_by_role("navigation", name=t("Event")).get_by_role("link", name=t("Players")).click()
    page.locator("details.paste summary").click()
    page.locator("details.paste textarea").fill("\n".join(names))
    page.get_by_role("button", name=t("Enter these players")).click()
    counts = page.locator("#counts .counts-line")
    expect(counts).to_have_text(t.counts(entered=PLAYERS, checked=0, withdrawn=0))
    page.goto(dashboard)
    too_few = t("no player is checked in; a round needs at least 3")
    expect(page.locator("#too-few")).to_contain_text(exactly(too_few))
    shoot("too-early")
    page.get_by_role("button", name=t("Build round %(n)s", n=1)).click()
    expect(page).to_have_url(dashboard)
    expect(page.locator(".message.error")).to_contain_text(exactly(too_few))
    expect(page.locator(".waiting")).to_have_count(0)  # no "Building tables…"
    page.reload()  # a reload shows the page; it does not post the refused build again
    assert not event.rounds.exists()

    # 2. Everyone checked in; round 1 built (the task runs at once: Celery eager) and published.
    page.goto(f"{dashboard}players/")
    page.get_by_role("button", name=t("Check in everyone")).click()
    expect(counts).to_have_text(t.counts(entered=PLAYERS, checked=PLAYERS, withdrawn=0))
    page.get_by_role("button", name=t("Build round %(n)s", n=1)).click()
    expect(page).to_have_url(f"{dashboard}rounds/1/")
    expect(page.locator(".round-state")).to_have_text(
        t("Status: %(status)s", status=capfirst(t("draft")))
    )
    expect(page.locator(".table-grid .table-card")).to_have_count(4)
    shoot("round-draft", check=False)
    page.get_by_role("button", name=t("Publish round %(n)s", n=1)).click()
    expect(page.locator(".round-state")).to_have_text(
        t("Status: %(status)s", status=capfirst(t("published")))
    )
    round_ = Round.objects.get(event=event, number=1)
    first, second, third, fourth = round_.tables.select_related("game").order_by("number")
    bye_player = Bye.objects.get(round=round_).player

    # 3. Table 1: five hands on the keeper's phone; hand 2 corrected at hand 5.
    keeper = keeper_phone(new_phone, live_server, first.game, locale)
    for call, tricks in FIVE:
        enter_hand(keeper, call, tricks)
    wrong_totals = sheet_totals(keeper)
    hand = t("hand %(n)s", n=2)
    keeper.get_by_role("link", name=t("Correct %(deal)s", deal=hand)).click()
    expect(keeper.get_by_role("heading", level=1)).to_have_text(t("Correct %(deal)s", deal=hand))
    # The entry's trick pad: the recorded counts tapped, the last one the rest.
    recorded = FIVE[1][1]
    expect(keeper.locator(f"#id_tricks_1_{recorded[1]}")).to_be_checked()
    expect(keeper.locator("input[name=tricks_2]")).to_have_value(str(recorded[2]))
    for seat, count in enumerate(HAND_2_RIGHT[:2]):
        keeper.locator(f'label[for="id_tricks_{seat}_{count}"]').click()
    expect(keeper.locator("input[name=tricks_2]")).to_have_value(str(HAND_2_RIGHT[2]))
    shoot("correct", keeper, check=False)
    keeper.get_by_role("button", name=t("Save %(deal)s", deal=hand)).click()
    expect(keeper.locator(".message.success[role=status]")).to_contain_text(
        t("%(deal)s is corrected.", deal=t("Hand %(n)s", n=2))
    )
    game = first.game
    game.refresh_from_db()
    assert game.entries.get(number=2, undone_at__isnull=True).tricks == HAND_2_RIGHT
    assert game.entries.filter(undone_at__isnull=True).count() == 5  # nothing else moved
    right_totals = [signed(total) for total in game.totals]
    assert right_totals != wrong_totals
    expect(keeper.locator("table.sheet tfoot td.seat")).to_have_text(right_totals)
    seat_names = game.players
    note = keeper.locator("ul.corrections li")
    expect(note).to_have_count(1)
    wrong = ", ".join(f"{n} {c}" for n, c in zip(seat_names, FIVE[1][1], strict=True))
    right = ", ".join(f"{n} {c}" for n, c in zip(seat_names, HAND_2_RIGHT, strict=True))
    # Who corrected it: the table's keeper, in the page's language (a Bulgarian page said
    # "поправено от table", the actor as stored).
    keeper_word = t("table", context="who changed a game: its score-keeper")
    by = t(
        "%(deal)s, corrected by %(who)s, %(when)s:",
        deal=t("Hand %(n)s", n=2),
        who=keeper_word,
        when="",
    )
    expect(note).to_contain_text(by.rstrip(" ,:"))
    if language == "bg":
        assert "table" not in note.inner_text()
    expect(note.locator("del")).to_contain_text(wrong)
    expect(note.locator("ins")).to_contain_text(right)
    shoot("sheet-corrected", keeper)

    # 4. Table 2: two hands in, then a player walks out. Withdrawn on the players page, the
    # organiser is warned and taken to the table, and puts the bye player in the seat.
    autoplay.play(second.game, random.Random(2), deals=2, actor="table")
    leaver = second.seat_1
    page.goto(f"{dashboard}players/")
    row = page.locator(".player-row", has_text=leaver.name)
    row.locator("summary", has_text=t("Withdraw…")).click()
    row.get_by_label(t("Reason (optional)")).fill(reasons["left"])
    row.get_by_role("button", name=t("Withdraw %(name)s", name=leaver.name)).click()
    expect(page).to_have_url(f"{dashboard}rounds/1/tables/2/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(t("Table %(t)s", t=2))
    expect(page.locator(".messages")).to_contain_text(
        t(
            "%(name)s has withdrawn but still sits at table %(t)s of round %(n)s: choose what "
            "happens to that table (substitute, finish, void or adjust).",
            name=leaver.name,
            t=2,
            n=1,
        )
    )
    shoot("walkout")
    page.locator("#id_sub-seat").select_option(
        label=t("Seat %(n)s · %(name)s", n=2, name=leaver.name)
    )
    page.locator("#id_sub-player").select_option(label=bye_player.name)
    page.locator("#id_sub-reason").fill(reasons["left"])
    page.get_by_role("button", name=t("Substitute")).click()
    expect(page.locator(".messages")).to_contain_text(
        t("%(name)s takes seat %(seat)s from the next deal on.", name=bye_player.name, seat=2)
    )
    second.refresh_from_db()
    assert second.seat_1 == bye_player
    assert not Bye.objects.filter(round=round_).exists()  # the bye is given up

    # The keeper of table 2 goes on entering, now with the substitute's name on the sheet.
    keeper_2 = keeper_phone(new_phone, live_server, second.game, locale)
    expect(keeper_2.locator("table.sheet thead th.seat").nth(1)).to_contain_text(
        bye_player.name.split()[0]
    )
    contract = keeper_2.locator('button[name="call"]:not([value="pass"])').first
    enter_hand(keeper_2, contract.get_attribute("value"), [5, 6, 5])
    assert second.game.entries.filter(undone_at__isnull=True).count() == 3

    # The substitute's phone: "where do I sit" shows the seat; the leaver's says it is taken.
    player_phone = new_phone(locale=locale)
    player_phone.goto(f"{live_server.url}/events/{event.slug}/seat/")
    player_phone.locator("input[name=name]").fill(bye_player.name)
    player_phone.get_by_role("button", name=t("Find my seat")).click()
    expect(player_phone.locator(".seat-answer .where")).to_have_text(
        f"{t('Table %(number)s', number=2)} {t('seat %(seat)s', seat=2)}"
    )
    shoot("seat-substitute", player_phone)
    player_phone.goto(f"{live_server.url}/events/{event.slug}/seat/?name={leaver.name}")
    expect(player_phone.locator(".seat-answer")).to_contain_text(
        t(
            "Another player took your seat in round %(number)s: you have no game in this "
            "round. If this is wrong, ask the organisers.",
            number=1,
        )
    )

    # 5. Table 3 is voided with a reason; its players get the void policy.
    autoplay.play(third.game, random.Random(5), deals=1, actor="table")
    page.goto(f"{dashboard}rounds/1/tables/3/")
    expect(page.locator("#void-heading + .hint")).to_contain_text(t("what a bye scores"))
    page.locator("#id_void-reason").fill(reasons["void"])
    page.get_by_role("button", name=t("Void the table")).click()
    expect(page.locator(".table-status")).to_have_text(
        capfirst(t("void, set aside by the organisers"))
    )
    shoot("void", check=False)

    # Table 4 disputes a hand and agrees a result instead: an adjusted result, with a reason.
    autoplay.play(fourth.game, random.Random(6), deals=3, actor="table")
    page.goto(f"{dashboard}rounds/1/tables/4/")
    for place, seat in enumerate(ADJUSTED):
        page.locator(f"#id_adj-place_{place}").select_option(
            label=t("Seat %(n)s · %(name)s", n=seat + 1, name=fourth.seats[seat].name)
        )
    page.locator("#id_adj-reason").fill(reasons["adjusted"])
    page.get_by_role("button", name=t("Confirm the adjusted result")).click()
    expect(page.locator(".table-status")).to_have_text(capfirst(t("adjusted result, confirmed")))
    fourth.game.refresh_from_db()
    assert fourth.game.placings == list(ADJUSTED)

    # 6. The other two games end (their phones, fast); the organiser confirms and closes.
    autoplay.play(Table.objects.get(pk=first.pk).game, random.Random(1), actor="table")
    autoplay.play(Table.objects.get(pk=second.pk).game, random.Random(2), actor="table")
    page.goto(f"{dashboard}rounds/1/")
    close = page.get_by_role("button", name=t("Close round %(n)s", n=1))
    expect(close).to_be_disabled()
    confirm = page.locator("#results").get_by_role("button", name=t("Confirm the result"))
    expect(confirm).to_have_count(2)  # table 3 is void, table 4 confirmed as adjusted
    for done in (1, 2):
        confirm.first.click()
        expect(confirm).to_have_count(2 - done)
    expect(close).to_be_enabled()
    shoot("round-settled")
    close.click()  # closing is final: the page asks first
    page.get_by_role("button", name=t("Yes, close round %(n)s", n=1)).click()
    expect(page).to_have_url(dashboard)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED

    # The expectation, from the tables as they ended.
    by_id = expected_standings(event)
    name_of = dict(Entry.objects.filter(event=event).values_list("player_id", "player__name"))
    expected = {name_of[pid]: values for pid, values in by_id.items()}
    voided = [p.name for p in Table.objects.get(pk=third.pk).seats]
    adjusted = [fourth.seats[seat].name for seat in ADJUSTED]
    assert [expected[n]["placing_points"] for n in adjusted] == list(POINTS)
    assert all(expected[n]["placing_points"] == POINTS[1] for n in voided)
    assert expected[leaver.name] == dict.fromkeys(expected[leaver.name], 0)
    assert expected[bye_player.name]["games"] == 1

    # The public standings: what they count, the numbers, the withdrawn player marked.
    standings_url = f"{live_server.url}/events/{event.slug}/standings/"
    label = t.plural("After %(n)s round", "After %(n)s rounds", 1)
    for _attempt in range(20):  # the build runs after the close's commit
        page.goto(standings_url)
        if page.locator(".counted").count() and page.locator(".counted").inner_text() == label:
            break
        time.sleep(0.25)
    expect(page.locator(".counted")).to_have_text(label)
    expect(page.locator(".stale")).to_have_count(0)
    shoot("standings")
    rows = page.locator("table.standings tbody tr:not(.unranked-head)")
    expect(rows).to_have_count(PLAYERS)
    # The leaver played no game and had no bye: not ranked, listed last under its heading.
    expect(page.locator("table.standings tr.unranked-head")).to_have_count(1)
    unranked = {leaver.name}
    shown = []
    for index in range(PLAYERS):
        cells = rows.nth(index).locator("td, th").all_inner_texts()
        name = rows.nth(index).locator("th.player a").inner_text()
        shown.append(name)
        if name in unranked:
            assert cells[0].strip() == "–" and index >= PLAYERS - len(unranked)
        else:
            assert number(cells[0]) == index + 1
        # columns: placing points, score, firsts, opponents, head to head, games
        values = [number(cell) for cell in cells[2:]]
        want = expected[name]
        got = dict(zip(("placing_points", "score", "firsts", "opponents"), values, strict=False))
        got["games"] = values[5]
        assert got == want, name
    assert_ranked([name for name in shown if name not in unranked], expected, len(unranked))
    leaver_row = rows.filter(has=page.locator("th.player a", has_text=leaver.name))
    expect(leaver_row.locator(".withdrawn-tag")).to_have_text(
        t("withdrawn", context="standings: the player has left the event")
    )
    expect(rows.locator(".withdrawn-tag")).to_have_count(1)
    expect(page.locator("section.settled")).to_contain_text(reasons["void"])
    expect(page.locator("section.settled")).to_contain_text(reasons["adjusted"])

    # The exports: UTF-8 with a byte order mark, the marks and reasons of the walkouts.
    page.goto(dashboard)
    raw, table = download_csv(page, t("Standings"))
    assert raw.startswith(codecs.BOM_UTF8)
    header, body = table[0], table[1:]
    assert header[:2] == [t("Rank"), t("Player")]
    assert header[-2:] == [t("Withdrawn"), t("Table notes")]
    ranks = [row[0] for row in body]
    assert ranks == [str(n) for n in range(1, PLAYERS)] + [""]  # the leaver: not ranked
    assert [row[1] for row in body] == shown
    assert [row[-2] for row in body] == [t("yes") if n == leaver.name else "" for n in shown]
    for row in body:
        want = expected[row[1]]
        assert [int(v) for v in row[2:6]] == [want[m] for m in RANKED_BY], row
        assert int(row[7]) == want["games"], row
    notes = {row[1]: row[-1] for row in body}
    where = {"n": 1}
    for name in voided:
        assert notes[name] == t(
            "round %(n)s table %(t)s: %(what)s",
            t=3,
            what=t("void, set aside by the organisers"),
            **where,
        )
    # The substitute came in at deal 3: the hand the players count (a pass is no hand).
    played = second.game.entries.filter(undone_at__isnull=True, number__lt=3)
    hand = 1 + sum(1 for entry in played if entry.tricks is not None)
    assert notes[bye_player.name] == t(
        "round %(n)s table %(t)s: substitute from hand %(d)s", t=2, d=hand, **where
    )
    assert notes[leaver.name] == t("round %(n)s table %(t)s: left, no game", t=2, **where)
    for name in adjusted:
        assert notes[name] == t(
            "round %(n)s table %(t)s: %(what)s", t=4, what=t("adjusted result, confirmed"), **where
        )
    assert sum(1 for note in notes.values() if note) == 8

    raw, table = download_csv(page, t("Pairings of every round"))
    assert raw.startswith(codecs.BOM_UTF8)
    header, body = table[0], table[1:]
    column = {name: header.index(t(name)) for name in ("Table", "Player", "Result", "Reason")}
    seated = {(row[column["Table"]], row[column["Player"]]) for row in body}
    assert ("2", bye_player.name) in seated and ("2", leaver.name) not in seated
    adjusted_result = t("adjusted result, confirmed")
    marks = {
        "3": (t("void, set aside by the organisers"), reasons["void"]),
        "4": (adjusted_result, reasons["adjusted"]),
    }
    for row in body:  # the round page's words for each table; a reason only where one was given
        want = marks.get(row[column["Table"]], (t("confirmed"), ""))
        assert (row[column["Result"]], row[column["Reason"]]) == want, row
    assert len(body) == 12  # four tables of three; the bye was given up
