"""Benchmark: the site under a tournament's load (issue 6).

    .venv/bin/python -m bench.site_load --repeat 2     # the issue's load, measured twice
    .venv/bin/python -m bench.site_load --fragment-share 0 --repeat 2 \
        --out bench/results/site_load-api.json         # the phones on the API only
    .venv/bin/python -m bench.site_load --quick        # 30 tables, 90 phones: a smoke run

A run's load is meant to last about 3 minutes (--duration 120 s a game, plus redeals and the
confirmations); when the site cannot keep up it lasts longer (docs/performance.md). What
runs, all on this machine, on loopback: gunicorn serving `config.wsgi` with production
settings (DJANGO_DEBUG=0, 5 gthread workers of 4 threads), PostgreSQL (a database of its own,
`bench358`, dropped and made again by `migrate` on every run), a Celery worker on Redis
(db 14, flushed), the Django cache shared on Redis as docs/deploy.md has it for several
workers (db 13, flushed; `--cache ""` for local memory in each process), and this process
driving the load with asyncio (httpx for the keepers, a small keep-alive client of its own
for the phones, see Connection):

- The keepers: an event of 3 × --tables players gets one published swiss round (made here,
  through tournaments.services). Every table's keeper enters its whole game at once with the
  others, through the API (`POST /api/games/{id}/deals` with the table's token): random but
  valid deals (scoring.autoplay.next_deal, against a copy of the engine kept client-side),
  --deals hands each (a redeal is a deal too, so 9 hands are 9 to 12 deals), with a think time
  between deals so the game takes about --duration seconds. About 2% of deals are sent twice,
  as a phone on a bad network would (the second must answer 200 and record nothing), and the
  last tricks are PATCHed when the state asks for them (`state.needs`). Then the result is
  confirmed the way a phone does it: the keeper's link (a session), the table page (its CSRF
  token) and the confirm form. Each confirmation enqueues a standings build on the worker.
- The phones: --phones clients, each following one table and the standings, each on its own
  poll every --poll seconds (jittered, as htmx timers drift): the table's
  `GET /games/{id}/sheet/?v=<version>` (204 while unchanged, else the fresh partial, whose
  next poll URL carries the new version; a confirmed sheet stops polling, as the page does),
  and the standings with the ETag of the last answer (as a browser revalidates), through the
  public page's fragment `/events/<slug>/standings/live/` for --fragment-share of the phones
  and `GET /api/events/{slug}/standings` (scoreboards, scripts) for the rest.

Afterwards it waits for the worker to catch up (the newest stored standings built from the
current results) and checks, through the ORM: every game holds exactly the deals its keeper
sent, once each, numbered 1..n, with one "deal recorded" change each, and is confirmed; the
stored standings equal a fresh build (`bridge.standings_inputs` + `standings.build_standings`).

Prints a table per run and writes them all to bench/results/site_load.json (or --out;
site_load-quick.json with --quick), with a timeline (requests a second and p95 per 15 s).
Every process it starts is stopped when it ends, whatever happens; the database is dropped
unless --keep-db. A benchmark, not a test: it asserts nothing, it reports.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
PG = "postgres://postgres@127.0.0.1:5432"

TARGET_P95_MS = 100.0
DEAL = "POST /api/games/{id}/deals"
RESEND = "POST /api/games/{id}/deals (resent)"
PATCH = "PATCH /api/games/{id}/deals/{n}"
KEEP = "GET /games/{id}/keep/{token}/"
PAGE = "GET /games/{id}/ (keeper)"
CONFIRM = "POST /games/{id}/confirm/"
SHEET = "GET /games/{id}/sheet/?v="
API_STANDINGS = "GET /api/events/{slug}/standings"
FRAGMENT = "GET /events/{slug}/standings/live/"
TARGETED = (DEAL, API_STANDINGS, FRAGMENT)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NEXT_VERSION = re.compile(r"/sheet/\?v=(\d+)")


# --- measuring ----------------------------------------------------------------------------------


def percentile(ordered: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    if not ordered:
        return float("nan")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


@dataclass
class Series:
    expected: tuple[int, ...]
    seconds: list[float] = field(default_factory=list)
    at: list[float] = field(default_factory=list)  # when each request started
    by_status: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter = field(default_factory=Counter)

    def add(self, status: str, seconds: float, at: float) -> None:
        self.seconds.append(seconds)
        self.at.append(at)
        self.by_status[status].append(seconds)
        if not status.isdigit() or int(status) not in self.expected:
            self.errors[status] += 1

    def summary(self) -> dict:
        def figures(values: list[float]) -> dict:
            ordered = sorted(values)
            return {
                "count": len(ordered),
                "p50_ms": round(percentile(ordered, 50) * 1000, 1),
                "p95_ms": round(percentile(ordered, 95) * 1000, 1),
                "p99_ms": round(percentile(ordered, 99) * 1000, 1),
                "max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
            }

        return {
            **figures(self.seconds),
            "errors": sum(self.errors.values()),
            "errors_by_status": dict(self.errors),
            "by_status": {status: figures(v) for status, v in sorted(self.by_status.items())},
        }


class Stats:
    def __init__(self) -> None:
        self.series: dict[str, Series] = {}
        self.notes: list[str] = []

    def declare(self, name: str, *expected: int) -> None:
        self.series[name] = Series(expected)

    async def request(self, client, name: str, method: str, url: str, **kwargs):
        """One timed request (headers and the whole body); None if it did not complete."""
        started = time.perf_counter()
        try:
            response = await client.request(method, url, **kwargs)
        except Exception as error:  # noqa: BLE001 - every failure is counted, none stops the run
            self.series[name].add(
                f"exc:{type(error).__name__}", time.perf_counter() - started, started
            )
            if len(self.notes) < 20:
                self.notes.append(f"{name}: {type(error).__name__}: {error}")
            return None
        self.series[name].add(str(response.status_code), time.perf_counter() - started, started)
        if response.status_code not in self.series[name].expected and len(self.notes) < 20:
            self.notes.append(f"{name} {url}: {response.status_code} {response.text[:200]}")
        return response

    def timeline(self, names: tuple[str, ...], bucket: float, lag=((), ())) -> list[dict]:
        """Per `bucket` seconds of the run: requests a second, the p95 of `names`, and the
        p99 of this process's event-loop lag (`lag`: when, how late), which shows when the
        load generator, not the site, held answers up."""
        starts = [t for series in self.series.values() for t in series.at]
        if not starts:
            return []
        origin = min(starts)
        count = int((max(starts) - origin) // bucket) + 1
        rows = [{"from_s": round(i * bucket), "requests_per_s": 0.0} for i in range(count)]
        for series in self.series.values():
            for t in series.at:
                rows[int((t - origin) // bucket)]["requests_per_s"] += 1 / bucket
        for name in names:
            buckets = defaultdict(list)
            for t, seconds in zip(self.series[name].at, self.series[name].seconds, strict=True):
                buckets[int((t - origin) // bucket)].append(seconds)
            for i, row in enumerate(rows):
                values = sorted(buckets.get(i, []))
                row[f"p95_ms {name}"] = round(percentile(values, 95) * 1000) if values else None
        lags = defaultdict(list)
        for t, late in zip(*lag, strict=True):
            if t >= origin:
                lags[int((t - origin) // bucket)].append(late)
        for i, row in enumerate(rows):
            values = sorted(lags.get(i, []))
            row["loop_lag_p99_ms"] = round(percentile(values, 99) * 1000) if values else None
        for row in rows:
            row["requests_per_s"] = round(row["requests_per_s"], 1)
        return rows


@dataclass
class Answer:
    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


class Connection:
    """A phone's own keep-alive connection: a small HTTP/1.1 client for GETs.

    httpx spends most of its time in its connection pool when a thousand clients share it,
    and its pure-Python parser is slow on the standings' large bodies: the load generator
    would take the CPU the site needs. This reads a status line, headers and a
    Content-Length (or chunked) body straight off an asyncio stream. Like a browser, it
    reconnects and sends again once when the server has closed a connection kept alive.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, url: str, headers: dict[str, str] | None = None):
        lines = [f"{method} {url} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        reused = self.writer is not None
        try:
            return await self._exchange(message)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
        return await self._exchange(message)

    async def _exchange(self, message: bytes) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(message)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            content = b""
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                content += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        else:
            content = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, headers, content)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- the processes ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(args, static_root: str) -> dict[str, str]:
    """The environment of migrate, collectstatic, gunicorn and the worker: production settings
    but plain HTTP on loopback."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CELERY_TASK_ALWAYS_EAGER", "DJANGO_CACHE_URL", "CELERY_RESULT_BACKEND")
    }
    if args.cache:
        env["DJANGO_CACHE_URL"] = args.cache
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"{PG}/{args.database}",
        CELERY_BROKER_URL=args.redis,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_STATIC_ROOT=static_root,
        DJANGO_LOG_LEVEL="WARNING",
    )
    return env


def recreate_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def flush_redis(url: str) -> None:
    import redis

    redis.Redis.from_url(url).flushdb()


def queued(url: str) -> int:
    import redis

    return redis.Redis.from_url(url).llen("celery")


def manage(env: dict[str, str], *command: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *command, "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


class Processes:
    """gunicorn and the worker, each in a process group of its own, stopped in `stop`."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        out = (self.logs / f"{name}.log").open("w")
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.running[name] = process
        return process

    def cpu_seconds(self) -> dict[str, float]:
        """User + system CPU of each process tree so far (read from /proc before stopping)."""
        tick = os.sysconf("SC_CLK_TCK")

        def tree(pid: int) -> list[int]:
            found = [pid]
            for task in Path(f"/proc/{pid}/task").glob("*"):
                try:
                    children = (task / "children").read_text().split()
                except OSError:
                    continue
                for child in children:
                    found += tree(int(child))
            return found

        totals = {}
        for name, process in self.running.items():
            seconds = 0.0
            for pid in set(tree(process.pid)):
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                seconds += (int(fields[11]) + int(fields[12])) / tick
            totals[name] = round(seconds, 1)
        return totals

    def stop(self) -> None:
        for process in self.running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        for process in self.running.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def check(self) -> None:
        for name, process in self.running.items():
            if process.poll() is not None:
                tail = (self.logs / f"{name}.log").read_text()[-3000:]
                raise RuntimeError(f"{name} exited with {process.returncode}:\n{tail}")


