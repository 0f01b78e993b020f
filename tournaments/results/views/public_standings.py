"""The pages that phones and the wall poll: the standings and the projector.

Nothing here renders the standings table: tournaments.results.render writes it out once
per snapshot and language when the snapshot is stored, and a poll reads that text and words
only the lines above it (what is counted, "built … ago", "being updated"). A poll first
asks what would change its answer (the newest snapshot, which writing of it, whether results
came in since; for the projector also the round's games' versions); that names the answer
(its ETag, with the release and the language), and a matching If-None-Match gets a 304.
"built … ago" is no part of it: worded afresh in every 200 (and every full page), and on
the phone every 30 s by static/js/built/page.js; in the ETag, a minute's tick sent every
polling phone the whole table again when nothing but the clock had moved.

The standings fragment's ETag is also kept for FRESH_SECONDS: half the phones in the room
poll every 15 s, and within that time a poll costs no query at all, reads only that small
entry, and answers a 200 from the process's memory; a new snapshot or new results show up
at most that much later.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from config.door import DoorAnswer
from config.memory import Recent
from tournaments.common.web.polls import POLL_SECONDS, etag, not_modified, polled
from tournaments.common.web.public import PAGES, event_page
from tournaments.models import Event, Round
from tournaments.results import render as standings_render
from tournaments.results.presenters import built_ago, head_context
from tournaments.rounds.presenters.tables import round_over, settled_labelled, table_line
from tournaments.rounds.selectors import (
    clock_of,
    newest_published_round,
    round_byes,
    round_tables_played,
)
from tournaments.rounds.services import walkouts

STANDINGS = PAGES + "standings.html"
PROJECTOR = PAGES + "projector.html"
#: How long a standings fragment's answer is kept before the database is asked again.
FRESH_SECONDS = 2
#: How long a fragment's HTML stays in the shared cache under its ETag (a process that did not
#: render it fetches it once from there).
TEXT_SECONDS = 60


def standings_etag(stored: standings_render.Stored | None) -> str:
    """Names what the standings show: which snapshot (its time too, as ids can come round
    again in a fresh database) and which writing of it, whether it is stale, and through
    `etag` the release and the language; not "built … ago", which changes by the minute."""
    if stored is None:
        return etag("standings", None)
    moment = stored.built_at.timestamp()
    return etag(
        "standings",
        stored.snapshot_id,
        moment,
        stored.mark,
        stored.stale,
    )


def _standings_parts(stored: standings_render.Stored | None) -> dict:
    """The lines above the table, worded now, and the table as it was written out."""
    if stored is None:
        return head_context(None, True)
    return {
        **head_context(stored, stored.stale, stored.counted),
        "table_html": mark_safe(stored.text),
    }


@dataclass(frozen=True)
class Kept:
    """A standings fragment's answer: its ETag and its HTML."""

    etag: str
    html: str


#: Where "built … ago" goes in a fragment as kept; nothing else in it holds a NUL.
AGO_SLOT = "\x00built-ago\x00"


@dataclass(frozen=True)
class Written:
    """A standings fragment as kept under its ETag: its HTML around the "built … ago"
    wording, which `html` words at each answer (the rest changes only with the snapshot)."""

    before: str
    after: str
    built_at: datetime | None

    @classmethod
    def of(cls, html: str, built_at: datetime | None) -> Written:
        before, slot, after = html.partition(AGO_SLOT)
        return cls(before, after, built_at if slot else None)

    def html(self) -> str:
        if self.built_at is None:
            return self.before + self.after
        return self.before + built_ago(self.built_at) + self.after


#: How many fragments (events × languages × snapshots) a process keeps in memory.
KEPT_IN_PROCESS = 64
_texts = Recent(KEPT_IN_PROCESS)


def _tag_key(slug: str) -> str:
    return f"standings-live:{slug}:{get_language() or ''}"


def _text_key(slug: str, tag: str) -> str:
    return f"standings-live-html:{slug}:{tag}"


def _text(slug: str, tag: str) -> Written | None:
    """The event's fragment named `tag`: from this process's memory, else from the shared
    cache (a fragment of a 999-player field is ~450 KB: fetched once per process, not per
    poll). Kept by event and tag: before any standings every event's ETag is alike, and
    the fragment holds its own event's address."""
    return _texts.get_or_fetch((slug, tag), lambda: cache.get(_text_key(slug, tag)))


