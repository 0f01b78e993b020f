"""Benchmark: what the k-th confirmation of a round costs, tasks run in the process.

    .venv/bin/python -m bench.confirmations                 # 999 players, 120 confirmations
    .venv/bin/python -m bench.confirmations --players 300 --confirmations 100
    .venv/bin/python -m bench.confirmations --quick         # 99 players, 30 confirmations

An event of N players (a SQLite file in a temporary folder, Celery tasks eager, as
`manage.py simulate_event` runs them by default) gets round 1 drawn and published; K tables
are played through the scoring services (not timed), then confirmed one after the other,
each timed whole (this process's CPU time, SQLite included, and the wall clock): the
confirmation, and the standings build it queues, run on its commit. The cost of the k-th
confirmation must not grow with k (docs/performance.md, "Confirmations"): the report gives
the median CPU of the first and of the last tenth, their ratio, and how many snapshots were
stored. Writes bench/results/confirmations.json (-quick.json with --quick).
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


def setup_django(folder: Path) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'bench-confirmations.sqlite3'}"
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.DEBUG = False  # no SQL log: it would cost more than what is measured
    call_command("migrate", verbosity=0)


def run(players: int, confirmations: int, seed: int) -> dict:
    from scoring import autoplay
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register
    from tournaments.models import Round, Standings
    from tournaments.results.services import result_confirm
    from tournaments.rounds.services.rounds import round_create, round_publish

    rng = random.Random(seed)
    club = club_create(name="Bench club")
    event = event_create(
        club=club,
        name="Bench confirmations",
        ruleset="blato",
        rounds_planned=3,
        pairing_modes=["swiss"],
        seed=seed,
        actor="bench",
    )
    players_register(
        event=event, names=[f"Player {n:04d}" for n in range(1, players + 1)], checked_in=True
    )
    round_ = round_create(event=event, actor="bench")
    round_ = Round.objects.get(pk=round_.pk)
    round_publish(round_=round_, actor="bench")
    tables = list(round_.tables.select_related("game").order_by("number"))[:confirmations]
    for table in tables:
        autoplay.play(table.game, rng, actor="bench")
    before = Standings.objects.filter(event=event).count()
    seconds, cpu = [], []
    for table in tables:
        started, used = time.perf_counter(), time.process_time()
        result_confirm(table=table, actor="bench")
        cpu.append(time.process_time() - used)
        seconds.append(time.perf_counter() - started)
    stored = Standings.objects.filter(event=event).count() - before
    tenth = max(1, len(cpu) // 10)
    first, last = statistics.median(cpu[:tenth]), statistics.median(cpu[-tenth:])
    return {
        "confirmations": len(cpu),
        "snapshots_stored": stored,
        "first_tenth_median_cpu_ms": round(first * 1000, 1),
        "last_tenth_median_cpu_ms": round(last * 1000, 1),
        "last_to_first": round(last / first, 2),
        "total_cpu_s": round(sum(cpu), 2),
        "total_wall_s": round(sum(seconds), 2),
        "cpu_seconds": [round(s, 4) for s in cpu],
        "wall_seconds": [round(s, 4) for s in seconds],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.confirmations", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="99 players, 30 confirmations")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--confirmations", type=int, default=None)
    parser.add_argument("--seed", type=int, default=358)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    players = args.players or (99 if args.quick else 999)
    wanted = args.confirmations or (30 if args.quick else 120)
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        setup_django(Path(folder))
        figures = run(players, min(wanted, players // 3), args.seed)
    report = {
        "benchmark": "confirmations",
        "players": players,
        "seed": args.seed,
        "python": platform.python_version(),
        "machine": output.machine(),
        "nproc": os.cpu_count(),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
        **figures,
    }
    print(
        f"{players} players, {figures['confirmations']} confirmations, CPU a confirmation: "
        f"first tenth {figures['first_tenth_median_cpu_ms']} ms, last tenth "
        f"{figures['last_tenth_median_cpu_ms']} ms (x{figures['last_to_first']}); "
        f"{figures['snapshots_stored']} snapshots stored; {figures['total_cpu_s']} CPU s, "
        f"{figures['total_wall_s']} s in all"
    )
    output.write(report, f"confirmations{'-quick' if args.quick else ''}.json", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
