"""Polls that wait at the door (config.door, config.parking): "My next seat"'s version poll with
a wait marker is held while its version stands, answered with the new version (byte for byte
Django's 200, made at the door) soon after the version moves, and at its deadline with
exactly the 304 the door answers today; a poll that is behind is answered at once, never
held; where nothing may wait (no room, a server without spare threads) it is answered at
once; the gate lets no more than its few requests work at once, and a held poll does not
hold it.

As tests/test_door.py: WSGI applications called with environ dicts, answers compared byte for
byte with Django's own. Waits here are a fraction of a second (the watcher looks every 50 ms).
"""

from __future__ import annotations

import operator
import re
import threading
import time
from dataclasses import replace

import pytest
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import parking as parking_module
from config.door import Door, asked_wait, each
from config.parking import Gate
from scoring import services as scoring_services
from scoring.models import Game
from tests.test_door import call, environ, full, login_session, refuse
from tournaments.rounds import web as rounds_web

pytestmark = pytest.mark.django_db

TICK = 0.05


@pytest.fixture
def event(monkeypatch):
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register

    # The kept version outlives the test: the watcher (another thread) reads the cache only.
    monkeypatch.setattr(rounds_web, "PHONE_VERSION_SECONDS", 600)
    event = event_create(club=club_create(name="Club"), name="Night", seed=3)
    players_register(event=event, names=["Ana", "Boris", "Vera"], checked_in=True)
    cache.clear()
    return event


def version_of(event) -> str:
    status, _, body = full(environ(reverse("tournaments:next_seat_version", args=[event.slug])))
    assert status == "200 OK"
    return body.decode()


def waiting_poll(event, version: str, wait: int = 25, **headers) -> dict:
    path = reverse("tournaments:next_seat_version", args=[event.slug])
    return environ(path, query=f"wait={wait}", If_None_Match=f'"{version}"', **headers)


def publish(event) -> str:
    """What a publish does to the kept version (tournaments.tasks.prerender_round renews it)."""
    cache.set(rounds_web._phone_version_key(event.slug), "0123456789abcdef", 600)
    return "0123456789abcdef"


