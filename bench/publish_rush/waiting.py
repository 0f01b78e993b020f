"""The phones waiting for a publish, and what "My next seat" costs them
(tournaments/rounds/views/public_next.py, docs/players-phones.md).

Before round 1 is published, every player's phone waits: today on the standings page, whose
fragment polls every POLL_SECONDS (15 s) with its ETag; with "My next seat", on a page that
polls the event's few-byte version at its own pace (the page is given VERSION_POLL_SECONDS;
its script spreads it by ±20 %) with its ETag, or at `--next-poll-seconds`. Two phases of the
same phones for the same time, each phone polling at its page's own pace from a random
moment, on a connection of its own each time (as the site phase's visits); a 200 (a new
"built … ago" minute, say) gives the phone its new ETag, as a browser's page would. What the
comparison asks: the gunicorn CPU seconds of the next-seat phase over the standings phase's
(what a thousand phones waiting for a publish cost against today's standings polls).

After the publish, the "next" phase: each visit is a waiting phone seeing the version move
(a 200) and fetching its own part (`/next/live/`, with its "This is me" cookie), checked to
name the player's table.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from pathlib import Path

from bench.site_load.connection import Connection

from .load import Rush, Visit

ROOT = Path(__file__).resolve().parent.parent.parent
STANDINGS_POLL = "GET /events/{slug}/standings/live/ (If-None-Match)"
NEXT_POLL = "GET /events/{slug}/next/version/ (If-None-Match)"
NEXT_VERSION = "GET /events/{slug}/next/version/ (moved)"
NEXT_LIVE = "GET /events/{slug}/next/live/ (this-is-me cookie)"
WAITING = (STANDINGS_POLL, NEXT_POLL)
NEXT = (NEXT_VERSION, NEXT_LIVE)


def page_poll_seconds() -> float:
    """The standings fragment's htmx poll's pace: tournaments.common.web.polls.POLL_SECONDS,
    read from the file so that the generator needs no Django."""
    source = (ROOT / "tournaments" / "common" / "web" / "polls.py").read_text()
    return float(re.search(r"^POLL_SECONDS = (\d+)", source, re.MULTILINE).group(1))


def next_poll_seconds() -> float:
    """The next-seat page's pace: tournaments.rounds.views.public_next.VERSION_POLL_SECONDS,
    read from the file (no Django here either)."""
    source = (ROOT / "tournaments" / "rounds" / "views" / "public_next.py").read_text()
    return float(re.search(r"^VERSION_POLL_SECONDS = (\d+)", source, re.MULTILINE).group(1))


def poll_times(phones: int, period: float, jitter: float, seconds: float, rng) -> list:
    """(when, phone) of every poll in `seconds`: each phone from a random moment of its first
    period, then every `period` spread by ±`jitter` of it."""
    times = []
    for phone in range(phones):
        at = rng.random() * period
        while at < seconds:
            times.append((at, phone))
            at += period * (1 - jitter + 2 * jitter * rng.random())
    return sorted(times)


async def etag_of(rush: Rush, url: str) -> str:
    connection = Connection(rush.host, rush.port)
    try:
        answer = await connection.request("GET", url)
    finally:
        connection.close()
    return answer.headers.get("etag", "")


async def run_waiting(
    rush: Rush, name: str, phones: int, seconds: float, seed: int, pace: float | None = None
) -> dict:
    """One waiting phase (`name`: STANDINGS_POLL or NEXT_POLL): every phone polls its page's
    URL at its pace for `seconds` (`pace`: the next-seat page's, if not the site's own);
    returns the count of polls and how long they took."""
    if name == STANDINGS_POLL:
        url, period, jitter = f"/events/{rush.slug}/standings/live/", page_poll_seconds(), 0.0
    else:
        url, jitter = f"/events/{rush.slug}/next/version/", 0.2
        period = pace or next_poll_seconds()
    first = await etag_of(rush, url)
    tags = [first] * phones
    plan = poll_times(phones, period, jitter, seconds, random.Random(seed))
    started = time.monotonic()

    async def poll(at: float, phone: int) -> None:
        await asyncio.sleep(max(0.0, started + at - time.monotonic()))
        connection = Connection(rush.host, rush.port)
        try:
            headers = {"If-None-Match": tags[phone]}
            answer = await rush.stats.request(connection, name, "GET", url, headers=headers)
            if answer is not None and answer.status_code == 200:
                tags[phone] = answer.headers.get("etag", tags[phone])
        finally:
            connection.close()

    await asyncio.gather(*(poll(at, phone) for at, phone in plan))
    return {
        "polls": len(plan),
        "phones": phones,
        "poll_seconds": period,
        "lasted_s": round(time.monotonic() - started, 2),
    }


async def next_visit(rush: Rush, visit: Visit, known: str) -> None:
    """A waiting phone once the round is out: its version poll answers the new version, then
    it fetches its own part, which must name its table."""
    player = visit.player
    connection = Connection(rush.host, rush.port)
    try:
        url = f"/events/{rush.slug}/next/version/"
        headers = {"If-None-Match": known}
        await rush.stats.request(connection, NEXT_VERSION, "GET", url, headers=headers)
        url = f"/events/{rush.slug}/next/live/"
        headers = {"Cookie": f"me-{rush.event_id}={player['me']}"}
        answer = await rush.stats.request(connection, NEXT_LIVE, "GET", url, headers=headers)
        if answer is not None and answer.status_code == 200:
            where = f"Table {player['table']}"
            if where not in answer.text and len(rush.stats.notes) < 20:
                rush.stats.notes.append(f"{url}: no '{where}' in the answer")
    finally:
        connection.close()


async def run_next(rush: Rush, plan: list[Visit], known: str) -> float:
    """Every visit at its time; seconds from the first to the last answer."""
    started = time.monotonic()

    async def at_time(visit: Visit) -> None:
        await asyncio.sleep(max(0.0, started + visit.at - time.monotonic()))
        await next_visit(rush, visit, known)

    await asyncio.gather(*(at_time(visit) for visit in plan))
    return time.monotonic() - started
