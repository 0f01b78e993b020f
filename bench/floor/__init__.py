"""The floor of a request's cost: bare Django views on the site's own stack (settings,
middleware, database) doing a given database round trip and nothing else.

The cost benchmarks (bench.request_cost, bench.publish_rush, bench.venue) run the site with
``DJANGO_SETTINGS_MODULE=bench.floor.settings``: the site's settings and URLs unchanged, plus
these views under ``/bench-floor/``, so a page's cost and its floor are measured by the same
server in the same run. Never part of the site:
only the benchmarks' settings route to them.
"""
