"""What the door saves: an unchanged poll's server CPU with and without config.door.

One gunicorn sync worker (production settings) serves `bench.door.wsgi`: the site as it runs
(the door in front of Django) and, on the same worker, the same requests past the door
(Django's handler alone, as before the door) and gunicorn's least (a 204 from no
application). Round 1 of an event confirmed, round 2 in play (bench.request_cost.event). Each
kind of request is sent N times in a row, each on a new connection, and its cost is the
worker's CPU time (/proc/<pid>/task/*/schedstat) divided by N; the three ways alternate, 3
repeats after a warm-up, medians compared.

Kinds: the watchers' sheet poll unchanged (`/games/<id>/sheet/?v=<version>`: 204), "My next
seat"'s version poll unchanged (`/events/<slug>/next/version/` with If-None-Match: 304).
Target: **≤ 1.0 ms of server CPU per unchanged poll at the door**.

    .venv/bin/python -m bench.door                     # SQLite + file cache (bin/serve's stack)
    .venv/bin/python -m bench.door --backend pg        # PostgreSQL + Redis on loopback
    .venv/bin/python -m bench.door --quick             # 100 polls, 1 repeat
    .venv/bin/python -m bench.door --held              # a held question's cost (held.py)

With --held, one process of bin/serve's gunicorn instead (config.gunicorn_venue): a batch of
--phones (200) sheet polls asking to wait --wait (2) seconds at once, held without a thread
until their deadline, against the same poll answered at once and the bare 204 on that worker
(bench/door/held.py).
"""

#: The same request past the door (bench.door.wsgi), and gunicorn's least.
FULL = "/bench-full/"
BARE = "/bench-bare/"
