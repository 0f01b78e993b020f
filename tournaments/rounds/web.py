"""What the publish rush reads, kept: the round page's tables and "where do I sit"'s map.

When a round of a big event is published every phone in the room asks where it sits and
then opens the round page, within seconds (bench/publish_rush, docs/performance.md). Both
answers change only when the round does, and each request already reads what names that:

- The round page's tables (and byes) are kept under the round's version: its status, the sum
  of its games' versions (`games_version`, which every deal, correction, confirmation, void
  or substitution moves) and the event's results_version (which publishing, closing,
  substitutions and void tables move), read with the round in the page's one query. One
  process renders a version, into the shared cache (a `cache.add` marker; the others wait
  for it up to RENDER_WAIT_SECONDS, then render themselves); each process then keeps it in
  memory. The page around them (the CSRF token of the language form) is rendered each time.
- The seat map (tournaments.rounds.presenters.seat.SeatMap) is kept in each process's memory under
  the event's results_version, read with the event on every request: a thousand players'
  answers are one read of the round, not four queries and a scan of every name each. A
  process reads it from the shared cache (compact, one entry) or, missing there, in three
  queries, and writes it there for the others.

Publishing a round writes both into the shared cache before the first phone asks
(tournaments.rounds.render, from a task queued on commit): then no process renders the
tables or reads the map in the rush, and one that finds neither does as described above.

The players' names come live from their rows: a renamed player shows once the kept copy is
KEPT_SECONDS old (as the standings fragment's names do; a rename forgets the shared copies).
Nothing else waits: a new version is a new key. (There is no "unpublish": a published round
is never deleted or made a draft again; a draft's swaps are not public, and publishing moves
the version.)
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time

from django.core.cache import cache
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from config.memory import Recent
from config.release import RELEASE
from tournaments.models import Event, Round
from tournaments.results.selectors import phone_state
from tournaments.rounds.presenters.seat import SeatMap
from tournaments.rounds.render import (
    KEPT_SECONDS,
    event_version,
    render_tables,
    shared_seat_map,
    tables_key,
)

#: How long a request waits for another's render of the same round page before its own.
RENDER_WAIT_SECONDS = 5.0
RENDER_POLL_SECONDS = 0.02


def _render_tables(request, event: Event, round_: Round) -> str:
    """A render on demand (none was pre-rendered, or it has expired)."""
    return render_tables(event, round_)


def _shared_tables_html(request, event: Event, round_: Round, key: str) -> str:
    """The tables from the shared cache, or rendered here (one process renders a version;
    the others wait for it)."""
    html = cache.get(key)
    if html is not None:
        return html
    if not cache.add(key + ":rendering", 1, RENDER_WAIT_SECONDS):
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(RENDER_POLL_SECONDS)
            html = cache.get(key)
            if html is not None:
                return html
    html = _render_tables(request, event, round_)
    cache.set(key, html, KEPT_SECONDS)
    cache.delete(key + ":rendering")
    return html


class _InProcess:
    """Copies kept in this process's memory for KEPT_SECONDS, by key (config.memory.Recent:
    at `limit` copies the least recently used goes, so addresses with made-up queries cannot
    fill memory): no round trip to the shared cache, no unpickling (a file cache also
    inflates a page each read). One thread makes a missing or expired copy while the others
    asking for that key wait for it."""

    def __init__(self, limit: int = 64) -> None:
        self.kept = Recent(limit)  # key → (when it expires, on time.monotonic; the copy)
        self.guard = threading.Lock()
        self.making: dict = {}

    def _fresh(self, key) -> tuple | None:
        found = self.kept.get(key)
        return found if found is not None and found[0] > time.monotonic() else None

    def get(self, key, make):
        found = self._fresh(key)
        if found is not None:
            return found[1]
        with self.guard:
            lock = self.making.setdefault(key, threading.Lock())
        with lock:
            found = self._fresh(key)
            if found is not None:
                return found[1]
            made = make()
            self.kept.put(key, (time.monotonic() + KEPT_SECONDS, made))
            with self.guard:
                self.making.pop(key, None)
            return made

    def forget(self, key) -> None:
        self.kept.forget(key)

    def clear(self) -> None:
        self.kept.clear()


round_pages = _InProcess()
seat_maps = _InProcess()
#: Whole pages as a phone gets them, less the CSRF token: a seat page per address and phone.
pages = _InProcess(limit=5000)
#: Stands for the CSRF token in a kept page (this process's own, never sent as is).
CSRF_MARK = "kept-csrf-" + secrets.token_hex(16)


def round_tables_html(request, event: Event, round_: Round) -> str:
    """The round page's tables and byes, rendered once per version and language."""
    key = tables_key(event, round_)
    html = round_pages.get(key, lambda: _shared_tables_html(request, event, round_, key))
    return mark_safe(html)  # noqa: S308 - our own render, kept


