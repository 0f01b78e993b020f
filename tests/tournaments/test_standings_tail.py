"""What the standings cost once many snapshots are stored and many phones poll.

The build: deciding whether to build reads the newest snapshot's version alone, from the
index of the newest (tournaments.standings_models.NEWEST_SNAPSHOT), never a snapshot's rows or
written-out texts: reading the whole newest snapshot twice a confirmation, through a sort of
every snapshot of the event, made the k-th confirmation of a 999-player round cost more with
every k (docs/performance.md, "Confirmations"). The poll: when its kept ETag expires it reads
the snapshot's small head and, only if the fragment that head names is not kept, one plain
text column; no JSON of the whole standings, and the same bytes and headers as before.
"""

import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from tournaments.common.queue import coalesced
from tournaments.common.web.polls import etag
from tournaments.models import Standings, StandingsText
from tournaments.results import render as standings_render
from tournaments.results.selectors import standings_current
from tournaments.results.services import standings_build
from tournaments.results.views import public_standings as public

from .test_services import play_table
from .test_standings_poll import forget_fresh_fragment, fresh_fragment, live, published

pytestmark = pytest.mark.django_db(transaction=True)

#: The big columns of a snapshot: its rows, the API's body, the written-out tables.
BIG = re.compile(r'"(rows|api_body|rendered|standings_html|projector_html)"')
JSON_READS = re.compile(r"json_extract|->>|JSON_|\"rendered\"", re.IGNORECASE)


def standings_reads(captured) -> list[str]:
    return [q["sql"] for q in captured if '"tournaments_standings"' in q["sql"].split("WHERE")[0]]


def test_deciding_whether_to_build_reads_no_rows_nor_texts():
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)  # each confirmation builds (tasks run in process)
    stored = event.standings.count()
    with CaptureQueriesContext(connection) as captured:
        snapshot = standings_build(event_id=event.pk)  # current: nothing to build
    assert event.standings.count() == stored and snapshot.pk == event.standings.first().pk
    reads = standings_reads(captured)
    assert reads and not [sql for sql in reads if BIG.search(sql)], reads
    assert len(captured) <= 3  # the event, the newest version, the newest's head


def test_a_build_reads_no_stored_snapshots_rows_nor_texts():
    """The confirmation's own build: it stores a new snapshot and reads none of the old ones'
    big columns (before: the newest snapshot whole, twice)."""
    event, round_ = published(9)
    tables = list(round_.tables.all())
    play_table(tables[0])
    with CaptureQueriesContext(connection) as captured:
        play_table(tables[1])
    inserts = [
        q["sql"] for q in captured if q["sql"].startswith('INSERT INTO "tournaments_standings"')
    ]
    assert inserts  # a snapshot was stored
    selects = [sql for sql in standings_reads(captured) if sql.startswith("SELECT")]
    assert selects and not [sql for sql in selects if BIG.search(sql)], selects


def test_the_newest_snapshot_is_found_in_the_index_not_by_sorting_them_all():
    """Its cost does not grow with the snapshots stored before it: the database's plan reads
    the index of the newest, without sorting the event's snapshots."""
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    query = event.standings.values_list("results_version", flat=True)[:1]
    sql, params = query.query.sql_with_params()
    with transaction.atomic(), connection.cursor() as cursor:  # SET LOCAL lasts till its end
        if connection.vendor == "sqlite":
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "COVERING INDEX tournaments_standings_newest" in plan
            assert "TEMP B-TREE" not in plan
        else:  # PostgreSQL: a few rows would be read whole; ask what it does with an index
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
            plan = " ".join(str(row[0]) for row in cursor.fetchall())
            assert "tournaments_standings_newest" in plan and "Sort" not in plan


# --- the poll -----------------------------------------------------------------------------------


@pytest.fixture
def played():
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    return event


