"""One backend's rush, from an empty database to its figures; everything it starts stops."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.output import load_average
from bench.site_load.measure import Stats, percentile
from bench.site_load.stack import ROOT, Processes, free_port, manage, wait_until_serving

from .backends import backend
from .held import HELD, HELD_LIVE, HELD_POLL, PUBLISH_POLL, run_held, run_held_publish
from .load import FLOOR, ROUND, SEAT_LINK, SEAT_ME, SEAT_NAME, SITE, Rush, run_phase, visits
from .waiting import (
    NEXT,
    NEXT_POLL,
    STANDINGS_POLL,
    WAITING,
    etag_of,
    run_next,
    run_waiting,
)

TARGET_P95_MS = 150.0


def seed(env: dict[str, str], *flags: str) -> dict:
    """bench.publish_rush.seed's answer: the event made (round 1 a draft), or its round 1
    published, through tournaments.services in a process with this backend's settings; its
    Celery tasks (pairing, the first standings, the publish's pre-render) run eagerly there."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.publish_rush.seed", *flags],
        cwd=ROOT,
        env={**env, "CELERY_TASK_ALWAYS_EAGER": "1"},
        check=True,
        stdout=subprocess.PIPE,
    )
    return json.loads(done.stdout)


def warm_up(base_url: str, urls: list[str]) -> None:
    """Every gunicorn process has served a few pages (its URLs and templates loaded) before
    the rush, as a site does that has been up all evening."""
    import httpx

    with httpx.Client(base_url=base_url, timeout=60) as client:
        for _ in range(12):
            for url in urls:
                client.get(url).raise_for_status()


def figures(stats: Stats, names: tuple[str, ...]) -> dict:
    """count, p50/p95/p99 and errors of the requests of `names` together."""
    seconds = sorted(s for name in names for s in stats.series[name].seconds)
    errors = sum(sum(stats.series[name].errors.values()) for name in names)
    return {
        "count": len(seconds),
        "p50_ms": round(percentile(seconds, 50) * 1000, 1),
        "p95_ms": round(percentile(seconds, 95) * 1000, 1),
        "p99_ms": round(percentile(seconds, 99) * 1000, 1),
        "errors": errors,
    }


def measured(processes: Processes, run) -> dict:
    """Run the coroutine `run()` makes, with the wall time, load and CPU of its phase."""
    before = load_average()
    cpu = processes.cpu_seconds()["gunicorn"]
    own = resource.getrusage(resource.RUSAGE_SELF)
    result = asyncio.run(run())
    own_after = resource.getrusage(resource.RUSAGE_SELF)
    figures = result if isinstance(result, dict) else {"lasted_s": round(result, 2)}
    return figures | {
        "load_average": {"before": before, "after": load_average()},
        "cpu_seconds": {
            "gunicorn": round(processes.cpu_seconds()["gunicorn"] - cpu, 2),
            "load_generator": round(
                own_after.ru_utime + own_after.ru_stime - own.ru_utime - own.ru_stime, 1
            ),
        },
    }


def summed(before: dict | None, done: dict) -> dict:
    """A waiting phase's figures over its repeats: polls, seconds and CPU added up."""
    if before is None:
        return done | {"repeats": 1}
    cpu = {
        key: round(before["cpu_seconds"][key] + done["cpu_seconds"][key], 2)
        for key in done["cpu_seconds"]
    }
    added = {
        key: round(before[key] + done[key], 1)
        for key in ("phone_seconds", "held_answers")
        if key in done
    }
    return (
        before
        | added
        | {
            "polls": before["polls"] + done["polls"],
            "lasted_s": round(before["lasted_s"] + done["lasted_s"], 2),
            "cpu_seconds": cpu,
            "repeats": before["repeats"] + 1,
            "load_average": {
                "before": before["load_average"]["before"],
                "after": done["load_average"]["after"],
            },
        }
    )


