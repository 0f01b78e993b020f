"""The event of a publish rush, made in a process of its own (each backend has its own
settings, and Django is set up once a process), in two steps as an organiser's evening has
them: the round paired as a draft before the site warms up, then published while it runs.

    DATABASE_URL=... python -m bench.publish_rush.seed --players 999      # prints the event
    DATABASE_URL=... python -m bench.publish_rush.seed --publish <event>  # prints its seats

Both print JSON. The publish runs its own task on commit (the round's pages written into
the shared cache, tournaments.rounds.render) eagerly here, where the site's worker
would run it: the phones' first asks come a few seconds after an organiser's publish.
After it, when $BENCH_FLOOR_RECIPES names a file, the floor's recipes are captured there
(bench.publish_rush.recipes: the SQL of each request of a visit).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bench.request_cost.recipes import RECIPES_ENV


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.publish_rush.seed")
    parser.add_argument("--players", type=int, help="a multiple of 3: make the event")
    parser.add_argument("--publish", type=int, help="an event's id: publish its round 1")
    parser.add_argument("--seed", type=int, default=358)
    args = parser.parse_args(argv)
    if (args.players is None) == (args.publish is None):
        parser.error("give --players or --publish")

    import django

    django.setup()
    from bench.site_load.event import make_event, publish_first_round
    from tournaments.events.selectors.identity import identity_value
    from tournaments.models import Event, Round

    if args.players is not None:
        event, _ = make_event(args.players // 3, 9, args.seed, publish=False)
        # Each phone's "This is me" already (the phones wait on "My next seat" before the
        # publish: bench/publish_rush/held.py).
        phones = [
            {"id": entry.player_id, "me": identity_value(entry)} for entry in event.entries.all()
        ]
        json.dump(
            {"slug": event.slug, "event_id": event.pk, "round": 1, "phones": phones}, sys.stdout
        )
        return 0
    import time

    from tournaments.common import queue

    event = Event.objects.get(pk=args.publish)
    # The clock the load generator's phones read too: the publish's start, its commit (its
    # first task enqueued on commit: the pre-render, run here at once as the worker would
    # start it) and its end.
    committed = []
    enqueue_now = queue.enqueue_now

    def enqueued(name, *task_args):
        committed.append(time.time())
        return enqueue_now(name, *task_args)

    queue.enqueue_now = enqueued
    started_at = time.time()
    publish_first_round(event)
    done_at = time.time()
    queue.enqueue_now = enqueue_now
    round_ = Round.objects.get(event=event, number=1)
    # Each phone's "This is me" (the signed cookie a proven phone keeps: My next seat).
    me = {entry.player_id: identity_value(entry) for entry in event.entries.all()}
    players = [
        {
            "id": player.pk,
            "name": player.name,
            "game_id": table.game_id,
            "table": table.number,
            "me": me[player.pk],
        }
        for table in round_.tables.select_related("seat_0", "seat_1", "seat_2")
        for player in table.seats
    ]
    found = {}
    if os.environ.get(RECIPES_ENV):
        from .recipes import capture

        found = capture(event, players, Path(os.environ[RECIPES_ENV]))
    publish_at = [started_at, min(committed, default=done_at), done_at]
    json.dump({"players": players, "recipes": found, "publish_at": publish_at}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
