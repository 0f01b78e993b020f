"""The load: the keepers entering their games and the phones polling."""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import time
from dataclasses import dataclass, field

from .connection import Connection
from .event import TableInfo
from .measure import API_STANDINGS, CONFIRM, DEAL, FRAGMENT, KEEP, PAGE, PATCH, RESEND, SHEET, Stats

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NEXT_VERSION = re.compile(r"/sheet/\?v=(\d+)")


@dataclass
class Run:
    args: argparse.Namespace
    slug: str
    tables: list[TableInfo]
    base_url: str
    stats: Stats
    stop: asyncio.Event
    last_confirmed: float = 0.0
    started: float = 0.0  # time.monotonic() when the load began
    # The confirmation rush (cpu.py): when the first keeper opened their link, and when the
    # last confirm form was answered (whatever the answer).
    first_confirming: float | None = None
    last_confirm_answered: float | None = None
    lag: list[float] = field(default_factory=list)
    lag_at: list[float] = field(default_factory=list)  # when each lag was measured
    tls: object = None  # one TLS context for every keeper's client (see keeper)


async def keeper(run: Run, table: TableInfo, rng: random.Random) -> None:
    """One table's keeper, on a phone of their own: the game through the API, then the
    confirmation through the table page."""
    import httpx

    # httpx loads the CA certificates for each new client unless given a context: ~20 ms of
    # this process's event loop per keeper, 7 s in all while the phones start polling, and
    # every request in flight then looks 7 s slower. One context serves them all (the site
    # is plain HTTP on loopback anyway).
    async with httpx.AsyncClient(base_url=run.base_url, timeout=120, verify=run.tls) as client:
        if await enter_game(run, client, table, rng):
            await asyncio.sleep(run.args.duration / run.args.deals * rng.uniform(0.5, 1.5))
            await confirm(run, client, table, rng)  # after a second player read the sheet


