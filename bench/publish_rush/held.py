"""The phones waiting with held asks ("My next seat" as its page asks today:
static/js/next_seat.js), what they cost and how soon they see a publish.

Each phone keeps one connection (a browser's keep-alive) and asks for the event's version
with its ETag and the wait marker (`?wait=` the site's DOOR_WAIT_SECONDS); the venue's server
holds the ask at the door until the version moves or the wait is over (config.parking). An
unchanged answer that took at least half the wait was held: the phone asks again at once;
one that came sooner was not (no room left): it waits the page's pace (VERSION_POLL_SECONDS,
±20 %), as the page does. A phone's first ask is at a random moment of the first wait, as a
room's phones are in no step.

Two uses:

- `run_held`: the phones for `seconds`, none asking anew after that, the phase lasting
  until the last held ask is answered; its phone-seconds (each phone from its first ask to
  its last answer) are what the CPU is divided by (CPU per phone-minute);
- `run_held_publish`: the phones held when round 1 is published (`publish`, run in a thread
  at `publish_after` seconds): each, on the new version, fetches its own part
  (`/next/live/`, its "This is me" cookie) and stops; when it had it (the wall clock) against
  the publish's start is its publish→seen latency.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable

from bench.site_load.connection import Connection

from .load import Rush
from .waiting import ROOT, next_poll_seconds

HELD_POLL = "GET /events/{slug}/next/version/?wait= (held)"
PUBLISH_POLL = "GET /events/{slug}/next/version/?wait= (held, the publish)"
HELD_LIVE = "GET /events/{slug}/next/live/ (after a held ask)"
HELD = (PUBLISH_POLL, HELD_LIVE)


def wait_seconds() -> float:
    """The site's cap on a held ask: config.settings.DOOR_WAIT_SECONDS, read from the file."""
    source = (ROOT / "config" / "settings.py").read_text()
    return float(re.search(r"^DOOR_WAIT_SECONDS = (\d+)", source, re.MULTILINE).group(1))


class Phone:
    def __init__(self, rush: Rush, tag: str, rng: random.Random, pace: float, wait: float):
        self.rush, self.tag, self.rng, self.pace, self.wait = rush, tag, rng, pace, wait
        self.name = HELD_POLL
        self.connection = Connection(rush.host, rush.port)
        self.url = f"/events/{rush.slug}/next/version/?wait={int(wait)}"
        self.asks = 0
        self.held = 0

    async def ask(self):
        """One ask; the answer (None: failed), after the pause the page would make."""
        asked = time.monotonic()
        headers = {"If-None-Match": self.tag}
        answer = await self.rush.stats.request(
            self.connection, self.name, "GET", self.url, headers=headers
        )
        self.asks += 1
        if answer is None:
            self.connection.close()
            await asyncio.sleep(self.pace)
        elif answer.status_code == 200:
            self.tag = answer.headers.get("etag", self.tag)
        elif time.monotonic() - asked >= self.wait / 2:
            self.held += 1
        else:  # answered at once: no room for it, a plain poll's pace
            await asyncio.sleep(self.pace * (0.8 + 0.4 * self.rng.random()))
        return answer


async def run_held(rush: Rush, phones: int, seconds: float, seed: int, tag: str) -> dict:
    rng = random.Random(seed)
    wait, pace = wait_seconds(), next_poll_seconds()
    started = time.monotonic()
    spans = []
    crowd = [Phone(rush, tag, random.Random(rng.random()), pace, wait) for _ in range(phones)]

    async def live(phone: Phone, first: float) -> None:
        await asyncio.sleep(first)
        began = time.monotonic()
        try:
            while time.monotonic() - started < seconds:
                await phone.ask()
        finally:
            phone.connection.close()
            spans.append(time.monotonic() - began)

    await asyncio.gather(*(live(phone, rng.random() * wait) for phone in crowd))
    return {
        "polls": sum(phone.asks for phone in crowd),
        "held_answers": sum(phone.held for phone in crowd),
        "phones": phones,
        "poll_seconds": f"held up to {wait:g} s (else every {pace:g} s)",
        "phone_seconds": round(sum(spans), 1),
        "lasted_s": round(time.monotonic() - started, 2),
    }


async def run_held_publish(
    rush: Rush, phones: list[dict], tag: str, publish: Callable[[], dict], seed: int
) -> dict:
    """The phones held (`phones`: each player's id and "This is me" cookie), round 1
    published among them; each phone's publish→seen seconds. Each checks its part names its
    table once the publish has said the tables."""
    rng = random.Random(seed)
    wait, pace = wait_seconds(), next_poll_seconds()
    published: dict = {}
    crowd = [Phone(rush, tag, random.Random(rng.random()), pace, wait) for _ in phones]
    for phone in crowd:
        phone.name = PUBLISH_POLL
    versions: list[float] = []
    seen: dict[int, tuple[float, str]] = {}

    async def phone_life(mine: dict, phone: Phone, first: float) -> None:
        await asyncio.sleep(first)
        try:
            while phone.tag == tag:
                await phone.ask()
                if time.monotonic() - began > 120:
                    return
            versions.append(time.time())
            headers = {"Cookie": f"me-{rush.event_id}={mine['me']}"}
            url = f"/events/{rush.slug}/next/live/"
            got = await rush.stats.request(phone.connection, HELD_LIVE, "GET", url, headers=headers)
            if got is not None and got.status_code == 200:
                seen[mine["id"]] = (time.time(), got.text)
        finally:
            phone.connection.close()

    async def publishing() -> None:
        await asyncio.sleep(wait * 0.6)  # every phone asked, most are held
        published.update(await asyncio.to_thread(publish))

    began = time.monotonic()
    await asyncio.gather(
        publishing(),
        *(
            phone_life(mine, phone, rng.random() * 5)
            for mine, phone in zip(phones, crowd, strict=True)
        ),
    )
    start, committed, done = published["publish_at"]
    tables = {player["id"]: player["table"] for player in published["players"]}
    for player, (_, text) in seen.items():
        if f"Table {tables[player]}" not in text and len(rush.stats.notes) < 20:
            rush.stats.notes.append(f"/next/live/: no 'Table {tables[player]}' in the answer")
    seen_at = [at for at, _ in seen.values()]

    def spread(times: list[float], origin: float) -> dict:
        late = sorted(t - origin for t in times)
        if not late:
            return {"count": 0}
        return {
            "count": len(late),
            "p50_s": round(late[len(late) // 2], 2),
            "p95_s": round(late[min(len(late) - 1, int(len(late) * 0.95))], 2),
            "max_s": round(late[-1], 2),
        }

    return {
        "phones": len(crowd),
        "publish_s": round(done - start, 2),
        "commit_after_publish_start_s": round(committed - start, 2),
        "version_seen_after_commit": spread(versions, committed),
        "part_seen_after_commit": spread(seen_at, committed),
        "part_seen_after_publish_start": spread(seen_at, start),
        "lasted_s": round(time.monotonic() - began, 2),
        "published": published,
    }
