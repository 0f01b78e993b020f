"""The pairings and hands downloads say what the organiser's pages say, in the language of
the request: a confirmed table's Result is filled (the round page's words for it), Reason only
when the organisers gave one, and the hands' calls are the calls the score sheet shows. Every
CSV starts with the UTF-8 byte order mark, so that Excel reads Cyrillic names as written."""

from __future__ import annotations

import csv
import io
import random

import pytest
from django.urls import reverse

from tournaments.results.services import result_confirm
from tournaments.rounds.services import walkouts

from .conftest import finish_game, register

pytestmark = pytest.mark.django_db

#: The words for a table's state, in each language (rounds.presenters.tables.state_words).
RESULTS = {
    "en": {
        "confirmed": "confirmed",
        "void": "void, set aside by the organisers",
        "finished": "finished, waiting for confirmation",
    },
    "bg": {
        "confirmed": "потвърдена",
        "void": "анулирана от организаторите",
        "finished": "завършена, чака потвърждаване",
    },
}
#: The calls as the score sheet names them (scoring.words.CALL_NAMES).
CALLS = {
    "en": {"spades", "hearts", "diamonds", "clubs", "no-trump", "miz", "pass"},
    "bg": {"пика", "купа", "каро", "спатия", "без коз", "миз", "пас"},
}


@pytest.fixture
def settled(organised_event, build_round):
    """Round 1 of nine players: table 1 confirmed, table 2 void with a reason, table 3
    finished and waiting for confirmation."""
    register(organised_event, 9)
    round_ = build_round(organised_event, publish=True)
    tables = list(round_.tables.select_related("game").order_by("number"))
    rng = random.Random(5)
    for table in tables:
        if table.number != 2:
            finish_game(table.game, rng)
    result_confirm(table=tables[0], actor="olga")
    walkouts.table_void(table=tables[1], reason="Boris went home", actor="olga")
    return organised_event


def _rows(client, event, what: str, language: str) -> list[dict]:
    url = reverse("tournaments:organise_export", args=[event.slug, what, "csv"])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize(
    ("language", "result", "reason", "table"),
    [("en", "Result", "Reason", "Table"), ("bg", "Резултат", "Причина", "Маса")],
)
def test_pairings_say_each_tables_result_and_a_reason_only_when_given(
    organiser_client, settled, language, result, reason, table
):
    rows = _rows(organiser_client, settled, "pairings", language)
    by_table = {}
    for row in rows:
        by_table.setdefault(row[table], set()).add((row[result], row[reason]))
    words = RESULTS[language]
    assert by_table["1"] == {(words["confirmed"], "")}
    assert by_table["2"] == {(words["void"], "Boris went home")}
    assert by_table["3"] == {(words["finished"], "")}


@pytest.mark.parametrize(("language", "calls"), [("en", "Calls"), ("bg", "Обяви")])
def test_hands_write_the_calls_in_the_language_of_the_request(
    organiser_client, settled, language, calls
):
    rows = _rows(organiser_client, settled, "hands", language)
    assert rows
    said = set()
    for row in rows:
        for made in row[calls].split(", "):
            said.add(made.rsplit(": ", 1)[1])
    assert said and said <= CALLS[language], said


@pytest.mark.parametrize("what", ["standings", "pairings", "hands"])
def test_every_csv_export_starts_with_the_utf8_byte_order_mark(
    organiser_client, confirmed_round, what
):
    url = reverse("tournaments:organise_export", args=[confirmed_round.slug, what, "csv"])
    response = organiser_client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")
    assert response.content.count(b"\xef\xbb\xbf") == 1
    if what != "hands":
        assert "Анна Иванова" in response.content.decode("utf-8-sig")
    other = reverse("tournaments:organise_export", args=[confirmed_round.slug, what, "json"])
    assert not organiser_client.get(other).content.startswith(b"\xef\xbb\xbf")
