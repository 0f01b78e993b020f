"""What each request of the site phase costs the server's CPU, one at a time, in-process.

    .venv/bin/python -m bench.venue.costs        # about 20 s

Why the burst is slow when the stack is saturated: the same setup as the benchmark (a fresh
SQLite file, production settings, the file cache), 20 tables played through Django's test
client, the CPU time (time.process_time) of each kind of request averaged. Multiplied by
the counts in bench/results/venue.json, they say where the server's CPU seconds went.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from . import stack


def main() -> int:
    from .__main__ import make_events, parse

    args = parse(["--tables", "20", "--repeat", "1"])
    folder = Path(tempfile.mkdtemp(prefix="bench-venue-costs-"))
    env = stack.venue_env(folder)
    stack.prepare(env)
    [(event, tables)] = make_events(env, args)

    from django.test import Client

    import engine
    from scoring import selectors
    from scoring.autoplay import next_deal

    client, rng = Client(HTTP_HOST="127.0.0.1"), random.Random(args.seed)
    costs: dict[str, list[float]] = {}

    def add(name: str, method: str, path: str, times: int = 1, **kwargs) -> None:
        """The mean CPU time of `times` requests, kept under `name`."""
        started = time.process_time()
        for _ in range(times):
            getattr(client, method)(path, **kwargs)
        costs.setdefault(name, []).append((time.process_time() - started) / times * 1000)

    for table in tables:
        record = {"ruleset": table.ruleset, "options": table.options, "deals": []}
        game = engine.game_from_record({**record, "first_dealer": table.first_dealer})
        url, token = f"/api/games/{table.game_id}/deals", f"Bearer {table.secret}"
        sheet = f"/games/{table.game_id}/sheet/?v="
        while not game.end:
            deal = next_deal(game, rng)
            body = {"deal": len(game.deals) + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
            json = {"data": body, "content_type": "application/json"}
            add("POST /api/games/{id}/deals (201)", "post", url, HTTP_AUTHORIZATION=token, **json)
            game.play(**deal)
            add("GET sheet, new version (200, rendered)", "get", sheet + "0")
            add("GET sheet, new version (200, from the cache)", "get", sheet + "0")
            version = selectors.game_mark(table.game_id)[0]
            add("GET sheet, unchanged (204)", "get", f"{sheet}{version}", 3)
        add("GET /bench-floor/read/<id>/ (204)", "get", f"/bench-floor/read/{table.game_id}/", 3)
        add("POST /bench-floor/write/<id>/", "post", f"/bench-floor/write/{table.game_id}/", 3)
    for name, values in costs.items():
        print(f"{name:<46} {sum(values) / len(values):7.2f} ms CPU (mean of {len(values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
