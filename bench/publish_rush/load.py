"""The phones of a rush: who asks when and how, and the asyncio driver that times them."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from urllib.parse import quote_plus

from bench.site_load.connection import Connection
from bench.site_load.measure import Stats

from . import recipes

FLOOR = "GET /bench-floor/replay/<the visit's request>/"
SEAT_NAME = "GET /events/{slug}/seat/?name= (typed)"
SEAT_LINK = "GET /events/{slug}/seat/?name=&player= (link)"
SEAT_ME = "GET /events/{slug}/seat/ (this-is-me cookie)"
ROUND = "GET /events/{slug}/rounds/{n}/"
SITE = (SEAT_NAME, SEAT_LINK, SEAT_ME, ROUND)

#: How a phone asks where it sits, as the page offers it (see the package's docstring).
ASKED = ((SEAT_NAME, 0.5), (SEAT_LINK, 0.2), (SEAT_ME, 0.3))


@dataclass(frozen=True)
class Visit:
    at: float  # seconds after the phase starts
    player: dict  # id, name, game_id, table
    asked: str  # SEAT_NAME, SEAT_LINK or SEAT_ME


def visits(players: list[dict], requests: int, seconds: float, rng: random.Random) -> list[Visit]:
    """`requests` / 2 visits (each two requests) on an even grid over `seconds`, jittered
    within each step. Every player comes once; a third of them come back, once or twice
    more (as many thrice as make up the count); a player's visits fall in random steps."""
    count = requests // 2
    reloaders = rng.sample(range(len(players)), len(players) // 3)
    thrice = max(0, min(len(reloaders), count - len(players) - len(reloaders)))
    times = [1] * len(players)
    for number, index in enumerate(reloaders):
        times[index] = 3 if number < thrice else 2
    who = [player for player, n in zip(players, times, strict=True) for _ in range(n)]
    who = (who * (count // len(who) + 1))[:count]  # a count that is not the field's exactly
    rng.shuffle(who)
    step = seconds / count
    asked = [name for name, _ in ASKED]
    weights = [share for _, share in ASKED]
    return [
        Visit((i + rng.random()) * step, player, rng.choices(asked, weights)[0])
        for i, player in enumerate(who)
    ]


def typed(name: str, rng: random.Random) -> str:
    """A name as a thumb types it: lower case, now and then a double space or a trailing one."""
    text = name.lower()
    if rng.random() < 0.2:
        text = text.replace(" ", "  ")
    if rng.random() < 0.2:
        text += " "
    return text


@dataclass
class Rush:
    host: str
    port: int
    slug: str
    event_id: int
    round: int
    stats: Stats


#: The floor's recipe of each request of a visit (bench.publish_rush.recipes).
FLOOR_OF = {
    SEAT_NAME: recipes.SEAT_NAME,
    SEAT_LINK: recipes.SEAT_LINK,
    SEAT_ME: recipes.SEAT_ME,
    ROUND: recipes.ROUND,
}


async def floor_visit(rush: Rush, visit: Visit) -> None:
    """The floor: the visit's own two requests replayed (its seat question as it asks it,
    then the round page: their SQL, bench.floor.views.replay), on a connection of its own,
    with the same cookie."""
    headers = {}
    if visit.asked == SEAT_ME:
        headers["Cookie"] = f"me-{rush.event_id}={visit.player['me']}"
    connection = Connection(rush.host, rush.port)
    try:
        for asked in (visit.asked, ROUND):
            url = f"/bench-floor/replay/{FLOOR_OF[asked]}/"
            await rush.stats.request(connection, FLOOR, "GET", url, headers=headers)
    finally:
        connection.close()


async def site_visit(rush: Rush, visit: Visit, rng: random.Random) -> None:
    """A phone: where do I sit (as `visit.asked`), then the round page, on one connection."""
    player, headers = visit.player, {}
    url = f"/events/{rush.slug}/seat/"
    if visit.asked == SEAT_NAME:
        url += "?name=" + quote_plus(typed(player["name"], rng))
    elif visit.asked == SEAT_LINK:
        url += f"?name={quote_plus(player['name'])}&player={player['id']}"
    else:
        headers["Cookie"] = f"me-{rush.event_id}={player['me']}"  # the signed "This is me"
    connection = Connection(rush.host, rush.port)
    try:
        answer = await rush.stats.request(connection, visit.asked, "GET", url, headers=headers)
        if answer is not None and answer.status_code == 200:
            where = f"Table {player['table']}"
            if where not in answer.text and len(rush.stats.notes) < 20:
                rush.stats.notes.append(f"{url}: no '{where}' in the answer")
        await rush.stats.request(connection, ROUND, "GET", f"/events/{rush.slug}/rounds/1/")
    finally:
        connection.close()


async def run_phase(rush: Rush, plan: list[Visit], site: bool, seed: int) -> float:
    """Every visit at its time (late ones at once); seconds from the first to the last answer."""
    rng = random.Random(seed)
    started = time.monotonic()

    async def at_time(visit: Visit) -> None:
        await asyncio.sleep(max(0.0, started + visit.at - time.monotonic()))
        if site:
            await site_visit(rush, visit, random.Random(rng.random()))
        else:
            await floor_visit(rush, visit)

    await asyncio.gather(*(at_time(visit) for visit in plan))
    return time.monotonic() - started
