"""bench.site_load's /proc CPU sampler: the confirmation rush's share of the machine.

What can be checked without the stack running: reading /proc/<pid>/stat when the command name
holds spaces and parentheses, the arithmetic between two samples as processes come and go,
the window's summary and its printed lines, the rush's window, and one real sample of this
process spinning.
"""

from __future__ import annotations

import os
import time
from types import SimpleNamespace

import pytest

from bench.site_load.cpu import (
    TICK,
    Sampler,
    Snapshot,
    Stat,
    interval,
    named,
    only,
    parse_stat,
    read_processes,
    summarize,
    tree,
)
from bench.site_load.report import cpu_lines
from bench.site_load.runner import rush_window


def stat_line(pid: int, comm: str, ppid: int, utime: int, stime: int, start: int) -> str:
    """A /proc/<pid>/stat line as proc(5) lays it out (children's times 7 and 9, not ours)."""
    fields = ["S", ppid, pid, pid, 0, -1, 4194304, 10, 0, 0, 0, utime, stime, 7, 9, 20, 0, 3, 0]
    fields += [start, 123456, 789, 18446744073709551615]
    return f"{pid} ({comm}) " + " ".join(str(f) for f in fields) + "\n"


def test_parse_stat_reads_past_a_command_name_with_spaces_and_parentheses():
    stat = parse_stat(stat_line(4321, "a) b (c)) S 1", 17, 250, 30, 98765))
    assert stat == Stat(pid=4321, comm="a) b (c)) S 1", ppid=17, ticks=280, start=98765)


def test_parse_stat_of_this_process():
    stat = parse_stat(open("/proc/self/stat").read())
    assert stat.pid == os.getpid()
    assert stat.ppid == os.getppid()
    assert os.getpid() in read_processes()


def snapshot(at: float, uptime: float, busy: int, total: int, *stats: Stat) -> Snapshot:
    return Snapshot(at, uptime, {s.pid: s for s in stats}, busy, total)