def per_phone_minute(phase: dict) -> float:
    """gunicorn CPU ms per minute of one waiting phone: the phase's CPU over its phones'
    time (a held phase says its own phone-seconds; a polling one lasts for all of them)."""
    phone_seconds = phase.get("phone_seconds") or phase["phones"] * phase["lasted_s"]
    return round(phase["cpu_seconds"]["gunicorn"] * 1000 * 60 / phone_seconds, 2)


def waiting_cost(phases: dict) -> dict:
    """The waiting phones' figures side by side: gunicorn CPU of each phase, per poll and
    per phone-minute, and the next-seat phases' over the standings phase's."""
    standings, nexts = phases["standings_wait"], phases["next_wait"]
    cpu_s = standings["cpu_seconds"]["gunicorn"]
    cpu_n = nexts["cpu_seconds"]["gunicorn"]

    def per_poll(phase: dict, cpu: float) -> float:
        return round(cpu * 1000 / phase["count"], 2) if phase["count"] else float("nan")

    held = {}
    if "held_wait" in phases:
        mine, theirs = per_phone_minute(phases["held_wait"]), per_phone_minute(standings)
        held = {
            "held_polls": phases["held_wait"]["polls"],
            "held_answers": phases["held_wait"]["held_answers"],
            "held_cpu_s": phases["held_wait"]["cpu_seconds"]["gunicorn"],
            "held_cpu_ms_per_phone_minute": mine,
            "ratio_held_per_phone_minute": round(mine / theirs, 2) if theirs else float("nan"),
            "ratio_held_to_next_per_phone_minute": round(mine / per_phone_minute(nexts), 2),
        }
    return held | {
        "standings_cpu_ms_per_phone_minute": per_phone_minute(standings),
        "next_cpu_ms_per_phone_minute": per_phone_minute(nexts),
        "phones": standings["phones"],
        "seconds": standings["lasted_s"],
        "standings_poll_every_s": standings["poll_seconds"],
        "next_poll_every_s": nexts["poll_seconds"],
        "standings_polls": standings["count"],
        "next_polls": nexts["count"],
        "standings_cpu_s": cpu_s,
        "next_cpu_s": cpu_n,
        "standings_cpu_ms_per_poll": per_poll(standings, cpu_s),
        "next_cpu_ms_per_poll": per_poll(nexts, cpu_n),
        "standings_p95_ms": standings["p95_ms"],
        "next_p95_ms": nexts["p95_ms"],
        "ratio_cpu": round(cpu_n / cpu_s, 2) if cpu_s else float("nan"),
    }


