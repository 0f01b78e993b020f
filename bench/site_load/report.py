"""The figures: the table printed per run (the machine and the load average: bench.output)."""

from __future__ import annotations

import argparse

from .cpu import STACK, TARGET_SHARE_PCT


def print_report(args: argparse.Namespace, report: dict) -> None:
    print(
        f"\n{args.tables} tables x {args.deals} hands, {args.phones} phones"
        f" polling every {args.poll} s: {report['load_seconds']} s,"
        f" {report['requests']} requests ({report['requests_per_s']}/s); load average"
        f" before {report['load_average']['before']}, after {report['load_average']['after']}"
    )
    print(
        f"{'endpoint':<40} {'count':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>8}"
        f"  errors"
    )
    for name, s in report["endpoints"].items():
        errors = s["errors_by_status"] or ""
        print(
            f"{name:<40} {s['count']:>7} {s['p50_ms']:>7} {s['p95_ms']:>7} {s['p99_ms']:>7}"
            f" {s['max_ms']!s:>8}  {s['errors']} {errors}"
        )
        for status, f in s["by_status"].items():
            if len(s["by_status"]) > 1:
                print(
                    f"{'  ' + status:<40} {f['count']:>7} {f['p50_ms']:>7} {f['p95_ms']:>7}"
                    f" {f['p99_ms']:>7} {f['max_ms']!s:>8}"
                )
    checks = report["checks"]
    print(
        f"deals sent {checks['deals_sent']}, stored {checks['deals_stored_live']}; lost"
        f" {checks['lost_deals']}, doubled {checks['doubled_deals']}, games not as sent"
        f" {checks['games_not_as_sent']}, not confirmed {checks['games_not_confirmed']};"
        f" standings equal a fresh build: {checks['standings_equal_fresh_build']}"
        f" ({checks['standings_snapshots_stored']} snapshots stored)"
    )
    print(f"worker: {report['worker']}")
    print(f"CPU seconds: {report['cpu_seconds']}; loop lag {report['event_loop_lag_ms']} ms")
    for line in cpu_lines(report["cpu"]):
        print(line)
    names = [key for key in (report["timeline"] or [{}])[0] if key.startswith("p95_ms")]
    print(
        "timeline: from s, requests/s, p95 ms of "
        + ", ".join(n[7:] for n in names)
        + "; loop lag p99 ms"
    )
    for row in report["timeline"]:
        print(
            f"  {row['from_s']:>5} {row['requests_per_s']:>7}",
            *(row[n] for n in names),
            row.get("loop_lag_p99_ms"),
        )
    for name, target in report["targets"].items():
        print(f"target {name}: {target}")
    for note in report["notes"]:
        print(f"note: {note}")


def cpu_lines(cpu: dict) -> list[str]:
    """The sampler's figures (cpu.py) for the whole load and the confirmation rush: the stack
    as a share of the machine (the target: at most half of it), each group in % of one core."""
    lines = []
    for name, title in (("load", "whole load"), ("rush", "confirmation rush")):
        window = cpu.get(name)
        if window is None:
            lines.append(f"{title}: not sampled")
            continue
        share, mean, peak = (
            window["stack_pct_of_machine"],
            window["mean_pct_of_core"],
            window["peak_pct_of_core"],
        )
        target = f" (target <= {TARGET_SHARE_PCT:g} %)" if name == "rush" else ""
        lines.append(
            f"{title} ({window['from_s']}-{window['to_s']} s, {window['samples']} samples of"
            f" {cpu['every_s']} s): stack mean {share['mean']} % / peak {share['peak']} % of"
            f" the machine{target}; machine busy mean"
            f" {window['machine_pct_of_machine']['mean']} % / peak"
            f" {window['machine_pct_of_machine']['peak']} %"
        )
        lines.append(
            f"  % of one core (the machine is {100 * cpu['cores']} %; postgres, redis: the whole"
            " servers), mean / peak: "
            + ", ".join(
                f"{group} {mean[group]} / {peak[group]}"
                for group in (*STACK, "stack", "generator", "others")
            )
        )
    return lines