async def enter_game(run: Run, client, table: TableInfo, rng: random.Random) -> bool:
    """Every deal of the game, a think time apart; False if the site refused one."""
    import engine
    from scoring.autoplay import next_deal

    args, stats = run.args, run.stats
    think = args.duration / args.deals
    record = {"ruleset": table.ruleset, "options": table.options, "deals": []}
    game = engine.game_from_record({**record, "first_dealer": table.first_dealer})
    headers = {"Authorization": f"Bearer {table.secret}"}
    url = f"/api/games/{table.game_id}/deals"
    state = None
    while not game.end:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        deal = next_deal(game, rng)
        body = {"deal": len(game.deals) + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
        response = await stats.request(client, DEAL, "POST", url, json=body, headers=headers)
        while response is not None and response.status_code >= 500:  # never expected: retry
            await asyncio.sleep(1)
            response = await stats.request(client, DEAL, "POST", url, json=body, headers=headers)
        if response is None or response.status_code not in (200, 201):
            return False  # counted as an error; the checks afterwards show this table
        game.play(**deal)
        table.sent.append({k: v for k, v in deal.items() if v is not None})
        state = response.json()["state"]
        if rng.random() < args.resend:
            await stats.request(client, RESEND, "POST", url, json=body, headers=headers)
    if state and state["needs"]:
        tricks = table.sent[-1]["tricks"]
        winners = [seat for seat in range(3) for _ in range(tricks[seat])]
        rng.shuffle(winners)
        number = len(table.sent)
        while state and state["needs"]:
            given = winners[: state["needs"]["last_tricks"]]
            response = await stats.request(
                client,
                PATCH,
                "PATCH",
                f"{url}/{number}",
                json={"last_tricks": given},
                headers=headers,
            )
            if response is None or response.status_code != 200:
                return False
            table.sent[-1]["last_tricks"] = given
            state = response.json()["state"]
    return True


async def confirm(run: Run, phone, table: TableInfo, rng: random.Random) -> None:
    """The confirmation as a phone does it: keeper's link, table page, confirm form."""
    stats = run.stats
    if run.first_confirming is None:
        run.first_confirming = time.monotonic()
    link = f"/games/{table.game_id}/keep/{table.secret}/"
    response = await stats.request(phone, KEEP, "GET", link)
    if response is None or response.status_code != 302:
        return
    response = await stats.request(phone, PAGE, "GET", f"/games/{table.game_id}/")
    found = CSRF.search(response.text) if response is not None else None
    if found is None:
        stats.notes.append(f"no confirm form on the page of game {table.game_id}")
        return
    data = {"csrfmiddlewaretoken": found.group(1), "player": str(rng.randrange(3))}
    response = await stats.request(
        phone, CONFIRM, "POST", f"/games/{table.game_id}/confirm/", data=data
    )
    run.last_confirm_answered = time.monotonic()
    if response is not None and response.status_code == 302:
        table.confirmed = True
        run.last_confirmed = time.monotonic()


async def sheet_watcher(run: Run, client, table: TableInfo, rng: random.Random) -> None:
    """A phone's table poll, 204 while the version it holds is current."""
    version = table.version  # the phone opened the table page before the round began
    await asyncio.sleep(rng.uniform(0, run.args.poll))
    while not run.stop.is_set():
        started = time.monotonic()
        url = f"/games/{table.game_id}/sheet/?v={version}"
        response = await run.stats.request(client, SHEET, "GET", url)
        if response is not None and response.status_code == 200:
            found = NEXT_VERSION.search(response.text)
            if found is None:
                return  # confirmed: the page stops polling the sheet
            version = int(found.group(1))
        await pause(run, run.args.poll * rng.uniform(0.9, 1.1) - (time.monotonic() - started))


async def standings_watcher(run: Run, client, via_page: bool, rng: random.Random) -> None:
    """A phone's standings poll, sending back the ETag of the last answer it got."""
    name, url = (
        (FRAGMENT, f"/events/{run.slug}/standings/live/")
        if via_page
        else (API_STANDINGS, f"/api/events/{run.slug}/standings")
    )
    etag = None
    await asyncio.sleep(rng.uniform(0, run.args.poll))
    while not run.stop.is_set():
        started = time.monotonic()
        headers = {"If-None-Match": etag} if etag else {}
        response = await run.stats.request(client, name, "GET", url, headers=headers)
        if response is not None and response.status_code == 200:
            etag = response.headers.get("etag")
        await pause(run, run.args.poll * rng.uniform(0.9, 1.1) - (time.monotonic() - started))


async def pause(run: Run, seconds: float) -> None:
    try:
        await asyncio.wait_for(run.stop.wait(), timeout=max(0.0, seconds))
    except TimeoutError:
        pass


async def lag_monitor(run: Run) -> None:
    """How late this process's event loop wakes up: if it lags, the latencies are inflated."""
    while not run.stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(0.05)
        run.lag.append(time.perf_counter() - started - 0.05)
        run.lag_at.append(started)


async def drive(run: Run) -> float:
    rng = random.Random(run.args.seed)
    host, port = run.base_url.removeprefix("http://").split(":")
    connections = []
    started = run.started = time.monotonic()
    watchers = []
    for phone in range(run.args.phones):
        table = run.tables[phone % len(run.tables)]
        via_page = rng.random() < run.args.fragment_share
        phone_rng = random.Random(rng.random())
        sheet, standings = Connection(host, int(port)), Connection(host, int(port))
        connections += [sheet, standings]
        watchers.append(asyncio.create_task(sheet_watcher(run, sheet, table, phone_rng)))
        watchers.append(asyncio.create_task(standings_watcher(run, standings, via_page, phone_rng)))
    monitor = asyncio.create_task(lag_monitor(run))
    keepers = [keeper(run, table, random.Random(rng.random())) for table in run.tables]
    await asyncio.gather(*keepers)
    run.stop.set()
    await asyncio.gather(*watchers, monitor)
    for connection in connections:
        connection.close()
    return time.monotonic() - started
