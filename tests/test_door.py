"""Polls answered at the door (config.door): the answer is Django's own, byte for byte.

Django's test Client calls the handler itself, past config/wsgi.py, so these tests call WSGI
applications with environ dicts as a server would: `full` is Django's WSGIHandler, `door` the
wrapper around one that fails if called (what the door answers, it answers alone), `wrapped`
the wrapper around Django's (what a server runs). For each request the door answers, its
status, every header in order (cookies too) and its body equal Django's; every request it must
not answer (a changed version, a wrong method, a strange host, input the site refuses, a
cache miss) reaches Django and gets exactly Django's answer.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import signals
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, connection
from django.test import Client, RequestFactory, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import resolve, reverse

from config import door as door_module
from config.door import Door
from scoring.models import Game
from scoring.views import watch
from tests.scoring.test_views import create, play

pytestmark = pytest.mark.django_db


def refuse(environ, start_response):
    raise AssertionError(f"the door let {environ['PATH_INFO']} through to Django")


def environ(path: str, method: str = "GET", query: dict | str | None = None, **headers) -> dict:
    factory = RequestFactory()
    if isinstance(query, str):
        path, query = f"{path}?{query}", None
    request = factory.generic(method, path, headers=headers)
    if query:
        request = getattr(factory, method.lower())(path, query, headers=headers)
    return request.environ


def call(application, env: dict) -> tuple[str, list[tuple[str, str]], bytes]:
    answered = {}

    def start_response(status, headers, exc_info=None):
        answered["status"], answered["headers"] = status, headers

    # As Django's test Client does: a request's start and end must not close the test's
    # database connection, which holds the test's transaction.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        body = application(dict(env), start_response)
        try:
            content = b"".join(body)
        finally:
            body.close()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)
    return answered["status"], answered["headers"], content


def full(env: dict):
    return call(WSGIHandler(), env)


def at_door(env: dict):
    return call(Door(refuse), env)


def wrapped(env: dict):
    return call(Door(WSGIHandler()), env)


def same_as_full(env: dict, answer) -> None:
    assert answer == full(env)


def masked(answer):
    """An answer with its new CSRF cookie and token masked: random in each answer, as in
    Django's own (its error pages and a malformed cookie's replacement set one); and the
    cookie's expiry, a year from the second it was set (two answers may straddle one)."""
    status, headers, body = answer
    body = re.sub(rb'(name="csrfmiddlewaretoken" value=")[^"]+', rb"\1...", body)
    cookie = re.compile("csrftoken=[^;]+(; expires=[^;]+)?")
    return status, [(k, cookie.sub("csrftoken=…; expires=…", v)) for k, v in headers], body


def same_but_the_csrf_token(one, other) -> None:
    assert masked(one) == masked(other)


# --- the registry ---------------------------------------------------------------------------------


def test_every_middleware_is_named_at_the_door_in_its_order():
    from django.conf import settings

    assert [step.middleware for step in door_module.make_steps()] == settings.MIDDLEWARE
    for step in door_module.make_steps():
        assert step.enter or step.leave or step.why_not, step.middleware


#: An example of each door answer's URL arguments, in settings.DOOR_ANSWERS's order.
EXAMPLES = ([7], ["night-1"], ["night-1"], ["night-1"])


@pytest.mark.parametrize(
    "door_answer, args", list(zip(door_module.answers_from_settings(), EXAMPLES, strict=True))
)
def test_each_door_answer_is_the_path_of_its_url(door_answer, args):
    from django.conf import settings

    path = reverse(door_answer.url_name, args=args)
    assert door_answer.pattern.fullmatch(path)
    assert resolve(path).view_name == door_answer.url_name
    assert not path.startswith("/" + settings.STATIC_URL.strip("/"))
    assert not door_answer.pattern.fullmatch(path + "x/")
    if path.endswith("/"):
        assert not door_answer.pattern.fullmatch(path.rstrip("/"))  # Django's slash redirect
    else:  # the API's, which has no slash
        assert not door_answer.pattern.fullmatch(path + "/")


def test_the_site_runs_the_door():
    from config import wsgi

    assert isinstance(wsgi.application, Door)
    assert wsgi.application.application is wsgi.django_application


# --- the watchers' sheet ------------------------------------------------------------------------


@pytest.fixture
def game() -> Game:
    keeper = Client()
    keeper.next_query = ""
    game = create(keeper)
    play(keeper, game, ["hearts"], [4, 7, 5])
    game.refresh_from_db()
    watch._sheets.clear()
    return game


def sheet(game: Game) -> str:
    return reverse("scoring:sheet", args=[game.pk])


def login_session() -> str:
    user = get_user_model().objects.create_user("olga", password="a long pass phrase")
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


