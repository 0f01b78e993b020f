"""Publishing writes the round's pages out (tournaments.rounds.render): the first phones
after a publish find the round's tables rendered in every language and the event's seat map
in the shared cache, so a fresh process neither renders nor reads the map; a pre-render
that fails leaves the publish as it was; a rename still shows once the processes' own
copies expire, though what the publish wrote is kept longer."""

import logging

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tournaments.clubs.services import members
from tournaments.models import Event, Round
from tournaments.rounds import render as round_page_render
from tournaments.rounds import web as public_kept
from tournaments.rounds.presenters.seat import seat_map, seat_map_compact, seat_map_from
from tournaments.rounds.selectors import published_round
from tournaments.rounds.services import walkouts

from .test_public_pages import make_event, numbered, play_deals, publish_round
from .test_round_page_cache import (
    evening,
    forget_all,
    fresh_round_page,
    round_page,
    seat_page,
    without_csrf,
)
from .test_services import play_table

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = [code for code, _name in settings.LANGUAGES]


@pytest.fixture(autouse=True)
def forget_kept():
    forget_all()
    yield
    forget_all()


@pytest.fixture
def renders(monkeypatch):
    """How many times a request rendered the round page's tables (not the publish)."""
    count = []
    real = public_kept._render_tables

    def counted(*args):
        count.append(1)
        return real(*args)

    monkeypatch.setattr(public_kept, "_render_tables", counted)
    return count


def fresh_process():
    """Another web process: nothing in its memory, the shared cache as it is."""
    for kept in (public_kept.round_pages, public_kept.seat_maps, public_kept.pages):
        kept.clear()


def as_the_page_reads(event, number=1):
    event = Event.objects.get(pk=event.pk)
    return event, published_round(event, number)


def test_publishing_writes_the_tables_for_every_language(client, renders):
    event, round_, tables = evening()
    event, public = as_the_page_reads(event)
    for code in LANGUAGES:
        with translation.override(code):
            html = cache.get(round_page_render.tables_key(event, public))
            assert html == round_page_render.render_tables(event, public)
    english = round_page(client, event)
    client.cookies["django_language"] = "bg"
    bulgarian = round_page(client, event)
    assert "Table 1" in english and "Маса 1" in bulgarian
    assert len(renders) == 0  # the first GET of each language rendered no table
    del client.cookies["django_language"]
    assert without_csrf(fresh_round_page(client, event)) == without_csrf(english)
    assert len(renders) == 1


def test_the_first_seat_ask_of_a_fresh_process_reads_no_seat_map(client):
    event, round_, tables = evening()
    someone, bye = tables[1].seat_2, round_.byes.get().player
    fresh_process()
    with CaptureQueriesContext(connection) as queries:
        page = seat_page(client, event, someone.name)
    assert len(queries) == 1, [q["sql"] for q in queries]  # the event, nothing of the map
    assert f"Table {tables[1].number}" in page
    assert "You have a bye" in seat_page(client, event, bye.name)


def test_a_process_that_reads_the_map_writes_it_for_the_others(client, django_assert_num_queries):
    event, round_, tables = evening()
    someone = tables[0].seat_0
    cache.clear()  # the publish's copy expired: this process reads the map, in 3 queries
    with django_assert_num_queries(4):
        seat_page(client, event, someone.name)
    fresh_process()
    with django_assert_num_queries(1):  # the next process finds what the first wrote
        assert f"Table {tables[0].number}" in seat_page(client, event, someone.name)


def test_the_compact_map_is_the_map_in_every_language():
    event, round_, tables = evening()
    walkouts.table_substitute(
        table=tables[0], seat=0, player=round_.byes.get().player, reason="ill", actor="o"
    )
    play_deals(tables[0], 2)
    play_table(tables[1])
    for code in LANGUAGES:
        with translation.override(code):
            event = Event.objects.get(pk=event.pk)
            compact = seat_map_compact(event, LANGUAGES)
            assert seat_map_from(compact, code) == seat_map(event)
    assert seat_map_from(compact, "xx") is None  # not a language of the site: read afresh
    unpublished = make_event(numbered(6), name="Saturday open")
    assert seat_map_from(seat_map_compact(unpublished, LANGUAGES), "en") == seat_map(unpublished)


def test_a_failing_pre_render_leaves_the_publish_as_it_was(client, renders, monkeypatch, caplog):
    def broken(*args):
        raise RuntimeError("the cache is full")

    monkeypatch.setattr(round_page_render, "render_tables", broken)
    event = make_event(numbered(7))
    with caplog.at_level(logging.ERROR, logger="tournaments.rounds.render"):
        round_ = publish_round(event)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PUBLISHED
    assert round_.tables.filter(game__isnull=True).count() == 0
    assert "could not pre-render" in caplog.text
    assert "Table 1" in round_page(client, event)  # rendered on demand, as before
    assert len(renders) == 1


def test_a_rename_shows_once_the_processes_copies_expire(client, monkeypatch):
    """What the publish wrote is kept PUBLISHED_SECONDS, longer than KEPT_SECONDS: the
    rename forgets it, so the name shows as soon as the processes' own copies expire."""
    event, round_, tables = evening()
    player = tables[0].seat_1
    assert player.name in round_page(client, event)
    assert f"Table {tables[0].number}" in seat_page(client, event, player.name)
    members.member_rename(player=player, name="Renamed Person", actor="o")
    later = public_kept.time.monotonic() + public_kept.KEPT_SECONDS + 1
    monkeypatch.setattr(public_kept.time, "monotonic", lambda: later)
    assert "Renamed Person" in round_page(client, event)  # no cache.clear(): forgotten
    assert f"Table {tables[0].number}" in seat_page(client, event, "Renamed Person")
