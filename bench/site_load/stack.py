"""The processes: PostgreSQL, Redis, gunicorn and the Celery worker, started and stopped."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from .cpu import parse_stat

ROOT = Path(__file__).resolve().parent.parent.parent
PG = "postgres://postgres@127.0.0.1:5432"


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
                    seconds += parse_stat(Path(f"/proc/{pid}/stat").read_text()).ticks / tick
                except OSError:
                    continue
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
            seconds += parse_stat(Path(f"/proc/{pid}/stat").read_text()).ticks / tick
        except OSError:
            continue
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