HEADS = {
    "plain": {},
    "in Bulgarian": {"Accept-Language": "bg"},
    "language cookie": {"Cookie": "django_language=bg"},
    "htmx": {"HX-Request": "true", "HX-Current-URL": "http://testserver/games/1/"},
    "csrf cookie": {"Cookie": "csrftoken=" + "a" * 32},
    "a short session cookie": {"Cookie": "sessionid=abc"},
    "an unknown session": {"Cookie": "sessionid=" + "x" * 32},
    "an if-none-match": {"If-None-Match": '"abc"'},
}


@pytest.mark.parametrize("head", HEADS)
def test_an_unchanged_sheet_is_answered_at_the_door_as_django_answers_it(game, head):
    env = environ(sheet(game), query={"v": game.version}, **HEADS[head])
    answer = at_door(env)
    assert answer[0] == "204 No Content"
    same_as_full(env, answer)
    language = "bg" if "bg" in str(HEADS[head]) else "en"
    for header in ("X-Content-Type-Options", "Referrer-Policy", "Content-Security-Policy"):
        assert header in dict(answer[1])
    assert dict(answer[1])["Content-Language"] == language


def test_the_keepers_check_and_a_logged_in_phone_get_the_same_answer(game):
    cookie = f"sessionid={login_session()}; csrftoken={'b' * 32}"
    env = environ(sheet(game), query={"v": game.version, "keeper": 1}, Cookie=cookie)
    answer = at_door(env)
    assert answer[0] == "204 No Content"
    same_as_full(env, answer)


def test_a_bad_csrf_cookie_is_replaced_at_the_door_as_django_replaces_it(game):
    env = environ(sheet(game), query={"v": game.version}, Cookie="csrftoken=short")
    door_answer = at_door(env)
    same_but_the_csrf_token(door_answer, full(env))
    assert any(k == "Set-Cookie" and "csrftoken=" in v for k, v in door_answer[1])


@override_settings(SECURE_SSL_REDIRECT=False, SECURE_HSTS_SECONDS=3600)
def test_the_security_headers_over_https_are_the_same(game):
    env = environ(sheet(game), query={"v": game.version})
    env["wsgi.url_scheme"] = "https"
    answer = at_door(env)
    assert ("Strict-Transport-Security", "max-age=3600; includeSubDomains") in answer[1]
    same_as_full(env, answer)


def test_the_door_answer_reads_the_games_mark_alone(game):
    env = environ(sheet(game), query={"v": game.version})
    with CaptureQueriesContext(connection) as queries:
        at_door(env)
    assert len(queries) == 1
    columns = queries[0]["sql"].split(" FROM ")[0]
    assert "version" in columns and "updated_at" in columns and "players" not in columns


@pytest.mark.parametrize("head", HEADS)
def test_a_changed_sheet_the_process_holds_is_answered_at_the_door_as_django_answers_it(game, head):
    """The other phones of a table, after its first phone made the new version's partial
    (the view keeps it in this process's memory too): the 200, with the one query."""
    env = environ(sheet(game), query={"v": game.version - 1}, **HEADS[head])
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)  # not made yet
    made = full(env)
    assert made[0] == "200 OK"
    with CaptureQueriesContext(connection) as queries:
        answer = at_door(env)
    assert answer[0] == "200 OK" and len(queries) == 1
    assert answer == made and answer == full(env)


def test_a_partial_not_held_or_the_keepers_check_reach_django(game):
    env = environ(sheet(game), query={"v": game.version - 1})
    made = full(env)
    watch._sheets.clear()  # another process made it: this one finds it in the shared cache
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    with CaptureQueriesContext(connection) as queries:
        assert wrapped(env) == made
    assert len(queries) == 2  # the mark at the door and in the view; not rendered again
    assert at_door(env) == made  # held since
    for other in (
        environ(sheet(game), query={"v": game.version - 1, "keeper": 1}),
        environ(sheet(game), query={"v": game.version - 1}, Accept_Language="bg"),
    ):
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(other)
        same_but_the_csrf_token(wrapped(other), full(other))


THROUGH = {
    "a changed version": lambda g: environ(sheet(g), query={"v": g.version - 1}),
    "no version": lambda g: environ(sheet(g)),
    "a clock not shown": lambda g: environ(sheet(g), query={"v": g.version, "c": "1-2"}),
    "an unknown game": lambda g: environ(reverse("scoring:sheet", args=[g.pk + 99]), query="v=1"),
    "HEAD": lambda g: environ(sheet(g), "HEAD", query=f"v={g.version}"),
    "POST": lambda g: environ(sheet(g), "POST", query=f"v={g.version}"),
    "a NUL in the query": lambda g: environ(sheet(g), query=f"v={g.version}&x=%00"),
    "a NUL in a cookie": lambda g: environ(sheet(g), query=f"v={g.version}", Cookie="a=\x00"),
    "a host not allowed": lambda g: environ(sheet(g), query=f"v={g.version}", Host="evil.example"),
    "no slash": lambda g: environ(sheet(g).rstrip("/"), query=f"v={g.version}"),
}


