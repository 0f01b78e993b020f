"""The standings under polling: a thousand phones ask every few seconds (bench.site_load).

What is pinned here, for the API: a poll costs a fixed, small number of queries whatever the
field's size (none at all while a process's answer is fresh), the answer carries an ETag and
a matching If-None-Match gets a 304, and the kept answer is the one the API would write out
afresh. For the public page's fragment: it is rendered once per snapshot, staleness,
wording and language and then read from the cache (the same bytes as a fresh render), the
page itself shows that same fragment, and a new snapshot, new results, a new minute of
"built … ago" or another language each make a new one.
"""

import json
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from tournaments import api, selectors, services, tasks
from tournaments.models import Player
from tournaments.views import public

from .test_services import field, play_table

pytestmark = pytest.mark.django_db(transaction=True)


def published(players: int, *, name: str = "Open"):
    """An event of `players` with round 1 published (its first standings built), nothing played."""
    club = services.club_create(name=f"Club {name}")
    event = services.event_create(club=club, name=name, rounds_planned=2, seed=5)
    field(event, players)
    round_ = services.round_create(event=event)
    services.round_publish(round_=round_)
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
        assert response.status_code == 200 and len(response.json()["rows"]) == players
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
    fresh = json.loads(json.dumps(api._standings_data(event, selectors.standings_latest(event))))
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
    services.standings_build(event_id=event.pk)
    forget_fresh_answer(event)
    built = client.get(url(event), HTTP_IF_NONE_MATCH=stale["ETag"])
    assert built.status_code == 200 and built.json()["stale"] is False
    assert built.json()["updated"] != first.json()["updated"]


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
            snapshot = services.standings_build(event_id=event.pk)
        assert len(snapshot.rows) == players
        counts.append(len(captured))
    assert counts[0] == counts[1]


# --- the public page's fragment ------------------------------------------------------------------


def live(event) -> str:
    return reverse("tournaments:standings_live", args=[event.slug])


def page(event) -> str:
    return reverse("tournaments:standings", args=[event.slug])


def fresh_fragment(event, language: str = "en") -> str:
    """The fragment rendered now from the database, bypassing every cache."""
    with translation.override(language):
        view = selectors.standings_latest(event)
        context = {"event": event, **public.standings_context(event, view)}
        return render_to_string(public.STANDINGS + "#standings", context)


def forget_fresh_fragment(event) -> None:
    """What public.FRESH_SECONDS passing does: the next poll asks the database again."""
    for language in ("en", "bg"):
        cache.delete(f"standings-live:{event.slug}:{language}")


