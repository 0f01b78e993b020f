"""Unchanged polls answered at the door, before Django's middleware and URL resolution.

Most requests of an evening are polls whose answer has not changed: the watchers' sheet
(`/games/<id>/sheet/?v=`, a 204), the "My next seat" version (`/events/<slug>/next/version/`
with If-None-Match, a 304) and the standings (the page's fragment and the API's answer, a
304). Each one cost the whole stack: sessions, CSRF, locale, CSP, the URL resolver, the view
and the ORM, for a few header lines (docs/performance.md, "Polls at the door"). ``Door``
wraps the WSGI application (config/wsgi.py) and answers such a poll itself when a feature's
**door answer** says it is unchanged, after one cache read or one indexed ``SELECT``; anything
else (another address or method, a changed version, a miss, an error) goes on to Django
exactly as before, which answers it as it always did.

Each feature supplies its door answers (``DoorAnswer``: the URL's name, a regular expression
of its path, a function of the request and the path's parts that returns the unchanged answer,
or the current one the process already holds, or None), listed by dotted path in
``settings.DOOR_ANSWERS`` (config imports no app). A door answer may only return what its view
would return for the same request: the tests compare the two, byte for byte, through this
wrapper (tests/test_door.py).

What the door answer comes out of is the same as the full path's, by construction: the request
is Django's own ``WSGIRequest``; the middleware of ``settings.MIDDLEWARE`` that act on such a
request run their own request and response halves, in their order (``make_steps``: every entry
of MIDDLEWARE is named there with what it does at the door, or why nothing, and a test fails
when MIDDLEWARE changes without it); the signals that open and close a request (database
connections, the caches) are sent as Django's handler sends them. What is left out reads the
user, the messages or htmx's headers, which no door answer reads, or acts only on requests the
door does not answer (static files; errors, under /api/ too, where they are the API's own).
When a request half would answer by itself (the HTTPS redirect, an unknown host, input no
database stores) the door steps aside and Django answers. Only 2xx and 3xx answers leave by
the door: an error is always Django's, logged by it (django.request). The access log is
gunicorn's and sees every request alike; no poll the door answers is throttled.

A poll may also **wait** (long-poll): a door answer with a ``watch`` whose request carries the
wait marker (``?wait=<seconds>``, capped by settings.DOOR_WAIT_SECONDS) and is unchanged is
held, not answered, while the server has room (config.parking): it is answered the
moment what it stands on moves (it then goes on as any request: the door answers the new
version where its answer holds it, else Django), or at its deadline with the very answer
the door made for it. Only an unchanged answer (UNCHANGED) is held: a poll that is behind
gets what it lacks at once. Where nothing can wait (no parking, no room left) the
unchanged answer leaves at once, as without the marker.
"""

from __future__ import annotations

import logging
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.csrf import CsrfViewMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.utils.module_loading import import_string

from config.csp import CSPMiddleware
from config.input import UnstorableInputMiddleware, unstorable
from config.parking import HOLD, UNREADABLE, Parking, process_parking, release_connections

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DoorAnswer:
    """A poll a feature answers at the door. `pattern` matches the whole path (PATH_INFO) of
    the URL named `url_name`, its named groups as the URL's converters give them (strings);
    `answer(request, **groups)` returns the unchanged answer (204, 304, headed as the view
    heads it), or the current one when the process already holds it in memory (the
    standings' 200s, the watchers' sheet of a new version) or the one cache entry it reads
    is the whole of it (My next seat's version), or None for "ask Django". It
    may read one cache entry or send one indexed SELECT; it may not read the user, the
    session, the messages or write anything.

    `watch(many)`, if given, lets the poll wait at the door: given the path's parts of some
    polls (`groups` dicts, each once), it returns what each one's answer stands on now, in
    their order (None for "nothing"); a held poll is let go when that moved. The process's
    watcher calls it once a tick for all the polls it holds of this answer, so it reads them
    together (one statement for all, or one cache read each: `each`).

    What a held poll is compared with: without `shown`, what the watch read for it when it
    came (read before the answer, so a version that moves in between wakes it at the first
    look); with `shown(query, **groups)`, what its phone says it shows (the query's last
    values: no read at all, so holding costs no more than answering), and it is let go when
    `moved(shown, now)`. Either way a poll is never left asleep on what its phone lacks."""

    url_name: str
    pattern: re.Pattern[str]
    answer: Callable[..., HttpResponse | None]
    watch: Callable[[Sequence[dict[str, str]]], Sequence[object]] | None = None
    shown: Callable[..., object] | None = None
    moved: Callable[[object, object], bool] = operator.ne


def each(read: Callable[..., object]) -> Callable[[Sequence[dict[str, str]]], list[object]]:
    """A DoorAnswer's watch from a read of one poll's parts (`read(**groups)`): called for each,
    and one that fails is unreadable alone (its polls go on to Django, the others sleep on)."""

    def watch(many: Sequence[dict[str, str]]) -> list[object]:
        values = []
        for parts in many:
            try:
                values.append(read(**parts))
            except Exception:  # noqa: BLE001 - its polls go on to Django, which answers it
                log.debug("a watch failed", exc_info=True)
                values.append(UNREADABLE)
        return values

    return watch


