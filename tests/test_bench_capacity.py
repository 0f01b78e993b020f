"""bench.capacity's pure parts: the open-loop schedule, latency from the scheduled time,
percentiles, a phase's verdict, the largest passing T and the CPU model.

The staircase itself needs the stacks running (`python -m bench.capacity --quick`); what
decides its figures is checked here without them.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from bench.capacity import plan


def test_the_schedule_keeps_every_phones_period_whatever_the_answers():
    pace = plan.Pace(deal_every=60, sheet_every=5, standings_every=10)
    arrivals = plan.schedule(tables=4, seconds=60, pace=pace, seed=1)
    assert arrivals == sorted(arrivals)
    assert all(0 <= a.at < 60 for a in arrivals)
    counts = Counter((a.kind, a.table, a.phone) for a in arrivals)
    for table in range(4):
        assert counts[(plan.DEAL, table, 0)] == 1  # one deal a minute
        for phone in range(3):
            assert counts[(plan.SHEET, table, phone)] == 12  # every 5 s for 60 s
        assert counts[(plan.STANDINGS, table, 0)] == 6
    times = [a.at for a in arrivals if (a.kind, a.table, a.phone) == (plan.SHEET, 2, 1)]
    assert [round(b - a, 9) for a, b in zip(times, times[1:], strict=False)] == [5.0] * 11


def test_the_phones_start_at_random_points_so_the_load_is_spread_not_a_burst():
    arrivals = plan.schedule(tables=200, seconds=5, pace=plan.Pace(), seed=7)
    sheets = [a.at for a in arrivals if a.kind == plan.SHEET]
    assert len(sheets) == 600
    per_second = Counter(int(at) for at in sheets)
    assert all(90 <= per_second[s] <= 150 for s in range(5))  # ~120 a second each second


def test_the_schedule_is_the_same_for_the_same_seed_and_the_stress_pace_sends_more_deals():
    assert plan.schedule(3, 30, plan.Pace(), 5) == plan.schedule(3, 30, plan.Pace(), 5)
    assert plan.schedule(3, 30, plan.Pace(), 5) != plan.schedule(3, 30, plan.Pace(), 6)
    stress = plan.schedule(10, 60, plan.Pace(deal_every=10), 5)
    assert sum(a.kind == plan.DEAL for a in stress) == 60


def test_the_rates_of_a_table():
    rates = plan.Pace(deal_every=60).rates()
    assert rates == pytest.approx({plan.DEAL: 1 / 60, plan.SHEET: 0.6, plan.STANDINGS: 0.1})


def test_latency_runs_from_the_scheduled_time_not_from_the_send():
    # Three requests due at 0, 0.1 and 0.2 s; the server stalled and answered all at 1.0 s.
    # Timed from their sends (after the stall) they would look fast; from the schedule
    # they waited 1000, 900 and 800 ms.
    assert plan.latencies_ms([0.0, 0.1, 0.2], [1.0, 1.0, 1.0]) == pytest.approx([1000, 900, 800])


def test_percentile_is_the_nearest_rank():
    values = list(range(1, 101))  # 1..100
    assert plan.percentile(values, 50) == 50
    assert plan.percentile(values, 95) == 95
    assert plan.percentile(values, 99) == 99
    assert plan.percentile(values, 100) == 100
    assert plan.percentile([7.0], 95) == 7.0
    assert plan.percentile([], 95) is None
    assert plan.percentile([3, 1, 2], 50) == 2  # unsorted input


def test_figures_count_errors_beside_the_answered():
    found = plan.figures([10.0, 20.0, 30.0], errors=2)
    assert found["count"] == 5 and found["answered"] == 3 and found["errors"] == 2
    assert found["p50_ms"] == 20.0 and found["max_ms"] == 30.0


def kinds(p95s: dict[str, float], errors: int = 0) -> dict:
    return {kind: {"p95_ms": p95, "errors": errors} for kind, p95 in p95s.items()}


def test_a_phase_passes_with_every_p95_under_the_target_and_nothing_wrong():
    fast = {plan.DEAL: 40.0, plan.SHEET: 149.9, plan.STANDINGS: 10.0}
    assert plan.verdict(kinds(fast), 0.1)["passed"]
    slow = plan.verdict(kinds({**fast, plan.SHEET: 150.0}), 0.1)
    assert not slow["passed"] and slow["slow"] == [plan.SHEET]
    assert not plan.verdict(kinds(fast, errors=1), 0.1)["passed"]
    assert not plan.verdict(kinds(fast), 0.1, lost=1)["passed"]
    assert not plan.verdict(kinds({plan.DEAL: None}), 0.1)["passed"]  # nothing answered


def test_held_sheets_are_judged_by_how_soon_the_news_comes_not_by_their_wait():
    held, plain = plan.targets(plan.Pace(sheet_wait=25)), plan.targets(plan.Pace())
    figures = {plan.DEAL: 40.0, plan.SHEET: 25_000.0, plan.STANDINGS: 10.0, plan.NEWS: 5_100.0}
    assert plan.verdict(kinds(figures), 0.1, goals=held)["passed"]
    late = plan.verdict(kinds({**figures, plan.NEWS: 5_150.0}), 0.1, goals=held)
    assert late["slow"] == [plan.NEWS]
    # Plain polls: the news waits for the next poll by design, the poll itself is judged.
    figures = {**figures, plan.SHEET: 20.0, plan.NEWS: 4_800.0}
    assert plan.verdict(kinds(figures), 0.1, goals=plain)["passed"]
    assert plan.verdict(kinds({**figures, plan.SHEET: 150.0}), 0.1, goals=plain)["slow"] == [
        plan.SHEET
    ]


def test_a_phase_whose_generator_saturated_does_not_count():
    result = plan.verdict(kinds({plan.SHEET: 10.0}), plan.GENERATOR_MAX_CORE_SHARE)
    assert not result["valid"] and not result["passed"]


def verdicts(passed: dict[int, bool], invalid: tuple[int, ...] = ()) -> list[tuple[int, dict]]:
    return [(t, {"passed": ok, "valid": t not in invalid}) for t, ok in passed.items()]


def test_the_largest_passing_t_is_the_last_pass_before_the_first_failure():
    stages = verdicts({400: True, 100: True, 200: True, 800: False, 1600: True})
    assert plan.largest_passing(stages) == {"tables": 400, "censored": False, "invalid": False}
    assert plan.largest_passing(verdicts({100: False, 200: True}))["tables"] is None
    never = plan.largest_passing(verdicts({100: True, 200: True}))
    assert never == {"tables": 200, "censored": True, "invalid": False}
    stopped = plan.largest_passing(verdicts({100: True, 200: False}, invalid=(200,)))
    assert stopped["invalid"]


def test_the_ratio_of_product_to_floor_and_how_to_read_it():
    product = {"tables": 800, "censored": False}
    floor = {"tables": 1000, "censored": False}
    assert plan.ratio(product, floor) == 0.8
    assert plan.ratio_reading(product, floor) == "exact"
    assert plan.ratio_reading({**product, "censored": True}, floor) == "at least"
    assert plan.ratio_reading(product, {**floor, "censored": True}) == "at most"
    assert plan.ratio_reading({**product, "censored": True}, {**floor, "censored": True}) == (
        "unknown"
    )
    assert plan.ratio({"tables": None, "censored": False}, floor) is None


def test_the_cpu_model():
    pace = plan.Pace(deal_every=60)
    costs = {plan.DEAL: 3.0, plan.SHEET: 1.0, plan.STANDINGS: 0.5}
    per_table = plan.cpu_ms_per_table_second(costs, pace)
    assert per_table == pytest.approx(3.0 / 60 + 0.6 * 1.0 + 0.1 * 0.5)  # 0.7 ms a second
    # 2 cores at 80 % give 1600 ms of CPU a second: 1600 / 0.7 = 2285.7 tables
    assert plan.tables_on(2, 0.8, per_table) == 2285
    assert plan.measured_ms_per_table_second(server_cpu_s=42.0, tables=1000, seconds=60) == 0.7
    with pytest.raises(ValueError):
        plan.tables_on(2, 0.8, 0)


def test_the_cost_pass_sends_one_kind_evenly_round_the_tables():
    arrivals = plan.one_kind(plan.DEAL, tables=4, rate=50, seconds=2)
    assert len(arrivals) == 100
    assert [a.table for a in arrivals[:6]] == [0, 1, 2, 3, 0, 1]
    assert arrivals[1].at - arrivals[0].at == pytest.approx(0.02)


def test_the_cost_pass_asks_each_phone_at_its_pace_so_a_kept_connection_is_kept():
    """50 sheet polls a second from phones polling every 5 s: 250 phones, each asking every
    5 s (not 1,000 tables' phones each every 20 s, past a 20-s keep-alive)."""
    pace = plan.Pace()
    arrivals = plan.one_kind(plan.SHEET, 1000, 50, 20, pace.period(plan.SHEET))
    tables = [a.table for a in arrivals]
    assert max(tables) == 249 and tables.index(0, 1) == 250
    assert arrivals[250].at - arrivals[0].at == pytest.approx(5.0)
    assert pace.period(plan.DEAL) == 60 and pace.period(plan.STANDINGS) == 10
    assert pace.period(plan.BARE) == pace.sheet_every
    # Fewer tables than the pace wants: all of them, more often.
    assert max(a.table for a in plan.one_kind(plan.DEAL, 40, 50, 2, 60.0)) == 39


def test_the_postgresql_stack_is_skipped_with_a_message_when_the_server_is_not_there(
    monkeypatch,
):
    from bench.capacity import stacks
    from bench.site_load import stack as site_stack

    monkeypatch.setattr(site_stack, "PG", "postgres://postgres@127.0.0.1:9")  # nothing listens
    missing = stacks.pg_missing()
    assert missing is not None and "PostgreSQL at 127.0.0.1:5432" in missing


def test_a_phase_where_the_generator_ran_out_of_files_or_ports_does_not_count():
    result = plan.verdict(kinds({plan.SHEET: 10.0}), 0.1, generator_errors=3)
    assert not result["valid"] and not result["passed"]


def phase(passed: bool, ms_per_table_second: float, valid: bool = True) -> dict:
    return {
        "verdict": {"passed": passed, "valid": valid},
        "server_ms_per_table_second": ms_per_table_second,
    }


def test_the_summary_of_a_stack_names_the_largest_t_the_ratio_and_the_cpu_model():
    from bench.capacity.__main__ import parse, summarise

    args = parse(["--stages", "100,200,400"])
    part = {
        "stack": "venue",
        "stages": [
            {"tables": 100, "product": phase(True, 0.8), "floor": phase(True, 0.6)},
            {"tables": 200, "product": phase(True, 0.6), "floor": phase(True, 0.5)},
            {"tables": 400, "product": phase(False, 0.9), "floor": phase(False, 0.7)},
        ],
        "costs": {
            "product": {
                plan.DEAL: {"cpu_ms": 3.0},
                plan.SHEET: {"cpu_ms": 1.0, "gunicorn_cpu_ms": 0.9},
                plan.STANDINGS: {"cpu_ms": 0.5, "gunicorn_cpu_ms": 0.4},
            }
        },
    }
    summary = summarise(part, args)
    assert summary["largest_passing"]["product"]["tables"] == 200
    assert summary["ratio_product_over_floor"] == 1.0 and summary["ratio_reading"] == "exact"
    model = summary["cpu_model"]["product"]
    assert model["staircase_ms_per_table_second"] == 0.7  # the median of the passing stages
    assert model["staircase_tables"] == 2285  # 1600 / 0.7
    assert model["cost_tables"] == 2285  # 3/60 + 0.6 + 0.05 = 0.7 ms a table-second
    assert all(summary["targets"].values())
    part["costs"]["product"][plan.SHEET]["gunicorn_cpu_ms"] = 1.2
    assert not all(summarise(part, args)["targets"].values())


def test_postgresql_counts_its_own_processes_and_this_databases_backends_only():
    from bench.capacity.stacks import works_for

    db = "bench358_capacity"
    assert works_for("postgres: 15/main: walwriter", db)
    assert works_for("/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main", db)
    assert works_for(f"postgres: 15/main: postgres {db} 127.0.0.1(53422) idle", db)
    assert not works_for("postgres: 15/main: postgres test_other 127.0.0.1(53500) idle", db)
    assert not works_for("postgres: 15/main: postgres other [local] idle", db)


def test_a_groups_cpu_between_readings_never_goes_below_zero_as_processes_come_and_go():
    from bench.capacity.stacks import ticks_between

    before = {(10, 1): 100, (11, 1): 50, (12, 1): 70}
    after = {(10, 1): 130, (12, 1): 75, (13, 900): 8, (11, 950): 4}
    # 10 grew 30, 12 grew 5, 13 is new (8), 11 ended and its pid came back as another (4)
    assert ticks_between(before, after) == 30 + 5 + 8 + 4
    assert ticks_between({(10, 1): 100}, {}) == 0


def test_the_postgresql_stack_runs_gunicorn_as_the_deploys_web_unit_and_the_venue_as_bin_serve():
    from bench.capacity.stacks import flags
    from bench.venue.stack import SERVE_WORKER, serve_flags

    pg = flags("pg")
    assert pg["workers"] == "3" and pg["threads"] == "1"
    assert pg["worker_class"] == "config.gunicorn_workers.SyncWorker"
    assert flags("venue") == serve_flags() | {"wsgi": "bench.capacity.wsgi"}
    assert "worker_class" not in flags("venue")
    trial = flags("venue", sync_workers=4)
    assert (trial["workers"], trial["threads"]) == ("4", "1")
    assert trial["worker_class"] == pg["worker_class"]
    assert SERVE_WORKER == "config.gunicorn_workers.ThreadWorker"


def test_the_cost_pass_baseline_is_answered_before_django_and_the_rest_goes_to_the_site(
    monkeypatch,
):
    from bench.capacity import wsgi

    calls = []
    monkeypatch.setattr(wsgi, "site", lambda environ, start: calls.append(environ) or [b"site"])
    started = []
    assert wsgi.application({"PATH_INFO": plan.BARE_PATH}, lambda *a: started.append(a)) == [b""]
    assert started == [("204 No Content", [("Content-Length", "0")])] and calls == []
    assert wsgi.application({"PATH_INFO": "/events/"}, None) == [b"site"] and len(calls) == 1


def test_each_phase_gives_the_keepers_locks_of_its_own_event_loop():
    """An overloaded phase leaves a keeper's lock waited on in its loop; the next phase runs
    on a new loop (asyncio.run) and must not meet that lock."""
    import asyncio
    import random
    from concurrent.futures import ThreadPoolExecutor

    from bench.capacity.load import Keeper, Phase

    keeper = Keeper(1, "secret", None, random.Random(1))

    async def contended():
        await keeper.lock.acquire()
        waiter = asyncio.create_task(keeper.lock.acquire())  # binds the lock to this loop
        await asyncio.sleep(0)
        waiter.cancel()

    async def next_phase():
        async with keeper.lock:
            return True

    def run(coroutine):  # a loop of its own, as each phase's, whatever runs in this thread
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, coroutine).result()

    run(contended())
    Phase("product", "127.0.0.1", 1, "slug", [keeper], 1.0)
    assert run(next_phase())


