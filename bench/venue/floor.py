"""The baseline phase: the same burst on the floor views (bench/floor), the least a deal's
write and a phone's poll can cost on this stack."""

from __future__ import annotations

import asyncio
import random
import time

from bench.site_load.clients import Run, lag_monitor, pause
from bench.site_load.connection import Connection

from .wire import Wire

WRITE = "POST /bench-floor/write/<id>/"
READ = "GET /bench-floor/read/<id>/"


def declare(stats) -> None:
    stats.declare(WRITE, 200)
    stats.declare(READ, 204)


async def writer(run: Run, table, rng: random.Random) -> None:
    """A keeper's --deals deals as one write each, a think time apart, on the keepers' client."""
    host, port = run.base_url.removeprefix("http://").split(":")
    wire = Wire(host, int(port))
    url = f"/bench-floor/write/{table.game_id}/"
    try:
        for _ in range(run.args.deals):
            await asyncio.sleep(run.args.think * rng.uniform(0.5, 1.5))
            await run.stats.request(wire, WRITE, "POST", url, json_body={})
    finally:
        wire.close()


async def reader(run: Run, connection: Connection, game_id: int, rng: random.Random) -> None:
    """A phone's poll of one game's row, every --poll seconds (jittered)."""
    await asyncio.sleep(rng.uniform(0, run.args.poll))
    while not run.stop.is_set():
        started = time.monotonic()
        await run.stats.request(connection, READ, "GET", f"/bench-floor/read/{game_id}/")
        await pause(run, run.args.poll * rng.uniform(0.9, 1.1) - (time.monotonic() - started))


async def drive(run: Run) -> float:
    """As bench.site_load.clients.drive: every phone polls twice (its table, and a second
    read for the standings), every keeper starts at once."""
    rng = random.Random(run.args.seed)
    host, port = run.base_url.removeprefix("http://").split(":")
    connections, readers = [], []
    started = time.monotonic()
    for phone in range(run.args.phones):
        table = run.tables[phone % len(run.tables)]
        phone_rng = random.Random(rng.random())
        for game_id in (table.game_id, run.tables[0].game_id):
            connection = Connection(host, int(port))
            connections.append(connection)
            readers.append(asyncio.create_task(reader(run, connection, game_id, phone_rng)))
    monitor = asyncio.create_task(lag_monitor(run))
    await asyncio.gather(*(writer(run, t, random.Random(rng.random())) for t in run.tables))
    run.stop.set()
    await asyncio.gather(*readers, monitor)
    for connection in connections:
        connection.close()
    return time.monotonic() - started
