"""What Django's start-up alone must connect: a fresh process that imports no task module by
hand still finds the tasks by name (the services enqueue by name) and has the receivers that
move the standings when a result changes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import django
django.setup()
from config.celery import app
from scoring.signals import game_confirmed, game_reopened
names = set(app.tasks)
for task in ("build_standings", "pair_round", "prerender_round", "rate_game"):
    assert f"tournaments.tasks.{task}" in names, task
assert game_confirmed.receivers and game_reopened.receivers
print("ready")
"""


def test_start_up_registers_the_tasks_and_connects_the_receivers():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_DEBUG": "1"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "ready" in run.stdout