def _fragment(request, event: Event) -> Kept:
    """The standings fragment now, kept for the polls that follow: its ETag under a small key
    for FRESH_SECONDS (a poll with that ETag reads nothing else), its HTML under the ETag,
    which names it. The ETag comes first, from the newest snapshot's small head (one query
    with the event's): when the fragment it names is kept already (nothing changed since the
    key expired, the usual case), nothing else is read, rendered or written but the small
    key; else one stored text is read (a plain column) and the lines above it worded. Either
    way "built … ago" is worded now."""
    head = standings_render.newest_head(event)
    tag = standings_etag(head)
    written = _text(event.slug, tag)
    if written is None:
        stored = None if head is None else standings_render.with_text(head, "standings")
        context = {"event": event, "poll_seconds": POLL_SECONDS, **_standings_parts(stored)}
        context["built_ago"] = AGO_SLOT
        html = render_to_string(STANDINGS + "#standings", context, request)
        written = Written.of(html, None if head is None else head.built_at)
        _texts.put((event.slug, tag), written)
        cache.set(_text_key(event.slug, tag), written, TEXT_SECONDS)
    cache.set(_tag_key(event.slug), tag, FRESH_SECONDS)
    return Kept(tag, written.html())


@event_page
def standings(request, event: Event):
    """The newest standings; the fragment inside (the one the poll answers) polls
    standings_live."""
    fragment = _fragment(request, event)
    context = {
        "event": event,
        "standings_html": mark_safe(fragment.html),
        "settled": settled_labelled(walkouts.settled_tables(event)),
    }
    return render(request, STANDINGS, context)


@require_GET
def standings_live(request, slug: str):
    """The standings fragment for the poll: 304 while nothing it shows has changed. Within
    FRESH_SECONDS a poll reads one small cache entry (the ETag) and, for a 200, the HTML
    from memory."""
    answer = _kept_answer(request, slug, _text)
    if answer is not None:
        return answer
    kept = _standings_live(request, slug)
    if not isinstance(kept, Kept):  # the event's 404 page
        return kept
    return not_modified(request, kept.etag) or polled(HttpResponse(kept.html), kept.etag)


@event_page
def _standings_live(request, event: Event) -> Kept:
    return _fragment(request, event)


def _kept_answer(request, slug: str, text) -> HttpResponse | None:
    """The poll's answer from what is kept, while the fragment's ETag is (FRESH_SECONDS, in
    the active language): the 304 when If-None-Match names it, else the 200 with the fragment
    `text(slug, tag)` finds. None when either is not kept: the fragment is read or made."""
    tag = cache.get(_tag_key(slug))
    if tag is None:
        return None
    unchanged = not_modified(request, tag)
    if unchanged is not None:
        return unchanged
    written = text(slug, tag)
    return None if written is None else polled(HttpResponse(written.html()), tag)


def _in_memory(slug: str, tag: str) -> Written | None:
    return _texts.get((slug, tag))


def _standings_at_door(request, slug: str) -> HttpResponse | None:
    """The standings poll before the middleware (config.door), in the language the door's
    locale step activated: the answer `standings_live` gives from what is kept, when this
    process holds it (a phone coming to the page, or one whose copy a new snapshot replaced:
    after each confirmation, every phone of the room). Else None: Django answers (it may
    fetch the fragment from the shared cache, or make it)."""
    return _kept_answer(request, slug, _in_memory)


#: settings.DOOR_ANSWERS names it; the path is tournaments.public_urls's "standings_live".
STANDINGS_AT_DOOR = DoorAnswer(
    "tournaments:standings_live",
    re.compile(r"/events/(?P<slug>[-a-zA-Z0-9_]+)/standings/live/"),
    _standings_at_door,
)


def _projector_etag(stored: standings_render.Stored | None, round_: Round | None) -> str:
    round_part = (round_.pk, round_.status, round_.games_version) if round_ else None
    if round_ is not None and round_.event.clock_minutes:
        round_part = (*round_part, clock_of(round_).mark)  # a clock's move is news to the wall
    return etag("projector", standings_etag(stored), round_part)


def _projector_context(event: Event, stored, round_: Round | None) -> dict:
    tables = round_tables_played(round_) if round_ else []
    return {
        "event": event,
        "round": round_,
        "round_over": round_over(round_),
        "tables": [table_line(table) for table in tables],
        "byes": round_byes(round_) if round_ else [],
        "poll_seconds": POLL_SECONDS,
        "clock": clock_of(round_) if round_ and event.clock_minutes else None,
        **_standings_parts(stored),
    }


@event_page
def projector(request, event: Event):
    """For the wall: the current round's tables, then the standings; projector.js scrolls
    through them and loops, and the fragment polls projector_live."""
    stored = standings_render.newest(event, "projector")
    round_ = newest_published_round(event)
    return render(request, PROJECTOR, _projector_context(event, stored, round_))


@event_page
def projector_live(request, event: Event):
    """The projector's fragment for the poll: 304 while no table and no standings changed (the
    standings' small head tells; their table's text is read only for a 200)."""
    head = standings_render.newest_head(event)
    round_ = newest_published_round(event)
    tag = _projector_etag(head, round_)
    cached = not_modified(request, tag)
    if cached is not None:
        return cached
    stored = None if head is None else standings_render.with_text(head, "projector")
    response = render(request, PROJECTOR + "#live", _projector_context(event, stored, round_))
    return polled(response, tag)
