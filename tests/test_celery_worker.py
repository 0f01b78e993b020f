"""A real Celery worker process answers through the configured broker (by default the
folders under var/celery/, which need no server)."""

import time

import pytest

from config.celery import app

from .workers import celery_worker


@pytest.mark.worker
def test_worker_answers_a_ping_through_the_broker(tmp_path):
    log = tmp_path / "worker.log"
    with celery_worker(log) as (process, _queue, name):
        deadline = time.monotonic() + 60
        replies = []
        while not replies and time.monotonic() < deadline:
            assert process.poll() is None, log.read_text()
            replies = app.control.ping(destination=[name], timeout=1.0)
        assert replies == [{name: {"ok": "pong"}}], log.read_text()
