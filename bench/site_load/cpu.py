"""The CPU of the stack's processes, sampled from /proc while the load runs.

The confirmation rush may use no more than half of the machine. A total of CPU
seconds over the whole run (`Processes.cpu_seconds`) cannot say that: the rush is 10–30 s of
a 3-minute run. So a thread of the load generator reads, every `every` seconds, utime + stime
of every process (`/proc/<pid>/stat`, all threads of a process included) and the machine's busy
and total jiffies (`/proc/stat`), and turns each interval into "% of one core" per group of
processes (the machine is 100 % × its cores: 200 % here). A thread rather than an asyncio task
so that it keeps sampling while the worker catches up (synchronous code after the load) and
never waits on the event loop; one sample reads ~200 small files, a few ms of CPU
(`sampler_cpu_s` in the JSON), which count in the generator's figure.

Processes come and go between samples (gunicorn and Celery children, PostgreSQL backends):
a process is known by its pid and start time (a reused pid is a new process); one gone since
the last sample is dropped (what it used since that sample is lost, never subtracted); one
born since the last sample counts all its CPU in that interval; one seen for the first time
but older (the first sample) counts from that sample on. No delta is ever negative.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

#: The server stack the target counts, then the load generator (this process).
STACK = ("gunicorn", "worker", "postgres", "redis")
GROUPS = (*STACK, "generator")
#: The confirmation rush uses at most this share of the machine (in % of it).
TARGET_SHARE_PCT = 50.0
TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Stat:
    """The fields of `/proc/<pid>/stat` this module reads."""

    pid: int
    comm: str
    ppid: int
    ticks: int  # utime + stime, clock ticks, all threads of the process
    start: int  # starttime: clock ticks after boot


def parse_stat(text: str) -> Stat:
    """Parse one `/proc/<pid>/stat`. The command name sits between the first "(" and the LAST
    ")" and may hold spaces and parentheses of its own, so the fields are counted after it."""
    head, _, tail = text.rpartition(")")
    pid, _, comm = head.partition(" (")
    fields = tail.split()  # fields[0] is field 3 of proc(5), "state"
    return Stat(
        pid=int(pid),
        comm=comm,
        ppid=int(fields[1]),
        ticks=int(fields[11]) + int(fields[12]),
        start=int(fields[19]),
    )


def read_processes(proc: Path = Path("/proc")) -> dict[int, Stat]:
    """Every process now running (those that end while being read are skipped)."""
    found = {}
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        try:
            found[int(name)] = parse_stat((proc / name / "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue
    return found


def read_machine(proc: Path = Path("/proc")) -> tuple[int, int, int]:
    """(busy, total, cores) from `/proc/stat`: jiffies summed over all cores since boot; idle
    and iowait are not busy, guest time is already inside user time."""
    lines = (proc / "stat").read_text().splitlines()
    values = [int(v) for v in lines[0].split()[1:9]]
    user, nice, system, idle, iowait, irq, softirq, steal = values + [0] * (8 - len(values))
    busy = user + nice + system + irq + softirq + steal
    cores = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    return busy, busy + idle + iowait, cores or (os.cpu_count() or 1)


@dataclass
class Snapshot:
    at: float  # time.monotonic()
    uptime_ticks: float  # read before the processes: anything started after is newer
    processes: dict[int, Stat]
    busy: int
    total: int


def take_snapshot(proc: Path = Path("/proc")) -> Snapshot:
    at = time.monotonic()
    uptime = float((proc / "uptime").read_text().split()[0]) * TICK
    processes = read_processes(proc)
    busy, total, _ = read_machine(proc)
    return Snapshot(at, uptime, processes, busy, total)


# A group says which of the processes now running are its own.
Group = Callable[[dict[int, Stat]], set[int]]


def tree(root: int) -> Group:
    """The process `root` and all its descendants (gunicorn's master and its workers)."""

    def members(processes: dict[int, Stat]) -> set[int]:
        children: dict[int, list[int]] = {}
        for stat in processes.values():
            children.setdefault(stat.ppid, []).append(stat.pid)
        found, todo = set(), [root] if root in processes else []
        while todo:
            pid = todo.pop()
            if pid not in found:
                found.add(pid)
                todo += children.get(pid, [])
        return found

    return members


def named(prefix: str) -> Group:
    """Every process whose command name starts with `prefix` ("postgres", "redis-server")."""
    return lambda processes: {pid for pid, s in processes.items() if s.comm.startswith(prefix)}


def only(pid: int) -> Group:
    return lambda processes: {pid} & processes.keys()


def stack_groups(gunicorn: int, worker: int, generator: int) -> dict[str, Group]:
    """The groups of `GROUPS`. PostgreSQL and Redis are the whole servers: the benchmark has a
    database and Redis dbs of its own, but the servers are shared with whatever else runs."""
    return {
        "gunicorn": tree(gunicorn),
        "worker": tree(worker),
        "postgres": named("postgres"),
        "redis": named("redis-server"),
        "generator": only(generator),
    }


def interval(
    before: Snapshot, after: Snapshot, groups: dict[str, Group], cores: int, origin: float
) -> dict:
    """One sample: each group's CPU between the snapshots in % of one core, the stack's sum,
    the whole machine's (out of 100 × `cores`) and what the groups leave of it ("others")."""
    seconds = after.at - before.at
    ticks = dict.fromkeys(groups, 0)
    counted: set[int] = set()
    for name, group in groups.items():  # a process counts in the first group that has it
        for pid in group(after.processes) - counted:
            counted.add(pid)
            now, was = after.processes[pid], before.processes.get(pid)
            if was is not None and was.start == now.start:
                delta = now.ticks - was.ticks
            elif now.start >= before.uptime_ticks:
                delta = now.ticks  # started since the last sample: all of it is in this one
            else:
                delta = 0  # older but first seen now: counted from this sample on
            ticks[name] += max(0, delta)
    row = {"t_s": round(after.at - origin, 2), "interval_s": round(seconds, 3)}
    for name, count in ticks.items():
        row[name] = round(100 * count / TICK / seconds, 1)
    row["stack"] = round(sum(row[name] for name in STACK if name in row), 1)
    total = after.total - before.total
    machine = 100 * cores * (after.busy - before.busy) / total if total > 0 else 0.0
    row["machine"] = round(max(0.0, machine), 1)
    row["others"] = round(max(0.0, machine - sum(row[name] for name in groups)), 1)
    return row


def summarize(samples: list[dict], start: float, end: float, cores: int) -> dict | None:
    """Mean (weighted by each interval's length) and peak of every figure over the samples in
    [start, end] (offsets in seconds): those whose interval's middle lies in it, or, for a
    window shorter than one interval, those that overlap it."""
    chosen = [r for r in samples if start <= r["t_s"] - r["interval_s"] / 2 <= end]
    if not chosen:
        chosen = [r for r in samples if r["t_s"] > start and r["t_s"] - r["interval_s"] < end]
    if not chosen:
        return None
    keys = [k for k in chosen[0] if k not in ("t_s", "interval_s")]
    seconds = sum(r["interval_s"] for r in chosen)
    mean = {k: round(sum(r[k] * r["interval_s"] for r in chosen) / seconds, 1) for k in keys}
    peak = {k: max(r[k] for r in chosen) for k in keys}
    share = {  # of the whole machine, 100 % = every core
        "mean": round(mean["stack"] / cores, 1),
        "peak": round(peak["stack"] / cores, 1),
    }
    return {
        "from_s": round(start, 2),
        "to_s": round(end, 2),
        "samples": len(chosen),
        "mean_pct_of_core": mean,
        "peak_pct_of_core": peak,
        "stack_pct_of_machine": share,
        "machine_pct_of_machine": {
            "mean": round(mean["machine"] / cores, 1),
            "peak": round(peak["machine"] / cores, 1),
        },
    }


class Sampler:
    """Samples `groups` every `every` seconds in a thread of its own, from `start` to `stop`.
    Offsets (`t_s`) are seconds since `start`."""

    def __init__(self, groups: dict[str, Group], every: float = 2.0, proc: Path = Path("/proc")):
        self.groups, self.every, self.proc = groups, every, proc
        self.cores = read_machine(proc)[2]
        self.samples: list[dict] = []
        self.origin = time.monotonic()
        self.cpu_seconds = 0.0  # the sampler thread's own CPU
        self.errors: list[str] = []
        self._last: Snapshot | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def sample(self) -> dict | None:
        """Take a snapshot; return the interval since the last one (None for the first)."""
        snapshot = take_snapshot(self.proc)
        last, self._last = self._last, snapshot
        if last is None:
            return None
        row = interval(last, snapshot, self.groups, self.cores, self.origin)
        self.samples.append(row)
        return row

    def start(self) -> None:
        self.origin = time.monotonic()
        self.sample()
        self._thread = threading.Thread(target=self._run, name="cpu-sampler", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        began = time.thread_time()
        step = 1
        # on a fixed grid, so a late sample does not shift the ones after it
        while not self._stopped.wait(max(0.0, self.origin + step * self.every - time.monotonic())):
            try:
                self.sample()
            except Exception as error:  # noqa: BLE001 - a sampler must never stop the run
                if len(self.errors) < 5:
                    self.errors.append(f"{type(error).__name__}: {error}")
            step = max(step + 1, int((time.monotonic() - self.origin) / self.every) + 1)
        self.cpu_seconds = time.thread_time() - began

    def stop(self) -> None:
        """Stop the thread, with a last sample for the time since the previous one (when it
        is at least a quarter of an interval: a shorter one is mostly rounding)."""
        if self._thread is None:
            return
        self._stopped.set()
        self._thread.join()
        self._thread = None
        if self._last is not None and time.monotonic() - self._last.at >= self.every / 4:
            self.sample()

    def report(self, windows: dict[str, tuple[float, float] | None]) -> dict:
        """The JSON's "cpu" section: the samples and a summary per window (monotonic times)."""
        summaries = {
            name: None
            if window is None
            else summarize(
                self.samples, window[0] - self.origin, window[1] - self.origin, self.cores
            )
            for name, window in windows.items()
        }
        rush = summaries.get("rush")
        return {
            "every_s": self.every,
            "cores": self.cores,
            "unit": (
                f"% of one core (the machine is {100 * self.cores} %), except *_pct_of_machine"
                " (100 % = the whole machine); t_s: the end of each sample's interval, in seconds"
                " since the sampler started, just before the load"
            ),
            "groups": {
                "gunicorn": "the gunicorn master and all its workers",
                "worker": "the Celery worker and its children",
                "postgres": "every process named postgres*: the whole PostgreSQL server, shared"
                " with anything else using it, not only this benchmark's database",
                "redis": "every redis-server: the whole server, shared",
                "generator": "this process: the load generator (and this sampler)",
                "stack": "gunicorn + worker + postgres + redis",
                "machine": "the whole machine, from /proc/stat",
                "others": "the machine less all the groups above",
            },
            "target": {
                "rush_stack_pct_of_machine": TARGET_SHARE_PCT,
                "mean_met": None
                if rush is None
                else rush["stack_pct_of_machine"]["mean"] <= TARGET_SHARE_PCT,
                "peak_met": None
                if rush is None
                else rush["stack_pct_of_machine"]["peak"] <= TARGET_SHARE_PCT,
            },
            **summaries,
            "sampler_cpu_s": round(self.cpu_seconds, 3),
            "errors": self.errors,
            "samples": self.samples,
        }
