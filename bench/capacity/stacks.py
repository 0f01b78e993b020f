"""The two stacks measured, each in a temporary folder of its own:

- "venue": bin/serve's (bench.venue.stack: gunicorn with bin/serve's workers and gthread
  threads, the worker with --beat, SQLite in WAL mode, the file cache, the folder broker);
- "pg": the deploy stack (docs/deploy.md) on this machine: gunicorn as deploy/358-web.service
  runs it (its sync workers, as many), the same Celery worker, on PostgreSQL at
  127.0.0.1:5432 (a database of its own, dropped after) with the cache and the broker on
  Redis at 127.0.0.1:6379 (databases 13 and 14, flushed).

Both run under bench.venue.settings (the site plus the floor views), with
$BENCH_FLOOR_RECIPES naming the run's recipes.
"""

from __future__ import annotations

import re
import threading
from argparse import Namespace
from pathlib import Path

from bench.request_cost.recipes import RECIPES_ENV
from bench.site_load import stack as site_stack
from bench.site_load.cpu import Group, named, take_snapshot, tree
from bench.venue import stack as venue_stack
from config import gunicorn_venue

WEB_UNIT = site_stack.ROOT / "deploy" / "358-web.service"
PG_DATABASE = "bench358_capacity"
#: The site's application with the cost pass's bare path (bench/capacity/wsgi.py).
WSGI = "bench.capacity.wsgi"
SYNC_WORKER = "config.gunicorn_workers.SyncWorker"
#: Seconds granian keeps an idle connection, at least (its own limit, not a flag: a
#: connection idle 30 s still answered, one idle 45 s was closed); above every poll's period.
GRANIAN_KEEPS = 30.0
REDIS_CACHE = "redis://127.0.0.1:6379/13"
REDIS_BROKER = "redis://127.0.0.1:6379/14"


def pg_missing() -> str | None:
    """Why the PostgreSQL stack cannot run here, or None when it can."""
    try:
        import psycopg

        psycopg.connect(f"{site_stack.PG}/postgres", connect_timeout=3).close()
    except Exception as error:  # noqa: BLE001 - any failure means "absent", said in words
        return f"PostgreSQL at 127.0.0.1:5432 (user postgres) is not there: {error}"
    try:
        import redis

        redis.Redis.from_url(REDIS_CACHE, socket_connect_timeout=3).ping()
    except Exception as error:  # noqa: BLE001
        return f"Redis at 127.0.0.1:6379 is not there: {error}"
    return None


def environment(name: str, folder: Path) -> dict[str, str]:
    """The environment of migrate, collectstatic, gunicorn, the worker and this process."""
    env = venue_stack.venue_env(folder)
    if name == "pg":
        options = Namespace(cache=REDIS_CACHE, database=PG_DATABASE, redis=REDIS_BROKER)
        env = site_stack.server_env(options, str(folder / "static"))
        env.update(
            DJANGO_SETTINGS_MODULE=venue_stack.SETTINGS,
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        )
    env[RECIPES_ENV] = str(folder / "recipes.json")
    return env


def prepare(name: str, env: dict[str, str]) -> None:
    """A fresh database, migrated; static files collected."""
    if name == "pg":
        site_stack.recreate_database(PG_DATABASE)
        site_stack.flush_redis(REDIS_CACHE)
        site_stack.flush_redis(REDIS_BROKER)
    venue_stack.prepare(env)


def clean(name: str) -> None:
    if name == "pg":
        from django.db import connections

        connections.close_all()
        site_stack.drop_database(PG_DATABASE)
        site_stack.flush_redis(REDIS_CACHE)
        site_stack.flush_redis(REDIS_BROKER)


def flags(name: str, sync_workers: int | None = None, keep_alive: float | None = None,
          server: str | None = None) -> dict[str, str]:  # fmt: skip
    """gunicorn's workers, threads and worker class, and the Celery worker's pool: bin/serve's
    (bench.venue.stack.serve_flags, with its keep-alive); on "pg", gunicorn's as the deploy's
    web unit says (sync workers close after every answer); with `sync_workers`, a trial: that
    many sync workers (one request a process at a time, nothing held) on either stack; with
    `keep_alive`, a trial of that keep-alive (seconds); with `server` "granian", a trial of
    that server in gunicorn's place (bench.venue.stack.granian_command). The application: the
    site's, with the bare path of the cost pass's baseline (WSGI)."""
    found = venue_stack.serve_flags() | {"wsgi": WSGI}
    if name == "pg":
        unit = WEB_UNIT.read_text()
        workers = re.search(r"--workers (\d+)", unit)
        worker_class = re.search(r"--worker-class (\S+)", unit)
        if workers is None or worker_class is None:
            raise RuntimeError(f"{WEB_UNIT} no longer says its workers: update {__name__}")
        found.update(workers=workers.group(1), threads="1", worker_class=worker_class.group(1))
    if sync_workers:
        found.update(workers=str(sync_workers), threads="1", worker_class=SYNC_WORKER)
    if keep_alive is not None:
        found["keep_alive"] = f"{keep_alive:g}"
    if server == venue_stack.GRANIAN:
        found["server"] = server
    return found


