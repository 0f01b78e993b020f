"""What each request of the site phase costs the server's CPU, one at a time, in-process.

    .venv/bin/python -m bench.venue.costs        # about 20 s

Why the burst is slow when the stack is saturated: the same setup as the benchmark (a fresh
SQLite file, production settings, the file cache), 20 tables played through Django's test
client, the CPU time (time.process_time) of each kind of request averaged. Multiplied by
the counts in bench/results/venue.json, they say where the server's CPU seconds went.

The keeper's table page (cost per request) is measured beside the polls, with the
keeper's session and its CSRF cookie as a phone has them: on even deals before any phone has
asked for the new version (nothing of it kept yet), on odd deals after the phones (whatever
the polls keep per version is there), and once more as a reload. So are a watcher opening
the table page and, on even deals, the first phone's sheet after the keeper's page.
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
    keeper, watcher = Client(HTTP_HOST="127.0.0.1"), Client(HTTP_HOST="127.0.0.1")
    costs: dict[str, list[float]] = {}

    def add(name: str, method: str, path: str, times: int = 1, client=client, **kwargs) -> None:
        """The mean CPU time of `times` requests, kept under `name`."""
        started = time.process_time()
        for _ in range(times):
            answer = getattr(client, method)(path, **kwargs)
            assert answer.status_code < 400, (name, answer.status_code)
        costs.setdefault(name, []).append((time.process_time() - started) / times * 1000)

    for table in tables:
        record = {"ruleset": table.ruleset, "options": table.options, "deals": []}
        game = engine.game_from_record({**record, "first_dealer": table.first_dealer})
        url, token = f"/api/games/{table.game_id}/deals", f"Bearer {table.secret}"
        sheet = f"/games/{table.game_id}/sheet/?v="
        page = f"/games/{table.game_id}/"
        keeper.get(f"{page}keep/{table.secret}/")  # the keeper's session
        keeper.get(page)  # and its CSRF cookie
        while not game.end:
            deal = next_deal(game, rng)
            body = {"deal": len(game.deals) + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
            json = {"data": body, "content_type": "application/json"}
            add("POST /api/games/{id}/deals (201)", "post", url, HTTP_AUTHORIZATION=token, **json)
            game.play(**deal)
            first = len(game.deals) % 2 == 0  # the keeper's page before the phones
            if first:
                add("GET table page, keeper, new version first", "get", page, client=keeper)
                add("GET sheet, new version (200, after the keeper)", "get", sheet + "0")
            else:
                add("GET sheet, new version (200, rendered)", "get", sheet + "0")
            add("GET sheet, new version (200, from the cache)", "get", sheet + "0")
            version = selectors.game_mark(table.game_id)[0]
            add("GET sheet, unchanged (204)", "get", f"{sheet}{version}", 3)
            if not first:
                add("GET table page, keeper, after the phones", "get", page, client=keeper)
            add("GET table page, keeper, again (no ETag)", "get", page, client=keeper)
            add("GET table page, watcher", "get", page, client=watcher)
        add("GET /bench-floor/read/<id>/ (204)", "get", f"/bench-floor/read/{table.game_id}/", 3)
        add("POST /bench-floor/write/<id>/", "post", f"/bench-floor/write/{table.game_id}/", 3)
    for name, values in costs.items():
        print(f"{name:<46} {sum(values) / len(values):7.2f} ms CPU (mean of {len(values)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
