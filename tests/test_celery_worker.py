"""A real Celery worker process answers through the configured broker (by default the
folders under var/celery/, which need no server)."""

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app

BASE_DIR = Path(__file__).resolve().parent.parent


@pytest.mark.worker
def test_worker_answers_a_ping_through_the_broker(tmp_path):
    queue = f"probe-{uuid.uuid4().hex[:12]}"
    name = f"{queue}@localhost"
    log = tmp_path / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
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
                # its own queue, so it takes no task meant for another worker
                "--queues",
                queue,
                "--hostname",
                name,
                "--loglevel",
                "INFO",
            ],
            cwd=BASE_DIR,
            env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        replies = []
        while not replies and time.monotonic() < deadline:
            assert worker.poll() is None, log.read_text()
            replies = app.control.ping(destination=[name], timeout=1.0)
        assert replies == [{name: {"ok": "pong"}}], log.read_text()
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        control = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}).get("control_folder")
        if control:  # the folder broker keeps one file per exchange; drop the probe's
            (Path(control) / f"{queue}.exchange").unlink(missing_ok=True)