def keep_alive(flags: dict[str, str]) -> float:
    """Seconds the stack's gunicorn keeps an idle connection: none on sync workers (they
    close after every answer), else the flags' trial or bin/serve's (config/gunicorn_venue)."""
    if flags.get("server") == venue_stack.GRANIAN:
        return GRANIAN_KEEPS
    if flags.get("worker_class") == SYNC_WORKER:
        return 0.0
    return float(flags.get("keep_alive") or gunicorn_venue.keepalive)


def start(folder: Path, env: dict[str, str], flags: dict[str, str]):
    """gunicorn and the worker as bin/serve starts them (bench.venue.stack.start), with
    `flags` (see flags)."""
    return venue_stack.start(folder, env, flags)


def server_groups(name: str, processes) -> dict[str, Group]:
    """The processes whose CPU is the server's: gunicorn and the worker, and on the
    PostgreSQL stack the database's processes (postgres_of) and Redis (the whole server)."""
    groups = {
        "gunicorn": tree(processes.running["gunicorn"].pid),
        "worker": tree(processes.running["worker"].pid),
    }
    if name == "pg":
        groups |= {"postgres": postgres_of(PG_DATABASE), "redis": named("redis-server")}
    return groups


def postgres_of(database: str) -> Group:
    """PostgreSQL's processes working for `database`: its connections' backends (their
    command line names the database and the client) and the server's own (the postmaster,
    WAL writer, checkpointer...: shared, but on a quiet machine this run's work); not the
    backends of other databases, which other work on the machine may be using."""
    all_postgres = named("postgres")

    def members(processes) -> set[int]:
        found = set()
        for pid in all_postgres(processes):
            try:
                line = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if works_for(line, database):
                found.add(pid)
        return found

    return members


def works_for(command_line: str, database: str) -> bool:
    """Whether a PostgreSQL process (by its command line) counts for `database`: a backend
    ("postgres: user database client(port) state") only when its database is this one."""
    backend = "(" in command_line or "[local]" in command_line
    return not backend or f" {database} " in command_line


def cpu_ticks(groups: dict[str, Group]) -> dict[str, dict[tuple[int, int], int]]:
    """Each group's processes now: (pid, start time) -> utime + stime in clock ticks."""
    snapshot = take_snapshot()
    return {
        name: {
            (pid, snapshot.processes[pid].start): snapshot.processes[pid].ticks
            for pid in group(snapshot.processes)
        }
        for name, group in groups.items()
    }


class Tally:
    """Each group's processes read every `every` seconds while a phase runs, each one's last
    reading kept: `finish()` answers what `cpu_ticks` would, plus the processes that ended
    meanwhile at their last reading. Read only at a phase's ends, a process that ended within
    it lost all it used there: the deploy stack's database connections are replaced when
    CONN_MAX_AGE (60 s) runs out, so each phase lost its three backends' CPU for as long as
    it happened to run before the change (a floor phase measured 1.25 s of PostgreSQL CPU
    where its backends used 4.6). Now at most `every` seconds of one is lost."""

    def __init__(self, groups: dict[str, Group], every: float = 1.0) -> None:
        self.groups, self.every = groups, every
        self.seen: dict[str, dict[tuple[int, int], int]] = {name: {} for name in groups}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cpu-tally", daemon=True)

    def start(self) -> dict[str, dict[tuple[int, int], int]]:
        """The first reading (what the phase's CPU is counted from); then reads meanwhile."""
        first = cpu_ticks(self.groups)
        self._keep(first)
        self._thread.start()
        return first

    def _keep(self, reading: dict[str, dict[tuple[int, int], int]]) -> None:
        for name, processes in reading.items():
            self.seen[name].update(processes)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            self._keep(cpu_ticks(self.groups))

    def finish(self) -> dict[str, dict[tuple[int, int], int]]:
        """The last reading, with every process seen since `start` at its latest."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._keep(cpu_ticks(self.groups))
        return {name: dict(processes) for name, processes in self.seen.items()}


def ticks_between(before: dict[tuple[int, int], int], after: dict[tuple[int, int], int]) -> int:
    """A group's CPU between two readings: each process's growth; a process born between
    them counts all it used; one gone since (a closed database connection) loses what it
    used after the first reading, never subtracted (a pid reused is another process)."""
    return sum(ticks - before.get(process, 0) for process, ticks in after.items())
