"""The floor views' settings (bench.floor.settings) with the folder broker in the run's own
temporary folder (BENCH_VENUE_BROKER): the site's settings put it under var/celery/, which a
`bin/serve` running on this machine at the same time would share, and its worker would take
this run's tasks. Nothing else changes."""

import os
from pathlib import Path

from bench.floor.settings import *  # noqa: F403

_broker = os.environ.get("BENCH_VENUE_BROKER")
if _broker and CELERY_BROKER_URL == "filesystem://":  # noqa: F405
    _folders = {name: Path(_broker) / name for name in ("queue", "processed", "control")}
    for _folder in _folders.values():
        _folder.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_folders["queue"]),
        "data_folder_out": str(_folders["queue"]),
        "processed_folder": str(_folders["processed"]),
        "control_folder": str(_folders["control"]),
        "store_processed": False,
    }
