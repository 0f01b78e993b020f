"""The event: made before the load, and checked through the ORM afterwards."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .stack import queued


@dataclass
class TableInfo:
    number: int
    game_id: int
    secret: str
    ruleset: str
    options: dict
    first_dealer: int
    version: int
    sent: list[dict] = field(default_factory=list)  # the deals as finally recorded
    confirmed: bool = False


def make_event(tables: int, hands: int, seed: int, *, publish: bool = True):
    """An event of 3 × `tables` players with one published round (paired in this process:
    the setup is not what is measured); with `publish` false, the round is left a draft and
    no table is returned (`publish_first_round` publishes it)."""
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register
    from tournaments.models import Round
    from tournaments.rounds.services.rounds import round_create

    club = club_create(name=f"Bench club {seed}")
    event = event_create(
        club=club,
        name=f"Bench open {seed}",
        ruleset="blato",
        options={} if hands == 9 else {"hands": hands},
        rounds_planned=1,
        pairing_modes=["swiss"],
        seed=seed,
        actor="bench",
    )
    names = [f"Player {number:04d}" for number in range(1, 3 * tables + 1)]
    players_register(event=event, names=names, checked_in=True, actor="bench")
    round_ = round_create(event=event, actor="bench")  # paired eagerly on commit
    round_ = Round.objects.get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise RuntimeError(f"the round was not paired: {round_.status} {round_.build_error}")
    if not publish:
        return event, []
    return event, publish_first_round(event)


def publish_first_round(event) -> list[TableInfo]:
    """Publish the event's round 1, a draft, through the services; its tables as played."""
    from tournaments.models import Round
    from tournaments.rounds.services.rounds import round_publish

    round_ = Round.objects.get(event=event, number=1)
    round_publish(round_=round_, actor="bench")
    return [
        TableInfo(
            number=table.number,
            game_id=table.game.pk,
            secret=table.game.secret,
            ruleset=table.game.ruleset,
            options=table.game.options,
            first_dealer=table.game.first_dealer,
            version=table.game.version,
        )
        for table in round_.tables.select_related("game").order_by("number")
    ]


def wait_for_worker(event, args, since: float) -> dict:
    """Seconds from the last confirmation until the stored standings are built from the
    current results, and until the broker's queue is empty."""
    from django.db import close_old_connections

    from tournaments.results.selectors import standings_current

    current = empty = None
    deadline = time.monotonic() + args.catchup_timeout
    while time.monotonic() < deadline and (current is None or empty is None):
        close_old_connections()
        now = time.monotonic()
        if current is None:
            if standings_current(event) is not None:
                current = now - since
        if empty is None and queued(args.redis) == 0:
            empty = now - since
        time.sleep(0.2)
    return {
        "standings_current_after_s": None if current is None else round(current, 2),
        "queue_empty_after_s": None if empty is None else round(empty, 2),
    }


def check(event, tables: list[TableInfo]) -> dict:
    """Every deal stored exactly once, every game confirmed, standings equal a fresh build."""
    from scoring.models import DealEntry, Game, GameChange
    from tournaments import standings
    from tournaments.common import bridge

    ids = [table.game_id for table in tables]
    stored = defaultdict(list)
    for entry in DealEntry.objects.filter(game_id__in=ids).order_by("game_id", "number", "pk"):
        stored[entry.game_id].append(entry)
    logged = Counter(
        GameChange.objects.filter(
            game_id__in=ids, action=GameChange.Action.DEAL_RECORDED
        ).values_list("game_id", flat=True)
    )
    results = dict(Game.objects.filter(pk__in=ids).values_list("pk", "result"))
    lost = doubled = wrong = unconfirmed = 0
    problems = []
    for table in tables:
        rows = stored[table.game_id]
        live = [row for row in rows if row.undone_at is None]
        numbers = [row.number for row in live]
        sent = len(table.sent)
        lost += max(0, sent - len(set(numbers)))
        doubled += (len(numbers) - len(set(numbers))) + (len(rows) - len(live))
        doubled += max(0, logged[table.game_id] - sent)
        if numbers != list(range(1, sent + 1)) or [r.as_record() for r in live] != table.sent:
            wrong += 1
            if len(problems) < 10:
                problems.append(f"game {table.game_id}: stored {numbers}, sent {sent}")
        if results[table.game_id] != Game.Result.CONFIRMED:
            unconfirmed += 1
    latest = event.standings.first()
    fresh = standings.build_standings(
        *bridge.standings_inputs(event), bridge.standings_config(event)
    )
    fresh_rows = [row.as_dict() for row in fresh]
    hands = Counter(
        sum(1 for deal in table.sent if "tricks" in deal) for table in tables if table.sent
    )
    return {
        "games": len(tables),
        "deals_sent": sum(len(table.sent) for table in tables),
        "deals_stored_live": sum(
            sum(1 for row in stored[t.game_id] if row.undone_at is None) for t in tables
        ),
        "deals_per_game": dict(sorted(Counter(len(t.sent) for t in tables).items())),
        "hands_per_game": dict(sorted(hands.items())),
        "lost_deals": lost,
        "doubled_deals": doubled,
        "games_not_as_sent": wrong,
        "games_not_confirmed": unconfirmed,
        "standings_rows": len(latest.rows) if latest else 0,
        "standings_equal_fresh_build": latest is not None and latest.rows == fresh_rows,
        "standings_snapshots_stored": event.standings.count(),
        "problems": problems,
    }