def rush_once(args: argparse.Namespace, name: str) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a held connection a phone
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    folder = Path(tempfile.mkdtemp(prefix="bench358-rush-"))
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    sqlite_stack = (args.sqlite_workers, args.sqlite_threads)
    stack = backend(name, folder, port, sqlite_stack, (args.pg_workers, args.pg_threads))
    print(f"\n== {name}: load average {load_average()}; files in {folder}", flush=True)
    stack.prepare()
    processes = Processes(folder)
    kept = False
    try:
        manage(stack.env, "migrate")
        manage(stack.env, "collectstatic")
        made = time.monotonic()
        event = seed(stack.env, "--players", str(args.players), "--seed", str(args.seed))
        print(f"event {event['slug']}: round 1 paired in {time.monotonic() - made:.1f} s")
        processes.start("gunicorn", stack.gunicorn, stack.env)
        wait_until_serving(base_url, processes)
        slug = event["slug"]
        # Before the publish, as the room waits for it: the seat page reads the event's map
        # as it stands, which the publish then moves (the rush starts cold, as one does).
        pages = ["/healthz", f"/events/{slug}/", f"/events/{slug}/seat/"]
        polls = [f"/events/{slug}/standings/live/", f"/events/{slug}/next/version/"]
        warm_up(base_url, [*pages, f"/events/{slug}/standings/", *polls])
        stats = Stats()
        stats.declare(FLOOR, 204)
        for page in SITE:
            stats.declare(page, 200)
        for page in WAITING:
            stats.declare(page, 200, 304)
        for page in NEXT:
            stats.declare(page, 200)
        for poll in (HELD_POLL, PUBLISH_POLL):
            stats.declare(poll, 200, 304)
        stats.declare(HELD_LIVE, 200)
        held = args.held and name == "sqlite"  # only the venue's server holds asks
        rush = Rush("127.0.0.1", port, slug, event["event_id"], event["round"], stats)
        # The phones waiting for the publish: on the standings page, then on "My next seat",
        # in turn `--wait-repeat` times (a shared machine's load drifts), the figures summed.
        phases = {}
        kinds = [("standings_wait", STANDINGS_POLL), ("next_wait", NEXT_POLL)]
        kinds += [("held_wait", HELD_POLL)] if held else []
        known = asyncio.run(etag_of(rush, f"/events/{slug}/next/version/"))
        for repeat in range(args.wait_repeat):
            for phase, poll in kinds:
                time.sleep(args.pause)
                done = measured(
                    processes,
                    lambda poll=poll, repeat=repeat: (
                        run_held(rush, args.players, args.wait_seconds, args.seed + repeat, known)
                        if poll == HELD_POLL
                        else run_waiting(
                            rush,
                            poll,
                            args.players,
                            args.wait_seconds,
                            args.seed + repeat,
                            args.next_poll_seconds,
                        )
                    ),
                )
                print(f"{phase} {repeat + 1}: {done}", flush=True)
                phases[phase] = summed(phases.get(phase), done)
        made = time.monotonic()

        def publish() -> dict:
            return seed(stack.env, "--publish", str(event["event_id"]))

        if held:  # the phones held when the round comes out: how soon each sees it
            time.sleep(args.pause)
            phases["held_publish"] = measured(
                processes,
                lambda: run_held_publish(rush, event["phones"], known, publish, args.seed),
            )
            event.update(phases["held_publish"].pop("published"))
            print(f"held_publish: {phases['held_publish']}", flush=True)
        else:
            event.update(publish())
        published_s = round(time.monotonic() - made, 2)
        print(f"{len(event['players'])} players, round 1 published in {published_s} s", flush=True)
        print(f"the floor's recipes (statements): {event.get('recipes')}", flush=True)
        warm_up(base_url, [f"/bench-floor/replay/{name}/" for name in event.get("recipes", {})])

        rng = random.Random(args.seed)
        for phase, site in (("floor", False), ("site", True)):
            time.sleep(args.pause)
            plan = visits(event["players"], args.requests, args.seconds, rng)
            phases[phase] = measured(
                processes,
                lambda plan=plan, site=site: run_phase(rush, plan, site, args.seed),
            )
            print(f"{phase}: {phases[phase]}", flush=True)
        # The waiting phones once the round is out: the version moved, each fetches its part.
        time.sleep(args.pause)
        plan = visits(event["players"], args.requests, args.seconds, rng)
        phases["next"] = measured(processes, lambda: run_next(rush, plan, known))
        print(f"next: {phases['next']}", flush=True)
        processes.check()
    except BaseException:
        kept = True
        print(f"failed: files and logs kept in {folder}", file=sys.stderr)
        raise
    finally:
        processes.stop()
        if not kept:
            stack.clean(folder)

    endpoints = {n: s.summary() for n, s in stats.series.items() if s.seconds}
    for summary in endpoints.values():
        summary.pop("by_status", None)
    floor, site = figures(stats, (FLOOR,)), figures(stats, SITE)
    phases["floor"].update(floor)
    phases["site"].update(site)
    seat = figures(stats, (SEAT_NAME, SEAT_LINK, SEAT_ME))
    for phase, names in (
        ("standings_wait", (STANDINGS_POLL,)),
        ("next_wait", (NEXT_POLL,)),
        ("held_wait", (HELD_POLL,)),
        ("held_publish", HELD),
    ):
        if phase in phases:
            phases[phase].update(figures(stats, names))
    phases["next"].update(figures(stats, NEXT))
    waiting = waiting_cost(phases)
    targets = {
        "errors": {"target": 0, "measured": floor["errors"] + site["errors"]},
        **{
            f"p95 {label}": {
                "target_ms": TARGET_P95_MS,
                "measured_ms": measured,
                "met": measured < TARGET_P95_MS,
            }
            for label, measured in (
                ("site (all pages)", site["p95_ms"]),
                ("where do I sit", seat["p95_ms"]),
                ("round page", endpoints.get(ROUND, {}).get("p95_ms", float("nan"))),
                ("my next seat, after the publish", phases["next"]["p95_ms"]),
            )
        },
        "waiting phones: next-seat polls cost at most the standings polls": {
            "target": 1.0,
            "measured": waiting["ratio_cpu"],
            "met": waiting["ratio_cpu"] <= 1.0,
        },
    }
    for phase in ("standings_wait", "next_wait", "held_wait", "held_publish", "next"):
        targets["errors"]["measured"] += phases.get(phase, {}).get("errors", 0)
    targets["errors"]["met"] = targets["errors"]["measured"] == 0
    report = {
        "server": stack.server,
        "players": len(event["players"]),
        "published_s": published_s,
        "floor_recipes_statements": event.get("recipes"),
        "phases": phases,
        "endpoints": endpoints,
        "where_do_i_sit": seat,
        "waiting": waiting,
        "ratio_site_p95_to_floor_p95": round(site["p95_ms"] / floor["p95_ms"], 2),
        "targets": targets,
        # Per second of both phases: requests started and their p95 (a queue that grows
        # from the start is capacity; one that drains after the first seconds is cold start).
        "timeline": stats.timeline((FLOOR, *SITE, *NEXT), bucket=1.0),
        "notes": stats.notes,
    }
    print_backend(name, report)
    if stats.notes or targets["errors"]["measured"]:
        kept_logs = Path(tempfile.mkdtemp(prefix="bench358-rush-logs-"))
        for log in folder.glob("*.log"):
            shutil.copy(log, kept_logs)
        print(f"errors or notes: the site's logs are kept in {kept_logs}")
    shutil.rmtree(folder, ignore_errors=True)
    return report


