"""Benchmark: the venue laptop - bin/serve's stack on SQLite under a burst.

    .venv/bin/python -m bench.venue              # 100 tables, 200 phones, --repeat 2
    .venv/bin/python -m bench.venue --quick      # 20 tables, 40 phones: a smoke run
    .venv/bin/python -m bench.venue --phones 0   # the keepers alone (where the time goes)
    .venv/bin/python -m bench.venue.costs        # each request's CPU, one at a time

A club runs the site at the venue on one laptop, on the embedded defaults (a SQLite file, the
folder broker, a file cache), phones on the local network. The moment that hurts is a round's
end: every table entering its hands at once. This measures that moment on this machine, the
load generator on it too:

- A temporary folder holds a fresh SQLite file (migrated), the folder broker, the file cache
  and static files (collected). An event of 3 x --tables players gets one published round
  (through tournaments.services, in this process), one event per repeat.
- The stack is bin/serve's: gunicorn with its flags (workers and threads read from bin/serve),
  the Celery worker with --beat and its pool, production settings (DJANGO_DEBUG=0), under
  bench.venue.settings (bench.floor.settings: the site plus the floor views; the broker's
  folders in the temporary folder, not var/celery/).
- Phase "floor", the baseline: every table's keeper posts --deals `POST
  /bench-floor/write/<id>/` (one write transaction on the game's row), each a think time
  (--think s, jittered 0.5-1.5x) after the last answer; all tables start at once. The phones
  poll `GET /bench-floor/read/<id>/` twice every --poll s (one row read each).
- Phase "site": the same burst through the real API (bench.site_load.clients): each keeper
  posts its --deals hands (`POST /api/games/{id}/deals`, the table's token, random valid
  deals, a redeal is a deal too; 2% sent twice), the last tricks when asked, then confirms as
  a phone does; the phones poll the sheet (`/games/{id}/sheet/?v=`) and the standings (the
  page's fragment for half of them, the API for the rest) every --poll s.
- Afterwards, through the ORM: every game holds exactly what its keeper sent, numbered 1..n,
  once each (0 lost, 0 doubled), is confirmed, and the worker's standings equal a fresh build.

The phases alternate (floor, site, then site, floor, ...), --repeat times, on one stack. It
prints p50/p95/p99 of the deals (site) and the writes (floor), their p95 ratio, the errors
(any unexpected status, any timeout), lost and doubled deals, the load average and the
machine, and writes bench/results/venue.json (venue-quick.json with --quick). A benchmark,
not a test: it asserts nothing, it reports. Run it under `flock /tmp/bench.lock`.

Its old deal-p95 target is retired: keepers posting as fast as they can
are a closed loop, whose latency is the queue its own clients build (Little's law), not
the site's speed or capacity. How many tables a stack serves is bench.capacity's open-loop
staircase; this burst stays a stress test of correctness (nothing lost, doubled or wrong).
"""