def _never(request: HttpRequest) -> HttpResponse:
    raise AssertionError("a middleware at the door called on into the view")


@dataclass(frozen=True)
class Step:
    """What one entry of MIDDLEWARE does at the door: its request half (`enter`, which returns
    None to go on, or an answer of its own, and then the door steps aside for Django) and its
    response half (`leave`), or why neither is needed for a request the door answers."""

    middleware: str
    enter: Callable[[HttpRequest], HttpResponse | None] | None = None
    leave: Callable[[HttpRequest, HttpResponse], HttpResponse] | None = None
    why_not: str = ""


def _input_refused(request: HttpRequest) -> HttpResponse | None:
    """UnstorableInputMiddleware's checks: any NUL or lone surrogate (in a cookie too, which it
    would drop) and Django answers, as today."""
    cookies = request.COOKIES.items()
    if unstorable(request.path_info) or any(unstorable(k) or unstorable(v) for k, v in cookies):
        return _STEP_ASIDE
    return _STEP_ASIDE if UnstorableInputMiddleware.refused(request) else None


#: The statuses of an unchanged answer (DoorAnswer): only such an answer is held; a current
#: one the door holds (a 200) leaves at once, as Django's would.
UNCHANGED = frozenset({204, 304})

#: A request half's "I would answer this myself": the door steps aside.
_STEP_ASIDE = HttpResponse(status=599)


def make_steps() -> tuple[Step, ...]:
    """The steps of MIDDLEWARE at the door, in its order, the middleware made from the
    settings now (each Door makes its own; the tests make them under their settings)."""
    security = SecurityMiddleware(_never)
    session = SessionMiddleware(_never)
    locale = LocaleMiddleware(_never)
    common = CommonMiddleware(_never)
    csrf = CsrfViewMiddleware(_never)
    frames = XFrameOptionsMiddleware(_never)
    csp = CSPMiddleware(_never)
    return (
        Step("config.api.ApiErrorMiddleware", why_not="acts on /api/ errors only"),
        Step(
            "django.middleware.security.SecurityMiddleware",
            security.process_request,
            security.process_response,
        ),
        Step("whitenoise.middleware.WhiteNoiseMiddleware", why_not="serves static files only"),
        Step("config.input.UnstorableInputMiddleware", _input_refused),
        Step(
            "django.contrib.sessions.middleware.SessionMiddleware",
            session.process_request,
            session.process_response,
        ),
        Step(
            "django.middleware.locale.LocaleMiddleware",
            locale.process_request,
            locale.process_response,
        ),
        Step(
            "django.middleware.common.CommonMiddleware",
            common.process_request,
            common.process_response,
        ),
        Step(
            "django.middleware.csrf.CsrfViewMiddleware", csrf.process_request, csrf.process_response
        ),
        Step(
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            why_not="request.user, which no door answer reads; no response half",
        ),
        Step(
            "django.contrib.messages.middleware.MessageMiddleware",
            why_not="the messages, which no door answer reads or adds to",
        ),
        Step(
            "django.middleware.clickjacking.XFrameOptionsMiddleware", leave=frames.process_response
        ),
        Step("config.csp.CSPMiddleware", csp.process_request, csp.process_response),
        Step("django_htmx.middleware.HtmxMiddleware", why_not="request.htmx, never read here"),
        Step(
            "config.faults.DatabaseUnavailableMiddleware",
            why_not="an error at the door steps aside; Django meets it again",
        ),
        Step("axes.middleware.AxesMiddleware", why_not="acts on a locked-out login only"),
    )


def answers_from_settings() -> tuple[DoorAnswer, ...]:
    return tuple(import_string(name) for name in getattr(settings, "DOOR_ANSWERS", ()))


def asked_wait(query: dict[str, str]) -> float:
    """The seconds a poll asks to wait (its query's `wait`, the last one), at most
    settings.DOOR_WAIT_SECONDS; 0 when it asks none or nonsense."""
    asked = query.get("wait", "")
    if not asked.isdigit():
        return 0.0
    return float(min(int(asked), settings.DOOR_WAIT_SECONDS))


def _read_items(watch: Callable, items: Sequence[tuple]) -> Sequence[object]:
    """A door answer's watch of parked items (its parts, as sorted pairs: hashable)."""
    return watch([dict(item) for item in items])


#: Door(parking=...)'s default: this process's parking, once the server has said it may wait.
_PROCESS = object()