def print_backend(name: str, report: dict) -> None:
    print(f"\n{name}: {report['players']} players; {report['server']}")
    print(f"{'endpoint':<48} {'count':>6} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}  errors")
    rows = [*report["endpoints"].items(), ("where do I sit (all three)", report["where_do_i_sit"])]
    rows += [(f"phase {phase}", figures) for phase, figures in report["phases"].items()]
    for label, s in rows:
        print(
            f"{label:<48} {s['count']:>6} {s['p50_ms']:>7} {s['p95_ms']:>7} {s['p99_ms']:>7}"
            f"  {s['errors']} {s.get('errors_by_status') or ''}"
        )
    for phase, figures in report["phases"].items():
        print(
            f"{phase}: lasted {figures['lasted_s']} s, load average {figures['load_average']},"
            f" CPU s {figures['cpu_seconds']}"
        )
    print("per second: from s, requests/s, p95 ms of the floor, the round page, seat by name")
    for row in report["timeline"]:
        print(
            f"  {row['from_s']:>4} {row['requests_per_s']:>6} {row[f'p95_ms {FLOOR}']!s:>6}"
            f" {row[f'p95_ms {ROUND}']!s:>6} {row[f'p95_ms {SEAT_NAME}']!s:>6}"
        )
    print(f"site p95 / floor p95: {report['ratio_site_p95_to_floor_p95']}")
    print(f"phones waiting for the publish: {report['waiting']}")
    for label, target in report["targets"].items():
        print(f"target {label}: {target}")
    for note in report["notes"]:
        print(f"note: {note}")