def postgres_cpu_seconds(database: str) -> float:
    """User + system CPU of the PostgreSQL backends now connected to `database` (those that
    closed earlier are missed: with persistent connections, few do)."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        pids = [
            row[0]
            for row in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", [database]
            ).fetchall()
        ]
    tick, seconds = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds += (int(fields[11]) + int(fields[12])) / tick
    return round(seconds, 1)


def wait_until_serving(base_url: str, processes: Processes, timeout: float = 60.0) -> None:
    import httpx

    deadline = time.monotonic() + timeout
    while True:
        processes.check()
        try:
            if httpx.get(f"{base_url}/healthz", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("gunicorn did not answer /healthz in time")
        time.sleep(0.3)


# --- the event ----------------------------------------------------------------------------------


@dataclass
class TableInfo:
    number: int
    game_id: int
    secret: str
    ruleset: str
    options: dict
    first_dealer: int
    version: int
    sent: list[dict] = field(default_factory=list)  # the deals as finally recorded
    confirmed: bool = False


def make_event(tables: int, hands: int, seed: int):
    """An event of 3 × `tables` players with one published round (paired in this process:
    the setup is not what is measured)."""
    from tournaments import services
    from tournaments.models import Round

    club = services.club_create(name=f"Bench club {seed}")
    event = services.event_create(
        club=club,
        name=f"Bench open {seed}",
        ruleset="blato",
        options={} if hands == 9 else {"hands": hands},
        rounds_planned=1,
        pairing_modes=["swiss"],
        seed=seed,
        actor="bench",
    )
    names = [f"Player {number:04d}" for number in range(1, 3 * tables + 1)]
    services.players_register(event=event, names=names, checked_in=True, actor="bench")
    round_ = services.round_create(event=event, actor="bench")  # paired eagerly on commit
    round_ = Round.objects.get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise RuntimeError(f"the round was not paired: {round_.status} {round_.build_error}")
    services.round_publish(round_=round_, actor="bench")
    infos = [
        TableInfo(
            number=table.number,
            game_id=table.game.pk,
            secret=table.game.secret,
            ruleset=table.game.ruleset,
            options=table.game.options,
            first_dealer=table.game.first_dealer,
            version=table.game.version,
        )
        for table in round_.tables.select_related("game").order_by("number")
    ]
    return event, infos


# --- the load -----------------------------------------------------------------------------------


@dataclass
class Run:
    args: argparse.Namespace
    slug: str
    tables: list[TableInfo]
    base_url: str
    stats: Stats
    stop: asyncio.Event
    last_confirmed: float = 0.0
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
    started = time.monotonic()
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


# --- afterwards ---------------------------------------------------------------------------------


def wait_for_worker(event, args, since: float) -> dict:
    """Seconds from the last confirmation until the stored standings are built from the
    current results, and until the broker's queue is empty."""
    from django.db import close_old_connections

    from tournaments import bridge

    current = empty = None
    deadline = time.monotonic() + args.catchup_timeout
    while time.monotonic() < deadline and (current is None or empty is None):
        close_old_connections()
        now = time.monotonic()
        if current is None:
            latest = event.standings.first()
            if latest is not None and latest.results_stamp == bridge.results_stamp(event):
                current = now - since
        if empty is None and queued(args.redis) == 0:
            empty = now - since
        time.sleep(0.2)
    return {
        "standings_current_after_s": None if current is None else round(current, 2),
        "queue_empty_after_s": None if empty is None else round(empty, 2),
    }


