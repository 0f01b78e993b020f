"""Benchmark: the site under a tournament's load.

    .venv/bin/python -m bench.site_load --repeat 2     # a tournament's load, measured twice
    .venv/bin/python -m bench.site_load --fragment-share 0 --repeat 2 \
        --out bench/results/site_load-api.json         # the phones on the API only
    .venv/bin/python -m bench.site_load --quick        # 30 tables, 90 phones: a smoke run

A run's load is meant to last about 3 minutes (--duration 120 s a game, plus redeals and the
confirmations); when the site cannot keep up it lasts longer (docs/performance.md). What
runs, all on this machine, on loopback: gunicorn serving `config.wsgi` with production
settings (DJANGO_DEBUG=0, 5 gthread workers of 4 threads), PostgreSQL (a database of its own,
`bench358`, dropped and made again by `migrate` on every run), a Celery worker on Redis
(db 14, flushed), the Django cache shared on Redis as docs/deploy.md has it for several
workers (db 13, flushed; `--cache ""` for local memory in each process), and this process
driving the load with asyncio (httpx for the keepers, a small keep-alive client of its own
for the phones, see Connection):

- The keepers: an event of 3 × --tables players gets one published swiss round (made here,
  through tournaments.services). Every table's keeper enters its whole game at once with the
  others, through the API (`POST /api/games/{id}/deals` with the table's token): random but
  valid deals (scoring.autoplay.next_deal, against a copy of the engine kept client-side),
  --deals hands each (a redeal is a deal too, so 9 hands are 9 to 12 deals), with a think time
  between deals so the game takes about --duration seconds. About 2% of deals are sent twice,
  as a phone on a bad network would (the second must answer 200 and record nothing), and the
  last tricks are PATCHed when the state asks for them (`state.needs`). Then the result is
  confirmed the way a phone does it: the keeper's link (a session), the table page (its CSRF
  token) and the confirm form. Each confirmation enqueues a standings build on the worker.
- The phones: --phones clients, each following one table and the standings, each on its own
  poll every --poll seconds (jittered, as htmx timers drift): the table's
  `GET /games/{id}/sheet/?v=<version>` (204 while unchanged, else the fresh partial, whose
  next poll URL carries the new version; a confirmed sheet stops polling, as the page does),
  and the standings with the ETag of the last answer (as a browser revalidates), through the
  public page's fragment `/events/<slug>/standings/live/` for --fragment-share of the phones
  and `GET /api/events/{slug}/standings` (scoreboards, scripts) for the rest.

Afterwards it waits for the worker to catch up (the newest stored standings built from the
current results) and checks, through the ORM: every game holds exactly the deals its keeper
sent, once each, numbered 1..n, with one "deal recorded" change each, and is confirmed; the
stored standings equal a fresh build (`bridge.standings_inputs` + `standings.build_standings`).

CPU (the confirmation rush may use at most half the machine, 100 % of its 200 %):
besides each process's CPU seconds over the run (`cpu_seconds`), a thread of this process
(bench/site_load/cpu.py) reads /proc every --cpu-every seconds (2) through the load and the
worker's catch-up: utime + stime of gunicorn (the master and its workers), the Celery worker
(and its children), PostgreSQL (every `postgres` process: the whole server, which other work
on this machine may share, not only this run's database), Redis (every `redis-server`, shared
likewise) and this process (the load generator), and the machine's busy share from /proc/stat.
Each sample gives every group in % of one core; the stack is gunicorn + worker + PostgreSQL +
Redis. The confirmation rush is the window from the first keeper opening their link (after
their game's last deal) to the last confirm form answered, or to the moment the worker's
standings were current if later. For it and for the whole load the JSON's `cpu` section gives
the mean and peak of each group and of the stack, and the stack's share of the machine
(100 % = every core) against the 50 % target; the samples are there too.

Prints a table per run and writes them all to bench/results/site_load.json (or --out;
site_load-quick.json with --quick), with a timeline (requests a second and p95 per 15 s).
Every process it starts is stopped when it ends, whatever happens; the database is dropped
unless --keep-db. A benchmark, not a test: it asserts nothing, it reports.
"""