def in_thread(application, env: dict) -> tuple[threading.Thread, dict]:
    got = {}

    def run():
        started = time.monotonic()
        got["answer"] = call(application, env)
        got["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=run)
    thread.start()
    return thread, got


def until(condition, seconds: float = 10.0) -> None:
    ends = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < ends, "waited in vain"
        time.sleep(0.01)


def test_a_held_poll_gets_the_new_version_soon_after_it_moves(event, make_parking):
    version = version_of(event)
    parking = make_parking(threads=8, working=2, tick=TICK)
    env = waiting_poll(event, version)
    thread, got = in_thread(Door(WSGIHandler(), parking=parking), env)
    until(lambda: parking.parked == 1)
    time.sleep(0.3)
    assert thread.is_alive() and parking.parked == 1  # held, not answered
    moved = time.monotonic()
    new = publish(event)
    thread.join(10)
    assert not thread.is_alive()
    assert time.monotonic() - moved < 5  # a tick or two (50 ms each), not the 25-s deadline
    status, headers, body = got["answer"]
    assert (status, body) == ("200 OK", new.encode())
    assert got["answer"] == full(env)  # Django's own answer of the new version
    assert parking.parked == 0


@override_settings(DOOR_WAIT_SECONDS=1)
def test_at_its_deadline_the_held_poll_gets_todays_304(event, make_parking):
    version = version_of(event)
    parking = make_parking(threads=8, working=2, tick=TICK)
    for headers in ({}, {"Accept-Language": "bg"}, {"Cookie": "csrftoken=" + "a" * 32}):
        env = waiting_poll(event, version, wait=25, **headers)  # capped to the setting's 1 s
        started = time.monotonic()
        answer = call(Door(WSGIHandler(), parking=parking), env)
        assert 0.9 < time.monotonic() - started < 5  # the 1-s cap, not the 25 s asked
        assert answer[0] == "304 Not Modified"
        assert answer == full(env)
        plain = dict(env, QUERY_STRING="")  # today's poll, without the marker, at the door
        assert answer == call(Door(WSGIHandler(), parking=None), plain)


def test_without_room_the_poll_is_answered_at_once(event, make_parking):
    version = version_of(event)
    env = waiting_poll(event, version)
    for parking in (make_parking(threads=2, working=2, tick=TICK), None):
        started = time.monotonic()
        answer = call(Door(WSGIHandler(), parking=parking), env)
        assert time.monotonic() - started < 5  # at once, not after the 25 s asked
        assert answer[0] == "304 Not Modified" and answer == full(env)
    # Room for one: the second waits no more than today's poll.
    parking = make_parking(threads=3, working=2, tick=TICK)
    door = Door(WSGIHandler(), parking=parking)
    thread, first = in_thread(door, env)
    until(lambda: parking.parked == 1)
    started = time.monotonic()
    assert call(door, env)[0] == "304 Not Modified"
    assert time.monotonic() - started < 5  # at once, not after the 25 s asked
    publish(event)
    thread.join(10)
    assert first["answer"][0] == "200 OK"


def test_a_server_that_spares_no_thread_never_holds(event, settings):
    """The sync worker (the hosted site) says nothing of threads: no parking, no gate; nor
    does a gthread server of no more threads than may work at once."""
    settings.WORKING_THREADS = 2
    for threads in (0, 1, 2):
        parking_module.serve_with_threads(threads)
        assert parking_module.process_parking() is None
        assert Door(WSGIHandler()).parking is None
    parking_module.serve_with_threads(64)
    try:
        made = parking_module.process_parking()
        assert made is not None and made.room == 62
        assert parking_module.process_parking() is made  # one a process
    finally:
        parking_module.serve_with_threads(0)
    from config.gunicorn_workers import SyncWorker, ThreadWorker

    assert "init_process" in ThreadWorker.__dict__
    assert "init_process" not in SyncWorker.__dict__


def test_only_the_versions_poll_may_wait_and_only_as_asked(event, make_parking):
    version = version_of(event)
    parking = make_parking(threads=8, working=2, tick=TICK)
    door = Door(WSGIHandler(), parking=parking)
    standings = reverse("tournaments:standings_live", args=[event.slug])
    _, headers, _ = full(environ(standings))
    tag = dict(headers)["ETag"]
    path = reverse("tournaments:next_seat_version", args=[event.slug])
    cases = [
        environ(standings, query="wait=25", If_None_Match=tag),  # no watch: never held
        environ(path, query="wait=0", If_None_Match=f'"{version}"'),
        environ(path, query="wait=soon", If_None_Match=f'"{version}"'),
        environ(path, "HEAD", query="wait=25", If_None_Match=f'"{version}"'),
        environ(path, query="wait=25", If_None_Match='"0000"'),  # not unchanged: the 200
    ]
    for env in cases:
        started = time.monotonic()
        answer = call(door, env)
        assert time.monotonic() - started < 5  # at once, not after the 25 s asked
        assert answer == full(env)


def test_what_a_waiting_phone_lacks_leaves_at_once(event, table, make_parking):
    """A poll that asks to wait but is behind (its phone slept through a publish, or asked
    just as a deal came) gets the current answer the door holds for it at once: not held
    until the watcher's next look, nor to its deadline."""
    behind = sheet_poll(table, version=table.version - 1)
    full(behind)  # the table's first phone: the partial is kept
    version = version_of(event)
    parking = make_parking(threads=8, working=2, tick=30)  # the watcher looks every 30 s
    door = Door(refuse, parking=parking)  # and the door answers alone
    for env in (behind, waiting_poll(event, "0000")):
        started = time.monotonic()
        answer = call(door, env)
        assert time.monotonic() - started < 5
        assert answer[0] == "200 OK" and parking.parked == 0
        assert answer == full(env)
    assert answer[2] == version.encode()


def test_the_wait_asked_is_capped(settings):
    settings.DOOR_WAIT_SECONDS = 25
    for query, seconds in [("wait=10", 10), ("wait=600", 25), ("", 0), ("wait=-3", 0)]:
        assert asked_wait(dict([query.split("=")]) if query else {}) == seconds


def test_held_polls_keep_their_own_answers(event, make_parking):
    """Phones of other languages, sessions and cookies held together: each is let go with its
    own answer, byte for byte Django's for its request, no header of another's."""
    version = version_of(event)
    parking = make_parking(threads=8, working=2, tick=TICK)
    door = Door(WSGIHandler(), parking=parking)
    heads = [
        {},
        {"Accept-Language": "bg"},
        {"Cookie": f"sessionid={login_session()}; csrftoken={'b' * 32}"},
        {"Cookie": "csrftoken=short"},  # Django replaces a bad CSRF cookie with a new one
    ]
    envs = [waiting_poll(event, version, **head) for head in heads]
    held = [in_thread(door, env) for env in envs]
    until(lambda: parking.parked == len(envs))
    publish(event)
    for (thread, got), env, head in zip(held, envs, heads, strict=True):
        thread.join(10)
        status, headers, body = got["answer"]
        assert status == "200 OK"
        cookies = [v for k, v in headers if k == "Set-Cookie"]
        if head.get("Cookie") == "csrftoken=short":
            assert len(cookies) == 1 and "csrftoken=" in cookies[0]
            continue  # a new random token: compared in tests/test_door.py, masked
        assert got["answer"] == full(env)
        assert not cookies
        # Bulgarian only where the phone asked for it (not "bg" anywhere in the head: a
        # random session key holds those two letters now and then).
        assert dict(headers)["Content-Language"] == head.get("Accept-Language", "en")


def test_the_gate_lets_its_few_work_at_once_and_a_held_poll_is_not_one(event, make_parking):
    version = version_of(event)
    working, busiest, lock = [0], [0], threading.Lock()
    django = WSGIHandler()

    def counting(env, start_response):
        with lock:
            working[0] += 1
            busiest[0] = max(busiest[0], working[0])
        time.sleep(0.05)
        with lock:
            working[0] -= 1
        return django(env, start_response)

    parking = make_parking(threads=16, working=2, tick=TICK)
    door = Door(counting, parking=parking)
    # Two polls held take no working place from the pages that come meanwhile.
    held = [in_thread(door, waiting_poll(event, version)) for _ in range(2)]
    until(lambda: parking.parked == 2)
    page = environ(reverse("tournaments:robots"))  # a page no door answers, reading no table
    pages = [in_thread(door, page) for _ in range(8)]
    for thread, got in pages:
        thread.join(5)
        assert got["answer"][0] == "200 OK" and got["seconds"] < 4  # not behind the held
    assert busiest[0] == 2
    assert parking.parked == 2
    publish(event)
    for thread, got in held:
        thread.join(10)
        assert got["answer"][0] == "200 OK"
    assert busiest[0] == 2


def test_a_failing_watch_lets_the_poll_go_to_django(event, make_parking):
    from tournaments.rounds.views.public_next import NEXT_SEAT_VERSION_AT_DOOR

    version = version_of(event)
    reads = []

    def flaky(slug):
        reads.append(slug)
        if len(reads) > 1:
            raise RuntimeError("the cache went away")
        return rounds_web.phone_version(slug)

    answers = [replace(NEXT_SEAT_VERSION_AT_DOOR, watch=each(flaky))]
    parking = make_parking(threads=8, working=2, tick=TICK)
    env = waiting_poll(event, version)
    thread, got = in_thread(Door(WSGIHandler(), answers, parking=parking), env)
    thread.join(10)
    assert not thread.is_alive() and len(reads) == 2  # held, then let go at the first look
    assert got["answer"][0] == "304 Not Modified"
    assert got["answer"] == full(env)  # Django's own: the version stands


# --- the watchers' sheet, held ---------------------------------------------------------------
# The watcher and the held polls read the database from their own threads: these tests commit.


@pytest.fixture
def table(transactional_db):
    from tests.scoring.test_views import create

    keeper = Client()
    game = create(keeper)
    scoring_services.deal_record(game_id=game.pk, number=1, calls=["hearts"], tricks=[4, 7, 5])
    game.refresh_from_db()
    return game


GAME = {"ruleset": "blato", "players": ["Ana", "Boris", "Vera"]}


def sheet_poll(game, wait: int = 25, version: int | None = None, **headers) -> dict:
    """A watcher's held poll, showing `version` (default: the game's)."""
    shown = game.version if version is None else version
    return environ(
        reverse("scoring:sheet", args=[game.pk]), query=f"v={shown}&wait={wait}", **headers
    )


def test_a_held_sheet_gets_the_next_deal_within_a_tick(table, make_parking):
    parking = make_parking(threads=8, working=2, tick=TICK)
    env = sheet_poll(table)
    thread, got = in_thread(Door(WSGIHandler(), parking=parking), env)
    until(lambda: parking.parked == 1)
    time.sleep(0.3)
    assert thread.is_alive() and parking.parked == 1  # held, not answered
    moved = time.monotonic()
    scoring_services.deal_record(game_id=table.pk, number=2, calls=["spades"], tricks=[5, 3, 8])
    thread.join(10)
    assert not thread.is_alive()
    assert time.monotonic() - moved < 5  # a tick or two (50 ms each), not the 25-s deadline
    status, _, body = got["answer"]
    assert status == "200 OK" and b'id="game"' in body
    assert got["answer"] == full(env)  # Django's own partial of the new version
    assert parking.parked == 0


@override_settings(DOOR_WAIT_SECONDS=1)
def test_at_its_deadline_the_held_sheet_gets_todays_204(table, make_parking):
    parking = make_parking(threads=8, working=2, tick=TICK)
    for headers in ({}, {"Accept-Language": "bg"}):
        env = sheet_poll(table, **headers)  # capped to the setting's 1 s
        started = time.monotonic()
        answer = call(Door(WSGIHandler(), parking=parking), env)
        assert 0.9 < time.monotonic() - started < 5  # the 1-s cap, not the 25 s asked
        assert answer[0] == "204 No Content" and answer == full(env)
        path = reverse("scoring:sheet", args=[table.pk])
        plain = environ(path, query=f"v={table.version}", **headers)  # today's poll
        assert answer == call(Door(WSGIHandler(), parking=None), plain)


@override_settings(DOOR_WAIT_SECONDS=1)
def test_holding_a_sheet_poll_reads_no_more_than_answering_it(table, make_parking):
    """What a held poll's page shows is in its query (v, c): holding it sends the door
    answer's one statement, as answering it at once does, and the watcher's read is its own."""
    answered, held = CaptureQueriesContext(connection), CaptureQueriesContext(connection)
    with answered:
        assert call(Door(WSGIHandler(), parking=None), sheet_poll(table))[0] == "204 No Content"
    parking = make_parking(threads=8, working=2, tick=3600)  # the watcher never looks here
    with held:
        assert call(Door(WSGIHandler(), parking=parking), sheet_poll(table))[0] == (
            "204 No Content"
        )
    assert len(held) == len(answered) == 1


def test_the_watcher_reads_every_held_sheet_in_two_statements(table):
    """However many games are held in a process, a look costs the same two small statements:
    their versions, and the marks of the clocks they play against."""
    from scoring.views.watch import SHEET_AT_DOOR

    games = [table]
    for _ in range(4):
        games.append(scoring_services.game_create(**GAME))
    ids = [{"game_id": str(game.pk)} for game in games] + [{"game_id": "999999"}]
    with CaptureQueriesContext(connection) as queries:
        values = SHEET_AT_DOOR.watch(ids)
    assert len(queries) == 2
    expected = [(Game.objects.get(pk=game.pk).version, None) for game in games]
    assert values == [*expected, (None, None)]  # a casual game has no clock; a gone one nothing


def test_the_watchers_page_asks_to_wait(table, settings):
    """The page asks every 5 s; htmx sends no second question while one is out (it keeps the
    last tick and sends it when the answer comes)."""
    from tests.scoring.test_views import page

    settings.DOOR_WAIT_SECONDS = 25
    body = page(Client(), table)
    tag = re.search(r'<div id="game"[^>]*>', body).group(0)
    polled = re.search(r'data-hx-get="([^"]+)"', tag).group(1)
    assert polled.replace("&amp;", "&") == (
        f"{reverse('scoring:sheet', args=[table.pk])}?v={table.version}&wait=25"
    )
    assert 'data-hx-trigger="every 5s"' in tag and "hx-sync" not in tag  # htmx's own queue


def test_a_look_reads_each_group_once_with_each_item_once(make_parking):
    """The watcher's look asks a group's read once, with every item held in it once however
    many polls hold it, and wakes only the polls whose item moved; a read that answers
    another number of values than it was asked wakes its whole group (Django answers them)."""
    parking = make_parking(threads=10, working=2, tick=3600)  # the test looks, not the watcher
    now, reads, woken, short = {"a": 1, "b": 1}, [], {}, [False]

    def read(items):
        reads.append(sorted(items))
        return [] if short[0] else [now[item] for item in items]

    def hold(n: int, item: str) -> threading.Thread:
        thread = threading.Thread(
            target=lambda: woken.__setitem__(n, parking.park("g", item, read, 1, 5))
        )
        thread.start()
        return thread

    held = [hold(n, "a") for n in range(3)] + [hold(n, "b") for n in range(3, 5)]
    until(lambda: parking.parked == 5)
    parking.look()
    assert reads == [["a", "b"]] and parking.parked == 5
    now["a"] = 2
    parking.look()
    for thread in held[:3]:
        thread.join(10)
    assert woken == {0: True, 1: True, 2: True} and parking.parked == 2
    assert reads[-1] == ["a", "b"]  # read before the woken left: still both
    parking.look()
    assert reads[-1] == ["b"]
    short[0] = True  # "b" stands, but the read answers no value for it: both polls wake
    parking.look()
    for thread in held[3:]:
        thread.join(10)
    assert woken[3] is True and woken[4] is True and parking.parked == 0


def test_a_hold_without_a_thread_is_woken_once_when_moved_at_its_deadline_or_let_go(make_parking):
    """Parking.hold (bin/serve's worker: no thread waits): each poll's `wake` is told once,
    True when its item moved, False at the first look past its deadline or when the server
    lets every poll go; no room, no hold."""
    parking = make_parking(threads=4, working=2, tick=3600, room=3)  # the test looks
    now, told = {"a": 1, "b": 1, "c": 1}, []

    def read(items):
        return [now[item] for item in items]

    def hold(name: str, seconds: float) -> bool:
        wake = lambda moved: told.append((name, moved))  # noqa: E731
        return parking.hold("g", name, read, 1, seconds, operator.ne, wake)

    assert hold("a", 60) and hold("b", 0.1) and hold("c", 60)
    assert not hold("d", 60) and parking.parked == 3  # the room is 3, whatever the threads
    now["a"] = 2
    time.sleep(0.15)
    parking.look()
    assert sorted(told) == [("a", True), ("b", False)] and parking.parked == 1
    parking.look()
    assert len(told) == 2  # told once
    parking.let_go()
    assert told[-1] == ("c", False) and parking.parked == 0
    parking.look()
    assert len(told) == 3


def test_a_closed_parking_lets_its_polls_go_holds_no_more_and_its_watcher_stops(make_parking):
    """A stopping server closes its parking: the polls held are told at once, as at their
    deadline; a poll coming after is not held (the server answers it at once); the watcher,
    asleep between looks an hour apart, stops now, not at its next look."""
    parking = make_parking(threads=4, working=2, tick=3600, room=3)
    told = []

    def hold(name: str) -> bool:
        wake = lambda moved: told.append((name, moved))  # noqa: E731
        return parking.hold("g", name, lambda items: [1] * len(items), 1, 60, operator.ne, wake)

    assert hold("a")
    watcher = parking._watcher
    assert watcher is not None and watcher.is_alive()
    started = time.monotonic()
    parking.close()
    assert time.monotonic() - started < 5 and not watcher.is_alive()
    assert told == [("a", False)] and parking.parked == 0
    assert not hold("b") and parking.parked == 0 and told == [("a", False)]
    parking.close()  # twice is harmless


@pytest.mark.postgres
def test_a_closed_parkings_watcher_gives_its_database_connection_back(make_parking):
    """The watcher keeps its connection between looks, as a request's thread does; closed,
    it gives it back, so PostgreSQL sees no session left behind (a test database that a
    watcher still held could not be dropped at the end of the run)."""

    def sessions() -> int:
        with connection.cursor() as cursor:  # in the test's transaction: a fresh snapshot
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            )
            return cursor.fetchone()[0]

    def read(items):
        with connection.cursor() as cursor:  # the watcher's own connection (its thread's)
            cursor.execute("SELECT 1")
        looked.set()
        return [1] * len(items)

    before, looked = sessions(), threading.Event()
    parking = make_parking(threads=4, working=2, tick=TICK, room=3)
    assert parking.hold("g", "a", read, 1, 60, operator.ne, lambda moved: None)
    assert looked.wait(10)
    until(lambda: sessions() == before + 1)  # the watcher's, kept between its looks
    parking.close()
    until(lambda: sessions() == before)


def test_the_gate_lets_threads_in_in_the_order_they_came():
    """A freed place goes to the thread that waited longest, never to one that just came
    (a semaphore's woken thread may lose it again and again: seconds of wait at a burst)."""
    gate, order = Gate(1), []

    def enter(n: int) -> None:
        with gate:
            order.append(n)

    gate.__enter__()
    threads = []
    for n in range(5):
        threads.append(threading.Thread(target=enter, args=(n,)))
        threads[-1].start()
        until(lambda n=n: len(gate._waiting) == n + 1)
    gate.__exit__(None, None, None)
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4]
    with gate:  # every place given back
        pass
