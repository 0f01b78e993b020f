"""Benchmark: capacity under an open-loop load - how many tables a stack serves.

    .venv/bin/python -m bench.capacity                    # both stacks, the staircase (~1 h)
    .venv/bin/python -m bench.capacity --stack venue      # bin/serve's stack alone
    .venv/bin/python -m bench.capacity --stress           # a deal every 10 s, not 60 s
    .venv/bin/python -m bench.capacity --quick            # stages of 10 and 20 tables, 20 s

Real phones do not wait for the site before asking again: they ask on a timer. So the load
is open-loop: for T tables, every keeper posts a deal every 60 s (--stress: 10 s; `POST
/api/games/<id>/deals`, valid deals of the table's game, the next number), 3 phones a table
poll the watchers' sheet every 5 s (`/games/<id>/sheet/?v=<the version they show>`), 1 phone
a table polls the standings fragment every 10 s with its ETag (If-None-Match). Each phone
starts at a random point of its period and keeps its period whatever the answers. Each
phone keeps its connection as a browser does, for as long as the server keeps it open
(bench/capacity/client.py): bin/serve keeps an idle connection 20 s, longer than any poll,
so its phones poll on kept connections; the deploy's sync workers close after every answer,
so there each request opens a new one (--fresh-connections: a new one a request anywhere;
--keep-alive SECONDS: a trial of another keep-alive). A request's latency runs from its
*scheduled* send time, so a late answer delays nothing and hides nothing (no coordinated
omission).

Two stacks, each in a process of its own (bench/capacity/stacks.py): "venue", bin/serve's
(gunicorn with its workers and gthread threads, SQLite in WAL mode, the file cache, the
folder broker), and "pg", the deploy stack on PostgreSQL at 127.0.0.1:5432 and Redis at
127.0.0.1:6379 (skipped, with a message, when they are not there).

The staircase: stages of T tables (--stages, 100 to 2400), each stage two phases of the same
schedule on the same processes, alternated (floor first, then product first, ...):

- product: the site answers (deal 201, sheet 200/204/304, standings 200/304);
- floor: each request goes to `/bench-floor/replay/<recipe>/`, which sends the SQL its
  product request sent and answers a few bytes (bench/capacity/recipes.py: the deal, the
  sheet poll unchanged or changed as its phone would find it, the standings poll).

Per stage and phase: p50/p95/p99 of each kind, errors (a status not expected, a refused or
timed-out connection), deals lost or doubled (through the ORM: every deal the site answered
is stored once), the server's CPU a request and a table-second (utime + stime from /proc of
gunicorn and the worker, and on "pg" of PostgreSQL and Redis), and the generator's own CPU
share of a core (above 70 % the phase is INVALID: its own lateness would be in the figures).
A phase passes with every kind's p95 under 150 ms, 0 errors and 0 lost or doubled deals; the
staircase stops once product and floor have each failed a stage (--no-stop: all stages).

Then a cost pass: each kind alone at --cost-rate requests a second, product and floor, its
server CPU a request, and the baseline below both: gunicorn alone, a request answered with a
204 before Django (bench/capacity/wsgi.py, the application gunicorn runs in this benchmark).
Each kind comes from as many phones as make each ask at its own pace (250 sheet phones at 50
a second), so a connection is kept, or not, as in the staircase.
The report: the largest T passing for product and floor and their
ratio, and the CPU model: tables a stack carries on --cores cores at --utilisation (2, 80 %)
from the measured costs (per kind, and from the staircase's own CPU a table-second). Writes
bench/results/capacity.json (-stress, -quick). A benchmark, not a test: it asserts nothing,
it reports. Run it alone on a quiet machine, under `flock /tmp/bench.lock`.
"""