@pytest.mark.parametrize("case", THROUGH)
def test_anything_else_reaches_django_and_gets_its_answer(game, case):
    env = THROUGH[case](game)
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    same_but_the_csrf_token(wrapped(env), full(env))


@override_settings(SECURE_SSL_REDIRECT=True)
def test_the_https_redirect_is_djangos(game):
    env = environ(sheet(game), query={"v": game.version})
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    answer = wrapped(env)
    assert answer[0].startswith("301") and answer == full(env)


def test_an_error_at_the_door_is_met_again_by_django(game, monkeypatch):
    from scoring import selectors

    failures, game_mark = [RuntimeError("the database went away")], selectors.game_mark

    def once_broken(game_id):
        if failures:
            raise failures.pop()
        return game_mark(game_id)

    monkeypatch.setattr(watch.selectors, "game_mark", once_broken)
    env = environ(sheet(game), query={"v": game.version})
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    failures.append(RuntimeError("the database went away"))
    assert wrapped(env)[0] == "204 No Content"  # the view reads it again, and answers


def test_the_end_of_a_door_request_is_signalled(game):
    ended = []

    def finished(**kwargs):
        ended.append(kwargs)

    signals.request_finished.connect(finished)
    try:
        at_door(environ(sheet(game), query={"v": game.version}))
    finally:
        signals.request_finished.disconnect(finished)
    assert len(ended) == 1


# --- "My next seat"'s version -------------------------------------------------------------------


@pytest.fixture
def event():
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register

    event = event_create(club=club_create(name="Club"), name="Night", seed=3)
    players_register(event=event, names=["Ana", "Boris", "Vera"], checked_in=True)
    cache.clear()
    return event


def version_poll(event, **headers) -> dict:
    return environ(reverse("tournaments:next_seat_version", args=[event.slug]), **headers)


def test_a_current_version_is_answered_at_the_door_as_django_answers_it(event):
    status, _, version = full(version_poll(event))  # the view reads it, the cache keeps it
    assert status == "200 OK"
    for headers in ({}, {"Accept-Language": "bg"}, {"Cookie": "sessionid=abc"}):
        env = version_poll(event, If_None_Match=f'"{version.decode()}"', **headers)
        with CaptureQueriesContext(connection) as queries:
            answer = at_door(env)
        assert answer[0] == "304 Not Modified" and len(queries) == 0
        same_as_full(env, answer)


def test_a_new_version_is_answered_at_the_door_as_django_answers_it(event):
    """A publish wakes a room of held polls at once: each gets the new version at the door,
    from the one cache entry the 304 reads."""
    _, _, version = full(version_poll(event))
    for headers in ({}, {"If-None-Match": '"0000"'}, {"Accept-Language": "bg"}, {"Cookie": "a=b"}):
        env = version_poll(event, **headers)
        with CaptureQueriesContext(connection) as queries:
            answer = at_door(env)
        assert answer[0] == "200 OK" and answer[2] == version and len(queries) == 0
        same_as_full(env, answer)


def test_a_miss_and_an_unknown_event_reach_django(event):
    _, _, version = full(version_poll(event))
    cases = [
        environ(reverse("tournaments:next_seat_version", args=["no-such"]), If_None_Match='"x"'),
        version_poll(event, If_None_Match=f'"{version.decode()}"', Host="evil.example"),
    ]
    for env in cases:
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(env)
        same_but_the_csrf_token(wrapped(env), full(env))
    cache.clear()  # a miss: Django reads the version again, then the door answers
    env = version_poll(event, If_None_Match=f'"{version.decode()}"')
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    assert wrapped(env)[0] == "304 Not Modified"
    assert at_door(env)[0] == "304 Not Modified"


def test_a_deleted_event_is_answered_as_the_view_answers_it(event):
    """The kept version outlives the event by at most its two seconds, at the door as in the
    view (which reads the same entry first); once it is gone both answer the event's 404."""
    _, _, version = full(version_poll(event))
    env = version_poll(event, If_None_Match=f'"{version.decode()}"')
    event.delete()
    answer = at_door(env)
    assert answer[0] == "304 Not Modified"
    same_as_full(env, answer)
    cache.clear()
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(env)
    gone = wrapped(env)
    assert gone[0] == "404 Not Found"
    same_but_the_csrf_token(gone, full(env))


# --- the standings fragment ---------------------------------------------------------------------


def standings_poll(event, **headers) -> dict:
    return environ(reverse("tournaments:standings_live", args=[event.slug]), **headers)