def test_interval_as_processes_vanish_appear_and_pids_are_reused():
    t = TICK  # one second of one core
    before = snapshot(
        10.0,
        4000,
        1000,
        5000,
        Stat(1, "gunicorn", 0, 10 * t, 100),  # the master
        Stat(2, "gunicorn", 1, 5 * t, 100),  # a worker that exits before the next sample
        Stat(3, "gunicorn", 1, 9 * t, 100),  # exits too, and its pid is taken by a new worker
        Stat(6, "gunicorn", 1, 4 * t, 100),  # reads less the second time: never negative
        Stat(20, "postgres", 99, 3 * t, 50),
        Stat(30, "python", 0, 0, 50),  # the generator
    )
    after = snapshot(
        12.0,  # two seconds later
        4200,
        1000 + 2 * t,  # busy: one core-second in two seconds of two cores...
        5000 + 4 * t,  # ...out of four core-seconds
        Stat(1, "gunicorn", 0, 11 * t, 100),  # 1 s
        Stat(3, "gunicorn", 1, t // 2, 4100),  # new worker on an old pid: all of its 0.5 s
        Stat(4, "gunicorn", 3, t // 2, 4050),  # born since the last sample: all of its 0.5 s
        Stat(5, "gunicorn", 1, 40 * t, 50),  # older, but seen for the first time: from now on
        Stat(6, "gunicorn", 1, 3 * t, 100),
        Stat(20, "postgres", 99, 3 * t + t // 5, 50),  # 0.2 s
        Stat(21, "postgres", 99, t // 10, 4100),  # a new backend: 0.1 s
        Stat(30, "python", 0, t, 50),  # 1 s
        Stat(40, "other", 0, 50 * t, 50),  # in no group
    )
    groups = {"gunicorn": tree(1), "postgres": named("postgres"), "generator": only(30)}
    row = interval(before, after, groups, cores=2, origin=8.0)
    assert row == {
        "t_s": 4.0,
        "interval_s": 2.0,
        "gunicorn": 100.0,  # (1 + 0.5 + 0.5) s in 2 s: one whole core
        "postgres": 15.0,
        "generator": 50.0,
        "stack": 115.0,  # gunicorn + postgres (no worker nor redis in these groups)
        "machine": 100.0,  # half of two cores
        "others": 0.0,  # the groups add up to more than /proc/stat's rounding: not negative
    }


def test_a_process_in_two_groups_counts_once():
    t = TICK
    before = snapshot(0.0, 0, 0, 100, Stat(7, "postgres", 1, 0, 0))
    after = snapshot(1.0, 100, 50, 200, Stat(7, "postgres", 1, t, 0))
    row = interval(before, after, {"postgres": named("post"), "redis": only(7)}, 2, 0.0)
    assert (row["postgres"], row["redis"], row["stack"]) == (100.0, 0.0, 100.0)


def rows(*stacks: float) -> list[dict]:
    return [
        {"t_s": 2.0 * (i + 1), "interval_s": 2.0, "stack": s, "gunicorn": s / 2, "machine": 2 * s}
        for i, s in enumerate(stacks)
    ]


def test_summary_of_a_window():
    samples = rows(10, 60, 100, 20)  # intervals 0-2, 2-4, 4-6, 6-8 s
    summary = summarize(samples, 3.0, 7.0, cores=2)  # the middles 3, 5 and 7 are in
    assert summary["samples"] == 3
    assert summary["mean_pct_of_core"]["stack"] == 60.0
    assert summary["peak_pct_of_core"]["stack"] == 100
    assert summary["mean_pct_of_core"]["gunicorn"] == 30.0
    assert summary["stack_pct_of_machine"] == {"mean": 30.0, "peak": 50.0}
    assert summary["machine_pct_of_machine"] == {"mean": 60.0, "peak": 100.0}
    uneven = [{**samples[0], "interval_s": 1.0, "t_s": 1.0}, {**samples[1], "t_s": 3.0}]
    assert summarize(uneven, 0, 3, 2)["mean_pct_of_core"]["stack"] == round((10 + 120) / 3, 1)


def test_summary_of_a_window_shorter_than_a_sample_and_of_none():
    samples = rows(10, 60, 100, 20)
    short = summarize(samples, 4.2, 4.5, cores=2)  # inside the interval 4-6 s
    assert (short["samples"], short["peak_pct_of_core"]["stack"]) == (1, 100)
    assert summarize(samples, 20.0, 30.0, cores=2) is None
    assert summarize([], 0.0, 1.0, cores=2) is None


def test_rush_window_runs_on_to_the_worker_when_it_finishes_later():
    run = SimpleNamespace(first_confirming=100.0, last_confirm_answered=130.0)
    assert rush_window(run, {"standings_current_after_s": 4.5}, 128.0) == (100.0, 132.5)
    assert rush_window(run, {"standings_current_after_s": 0.5}, 128.0) == (100.0, 130.0)
    assert rush_window(run, {"standings_current_after_s": None}, 128.0) == (100.0, 130.0)
    nobody = SimpleNamespace(first_confirming=None, last_confirm_answered=None)
    assert rush_window(nobody, {"standings_current_after_s": 1.0}, 0.0) is None


def test_printed_lines():
    samples = rows(10, 60, 100, 20)
    for row in samples:
        row.update(worker=1.0, postgres=2.0, redis=0.5, generator=5.0, others=3.0)
    cpu = {
        "every_s": 2.0,
        "cores": 2,
        "load": summarize(samples, 0.0, 8.0, 2),
        "rush": summarize(samples, 3.0, 7.0, 2),
    }
    lines = cpu_lines(cpu)
    assert lines[2].startswith("confirmation rush (3.0-7.0 s, 3 samples of 2.0 s): stack mean")
    assert "stack mean 30.0 % / peak 50.0 % of the machine (target <= 50 %)" in lines[2]
    assert "gunicorn 30.0 / 50.0" in lines[3] and "the whole servers" in lines[3]
    assert cpu_lines({**cpu, "rush": None})[2] == "confirmation rush: not sampled"


def test_a_real_sample_of_this_process_spinning():
    me = os.getpid()
    # "again" names this process a second time: it must count in "generator" alone. (Not
    # tree(me): the suite's other tests may leave children of this process that are busy.)
    sampler = Sampler({"generator": only(me), "again": only(me)}, every=0.1)
    sampler.start()
    began = time.thread_time()
    while time.thread_time() - began < 0.3:  # spin 0.3 s of CPU
        pass
    sampler.stop()
    assert len(sampler.samples) >= 2
    assert sum(row["generator"] * row["interval_s"] for row in sampler.samples) > 10.0
    assert max(row["machine"] for row in sampler.samples) > 0
    assert all(row["again"] == 0 for row in sampler.samples)
    assert sampler.errors == []
    report = sampler.report({"load": (sampler.origin, time.monotonic()), "rush": None})
    assert report["load"]["mean_pct_of_core"]["generator"] > 0
    assert report["target"] == {
        "rush_stack_pct_of_machine": 50.0,
        "mean_met": None,
        "peak_met": None,
    }
    assert report["rush"] is None


@pytest.mark.parametrize("comm", ["postgres", "redis-server"])
def test_named_groups_match_the_command_name(comm):
    processes = {1: Stat(1, comm, 0, 0, 0), 2: Stat(2, "python", 0, 0, 0)}
    assert named(comm)(processes) == {1}
