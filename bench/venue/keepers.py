"""The site phase's keepers: bench.site_load's (random valid deals through the API, 2% sent
twice, the last tricks when asked, then the confirmation as a phone does it), posting on the
cheap keep-alive client (wire.Wire) and as fast as they can, a think time apart."""

from __future__ import annotations

import asyncio
import random
import time

from bench.site_load import clients
from bench.site_load.clients import Run
from bench.site_load.event import TableInfo
from bench.site_load.measure import DEAL, PATCH, RESEND

from .wire import Wire, answer_json


async def keeper(run: Run, table: TableInfo, rng: random.Random) -> None:
    import httpx

    host, port = run.base_url.removeprefix("http://").split(":")
    wire = Wire(host, int(port))
    try:
        entered = await enter_game(run, wire, table, rng)
    finally:
        wire.close()
    if entered:  # the confirmation needs a session and a CSRF token: httpx keeps them
        await asyncio.sleep(run.args.think * rng.uniform(0.5, 1.5))
        async with httpx.AsyncClient(base_url=run.base_url, timeout=120, verify=run.tls) as phone:
            await clients.confirm(run, phone, table, rng)


async def enter_game(run: Run, wire: Wire, table: TableInfo, rng: random.Random) -> bool:
    """Every deal of the game (clients.enter_game's, on `wire`); False if one was refused."""
    import engine
    from scoring.autoplay import next_deal

    stats, think = run.stats, run.args.think
    record = {"ruleset": table.ruleset, "options": table.options, "deals": []}
    game = engine.game_from_record({**record, "first_dealer": table.first_dealer})
    headers = {"Authorization": f"Bearer {table.secret}"}
    url = f"/api/games/{table.game_id}/deals"
    state = None
    while not game.end:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        deal = next_deal(game, rng)
        body = {"deal": len(game.deals) + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
        response = await stats.request(wire, DEAL, "POST", url, headers=headers, json_body=body)
        if response is None or response.status_code not in (200, 201):
            return False  # counted as an error; the checks afterwards show this table
        game.play(**deal)
        table.sent.append({k: v for k, v in deal.items() if v is not None})
        state = answer_json(response)["state"]
        if rng.random() < run.args.resend:
            await stats.request(wire, RESEND, "POST", url, headers=headers, json_body=body)
    number = len(table.sent)
    if state and state["needs"]:
        tricks = table.sent[-1]["tricks"]
        winners = [seat for seat in range(3) for _ in range(tricks[seat])]
        rng.shuffle(winners)
        while state and state["needs"]:
            given = winners[: state["needs"]["last_tricks"]]
            body = {"last_tricks": given}
            response = await stats.request(
                wire, PATCH, "PATCH", f"{url}/{number}", headers=headers, json_body=body
            )
            if response is None or response.status_code != 200:
                return False
            table.sent[-1]["last_tricks"] = given
            state = answer_json(response)["state"]
    return True


async def drive(run: Run) -> float:
    """bench.site_load.clients.drive with these keepers: the phones poll the sheet and the
    standings (fragment or API), every keeper starts at once."""
    rng = random.Random(run.args.seed)
    host, port = run.base_url.removeprefix("http://").split(":")
    connections, watchers = [], []
    started = time.monotonic()
    for phone in range(run.args.phones):
        table = run.tables[phone % len(run.tables)]
        via_page = rng.random() < run.args.fragment_share
        phone_rng = random.Random(rng.random())
        sheet, standings = Wire(host, int(port)), Wire(host, int(port))
        connections += [sheet, standings]
        watchers.append(asyncio.create_task(clients.sheet_watcher(run, sheet, table, phone_rng)))
        watchers.append(
            asyncio.create_task(clients.standings_watcher(run, standings, via_page, phone_rng))
        )
    monitor = asyncio.create_task(clients.lag_monitor(run))
    await asyncio.gather(*(keeper(run, t, random.Random(rng.random())) for t in run.tables))
    run.stop.set()
    await asyncio.gather(*watchers, monitor)
    for connection in connections:
        connection.close()
    return time.monotonic() - started