def event_seat_map(event: Event) -> SeatMap:
    """The event's seat map as it stands (its version read with the event)."""
    key = (*event_version(event), get_language() or "")
    return seat_maps.get(key, lambda: shared_seat_map(event))


def kept_page(
    request,
    version: tuple,
    render_page,
    *,
    queried: bool = True,
    address: str | None = None,
    marks: dict[str, str] | None = None,
) -> HttpResponse:
    """The page `render_page(extra_context)` answers, kept per `version`, address, language
    and release: rendered with CSRF_MARK for the token, which each answer replaces with this
    phone's own (as `{% csrf_token %}` would: the CSRF cookie is set or kept the same way).
    Only a 200 is kept; anything else is answered as rendered. What a page shows must depend
    on nothing but these: the pages kept here read no user, session or message. A page that
    takes no query (`queried` false) is kept for its bare address only: made-up queries on a
    260 KB round page would otherwise fill the process's memory, one copy each. `address`
    names the page instead of the request's path and query when several addresses show one
    page but for a few strings, which the page is rendered with as marks and `marks` (mark:
    its HTML for this request) puts in."""
    if not queried and request.META.get("QUERY_STRING"):
        return render_page({})
    if address is None:
        address = request.get_full_path()
    key = (*version, address, get_language() or "", RELEASE)

    def make() -> bytes | HttpResponse:
        response = render_page({"csrf_token": CSRF_MARK})
        return response.content if response.status_code == 200 else response

    kept = pages.get(key, make)
    if isinstance(kept, HttpResponse):  # not kept: say it afresh next time
        pages.forget(key)
        return render_page({})
    # Bytes, as kept: a round page is 260 KB, and encoding it again is most of a hit's cost.
    for mark, html in {CSRF_MARK: get_token(request), **(marks or {})}.items():
        kept = kept.replace(mark.encode(), html.encode())
    return HttpResponse(kept)


# --- "My next seat": the version a waiting phone polls -----------------------------------------

#: How long the shared cache keeps an event's phone version before one request reads it again
#: (one small query): a publish shows on the waiting phones at most this much later.
PHONE_VERSION_SECONDS = 2


def _phone_version_key(slug: str) -> str:
    return f"phone-version:{slug}"


def phone_version(slug: str) -> str | None:
    """The version of what a player's waiting phone shows ("My next seat"), the same for
    every phone of the event: a short hash of results.selectors.phone_state, kept in the
    shared cache for PHONE_VERSION_SECONDS, so that a thousand phones polling it cost one
    small query every two seconds, not one each. None: no such event."""
    key = _phone_version_key(slug)
    version = cache.get(key)
    if version is None:
        state = phone_state(slug)
        if state is None:
            return None
        text = "|".join(str(part) for part in (*state, RELEASE))
        version = hashlib.sha256(text.encode()).hexdigest()[:16]
        cache.set(key, version, PHONE_VERSION_SECONDS)
    return version


def kept_phone_version(slug: str) -> str | None:
    """The event's phone version if the shared cache holds it now, else None (no query): what
    the version poll answered at the door reads (config.door)."""
    return cache.get(_phone_version_key(slug))


def renew_phone_version(slug: str) -> str | None:
    """Read the event's phone version afresh now and keep it (a round was just published:
    the waiting phones' next poll, answered at the door, learns of it without waiting for
    the kept one to expire)."""
    forget_phone_version(slug)
    return phone_version(slug)


def forget_phone_version(slug: str) -> None:
    """Read the version afresh at the next poll (tests; a publish need not wait for it)."""
    cache.delete(_phone_version_key(slug))
