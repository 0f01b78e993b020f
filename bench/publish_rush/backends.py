"""The two stacks a rush is measured on: the database, the cache and gunicorn of each.

PostgreSQL as bench/site_load runs it (the hosted site: 5 gthread workers x 4 threads, the
cache shared on Redis); SQLite as bin/serve runs the venue laptop (its workers and threads, a
file cache, the folder broker, the access log). Both under bench.floor.settings, so that the
floor's bare views are served by the same processes as the pages.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bench.request_cost.recipes import RECIPES_ENV
from bench.site_load.stack import drop_database, flush_redis, recreate_database, server_env
from bench.venue.stack import SERVE_WORKER

SETTINGS = "bench.floor.settings"
PG_DATABASE = "bench358_rush"
#: Redis db 12: the rush's cache and broker (site_load uses 13 and 14), flushed before and after.
REDIS = "redis://127.0.0.1:6379/12"


@dataclass
class Backend:
    name: str
    env: dict[str, str]
    gunicorn: list[str] = field(default_factory=list)
    server: dict = field(default_factory=dict)

    def prepare(self) -> None:
        """An empty database (and cache), before `migrate`."""
        if self.name == "pg":
            recreate_database(PG_DATABASE)
            flush_redis(REDIS)

    def clean(self, folder: Path) -> None:
        """Drop what `prepare` made (the SQLite file goes with the run's folder)."""
        if self.name == "pg":
            drop_database(PG_DATABASE)
            flush_redis(REDIS)
        shutil.rmtree(folder / "cache", ignore_errors=True)


def backend(
    name: str,
    folder: Path,
    port: int,
    sqlite_stack: tuple[int, int] = (4, 2),
    pg_stack: tuple[int | None, int | None] = (None, None),
) -> Backend:
    """The environment and the gunicorn command of a backend, its files under `folder`;
    `sqlite_stack` is the venue laptop's gunicorn (processes, threads each), `pg_stack` the
    hosted one's (default: site_load's, 2 × cores + 1 processes of 4 threads)."""
    stack = argparse.Namespace(database=PG_DATABASE, redis=REDIS, cache=REDIS)
    env = server_env(stack, str(folder / "static"))
    env["DJANGO_SETTINGS_MODULE"] = SETTINGS
    env[RECIPES_ENV] = str(folder / "recipes.json")  # the floor's (bench.publish_rush.recipes)
    gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"]
    # As site_load: a deep backlog and a long keep-alive, so that a burst queues, not fails.
    gunicorn += ["--backlog", "2048", "--timeout", "120", "--keep-alive", "30"]
    if name == "pg":
        workers = pg_stack[0] or 2 * (os.cpu_count() or 1) + 1
        threads = pg_stack[1] or 4
        server = {"database": "PostgreSQL (loopback)", "cache": "Redis (loopback), db 12"}
    else:
        workers, threads = sqlite_stack
        env["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
        env["DJANGO_CACHE_URL"] = f"file://{folder / 'cache'}"
        env["ALLOW_LOCAL_BROKER"] = "1"
        del env["CELERY_BROKER_URL"]  # the folder broker under var/ (no request here enqueues)
        gunicorn += ["--access-logfile", str(folder / "access.log")]
        gunicorn += ["--logger-class", "config.gunicorn_logging.RedactingLogger"]
        server = {"database": "SQLite (WAL, a file)", "cache": "files", "broker": "folders"}
    # The venue's worker class as bin/serve names it: its threads beyond the working few
    # (WEB_WORKING_THREADS) hold the phones' waiting asks (config.parking).
    worker_class = "gthread" if name == "pg" else SERVE_WORKER
    gunicorn += ["--workers", str(workers), "--worker-class", worker_class]
    gunicorn += ["--threads", str(threads)]
    server.update(gunicorn_workers=workers, gunicorn_threads=threads, settings=SETTINGS)
    server.update(worker_class=worker_class, working_threads=env.get("WEB_WORKING_THREADS", 2))
    return Backend(name, env, gunicorn, server)