class Door:
    """The WSGI application: a door answer's unchanged poll, else `application` (Django's).
    With a `parking` (default: the process's, config.parking), every request but a held
    poll passes its gate, and an unchanged poll that asks to wait is held."""

    def __init__(
        self,
        application: WSGIHandler,
        answers: Sequence[DoorAnswer] | None = None,
        steps: Sequence[Step] | None = None,
        parking: Parking | None | object = _PROCESS,
    ) -> None:
        self.application = application
        self.answers = tuple(answers_from_settings() if answers is None else answers)
        self.steps = tuple(make_steps() if steps is None else steps)
        self.entering = [step.enter for step in self.steps if step.enter is not None]
        self.leaving = [step.leave for step in reversed(self.steps) if step.leave is not None]
        self._parking = parking

    @property
    def parking(self) -> Parking | None:
        """Read when the first request comes: the worker says it may wait before that."""
        if self._parking is _PROCESS:
            return process_parking()
        return self._parking

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        parking = self.parking
        if parking is None:
            return self._serve(environ, start_response)
        with parking.gate:
            waiting = self._waiting(environ, parking)
            if waiting is None:
                return self._serve(environ, start_response)
            door_answer, parts, item, read, value, seconds = waiting
            response = self._answer(environ, door_answer, parts)
            if response is None:
                return self.application(environ, start_response)
            if response.status_code not in UNCHANGED:  # what the phone lacks: at once
                return self._send(response, start_response)
        release_connections()  # a waiting poll holds no connection the working threads need
        answer = partial(self._when_woken, parking, response, environ, start_response)
        hold = environ.get(HOLD)
        if hold is not None:  # the server keeps the connection; no thread waits
            held = hold(answer)
            group, moved = door_answer.url_name, door_answer.moved
            if parking.hold(group, item, read, value, seconds, moved, held.wake):
                return held
            return self._send(response, start_response)  # no room: unchanged, at once
        woke = parking.park(door_answer.url_name, item, read, value, seconds, door_answer.moved)
        return answer(bool(woke))  # None: no room, unchanged at once

    def _when_woken(
        self,
        parking: Parking,
        response: HttpResponse,
        environ: dict,
        start_response: Callable,
        moved: bool,
    ) -> Iterable[bytes]:
        """A held poll's answer: served anew when it moved (the door's new answer where it
        holds one, else Django's), else the unchanged answer the door made when it came (the
        deadline)."""
        if moved:
            response.close()  # that request is over, a new one is served
            with parking.gate:
                return self._serve(environ, start_response)
        return self._send(response, start_response)

    def _serve(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            found = self._match(environ.get("PATH_INFO", ""))
            if found is not None:
                response = self._answer(environ, *found)
                if response is not None:
                    return self._send(response, start_response)
        return self.application(environ, start_response)

    def _waiting(self, environ: dict, parking: Parking) -> tuple | None:
        """A poll that asks to wait, while there is room: its door answer, its parts (and as
        the parking's item: sorted pairs, hashable), the watcher's read of such polls and
        what this one is compared with (DoorAnswer); else None (served as ever)."""
        if environ.get("REQUEST_METHOD") != "GET" or not parking.has_room():
            return None
        found = self._match(environ.get("PATH_INFO", ""))
        if found is None or found[0].watch is None:
            return None
        query = {
            key: values[-1] for key, values in parse_qs(environ.get("QUERY_STRING", "")).items()
        }
        seconds = asked_wait(query)
        if seconds <= 0:
            return None
        door_answer, parts = found
        item, read = tuple(sorted(parts.items())), partial(_read_items, door_answer.watch)
        try:
            if door_answer.shown is not None:
                value = door_answer.shown(query, **parts)
            else:
                (value,) = read([item])
        except Exception:  # noqa: BLE001 - Django's full path answers and logs it
            log.debug("the door did not hold %s", door_answer.url_name, exc_info=True)
            return None
        if value is UNREADABLE:
            return None
        return door_answer, parts, item, read, value, seconds

    def _match(self, path: str) -> tuple[DoorAnswer, dict[str, str]] | None:
        for door_answer in self.answers:
            matched = door_answer.pattern.fullmatch(path)
            if matched is not None:
                return door_answer, matched.groupdict()
        return None

    def _answer(self, environ: dict, door_answer: DoorAnswer, parts: dict) -> HttpResponse | None:
        """The unchanged answer through the middleware's halves, or None (Django answers:
        any error here is met again there and answered and logged as always)."""
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        try:
            request = WSGIRequest(environ)
            for enter in self.entering:
                if enter(request) is not None:
                    return None
            response = door_answer.answer(request, **parts)
            if response is None or not 200 <= response.status_code < 400:
                return None
            for leave in self.leaving:
                response = leave(request, response)
        except Exception:  # noqa: BLE001 - Django's full path answers and logs it
            log.debug("the door stepped aside for %s", door_answer.url_name, exc_info=True)
            return None
        response._resource_closers.append(request.close)
        return response

    @staticmethod
    def _send(response: HttpResponse, start_response: Callable) -> HttpResponse:
        """As django.core.handlers.wsgi.WSGIHandler sends a response; closing it (the server
        does) sends request_finished."""
        status = f"{response.status_code} {response.reason_phrase}"
        cookies = (("Set-Cookie", c.output(header="")) for c in response.cookies.values())
        start_response(status, [*response.items(), *cookies])
        return response
