"""The venue laptop's processes, as bin/serve starts them, in a temporary folder.

gunicorn runs with bin/serve's own settings (config/gunicorn_venue.py) and the Celery worker
with bin/serve's pool, so the benchmark measures what the command starts, and follows it when
it changes."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import sys
from pathlib import Path

from bench.site_load.stack import ROOT, Processes, free_port, manage, wait_until_serving
from config import gunicorn_venue

SERVE = ROOT / "bin" / "serve"
SETTINGS = "bench.venue.settings"  # bench.floor.settings, the broker in the run's folder
RESTARTED = "bench.venue: the worker stopped; starting it again"
SERVE_WORKER = gunicorn_venue.worker_class
#: bin/serve's gunicorn settings (keep-alive, connections, logger), given to every gunicorn
#: started here; the flags given beside it (processes, threads, worker class) win.
GUNICORN_CONFIG = "python:config.gunicorn_venue"
#: The flags' "server" for the trial of another WSGI server (granian_command).
GRANIAN = "granian"
GRANIAN_BACKLOG = 16384


def serve_flags() -> dict[str, str]:
    """gunicorn's processes (their default) and threads, from bin/serve's gunicorn settings
    (config/gunicorn_venue.py), and the Celery worker's pool, from bin/serve."""
    serve = SERVE.read_text()
    if GUNICORN_CONFIG not in serve:
        raise RuntimeError(f"bin/serve no longer runs gunicorn with {GUNICORN_CONFIG}")
    pool = re.search(r"--pool=(\w+)", serve)
    if pool is None:
        raise RuntimeError("bin/serve no longer says its worker's pool: update " + __name__)
    return {
        "workers": str(gunicorn_venue.WORKERS),
        "threads": str(gunicorn_venue.threads),
        "pool": pool.group(1),
    }


def venue_env(folder: Path) -> dict[str, str]:
    """bin/serve's environment (production settings, plain HTTP, the folder broker and a
    file cache), with the database, the broker, the cache and static files in `folder`."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "DATABASE_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE=SETTINGS,
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_HSTS_SECONDS="0",
        DJANGO_HSTS_PRELOAD="0",
        ALLOW_LOCAL_BROKER="1",
        DJANGO_CACHE_URL=f"file://{folder / 'cache'}",
        DJANGO_STATIC_ROOT=str(folder / "static"),
        BENCH_VENUE_BROKER=str(folder / "celery"),
        DJANGO_LOG_LEVEL="WARNING",
    )
    return env


def prepare(env: dict[str, str]) -> None:
    """bin/serve's migrate and collectstatic, on the run's fresh database file."""
    manage(env, "migrate")
    manage(env, "collectstatic")


def gunicorn_command(wsgi: str, port: int, flags: dict[str, str], folder: Path) -> list[str]:
    """bin/serve's gunicorn (config/gunicorn_venue.py), with the flags' processes and threads."""
    gunicorn = [sys.executable, "-m", "gunicorn", wsgi, "-c", GUNICORN_CONFIG]
    gunicorn += ["--bind", f"127.0.0.1:{port}"]
    # bin/serve's worker class (its threads beyond the working few hold polls: config.parking),
    # unless the flags name another (bench.capacity's PostgreSQL stack: the deploy's).
    worker_class = flags.get("worker_class", SERVE_WORKER)
    gunicorn += ["--workers", flags["workers"], "--worker-class", worker_class]
    gunicorn += ["--threads", flags["threads"], "--access-logfile", str(folder / "access.log")]
    if flags.get("keep_alive"):
        gunicorn += ["--keep-alive", flags["keep_alive"]]
    return gunicorn


def granian_command(wsgi: str, port: int, flags: dict[str, str]) -> list[str]:
    """A trial, not what bin/serve runs: granian (a WSGI server whose HTTP is Rust) serving the
    same application, as many processes, each running the application on as many threads as
    bin/serve's gate lets work at once (nothing is held: the application's parking needs
    gunicorn's worker to say its threads), with an access line a request as gunicorn writes.
    Its backlog is raised because granian takes at most backlog ÷ processes requests into a
    process at once (256 at the default 1,024), and a kept connection beyond that waited
    unanswered: the first trial's phones timed out at 300 tables."""
    from django.conf import settings  # the bench process's: the same WEB_WORKING_THREADS

    working = str(min(int(flags["threads"]), settings.WORKING_THREADS))
    return [
        sys.executable, "-m", "granian", f"{wsgi}:application", "--interface", "wsgi",
        "--host", "127.0.0.1", "--port", str(port), "--workers", flags["workers"],
        "--blocking-threads", working, "--backlog", str(GRANIAN_BACKLOG),
        "--http", "1", "--no-ws", "--access-log",
    ]  # fmt: skip


def start(folder: Path, env: dict[str, str], flags: dict[str, str]) -> tuple[Processes, str]:
    """gunicorn and the worker with bin/serve's flags; the base URL once /healthz answers."""
    processes = Processes(folder)
    port = free_port()
    wsgi = flags.get("wsgi", "config.wsgi")
    if flags.get("server") == GRANIAN:
        web = granian_command(wsgi, port, flags)
    else:
        web = gunicorn_command(wsgi, port, flags, folder)
    worker = [sys.executable, "-m", "celery", "-A", "config", "worker", "--beat"]
    worker += [f"--pool={flags['pool']}", "--loglevel=warning"]
    worker += ["--schedule", str(folder / "celerybeat-schedule")]
    # Started again when it stops, as bin/serve does (its comment says why); each start is
    # logged, and the report counts them.
    again = f'while :; do {shlex.join(worker)}; echo "{RESTARTED}"; sleep 1; done'
    processes.start("worker", ["sh", "-c", again], env)
    processes.start("gunicorn", web, env)
    base_url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(base_url, processes)
    except BaseException:
        processes.stop()
        raise
    return processes, base_url


def worker_restarts(folder: Path) -> dict:
    """How many times the worker stopped and was started again, and the errors its log ends
    tracebacks with (why it stopped)."""
    log = folder / "worker.log"
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    errors = [line for line in lines if re.match(r"^[\w.]+(Error|Exception): ", line)]
    return {"count": lines.count(RESTARTED), "errors": errors[:10]}
