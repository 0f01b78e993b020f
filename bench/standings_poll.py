"""Benchmark: the CPU of one standings fragment poll, its kept ETag fresh and expired.

    .venv/bin/python -m bench.standings_poll                 # 1,260 players, 300 polls a case
    .venv/bin/python -m bench.standings_poll --quick         # 99 players, 50 polls

The venue laptop's stack in one process: a SQLite file and the file cache
(``DJANGO_CACHE_URL=file://``, as bin/serve sets it), the folder already holding KEPT_SHEETS
entries of a few KB, as an evening's kept score sheets fill it. An event of N players has round
1 played and confirmed and its standings built once (not timed). Then each case sends the same
poll (`GET /events/<slug>/standings/live/` with the phone's ETag, answered 304) through the
whole Django stack (test client) and takes this process's CPU time around it:

- **fresh**: the ETag's small key is in the cache (within public_standings.FRESH_SECONDS);
- **expired**: the key is deleted before each poll (not timed), so the poll asks the database
  again and keeps its answer anew: what one poll in each process does every FRESH_SECONDS.

Writes bench/results/standings_poll.json (-quick.json with --quick; --out another file).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench import output

#: Entries put in the file cache first, as an evening's kept sheets (Django's default limit is
#: 300: a folder that full culls on every write).
KEPT_SHEETS = 400


def setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench-poll.sqlite3'}"
    os.environ["DJANGO_CACHE_URL"] = f"file://{folder / 'cache'}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DEBUG = False
    call_command("migrate", verbosity=0)


def make_event(players: int, seed: int):
    """N players, round 1 played and confirmed, its standings built once."""
    from scoring import autoplay
    from tournaments.common import queue
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register
    from tournaments.models import Round
    from tournaments.results.services import result_confirm, standings_build
    from tournaments.rounds.services.rounds import round_create, round_publish

    rng = random.Random(seed)
    event = event_create(
        club=club_create(name="Bench club"),
        name="Bench poll",
        ruleset="blato",
        rounds_planned=3,
        pairing_modes=["swiss"],
        seed=seed,
        actor="bench",
    )
    players_register(
        event=event, names=[f"Player {n:04d}" for n in range(1, players + 1)], checked_in=True
    )
    round_ = Round.objects.get(pk=round_create(event=event, actor="bench").pk)
    round_publish(round_=round_, actor="bench")
    enqueue = queue.enqueue_now
    queue.enqueue_now = lambda name, *args: name != "build_standings" and enqueue(name, *args)
    try:  # the builds of each confirmation are not what is measured: one build after them
        for table in round_.tables.select_related("game").order_by("number"):
            autoplay.play(table.game, rng, actor="bench")
            result_confirm(table=table, actor="bench")
    finally:
        queue.enqueue_now = enqueue
    standings_build(event_id=event.pk)
    return event


def fill_cache(count: int) -> None:
    from django.core.cache import cache

    for n in range(count):
        cache.set(f"bench-sheet:{n}", os.urandom(2048).hex(), 600)


def measure(client, path: str, polls: int, expire) -> dict:
    first = client.get(path)
    assert first.status_code == 200, first.status_code
    tag = first["ETag"]
    cpu = []
    for _ in range(polls):
        if expire is not None:
            expire()
        used = time.process_time()
        response = client.get(path, HTTP_IF_NONE_MATCH=tag)
        cpu.append(time.process_time() - used)
        assert response.status_code == 304, response.status_code
    return {
        "median_cpu_ms": round(statistics.median(cpu) * 1000, 3),
        "mean_cpu_ms": round(statistics.fmean(cpu) * 1000, 3),
        "polls": polls,
        "html_bytes": len(first.content),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.standings_poll", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="99 players, 50 polls")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--polls", type=int, default=None)
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    players = args.players or (99 if args.quick else 1260)
    polls = args.polls or (50 if args.quick else 300)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        from django.core.cache import cache
        from django.test import Client
        from django.urls import reverse

        event = make_event(players, args.seed)
        fill_cache(KEPT_SHEETS)
        client = Client()
        path = reverse("tournaments:standings_live", args=[event.slug])
        key = f"standings-live:{event.slug}:en"
        cases = {
            "fresh": measure(client, path, polls, None),
            "expired": measure(client, path, polls, lambda: cache.delete(key)),
        }
        from django.core.cache import caches

        backend = type(caches["default"]).__name__
    report = {
        "benchmark": "standings_poll",
        "players": players,
        "cache": backend,
        "kept_sheets": KEPT_SHEETS,
        "python": platform.python_version(),
        "machine": output.machine(),
        "nproc": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        "cases": cases,
    }
    for name, case in cases.items():
        print(
            f"{players} players, {backend}, key {name}: median {case['median_cpu_ms']} ms CPU, "
            f"mean {case['mean_cpu_ms']} ms, of {case['polls']} polls (304)"
        )
    output.write(report, f"standings_poll{'-quick' if args.quick else ''}.json", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
