"""Benchmark: the publish rush.

    .venv/bin/python -m bench.publish_rush                    # PostgreSQL, then SQLite
    .venv/bin/python -m bench.publish_rush --backend sqlite   # one backend
    .venv/bin/python -m bench.publish_rush --quick            # 99 players, 300 requests
    .venv/bin/python -m bench.publish_rush --backend sqlite --sqlite-workers 4 --sqlite-threads 2
    .venv/bin/python -m bench.publish_rush --backend pg --pg-workers 4 --pg-threads 2

When a round of a 999-player event is published, every phone asks "where do I sit" and then
the round page, within seconds: 3000 requests spread over 10 s. The target is a p95 under
150 ms and no error, on PostgreSQL and on the embedded default (a SQLite file), measured
beside a floor in the same run.

For each backend, in one go: a fresh database (PostgreSQL: `bench358_rush` of its own,
dropped after; SQLite: a file in a temporary folder), `migrate`, `collectstatic`, and an event
of 999 players with round 1 paired as a draft through tournaments.services (in a subprocess,
bench/publish_rush/seed.py, so that each backend gets its own Django settings). Then
gunicorn with production settings under DJANGO_SETTINGS_MODULE=bench.floor.settings: on
PostgreSQL as bench/site_load runs it (5 gthread workers x 4 threads unless
--pg-workers/--pg-threads say otherwise, the cache on Redis, db 12 here, flushed); on SQLite
as bin/serve runs the venue laptop (its workers and threads unless
--sqlite-workers/--sqlite-threads say otherwise, a file cache, the folder broker, the access
log). Every gunicorn process serves a few pages of the event (the seat page among
them, which reads the event's seat map as it stands), then round 1 is published through the
services in another subprocess, its on-commit task (the round's pages written into the
shared cache) run there as the worker would, and timed (`published_s`). Then two phases, the
same phones and timing:

- floor: each visit sends its own two requests to `GET /bench-floor/replay/<recipe>/`: the
  SQL its seat question (asked as the visit asks it) and the round page sent, captured at
  the publish (bench/publish_rush/recipes.py), and a few bytes back: the visit's own
  database work on this stack, nothing of the pages' (it used to be two bare one-row
  reads, which was not the visit's work);
- site: each visit is a phone asking "where do I sit" for its player, then the round page
  (`/events/<slug>/rounds/1/`). 999 players, a third of them come back once or twice (a
  reload), 1500 visits in all, spread evenly over 10 s with jitter; each visit opens its
  own connection. How the seat is asked, as the page offers it: the name as typed (half:
  lower case, sometimes the spacing as thumbs type it), the link of "Which one are you?"
  (a fifth: name and player id), or the phone's "This is me" cookie (the rest, no query: the
  signed identity a proven phone keeps, tournaments.events.selectors.identity).

Before the publish, the phones wait (bench/publish_rush/waiting.py): every player's phone polls
the standings fragment every 15 s with its ETag (today's waiting phone), then, for as long,
"My next seat"'s few-byte version at its page's pace (VERSION_POLL_SECONDS, 4 s, or
`--next-poll-seconds`) with its ETag; `--wait-repeat` times each, in turn, `--wait-seconds`
each. The report's "waiting" compares the gunicorn CPU seconds of the two
(docs/performance.md says what the next-seat phones may cost). On SQLite
(the venue's server, which holds asks: config.parking) a third kind in turn, "held": the
same phones on "My next seat" as its page asks today, each ask held at the door until the
version moves or DOOR_WAIT_SECONDS pass (bench/publish_rush/held.py); the report compares
the gunicorn CPU per phone-minute of the three. Then round 1 is published among the held
phones ("held_publish"): each fetches its own part once its ask answers the new version,
and the report gives publish→seen seconds (p50, p95, from the publish's start). After the
floor and site phases, a third, "next": the same visits, each a waiting phone whose version
poll answers the new version and which then fetches its own part
(`/events/<slug>/next/live/`, its "This is me" cookie), checked to name its table.

Prints count, p50/p95/p99 and errors per endpoint, the site's p95 over the floor's, the load
average and the machine; writes bench/results/publish_rush.json (publish_rush-quick.json with
--quick). A benchmark, not a test: it asserts nothing, it reports. Run it under
`flock /tmp/bench.lock`: two benchmarks at once measure each other.
"""