def test_an_expired_poll_reads_the_small_head_and_no_json(client, played):
    event = played
    first = client.get(live(event))
    forget_fresh_fragment(event)
    with CaptureQueriesContext(connection) as captured:
        again = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    sqls = [q["sql"] for q in captured]
    assert len(sqls) == 2  # the event, the snapshot's head with its mark
    assert not [sql for sql in sqls if BIG.search(sql) or JSON_READS.search(sql)], sqls


def test_a_poll_that_renders_reads_one_plain_text_column(client, played):
    """Another process (nothing kept): the head, then one language's table, no JSON."""
    event = played
    public._texts.clear()
    forget_fresh_fragment(event)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(live(event))
    assert response.content.decode() == fresh_fragment(event)
    sqls = [q["sql"] for q in captured]
    assert not [sql for sql in sqls if JSON_READS.search(sql) or '"rows"' in sql], sqls
    texts = [sql for sql in sqls if '"tournaments_standingstext"."standings_html"' in sql]
    assert len(texts) == 1 and '"projector_html"' not in texts[0]


def test_the_poll_answers_as_before_headers_etag_and_304(client, played):
    """The ETag names the snapshot, its time, the mark of its writing (the hash of the API's
    body and every language's tables, as written) and staleness, not the "built … ago"
    wording; the same headers; a matching If-None-Match a bodiless 304."""
    event = played
    event.standings.all().delete()
    snapshot = standings_build(event_id=event.pk)  # as built: with its writing
    rendered = snapshot.rendered
    assert set(StandingsText.objects.filter(snapshot=snapshot).values_list("mark", flat=True)) == {
        rendered["mark"]
    }
    response = client.get(live(event))
    with translation.override("en"):
        expected = etag(
            "standings",
            snapshot.pk,
            snapshot.built_at.timestamp(),
            rendered["mark"],
            False,
        )
    assert response.status_code == 200 and response["ETag"] == expected
    assert response["Cache-Control"] == "private, no-cache"
    assert response.content.decode() == fresh_fragment(event)
    for fresh in (True, False):
        if not fresh:
            forget_fresh_fragment(event)
        unchanged = client.get(live(event), HTTP_IF_NONE_MATCH=expected)
        assert unchanged.status_code == 304 and unchanged.content == b""
        assert unchanged["ETag"] == expected and unchanged["Cache-Control"] == "private, no-cache"


def test_a_rewriting_replaces_the_texts_under_a_new_mark(played):
    event = played
    snapshot = Standings.objects.filter(event=event).first()
    before = dict(snapshot.texts.values_list("language", "mark"))
    event.entries.filter(player__name="Player 2").update(withdrawn=True)
    standings_render.write_out(snapshot)
    after = dict(snapshot.texts.values_list("language", "mark"))
    assert set(after) == set(before) == {"en", "bg"} and after["en"] != before["en"]
    assert snapshot.texts.count() == 2


# --- many changes in a row: one build -----------------------------------------------------------


def test_a_rounds_confirmations_coalesced_make_one_build():
    """manage.py simulate_event confirms a round's tables within `coalesced`: one snapshot
    after them all (current), where each confirmation alone stores one."""
    event, round_ = published(9)
    tables = list(round_.tables.all())
    before = event.standings.count()
    with coalesced("build_standings"):
        for table in tables[:2]:
            play_table(table)
        assert event.standings.count() == before  # held back until the block ends
    assert event.standings.count() == before + 1
    assert standings_current(event) is not None
    play_table(tables[2])  # outside: built at once
    assert event.standings.count() == before + 2 and standings_current(event) is not None


def test_the_projectors_304_reads_no_table(client, played):
    event = played
    path = reverse("tournaments:projector_live", args=[event.slug])
    first = client.get(path)
    assert first.status_code == 200 and "Player 1<" in first.content.decode()
    with CaptureQueriesContext(connection) as captured:
        again = client.get(path, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    sqls = [q["sql"] for q in captured]
    assert not [sql for sql in sqls if BIG.search(sql) or JSON_READS.search(sql)], sqls
