"""Benchmark: reading a large backup, with every id repeated or none, 7,000 to 288,000 rows.

    .venv/bin/python -m bench.backup_read            # 7k, 29k and 288k log rows
    .venv/bin/python -m bench.backup_read --quick    # 7k and 29k, for a smoke run

The document is the format's fixture (tests/tournaments/fixtures/event-backup-v1.json) with
its event log grown to n rows: "repeated" gives each id to two rows (the duplicate-id check's
worst case, which compared every id with every other and took minutes at 288k rows),
"distinct" one each (the check passes, the whole document is read). Only parsing and
reading are timed (tournaments.backup.parse, then reading.read: every value checked, every
row built and checked), no database write. Time should grow with n, not n². Prints one line
per case and writes them as JSON to bench/results/backup_read.json (backup_read-quick.json
with --quick).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time

from bench import output

FIXTURE = output.ROOT / "tests" / "tournaments" / "fixtures" / "event-backup-v1.json"


def document(rows: int, repeated: bool) -> str:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    line = data["log"][4]
    data["log"] = [
        {**copy.deepcopy(line), "id": 1000 + n // 2 if repeated else n + 1} for n in range(rows)
    ]
    return json.dumps(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="7k and 29k rows only")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from tournaments import backup
    from tournaments.backup import reading
    from tournaments.common.errors import TournamentError

    runs = []
    for rows in (7_000, 29_000) if args.quick else (7_000, 29_000, 288_000):
        for repeated in (True, False):
            text = document(rows, repeated)
            start = time.perf_counter()
            data = backup.parse(text)
            parsed = time.perf_counter()
            try:
                reading.read(data)
                outcome = "read"
            except TournamentError as error:
                outcome = error.code
            done = time.perf_counter()
            run = {
                "rows": rows,
                "ids": "repeated" if repeated else "distinct",
                "megabytes": round(len(text) / 1e6, 1),
                "parse_s": round(parsed - start, 2),
                "read_s": round(done - parsed, 2),
                "outcome": outcome,
            }
            runs.append(run)
            print(
                f"{rows:>7} rows, ids {run['ids']:<8} {run['megabytes']:>5} MB: "
                f"parse {run['parse_s']:.2f} s, read {run['read_s']:.2f} s ({outcome})"
            )
    report = {"python": sys.version.split()[0], "machine": output.machine(), "runs": runs}
    output.write(report, "backup_read-quick.json" if args.quick else "backup_read.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
