"""Benchmark: the server's CPU per request, each against its floor.

    .venv/bin/python -m bench.request_cost            # → bench/results/request_cost.json
    .venv/bin/python -m bench.request_cost --quick    # fewer requests: a smoke run
    .venv/bin/python -m bench.request_cost --only table,sheet_render --without-templates

What a phone sends most during an event, measured one request at a time on one gunicorn
sync worker (production settings, DJANGO_DEBUG=0, under bench.floor.settings so the floor
views are served by the same process), PostgreSQL (a database of its own, `bench358_cost`,
dropped afterwards) and the Django cache on Redis (db 12, flushed; the broker is db 11):
entering a deal through the API; the watchers' sheet poll when a new deal makes the first
phone of a table render it, when the partial is kept for the other two, and when nothing
changed (204); the keeper's table page with the keeper's session; the standings poll, the
public page's fragment and the API, each revalidated with its ETag (304) and without (200).

The event: 3 × --tables players, round 1 played and confirmed (the standings have a
snapshot), round 2 in play with --deals deals at every table, made through the services.

The floor of a request is a bare Django view on the same stack (middleware, settings,
database connection) sending exactly the SQL the request sends, with the same parameters,
over one cursor, and answering a few bytes: the recipe is captured in this process around a
test-client call (bench/request_cost/recipes.py) and replayed by bench.floor.views.replay.
What a request costs above its floor is its own work: the ORM building and reading those
queries, templates, JSON, the engine, the cache.

CPU is the worker's own time on a CPU (/proc/<pid>/task/*/schedstat) over N sequential
requests, divided by N: the client, PostgreSQL and Redis are not counted, nor is the
machine's other load (it slows the wall clock, not the CPU time a request takes, up to
cache effects). Site and floor are measured alternately, --repeat times after a warm-up
round; the medians are compared. Target: site ≤ 2 × floor. For a kind that misses it,
--profile N requests are profiled in this process (bench/request_cost/profiling.py).
--only measures the named requests alone (a first render after the deal making its
version). --without-templates serves the site with every template rendered as an empty
string (bench/request_cost/untemplated.py): a page's cost above its floor that no template
engine could take away.

Prints a table and writes bench/results/request_cost.json (request_cost-quick.json with
--quick). A benchmark, not a test: it asserts nothing, it reports.
"""
