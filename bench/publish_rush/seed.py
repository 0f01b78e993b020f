"""The event of a publish rush, made in a process of its own (each backend has its own
settings, and Django is set up once a process): prints what the phones need as JSON.

    DATABASE_URL=... python -m bench.publish_rush.seed --players 999
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.publish_rush.seed")
    parser.add_argument("--players", type=int, required=True, help="a multiple of 3")
    parser.add_argument("--seed", type=int, default=358)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from bench.site_load.event import make_event
    from tournaments.models import Round

    event, tables = make_event(args.players // 3, 9, args.seed)
    round_ = Round.objects.get(event=event, number=1)
    players = [
        {"id": player.pk, "name": player.name, "game_id": table.game_id, "table": table.number}
        for table in round_.tables.select_related("seat_0", "seat_1", "seat_2")
        for player in table.seats
    ]
    json.dump(
        {"slug": event.slug, "event_id": event.pk, "round": 1, "players": players}, sys.stdout
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
