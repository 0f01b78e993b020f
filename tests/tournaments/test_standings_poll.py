"""The standings under polling: a thousand phones ask every few seconds (bench.site_load).

What is pinned here: the standings build writes out what the phones poll (the API's body,
the standings and projector tables per language: tournaments.results.render), and no poll
renders the table again. For the API: a poll costs a fixed, small number of queries whatever
the field's size (none at all while a process's answer is fresh), the answer carries an ETag
and a matching If-None-Match gets a 304, and the stored answer is the one the API would write
out afresh. For the public page's fragment: the same bytes as a fresh render, the page itself
shows that same fragment, and a new snapshot, new results, another language or a withdrawal
each make a new one; a new minute of "built … ago" does not (the phone words it again), but
a 200 and the page word it as it is now.
"""

import json
import pickle
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from tournaments import tasks
from tournaments.events.services.event import club_create, event_create
from tournaments.events.services.registration import entry_withdraw
from tournaments.models import Entry, Standings, StandingsText
from tournaments.results import presenters as words
from tournaments.results import render as standings_render
from tournaments.results.selectors import standings_latest
from tournaments.results.services import standings_build
from tournaments.results.views import public_standings as public
from tournaments.rounds.services.rounds import round_create, round_publish

from .test_services import field, play_table

pytestmark = pytest.mark.django_db(transaction=True)


def published(players: int, *, name: str = "Open"):
    """An event of `players` with round 1 published (its first standings built), nothing played."""
    club = club_create(name=f"Club {name}")
    event = event_create(club=club, name=name, rounds_planned=2, seed=5)
    field(event, players)
    round_ = round_create(event=event)
    round_publish(round_=round_)
    return event, round_


def url(event) -> str:
    return f"/api/events/{event.slug}/standings"


def queries(client, path, **headers) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **headers)
    return len(captured), response


def forget_fresh_answer(event) -> None:
    """What FRESH_SECONDS passing does: the process asks the database again."""
    cache.delete(f"api-standings:{event.slug}")


def test_a_poll_costs_the_same_few_queries_for_nine_players_and_ninety_nine(client):
    counts = {}
    for players in (9, 99):
        event, _ = published(players, name=f"Open {players}")
        cold, response = queries(client, url(event))
        body = response.json()  # nobody ranked before a game: all of them in "unranked"
        assert response.status_code == 200 and len(body["rows"] + body["unranked"]) == players
        fresh, _ = queries(client, url(event))
        forget_fresh_answer(event)
        again, _ = queries(client, url(event))
        counts[players] = (cold, fresh, again)
    assert counts[9] == counts[99]
    cold, fresh, again = counts[9]
    assert fresh == 0  # answered from memory
    assert again <= 3  # the event, the newest snapshot's id and time, results since it
    assert cold <= 7  # and once per snapshot: the snapshot, staleness, the names


