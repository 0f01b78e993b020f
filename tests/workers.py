"""A real Celery worker process for tests: on a queue of its own, stopped afterwards."""

import os
import subprocess
import sys
import uuid
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def celery_worker(log: Path, env: dict[str, str] | None = None, queue: str | None = None):
    """Yields (process, queue, hostname). The queue is unique unless given (to start a worker
    again on the queue of one that was stopped), so this worker takes no task meant for
    another worker and no other worker takes its tasks."""
    queue = queue or f"test-{uuid.uuid4().hex[:12]}"
    hostname = f"{queue}-{uuid.uuid4().hex[:6]}@localhost"
    with log.open("a") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--without-heartbeat",
                "--without-mingle",
                "--without-gossip",
                "--queues",
                queue,
                "--hostname",
                hostname,
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **(env or {})},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield process, queue, hostname
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        control = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}).get("control_folder")
        if control:  # the folder broker keeps one file per exchange; drop this worker's
            (Path(control) / f"{queue}.exchange").unlink(missing_ok=True)