def check(event, tables: list[TableInfo]) -> dict:
    """Every deal stored exactly once, every game confirmed, standings equal a fresh build."""
    from scoring.models import DealEntry, Game, GameChange
    from tournaments import bridge, standings

    ids = [table.game_id for table in tables]
    stored = defaultdict(list)
    for entry in DealEntry.objects.filter(game_id__in=ids).order_by("game_id", "number", "pk"):
        stored[entry.game_id].append(entry)
    logged = Counter(
        GameChange.objects.filter(
            game_id__in=ids, action=GameChange.Action.DEAL_RECORDED
        ).values_list("game_id", flat=True)
    )
    results = dict(Game.objects.filter(pk__in=ids).values_list("pk", "result"))
    lost = doubled = wrong = unconfirmed = 0
    problems = []
    for table in tables:
        rows = stored[table.game_id]
        live = [row for row in rows if row.undone_at is None]
        numbers = [row.number for row in live]
        sent = len(table.sent)
        lost += max(0, sent - len(set(numbers)))
        doubled += (len(numbers) - len(set(numbers))) + (len(rows) - len(live))
        doubled += max(0, logged[table.game_id] - sent)
        if numbers != list(range(1, sent + 1)) or [r.as_record() for r in live] != table.sent:
            wrong += 1
            if len(problems) < 10:
                problems.append(f"game {table.game_id}: stored {numbers}, sent {sent}")
        if results[table.game_id] != Game.Result.CONFIRMED:
            unconfirmed += 1
    latest = event.standings.first()
    fresh = standings.build_standings(
        *bridge.standings_inputs(event), bridge.standings_config(event)
    )
    fresh_rows = [row.as_dict() for row in fresh]
    hands = Counter(
        sum(1 for deal in table.sent if "tricks" in deal) for table in tables if table.sent
    )
    return {
        "games": len(tables),
        "deals_sent": sum(len(table.sent) for table in tables),
        "deals_stored_live": sum(
            sum(1 for row in stored[t.game_id] if row.undone_at is None) for t in tables
        ),
        "deals_per_game": dict(sorted(Counter(len(t.sent) for t in tables).items())),
        "hands_per_game": dict(sorted(hands.items())),
        "lost_deals": lost,
        "doubled_deals": doubled,
        "games_not_as_sent": wrong,
        "games_not_confirmed": unconfirmed,
        "standings_rows": len(latest.rows) if latest else 0,
        "standings_equal_fresh_build": latest is not None and latest.rows == fresh_rows,
        "standings_snapshots_stored": event.standings.count(),
        "problems": problems,
    }