def no_render(monkeypatch) -> None:
    """From here on, rendering the standings would fail the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("the standings were rendered again")

    monkeypatch.setattr(public, "standings_context", refuse)


@pytest.fixture
def played():
    """9 players, round 1 played and its standings built."""
    event, round_ = published(9)
    for table in round_.tables.all():
        play_table(table)
    services.standings_build(event_id=event.pk)
    return event, round_


def test_the_kept_fragment_is_a_fresh_render_and_is_not_rendered_again(
    client, played, monkeypatch, django_assert_num_queries
):
    event, _ = played
    first = client.get(live(event))
    assert first.status_code == 200
    assert first.content.decode() == fresh_fragment(event)
    assert "Player 1<" in first.content.decode() and "built just now" in first.content.decode()
    no_render(monkeypatch)
    # a phone without the ETag (or with an old one) gets the kept fragment: no render, and
    # while the check is fresh, no query at all
    with django_assert_num_queries(0):
        again = client.get(live(event), HTTP_IF_NONE_MATCH='"an old one"')
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"] and "no-cache" in again["Cache-Control"]
    with django_assert_num_queries(0):
        assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # then the cheap check again, and still no render, no rows, no names
    forget_fresh_fragment(event)
    with django_assert_num_queries(3):  # the event, the newest snapshot's id and time, staleness
        kept = client.get(live(event))
    assert kept.status_code == 200 and kept.content == first.content
    forget_fresh_fragment(event)
    with django_assert_num_queries(3):
        assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_the_page_shows_the_kept_fragment(client, played, monkeypatch, django_assert_num_queries):
    event, _ = played
    with django_assert_num_queries(5):  # the event, the snapshot, staleness, the names,
        first = client.get(page(event))  # the tables settled after a walkout (walkouts.py)
    fragment = fresh_fragment(event)
    assert first.status_code == 200 and fragment in first.content.decode()
    assert first.content.decode().count('id="standings"') == 1
    no_render(monkeypatch)
    with django_assert_num_queries(4):  # the names are not read: the fragment is kept
        again = client.get(page(event))
    assert again.status_code == 200 and fragment in again.content.decode()  # (the nonce differs)
    # the poll answers with the fragment the page rendered
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
    services.standings_build(event_id=event.pk)
    forget_fresh_fragment(event)
    built = client.get(live(event), HTTP_IF_NONE_MATCH=stale["ETag"])
    assert built.status_code == 200 and built["ETag"] not in (first["ETag"], stale["ETag"])
    assert "being updated" not in built.content.decode()
    assert built.content.decode() == fresh_fragment(event) != first.content.decode()
    assert client.get(page(event)).content.decode().count(built.content.decode()) == 1


def test_another_language_is_another_fragment(client, played, monkeypatch):
    event, _ = played
    english = client.get(live(event))
    bulgarian = client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg")
    assert bulgarian.status_code == 200 and bulgarian["ETag"] != english["ETag"]
    assert "Играч" in bulgarian.content.decode() and "Играч" not in english.content.decode()
    assert bulgarian.content.decode() == fresh_fragment(event, "bg")
    no_render(monkeypatch)  # both are kept now, side by side
    assert client.get(live(event)).content == english.content
    assert client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg").content == bulgarian.content
    page_bg = client.get(page(event), HTTP_ACCEPT_LANGUAGE="bg").content.decode()
    assert bulgarian.content.decode() in page_bg


def test_another_language_is_another_fragment_before_any_standings(client, monkeypatch):
    club = services.club_create(name="Club")
    event = services.event_create(club=club, name="Not yet", rounds_planned=2, seed=5)
    english = client.get(live(event))
    bulgarian = client.get(live(event), HTTP_ACCEPT_LANGUAGE="bg")
    assert "No standings yet" in english.content.decode()
    assert bulgarian.content.decode() == fresh_fragment(event, "bg") != english.content.decode()
    assert bulgarian["ETag"] != english["ETag"]


def test_a_new_minute_of_built_ago_is_a_new_fragment(client, played, monkeypatch):
    event, _ = played
    first = client.get(live(event))
    later = timezone.now() + timedelta(minutes=2, seconds=5)
    monkeypatch.setattr(public.timezone, "now", lambda: later)
    forget_fresh_fragment(event)
    moved = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert "built 2\xa0minutes ago" in moved.content.decode()


def test_a_renamed_player_shows_once_the_kept_fragment_expires(client, played):
    event, _ = played
    first = client.get(live(event))
    Player.objects.filter(entries__event=event, name="Player 1").update(name="Player One")
    assert client.get(live(event)).content == first.content  # kept: FRAGMENT_SECONDS
    cache.clear()  # what FRAGMENT_SECONDS passing does
    renamed = client.get(live(event)).content.decode()
    assert "Player One<" in renamed and renamed == fresh_fragment(event)


def current_etag(event) -> str:
    head = selectors.standings_head(event)
    return public._standings_etag(head.snapshot_id, head.stale, head.built_at)


def test_while_one_phone_renders_a_new_fragment_the_others_get_the_last_one(
    client, played, monkeypatch
):
    """A new snapshot every few seconds (the confirmation rush) must not have every thread of
    the site render the same 999 rows at once: one does, the others answer meanwhile with
    the fragment before."""
    event, _ = played
    first = client.get(live(event))
    later = timezone.now() + timedelta(minutes=2, seconds=5)
    monkeypatch.setattr(public.timezone, "now", lambda: later)  # a new fragment is due
    forget_fresh_fragment(event)
    new = current_etag(event)
    assert new != first["ETag"]
    cache.set(public._rendering_key(event.pk, event.slug, new), True)  # another phone renders
    with monkeypatch.context() as inner:
        no_render(inner)
        meanwhile = client.get(live(event))
        assert meanwhile.status_code == 200 and meanwhile.content == first.content
        assert meanwhile["ETag"] == first["ETag"]  # so its next poll asks again
        assert client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    cache.delete(public._rendering_key(event.pk, event.slug, new))  # that render failed
    done = client.get(live(event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert done.status_code == 200 and done["ETag"] == new
    assert "built 2\xa0minutes ago" in done.content.decode()


def test_with_no_fragment_before_a_phone_waits_for_the_one_being_rendered(
    client, played, monkeypatch
):
    event, _ = played
    etag = current_etag(event)
    html = fresh_fragment(event)
    cache.set(public._rendering_key(event.pk, event.slug, etag), True)
    waits = []

    def other_render_finishes(seconds):
        waits.append(seconds)
        if len(waits) == 3:
            cache.set(public._fragment_key(event.pk, event.slug, etag), html)

    monkeypatch.setattr(public.time, "sleep", other_render_finishes)
    no_render(monkeypatch)
    response = client.get(live(event))
    assert response.status_code == 200 and response.content.decode() == html
    assert response["ETag"] == etag and len(waits) == 3


def test_a_phone_renders_itself_when_the_other_render_never_comes(client, played, monkeypatch):
    event, _ = played
    etag = current_etag(event)
    cache.set(public._rendering_key(event.pk, event.slug, etag), True)
    monkeypatch.setattr(public, "RENDER_WAIT_SECONDS", 0.2)
    response = client.get(live(event))
    assert response.status_code == 200 and response["ETag"] == etag
    assert response.content.decode() == fresh_fragment(event)
