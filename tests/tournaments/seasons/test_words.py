"""The season's rows in words: each tie-break and the attendance minimum said as a sentence,
in English and in Bulgarian's place (the catalogue), the counting spelt out."""

from __future__ import annotations

from django.utils import translation

from tournaments.clubs.presenters import season as words
from tournaments.clubs.selectors.seasons import SeasonNight, SeasonTable
from tournaments.models import Club, Event, Season
from tournaments.seasons import Counting, Night, season_standings

NAMES = {1: "Ana", 2: "Boris", 3: "Vera", 4: "Georgi", 5: "Dana"}


def table(orders, counting):
    club = Club(name="C", slug="c")
    season = Season(club=club, name="S")
    events = [Event(pk=k, club=club, name=f"Night {k}") for k in range(1, len(orders) + 1)]
    nights = [
        SeasonNight(event, {p: i for i, p in enumerate(order, 1)}, True, False)
        for event, order in zip(events, orders, strict=True)
    ]
    rows = season_standings([Night(n.event.pk, n.places) for n in nights], counting)
    return SeasonTable(season, counting, nights, rows, NAMES)


def test_each_tie_break_is_said_in_words():
    # Ana 1st + 3rd, Boris 3rd + 1st: level on everything; Vera 2nd + 2nd: level on points
    # with them but no night won.
    counting = Counting((4, 3, 2, 1))
    seasons = table([[1, 3, 2, 4], [2, 3, 1, 4]], counting)
    lines = {line.name: line for line in words.season_lines(seasons)}
    # Ana: 4 + 2 = 6; Boris: 2 + 4 = 6; Vera: 3 + 3 = 6; Georgi: 1 + 1 = 2
    assert lines["Ana"].score == lines["Boris"].score == lines["Vera"].score == 6
    assert lines["Ana"].tie == ""
    assert lines["Boris"].tie == (
        "Level with Ana on points, nights won and best night: they share the rank."
    )
    assert lines["Vera"].tie == ("Level on points with Boris, who won more nights (1 against 0).")
    assert lines["Boris"].rank == 1 and lines["Vera"].rank == 3 and lines["Georgi"].tie == ""


def test_best_place_and_the_attendance_minimum_in_words():
    counting = Counting((5, 4, 3, 2), min_nights=2)
    seasons = table([[5, 1, 2, 3], [5, 4, 2, 1], [3]], counting)
    lines = {line.name: line for line in words.season_lines(seasons)}
    # Ana 2nd + 4th = 4 + 2 = 6; Boris 3rd + 3rd = 3 + 3 = 6: Ana's best night is better
    assert lines["Boris"].tie == (
        "Level on points and nights won with Ana, who has the better best night (2. against 3.)."
    )
    assert lines["Georgi"].rank is None
    assert lines["Georgi"].tie == "Played 1 of the 2 nights needed to be ranked."
    said = words.counting_words(seasons)
    assert said[0] == "Each night's places score 5-4-3-2 season points; lower places score 0."
    assert "A player needs 2 nights to be ranked; the others are listed below." in said


def test_the_download_rows_mark_nights_not_counted():
    counting = Counting((3, 2, 1), best_nights=1)
    seasons = table([[1, 2], [2, 1]], counting)
    headers, rows = words.export_rows(seasons, words.season_lines(seasons))
    assert headers[-2:] == ["Night 1", "Night 2"]
    assert rows[0][1] == "Ana" and rows[0][-2:] == [3, "(2)"]
    with translation.override("bg"):
        headers, _rows = words.export_rows(seasons, words.season_lines(seasons))
        assert headers[1] == "Играч"