def machine() -> dict:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory = next(
        (
            round(int(line.split()[1]) / 1024**2, 1)
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        None,
    )
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": memory,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def print_report(args: argparse.Namespace, report: dict) -> None:
    print(
        f"\n{args.tables} tables x {args.deals} hands, {args.phones} phones"
        f" polling every {args.poll} s: {report['load_seconds']} s,"
        f" {report['requests']} requests ({report['requests_per_s']}/s); load average"
        f" before {report['load_average']['before']}, after {report['load_average']['after']}"
    )
    print(
        f"{'endpoint':<40} {'count':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>8}"
        f"  errors"
    )
    for name, s in report["endpoints"].items():
        errors = s["errors_by_status"] or ""
        print(
            f"{name:<40} {s['count']:>7} {s['p50_ms']:>7} {s['p95_ms']:>7} {s['p99_ms']:>7}"
            f" {s['max_ms']!s:>8}  {s['errors']} {errors}"
        )
        for status, f in s["by_status"].items():
            if len(s["by_status"]) > 1:
                print(
                    f"{'  ' + status:<40} {f['count']:>7} {f['p50_ms']:>7} {f['p95_ms']:>7}"
                    f" {f['p99_ms']:>7} {f['max_ms']!s:>8}"
                )
    checks = report["checks"]
    print(
        f"deals sent {checks['deals_sent']}, stored {checks['deals_stored_live']}; lost"
        f" {checks['lost_deals']}, doubled {checks['doubled_deals']}, games not as sent"
        f" {checks['games_not_as_sent']}, not confirmed {checks['games_not_confirmed']};"
        f" standings equal a fresh build: {checks['standings_equal_fresh_build']}"
        f" ({checks['standings_snapshots_stored']} snapshots stored)"
    )
    print(f"worker: {report['worker']}")
    print(f"CPU seconds: {report['cpu_seconds']}; loop lag {report['event_loop_lag_ms']} ms")
    names = [key for key in (report["timeline"] or [{}])[0] if key.startswith("p95_ms")]
    print(
        "timeline: from s, requests/s, p95 ms of "
        + ", ".join(n[7:] for n in names)
        + "; loop lag p99 ms"
    )
    for row in report["timeline"]:
        print(
            f"  {row['from_s']:>5} {row['requests_per_s']:>7}",
            *(row[n] for n in names),
            row.get("loop_lag_p99_ms"),
        )
    for name, target in report["targets"].items():
        print(f"target {name}: {target}")
    for note in report["notes"]:
        print(f"note: {note}")


# --- main ---------------------------------------------------------------------------------------


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.site_load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="30 tables, 90 phones, 30 s")
    parser.add_argument("--tables", type=int, default=333)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=9, help="hands per game (default 9)")
    parser.add_argument(
        "--duration", type=float, default=120.0, help="seconds a table takes for its game"
    )
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between a phone's polls")
    parser.add_argument("--resend", type=float, default=0.02, help="share of deals sent twice")
    parser.add_argument(
        "--fragment-share",
        type=float,
        default=0.5,
        help="share of phones polling the standings page's fragment (the rest: the API)",
    )
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 1) + 1)
    parser.add_argument("--threads", type=int, default=4, help="gthread threads per worker")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1, help="measure this many times over")
    parser.add_argument("--database", default="bench358")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--cache",
        default="redis://127.0.0.1:6379/13",
        help='the Django cache the site shares (DJANGO_CACHE_URL, flushed); "" for local memory',
    )
    parser.add_argument("--catchup-timeout", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--keep-db", action="store_true", help="leave the database afterwards")
    parser.add_argument("--out", help="where to write the JSON (default bench/results/...)")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.phones, args.duration = 30, 90, 30.0
    return args


def run_once(args: argparse.Namespace) -> dict:
    """One measurement from an empty database; everything it starts is stopped."""
    logs = Path(tempfile.mkdtemp(prefix="bench358-"))
    env = server_env(args, str(logs / "static"))
    before = load_average()
    print(f"load average {before}; logs and static files in {logs}", flush=True)

    from django.conf import settings
    from django.db import connections

    if settings.configured:  # a run before this one: its connections go with its database
        connections.close_all()
    recreate_database(args.database)
    flush_redis(args.redis)
    if args.cache:
        flush_redis(args.cache)
    manage(env, "migrate")
    manage(env, "collectstatic")

    # This process sets the event up and checks it afterwards through the same settings; its
    # own Celery tasks (pairing the round) run eagerly, here, before the load starts.
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    import django

    django.setup()
    made = time.monotonic()
    event, tables = make_event(args.tables, args.deals, args.seed)
    print(f"event {event.slug}: {len(tables)} tables in {time.monotonic() - made:.1f} s")

    processes = Processes(logs)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    try:
        gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi"]
        gunicorn += ["--bind", f"127.0.0.1:{port}", "--workers", str(args.workers)]
        gunicorn += ["--backlog", "2048", "--timeout", "120", "--keep-alive", "30"]
        if args.threads > 1:
            gunicorn += ["--worker-class", "gthread", "--threads", str(args.threads)]
        processes.start("gunicorn", gunicorn, env)
        celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=WARNING"]
        celery += [f"--concurrency={args.celery_concurrency}", "--without-gossip"]
        celery += ["--without-mingle", "--without-heartbeat"]
        processes.start("worker", celery, env)
        wait_until_serving(base_url, processes)
        print(f"serving on {base_url}; load for about {args.duration * 1.25:.0f} s", flush=True)

        stats = Stats()
        stats.declare(DEAL, 201)
        stats.declare(RESEND, 200)
        stats.declare(PATCH, 200)
        stats.declare(KEEP, 302)
        stats.declare(PAGE, 200)
        stats.declare(CONFIRM, 302)
        stats.declare(SHEET, 200, 204)
        stats.declare(API_STANDINGS, 200, 304)
        stats.declare(FRAGMENT, 200, 304)
        run = Run(args, event.slug, tables, base_url, stats, asyncio.Event())
        run.tls = ssl.create_default_context()
        cpu_before = resource.getrusage(resource.RUSAGE_SELF)
        seconds = asyncio.run(drive(run))
        cpu_after = resource.getrusage(resource.RUSAGE_SELF)
        after_load = load_average()
        processes.check()
        print(f"load done in {seconds:.1f} s; waiting for the worker", flush=True)
        worker = wait_for_worker(event, args, run.last_confirmed or time.monotonic())
        builds = list(event.standings.values_list("build_seconds", flat=True))
        worker["builds"] = len(builds)
        worker["build_ms_max"] = round(max(builds) * 1000, 1) if builds else None
        cpu = processes.cpu_seconds()
        cpu["postgres_backends"] = postgres_cpu_seconds(args.database)
        cpu["load_generator"] = round(
            cpu_after.ru_utime + cpu_after.ru_stime - cpu_before.ru_utime - cpu_before.ru_stime, 1
        )
    except BaseException:
        print(f"failed: logs kept in {logs}; database {args.database} left", file=sys.stderr)
        raise
    finally:
        processes.stop()

    checks = check(event, tables)
    endpoints = {name: s.summary() for name, s in stats.series.items() if s.seconds}
    requests = sum(s["count"] for s in endpoints.values())
    lag = sorted(run.lag)
    targets = {
        "errors": {"target": 0, "measured": sum(s["errors"] for s in endpoints.values())},
        "lost or doubled deals": {
            "target": 0,
            "measured": checks["lost_deals"] + checks["doubled_deals"],
        },
        **{
            f"p95 {name}": {
                "target_ms": TARGET_P95_MS,
                "measured_ms": endpoints[name]["p95_ms"],
                "met": endpoints[name]["p95_ms"] < TARGET_P95_MS,
            }
            for name in TARGETED
            if name in endpoints
        },
    }
    for name in ("errors", "lost or doubled deals"):
        targets[name]["met"] = targets[name]["measured"] == 0
    report = {
        "load_average": {"before": before, "after_load": after_load, "after": load_average()},
        "load_seconds": round(seconds, 1),
        "requests": requests,
        "requests_per_s": round(requests / seconds, 1),
        "targets": targets,
        "endpoints": endpoints,
        "checks": checks,
        "worker": worker,
        "cpu_seconds": cpu,
        "event_loop_lag_ms": {
            "p50": round(percentile(lag, 50) * 1000, 1),
            "p99": round(percentile(lag, 99) * 1000, 1),
            "max": round(lag[-1] * 1000, 1) if lag else None,
        },
        "timeline": stats.timeline(TARGETED + (SHEET,), bucket=15.0, lag=(run.lag_at, run.lag)),
        "notes": stats.notes,
    }
    print_report(args, report)
    connections.close_all()
    if args.keep_db:
        print(f"database {args.database} kept")
    else:
        drop_database(args.database)
    if targets["errors"]["measured"]:
        print(f"errors answered: the site's logs are kept in {logs}")
    else:
        shutil.rmtree(logs, ignore_errors=True)
    return report


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    runs = [run_once(args) for _ in range(args.repeat)]
    report = {
        "benchmark": "site_load",
        "command": "python -m bench.site_load" + (" " + " ".join(argv or sys.argv[1:])).rstrip(),
        "machine": machine(),
        "server": {
            "gunicorn_workers": args.workers,
            "gunicorn_threads": args.threads,
            "celery_concurrency": args.celery_concurrency,
            "database": "PostgreSQL (loopback)",
            "broker": "Redis (loopback)",
            "cache": args.cache or "local memory in each process",
        },
        "tables": args.tables,
        "phones": args.phones,
        "deals_hands": args.deals,
        "poll_s": args.poll,
        "duration_s": args.duration,
        "fragment_share": args.fragment_share,
        "runs": runs,
    }
    RESULTS.mkdir(exist_ok=True)
    out = (
        Path(args.out)
        if args.out
        else RESULTS / ("site_load-quick.json" if args.quick else "site_load.json")
    )
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