def test_the_cost_pass_warms_up_only_where_the_server_keeps_a_connection_for_a_phones_period():
    from argparse import Namespace

    from bench.capacity import stacks
    from bench.capacity.runner import cost_arrivals
    from config import gunicorn_venue

    assert stacks.keep_alive(stacks.flags("venue")) == gunicorn_venue.keepalive
    assert stacks.keep_alive(stacks.flags("venue", keep_alive=2)) == 2
    assert stacks.keep_alive(stacks.flags("pg")) == 0  # sync workers close after each answer
    args = Namespace(pace=plan.Pace(), cost_rate=50, cost_seconds=10, fresh_connections=False,
                     keep_alive_s=20.0)  # fmt: skip
    arrivals, warm_up = cost_arrivals(plan.SHEET, 1000, args)
    assert len(arrivals) == 500 and sorted(a.table for a in warm_up) == list(range(250))
    assert cost_arrivals(plan.DEAL, 1000, args)[1] is None  # a deal a minute: past 20 s
    args.keep_alive_s = 2.0
    assert cost_arrivals(plan.SHEET, 1000, args)[1] is None
    args.keep_alive_s, args.fresh_connections = 20.0, True
    assert cost_arrivals(plan.SHEET, 1000, args)[1] is None


def test_the_granian_trial_serves_the_same_application_with_bin_serves_processes(tmp_path):
    """`--server granian`: the same application in granian, as many processes as bin/serve's,
    as many threads a process as bin/serve's gate lets work, its backlog raised; a real granian
    of the installed version takes the command and answers the cost pass's bare path."""
    from django.conf import settings

    from bench.capacity import stacks
    from bench.venue import stack
    from tests import nginx

    trial = stacks.flags("venue", server="granian")
    assert trial["server"] == "granian" and "server" not in stacks.flags("venue")
    assert stacks.keep_alive(trial) > plan.Pace().period(plan.STANDINGS)
    port = nginx.free_port()
    command = stack.granian_command(trial["wsgi"], port, trial)
    assert command[command.index("--workers") + 1] == stack.serve_flags()["workers"]
    assert command[command.index("--blocking-threads") + 1] == str(settings.WORKING_THREADS)
    assert int(command[command.index("--backlog") + 1]) > 1024  # granian's default
    env = stacks.environment("venue", tmp_path)  # what the benchmark gives its server
    request = f"GET {plan.BARE_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    with nginx.served(command, env, port, tmp_path / "granian.log"):
        assert nginx.exchange(port, request, tls=False).status == 204


def test_a_process_that_ends_during_a_phase_keeps_the_cpu_it_used_until_its_last_reading():
    """A database connection replaced mid-phase (CONN_MAX_AGE) took its backend's CPU with it
    when the group was read only at the phase's ends."""
    import subprocess
    import sys
    import time

    from bench.capacity.stacks import Tally, cpu_ticks, ticks_between

    spinning = "import time\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass"
    children: set[int] = set()

    def group(processes) -> set[int]:
        return {pid for pid in children if pid in processes}

    tally = Tally({"spinners": group}, every=0.05)
    child = subprocess.Popen([sys.executable, "-c", spinning])
    children.add(child.pid)
    before = tally.start()
    ends_only = cpu_ticks({"spinners": group})
    child.wait()
    time.sleep(0.2)
    after = tally.finish()
    assert ticks_between(ends_only["spinners"], cpu_ticks({"spinners": group})["spinners"]) == 0
    used = ticks_between(before["spinners"], after["spinners"])
    assert used >= 0.4 * os.sysconf("SC_CLK_TCK")  # most of its 0.6 s, read before it ended
