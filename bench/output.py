"""Where a benchmark's figures go, and what they say of the machine they came from.

Every benchmark writes one JSON report to bench/results/ (a `--quick` run to `*-quick.json`),
and every report names its machine: the CPU's name, the cores, the memory, Python and the
system (docs/performance.md compares figures within one machine and one run only), with the
load average around the run where the benchmark records it.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def machine() -> dict:
    """The machine a figure was measured on, as `lscpu` and `free` would name it."""
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in _read("/proc/cpuinfo").splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or platform.machine(),
    )
    memory = next(
        (
            round(int(line.split()[1]) / 1024**2, 1)
            for line in _read("/proc/meminfo").splitlines()
            if line.startswith("MemTotal")
        ),
        None,
    )
    return {
        "nproc": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": memory,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _read(path: str) -> str:
    try:
        return Path(path).read_text()
    except OSError:  # not Linux: the CPU's name from platform, no memory
        return ""


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def write(report: dict, name: str, out: str | Path | None = None) -> Path:
    """`report` as indented JSON in `out`, else in bench/results/`name`; says where."""
    path = Path(out) if out else RESULTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"written to {path}")
    return path