def test_a_current_standings_fragment_is_answered_at_the_door_as_django_answers_it(event):
    for language in ({}, {"Accept-Language": "bg"}):
        status, headers, _ = full(standings_poll(event, **language))  # the view keeps its ETag
        assert status == "200 OK"
        tag = dict(headers)["ETag"]
        for more in ({}, {"Cookie": "sessionid=abc"}):
            env = standings_poll(event, If_None_Match=tag, **language, **more)
            with CaptureQueriesContext(connection) as queries:
                answer = at_door(env)
            assert answer[0] == "304 Not Modified" and len(queries) == 0
            same_as_full(env, answer)


def test_a_phone_without_the_current_fragment_gets_it_at_the_door_as_django_answers_it(event):
    """A phone coming to the page, or one whose copy a new snapshot replaced: the 200 with
    the fragment this process holds, under the kept ETag, with no query."""
    from tournaments.results.views import public_standings

    _, headers, _ = full(standings_poll(event))  # the view keeps the ETag and the fragment
    tag = dict(headers)["ETag"]
    for env in (standings_poll(event), standings_poll(event, If_None_Match='"0000"')):
        with CaptureQueriesContext(connection) as queries:
            answer = at_door(env)
        assert answer[0] == "200 OK" and len(queries) == 0
        assert dict(answer[1])["ETag"] == tag
        assert reverse("tournaments:standings_live", args=[event.slug]).encode() in answer[2]
        same_as_full(env, answer)
    public_standings._texts.clear()  # this process does not hold it: Django reads it
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(standings_poll(event))
    assert wrapped(standings_poll(event))[0] == "200 OK"
    assert at_door(standings_poll(event))[0] == "200 OK"  # held again since


def test_another_language_an_unknown_event_or_a_miss_reach_django(event):
    _, headers, _ = full(standings_poll(event))
    tag = dict(headers)["ETag"]
    cases = [
        standings_poll(event, If_None_Match=tag, Accept_Language="bg"),  # its own, not kept
        standings_poll(event, Accept_Language="bg"),
        environ(reverse("tournaments:standings_live", args=["no-such"]), If_None_Match=tag),
        environ(reverse("tournaments:standings_live", args=["no-such"])),
    ]
    for env in cases:  # each asked before Django answers any (that keeps Bulgarian's)
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(env)
    for env in cases:
        same_but_the_csrf_token(wrapped(env), full(env))
    cache.clear()
    for env in (standings_poll(event, If_None_Match=tag), standings_poll(event)):
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(env)


# --- the standings API --------------------------------------------------------------------------


def api_poll(event, **headers) -> dict:
    return environ(reverse("api:standings", args=[event.slug]), **headers)


def test_a_current_standings_api_answer_is_answered_at_the_door_as_django_answers_it(event):
    """The 304 for the client's current ETag, and the 200 with the body this process holds,
    with no query, whatever the language or cookies (the API answers the same to all)."""
    status, headers, body = full(api_poll(event))  # the view keeps the ETag and the body
    assert status == "200 OK"
    tag = dict(headers)["ETag"]
    for more in ({}, {"Accept-Language": "bg"}, {"Cookie": "sessionid=abc"}):
        for env, expected in (
            (api_poll(event, If_None_Match=tag, **more), "304 Not Modified"),
            (api_poll(event, **more), "200 OK"),
            (api_poll(event, If_None_Match='"0000"', **more), "200 OK"),
        ):
            with CaptureQueriesContext(connection) as queries:
                answer = at_door(env)
            assert answer[0] == expected and len(queries) == 0
            same_as_full(env, answer)
    assert at_door(api_poll(event))[2] == body


def test_a_standings_api_answer_not_held_or_not_kept_or_unknown_reaches_django(event):
    from tournaments.results import api

    _, headers, _ = full(api_poll(event))
    tag = dict(headers)["ETag"]
    api._bodies.clear()  # this process does not hold the body: Django fetches it
    with pytest.raises(AssertionError, match="let .* through"):
        at_door(api_poll(event))
    assert at_door(api_poll(event, If_None_Match=tag))[0] == "304 Not Modified"  # needs none
    assert wrapped(api_poll(event))[0] == "200 OK"
    assert at_door(api_poll(event))[0] == "200 OK"  # held again since
    unknown = [
        environ(reverse("api:standings", args=["no-such"]), If_None_Match=tag),
        environ(reverse("api:standings", args=["no-such"])),
    ]
    for env in unknown:
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(env)
        answer = wrapped(env)
        assert answer[0] == "404 Not Found"
        same_but_the_csrf_token(answer, full(env))
    cache.clear()  # the ETag is no longer kept: Django reads the standings again
    for env in (api_poll(event, If_None_Match=tag), api_poll(event)):
        with pytest.raises(AssertionError, match="let .* through"):
            at_door(env)
    assert wrapped(api_poll(event, If_None_Match=tag))[0] == "304 Not Modified"