def test_a_matching_etag_gets_a_304_without_a_body(client):
    event, _ = published(9)
    first = client.get(url(event))
    assert first.status_code == 200 and first["ETag"].startswith('"')
    assert "no-cache" in first["Cache-Control"]
    again = client.get(url(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]
    other = client.get(url(event), HTTP_IF_NONE_MATCH='"something else"')
    assert other.status_code == 200 and other.content == first.content


def test_every_process_gives_the_same_snapshot_the_same_etag(client):
    """A phone's polls land on any worker: each writes the same answer with the same ETag."""
    event, _ = published(9)
    first = client.get(url(event))
    cache.clear()  # another process, with nothing kept yet
    assert client.get(url(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_the_kept_answer_is_what_the_api_writes_afresh(client):
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    body = client.get(url(event)).json()
    fresh = json.loads(json.dumps(standings_render.api_data(event, standings_latest(event))))
    assert body == fresh
    assert body["stale"] is False and {row["player"] for row in body["rows"]} == {
        f"Player {n}" for n in range(1, 10)
    }


def test_new_results_change_the_answer_once_the_fresh_time_has_passed(client, monkeypatch):
    event, round_ = published(9)
    first = client.get(url(event))
    assert first.json()["stale"] is False
    monkeypatch.setattr(tasks.build_standings, "delay", lambda *args, **kwargs: None)
    tables = list(round_.tables.all())
    play_table(tables[0])  # confirmed; its standings build never runs (a broker outage)
    kept = client.get(url(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert kept.status_code == 304  # within FRESH_SECONDS the kept answer stands
    forget_fresh_answer(event)
    stale = client.get(url(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert stale.status_code == 200 and stale.json()["stale"] is True
    assert stale["ETag"] != first["ETag"]
    monkeypatch.undo()
    standings_build(event_id=event.pk)
    forget_fresh_answer(event)
    built = client.get(url(event), HTTP_IF_NONE_MATCH=stale["ETag"])
    assert built.status_code == 200 and built.json()["stale"] is False
    assert built.json()["updated"] != first.json()["updated"]


def test_an_api_poll_fetches_only_the_small_etag_entry_then_answers_from_memory(
    client, monkeypatch
):
    """The API's body for a big field is a few hundred KB: a poll that fetched it from the
    shared cache each time, a 304 as well, paid for it every time. A 304 reads the ETag
    alone; a 200 takes the body from the process's memory; another process fetches it once;
    and with no copy left anywhere, the database is read again."""
    from tournaments.results import api

    event, _ = published(99)
    first = client.get(url(event))
    size = len(first.content)
    reads = CacheReads(monkeypatch)
    for _ in range(3):
        assert client.get(url(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        again = client.get(url(event))
        assert again.status_code == 200 and again.content == first.content
    assert reads.fetched() < 600  # six ETags, no body
    api._bodies.clear()  # another process: the body is fetched once, then kept
    reads.reads.clear()
    for _ in range(3):
        assert client.get(url(event)).content == first.content
    assert size <= reads.fetched() < size + 400
    api._bodies.clear()
    cache.delete(f"api-standings-body:{event.slug}:{first['ETag']}")
    count, answer = queries(client, url(event))
    assert answer.content == first.content and answer["ETag"] == first["ETag"] and count <= 3


def test_an_unknown_event_is_still_a_json_404(client):
    response = client.get("/api/events/nope/standings")
    assert response.status_code == 404 and response.json()["error"]["message"]


def test_the_standings_build_takes_the_same_queries_for_a_bigger_field():
    """bench.standings times the pure build; the stored build reads a fixed number of rows
    sets, whatever the field's size."""
    counts = []
    for players in (9, 30):
        event, round_ = published(players, name=f"Build {players}")
        for table in round_.tables.all():
            play_table(table)
        event.standings.all().delete()  # so that the next build does all its work
        with CaptureQueriesContext(connection) as captured:
            snapshot = standings_build(event_id=event.pk)
        assert len(snapshot.rows) == players
        counts.append(len(captured))
    assert counts[0] == counts[1]


# --- written out when built ---------------------------------------------------------------------


def test_the_build_writes_out_the_api_body_and_each_languages_tables():
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    snapshot = standings_build(event_id=event.pk)
    stored = Standings.objects.get(pk=snapshot.pk)
    view = standings_latest(event)
    assert json.loads(stored.api_body) == json.loads(
        json.dumps(standings_render.api_data(event, view))
    )
    texts = {text.language: text for text in stored.texts.all()}
    assert set(texts) == {"en", "bg"} and len({text.mark for text in texts.values()}) == 1
    for language in ("en", "bg"):
        with translation.override(language):
            table = words.table_context(event, view)
            assert texts[language].standings_html == render_to_string(
                standings_render.STANDINGS_TABLE, table
            )
            assert texts[language].projector_html == render_to_string(
                standings_render.PROJECTOR_TABLE, table
            )
            assert texts[language].counted == words.standings_label(snapshot)
    assert "Player 1<" in texts["en"].standings_html
    assert "Играч" in texts["bg"].standings_html


# --- the public page's fragment ------------------------------------------------------------------


def live(event) -> str:
    return reverse("tournaments:standings_live", args=[event.slug])


def page(event) -> str:
    return reverse("tournaments:standings", args=[event.slug])


def fresh_fragment(event, language: str = "en") -> str:
    """The fragment rendered now from the database, bypassing everything written out."""
    with translation.override(language):
        view = standings_latest(event)
        table = ""
        if view.snapshot is not None:
            table = render_to_string(public.STANDINGS + "#table", words.table_context(event, view))
        context = {
            "event": event,
            "poll_seconds": 15,
            **words.head_context(view.snapshot, view.stale),
            "table_html": mark_safe(table),
        }
        return render_to_string(public.STANDINGS + "#standings", context)


def forget_fresh_fragment(event) -> None:
    """What public.FRESH_SECONDS passing does: the next poll asks the database again."""
    for language in ("en", "bg"):
        cache.delete(f"standings-live:{event.slug}:{language}")


def no_render(monkeypatch) -> None:
    """From here on, rendering the standings table would fail the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the standings were rendered again")

    monkeypatch.setattr(standings_render, "table_context", refuse)


@pytest.fixture
def played():
    """9 players, round 1 played and its standings built (and written out)."""
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    standings_build(event_id=event.pk)
    return event, round_


def test_a_poll_serves_the_written_out_table_and_renders_nothing(
    client, played, monkeypatch, django_assert_num_queries
):
    event, _ = played
    no_render(monkeypatch)
    with django_assert_num_queries(3):  # the event, the newest snapshot's head, its table
        first = client.get(live(event))
    assert first.status_code == 200
    assert first.content.decode() == fresh_fragment(event)
    assert "Player 1<" in first.content.decode() and "built just now" in first.content.decode()
    # a phone without the ETag (or with an old one) gets the same answer: while it is fresh,
    # with no query at all
    with django_assert_num_queries(0):
        again = client.get(live(event), HTTP_IF_NONE_MATCH='"an old one"')
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"] and "no-cache" in again["Cache-Control"]
    with django_assert_num_queries(0):
        assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # then the database again: the event and the snapshot's small head, whatever the field's
    # size; the fragment that head names is kept, so its table is not read again
    forget_fresh_fragment(event)
    with django_assert_num_queries(2):
        kept = client.get(live(event))
    assert kept.status_code == 200 and kept.content == first.content
    forget_fresh_fragment(event)
    with django_assert_num_queries(2):
        assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


class CacheReads:
    """Records what each `cache.get` fetched: its key and the size of what came back."""

    def __init__(self, monkeypatch):
        self.reads: list[tuple[str, int]] = []
        get = cache.get

        def recorded(key, *args, **kwargs):
            found = get(key, *args, **kwargs)
            self.reads.append((key, 0 if found is None else len(pickle.dumps(found))))
            return found

        monkeypatch.setattr(public.cache, "get", recorded)

    def fetched(self) -> int:
        """Bytes fetched from the shared cache (as pickled into it)."""
        return sum(size for _, size in self.reads)


def test_a_poll_fetches_only_the_small_etag_entry_then_answers_from_memory(
    client, played, monkeypatch
):
    """A 999-player fragment is ~450 KB: a poll that fetched it from the shared cache (Redis)
    each time cost 4-5x its floor (docs/performance.md, cost per request). A 304 reads the
    ETag alone; a 200 takes the HTML from the process's memory; another process fetches it
    once."""
    event, _ = played
    first = client.get(live(event))
    size = len(first.content)
    reads = CacheReads(monkeypatch)
    assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    again = client.get(live(event))
    assert again.status_code == 200 and again.content == first.content
    assert reads.fetched() < 200  # two ETags, no fragment
    public._texts.clear()  # another process: the fragment is fetched once, then kept
    reads.reads.clear()
    for _ in range(3):
        assert client.get(live(event)).content == first.content
    assert size <= reads.fetched() < size + 400


def test_the_page_shows_the_polled_fragment(client, played, monkeypatch, django_assert_num_queries):
    event, _ = played
    no_render(monkeypatch)
    with django_assert_num_queries(4):  # the event, the snapshot's head, its table,
        first = client.get(page(event))  # the tables settled after a walkout (walkouts.py)
    fragment = fresh_fragment(event)
    assert first.status_code == 200 and fragment in first.content.decode()
    assert first.content.decode().count('id="standings"') == 1
    # the poll answers with the fragment the page showed
    assert client.get(live(event)).content.decode() == fragment


def test_a_new_snapshot_and_new_results_make_a_new_fragment(client, monkeypatch):
    event, round_ = published(9)
    tables = list(round_.tables.all())
    first = client.get(live(event))
    assert "being updated" not in first.content.decode()
    monkeypatch.setattr(tasks.build_standings, "delay", lambda *args, **kwargs: None)
    play_table(tables[0])  # confirmed; no build yet
    kept = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert kept.status_code == 304  # within FRESH_SECONDS the kept answer stands
    forget_fresh_fragment(event)
    stale = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert stale.status_code == 200 and stale["ETag"] != first["ETag"]
    assert "being updated" in stale.content.decode()
    assert stale.content.decode() == fresh_fragment(event)
    standings_build(event_id=event.pk)
    forget_fresh_fragment(event)
    built = client.get(live(event), HTTP_IF_NONE_MATCH=stale["ETag"])
    assert built.status_code == 200 and built["ETag"] not in (first["ETag"], stale["ETag"])
    assert "being updated" not in built.content.decode()
    assert built.content.decode() == fresh_fragment(event) != first.content.decode()
    assert client.get(page(event)).content.decode().count(built.content.decode()) == 1


def test_another_language_is_another_fragment(client, played, monkeypatch):
    event, _ = played
    no_render(monkeypatch)  # both were written out with the snapshot
    english = client.get(live(event))
    bulgarian = client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg")
    assert bulgarian.status_code == 200 and bulgarian["ETag"] != english["ETag"]
    assert "Играч" in bulgarian.content.decode() and "Играч" not in english.content.decode()
    assert bulgarian.content.decode() == fresh_fragment(event, "bg")
    assert client.get(live(event)).content == english.content
    assert client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg").content == bulgarian.content
    page_bg = client.get(page(event), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert bulgarian.content.decode() in page_bg


def test_another_language_is_another_fragment_before_any_standings(client, monkeypatch):
    club = club_create(name="Club")
    event = event_create(club=club, name="Not yet", rounds_planned=2, seed=5)
    english = client.get(live(event))
    bulgarian = client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg")
    assert "No standings yet" in english.content.decode()
    assert bulgarian.content.decode() == fresh_fragment(event, "bg") != english.content.decode()
    assert bulgarian["ETag"] != english["ETag"]


def test_two_events_without_standings_each_get_their_own_fragment(client):
    """Before any standings the fragment's ETag names no snapshot, so two events' ETags are
    alike; the fragment they name is not (it polls its own event's address): each event's
    page and poll show its own, whichever came first, from memory or the shared cache."""
    club = club_create(name="Club")
    first = event_create(club=club, name="Monday", rounds_planned=2, seed=5)
    second = event_create(club=club, name="Tuesday", rounds_planned=2, seed=5)
    assert first.slug in client.get(live(first)).content.decode()
    for answer in (client.get(live(second)), client.get(page(second))):
        assert live(second) in answer.content.decode()
        assert live(first) not in answer.content.decode()
    public._texts.clear()  # another process: the fragment from the shared cache, if kept
    answer = client.get(live(first))
    assert live(first) in answer.content.decode() and live(second) not in answer.content.decode()
    assert client.get(live(second)).content.decode() == fresh_fragment(second, "en")


def test_a_new_minute_of_built_ago_is_not_a_new_fragment(client, played, monkeypatch):
    """Only the clock moved: the phone's copy stands (its script words "built … ago" again,
    static/js/built/page.js), where a minute's tick in the ETag sent every polling phone the
    whole table again. A phone without it, or the page loaded now, gets it worded now."""
    event, _ = played
    first = client.get(live(event))
    assert "built just now" in first.content.decode()
    later = timezone.now() + timedelta(minutes=2, seconds=5)
    monkeypatch.setattr(words.timezone, "now", lambda: later)
    no_render(monkeypatch)
    for fresh in (True, False):  # the ETag kept (FRESH_SECONDS), then asked again
        if not fresh:
            forget_fresh_fragment(event)
        unchanged = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
        assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"]
    again = client.get(live(event))
    assert again.status_code == 200 and again["ETag"] == first["ETag"]
    worded = first.content.decode().replace(">built just now<", ">built 2 minutes ago<")
    assert again.content.decode() == worded == fresh_fragment(event)
    assert worded in client.get(page(event)).content.decode()
    bulgarian = client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert "изчислено преди 2 минути" in bulgarian
    # a new snapshot still is a new fragment
    monkeypatch.undo()
    event.standings.all().delete()
    standings_build(event_id=event.pk)
    forget_fresh_fragment(event)
    rebuilt = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert rebuilt.status_code == 200 and rebuilt["ETag"] != first["ETag"]
    assert "built just now" in rebuilt.content.decode()


def test_a_withdrawal_writes_the_standings_out_again(client, played):
    """The table marks withdrawn players: a withdrawal (or reinstatement) writes the newest
    snapshot out again when it commits, under a new ETag, without waiting for a build."""
    event, _ = played
    first = client.get(live(event))
    assert "withdrawn-tag" not in first.content.decode()
    entry = Entry.objects.get(event=event, player__name="Player 1")
    entry_withdraw(entry=entry, reason="went home")
    forget_fresh_fragment(event)
    gone = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert gone.status_code == 200 and gone["ETag"] != first["ETag"]
    assert gone.content.decode().count('class="withdrawn-tag"') == 1
    assert gone.content.decode() == fresh_fragment(event)
    projector = client.get(reverse("tournaments:projector", args=[event.slug])).content.decode()
    assert projector.count('class="withdrawn-tag"') == 1


def test_a_snapshot_stored_before_is_written_out_by_the_first_poll(client, played):
    """Snapshots from before this existed (or whose writing failed) have nothing stored: the
    first poll writes them out, once, and the API answers the same body as ever."""
    event, _ = played
    event.standings.update(api_body="")
    StandingsText.objects.filter(snapshot__event=event).delete()
    response = client.get(live(event))
    assert response.status_code == 200 and response.content.decode() == fresh_fragment(event)
    stored = event.standings.first()
    assert stored.texts.get(language="en").standings_html and stored.api_body
    event.standings.update(api_body="")
    StandingsText.objects.filter(snapshot__event=event).delete()
    body = client.get(url(event)).json()
    assert body == json.loads(json.dumps(standings_render.api_data(event, standings_latest(event))))
