"""The round page's tables and "where do I sit"'s seat map, written into the shared cache when
a round is published, so that the rush of phones that follows finds them ready.

Right after a publish every phone in the room asks where it sits and opens the round page
(bench/publish_rush, docs/performance.md). Left to the requests, every web process read its
seat map (~0.1 s, three queries) and one rendered the round's tables (~0.3 s at 333 tables)
while the others waited for it, in the very seconds the room asks. So services.round_publish
queues `tournaments.tasks.prerender_round` on commit (the tasks import this module; services
may not import presentation), which writes, under exactly the keys the pages look for
(tournaments.rounds.web):

- the tables and byes in every language of the site (`tables_key`: the round's version as
  the page reads it after the publish, the language, the script prefix of the links);
- the event's seat map in compact form (`seat_map_key`, tournaments.rounds.presenters.seat), which
  a process also writes when it had to read the map itself, so that the others do not.

What the publish writes is kept PUBLISHED_SECONDS: the room may take a minute or two to
look, and a publish happens a few times an evening. What requests write is kept
KEPT_SECONDS (a new version every deal: long-kept copies would fill the cache). Nothing in
the keys moves when a player is renamed, so a rename forgets the shared copies of the
player's events (`forget_player`, called by tournaments.receivers once a rename commits):
it shows once the processes' own copies expire, as before. A pre-render that fails is
logged and forgotten: the pages render on demand.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import get_script_prefix
from django.utils import translation

from config.release import RELEASE
from tournaments.models import Event, Round
from tournaments.rounds.presenters.seat import SeatMap, seat_map, seat_map_compact, seat_map_from
from tournaments.rounds.presenters.tables import table_line
from tournaments.rounds.selectors import (
    published_round,
    published_rounds,
    round_byes,
    round_tables_played,
)

log = logging.getLogger(__name__)

ROUND_TABLES = "tournaments/public/round.html#tables"
#: How long a copy made by a request serves (renamed players show after this).
KEPT_SECONDS = 30
#: How long what a publish wrote waits for the phones (a rename forgets it at once).
PUBLISHED_SECONDS = 300


def event_version(event: Event) -> tuple:
    """Which event, as it stands: its id and creation time (ids come round again in a fresh
    database), and its results_version."""
    return (event.pk, event.created_at.timestamp(), event.results_version)


def round_version(event: Event, round_: Round) -> tuple:
    """What the round page's tables show depends on, and nothing else does."""
    published = round_.published_at.timestamp() if round_.published_at else None
    return (*event_version(event), round_.pk, published, round_.status, round_.games_version)


def _language() -> str:
    return translation.get_language() or ""


def tables_key(event: Event, round_: Round) -> str:
    """The shared cache's key of the round's tables in the active language. The links in
    them start with the script prefix: a worker's (FORCE_SCRIPT_NAME or "/") may differ from
    a request's, and then the page renders its own."""
    parts = (*round_version(event, round_), _language(), get_script_prefix(), RELEASE)
    return "round-tables:" + ":".join(str(part) for part in parts)


def render_tables(event: Event, round_: Round) -> str:
    """The round page's tables and byes in the active language. No request: nothing in them
    depends on one (the partial reads no user, session, message or CSRF token)."""
    context = {
        "event": event,
        "tables": [table_line(table) for table in round_tables_played(round_)],
        "byes": round_byes(round_),
    }
    return render_to_string(ROUND_TABLES, context)


def seat_map_key(event: Event) -> str:
    return "seat-map:" + ":".join(str(part) for part in (*event_version(event), RELEASE))


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def write_seat_map(event: Event, seconds: int = KEPT_SECONDS) -> dict:
    """Read the event's seat map (three queries) and write it to the shared cache."""
    compact = seat_map_compact(event, _languages())
    cache.set(seat_map_key(event), compact, seconds)
    return compact


def shared_seat_map(event: Event) -> SeatMap:
    """The event's seat map in the active language: from the shared cache (no query), else
    read and written there for the other processes."""
    compact = cache.get(seat_map_key(event))
    if compact is None:
        compact = write_seat_map(event)
    found = seat_map_from(compact, _language())
    return found if found is not None else seat_map(event)  # a language not of the site


def prerender(round_id: int) -> list[str]:
    """Write a published round's tables (every language) and its event's seat map into the
    shared cache, as the pages will look for them now; the keys written."""
    event = Event.objects.get(rounds__pk=round_id)
    number = Round.objects.values_list("number", flat=True).get(pk=round_id)
    round_ = published_round(event, number)  # with games_version, as the page
    keys = []
    for code in _languages():
        with translation.override(code):
            key = tables_key(event, round_)
            cache.set(key, render_tables(event, round_), PUBLISHED_SECONDS)
            keys.append(key)
    write_seat_map(event, PUBLISHED_SECONDS)
    keys.append(seat_map_key(event))
    return keys


def prerender_quietly(round_id: int) -> list[str]:
    """prerender, but a failure is only logged: the pages then render on demand, as they
    would have without it (the publish itself is committed already)."""
    try:
        return prerender(round_id)
    except Exception:  # noqa: BLE001 - an optimisation failing must not fail anything else
        log.exception("could not pre-render round %s; its pages render on demand", round_id)
        return []


def forget_seat_map(event_id: int) -> None:
    """Forget the shared copy of the event's seat map (a withdrawal or reinstatement changes
    the names it matches, not the event's version)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is not None:
        cache.delete(seat_map_key(event))


def forget_player(player_id: int) -> None:
    """Forget the shared copies that show the player's name: the seat maps and published
    rounds' tables of the events they entered."""
    for event in Event.objects.filter(entries__player_id=player_id).distinct():
        cache.delete(seat_map_key(event))
        numbers = published_rounds(event).values_list("number", flat=True)
        for number in numbers:
            round_ = published_round(event, number)
            for code in _languages():
                with translation.override(code):
                    cache.delete(tables_key(event, round_))
