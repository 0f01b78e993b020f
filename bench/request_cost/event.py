"""The event the requests are made on: one round played and confirmed (so the standings
have a snapshot and rows), the next round in play with a few deals at every table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Table:
    """One table of the round in play, as its keeper's phone knows it."""

    game_id: int
    secret: str
    rules: object  # the engine's game, played on client-side to send valid deals
    cookies: dict[str, str] = field(default_factory=dict)  # the keeper's session, on the server
    version: int = 0


def make_event(tables: int, deals: int, seed: int):
    """3 × `tables` players; round 1 played to its end and confirmed; round 2 published with
    `deals` deals at every table. Celery runs eagerly in this process (the setup is not what
    is measured), so the standings are built when round 1 closes."""
    import engine
    from scoring import autoplay
    from scoring.models import Game
    from scoring.selectors import game_record
    from tournaments.events.services.event import club_create, event_create
    from tournaments.events.services.registration import players_register
    from tournaments.models import Round
    from tournaments.results.selectors import standings_current
    from tournaments.results.services import result_confirm
    from tournaments.rounds.services.rounds import round_close, round_create, round_publish

    rng = random.Random(seed)
    club = club_create(name=f"Cost club {seed}")
    event = event_create(
        club=club,
        name=f"Cost open {seed}",
        ruleset="blato",
        options={},
        rounds_planned=2,
        pairing_modes=["swiss"],
        seed=seed,
        actor="bench",
    )
    names = [f"Player {number:04d}" for number in range(1, 3 * tables + 1)]
    players_register(event=event, names=names, checked_in=True, actor="bench")
    for number in (1, 2):
        round_ = Round.objects.get(pk=round_create(event=event, actor="bench").pk)
        if round_.status != Round.Status.DRAFT:
            raise RuntimeError(f"round {number} was not paired: {round_.build_error}")
        round_publish(round_=round_, actor="bench")
        played = list(round_.tables.select_related("game").order_by("number"))
        for table in played:
            autoplay.play(table.game, rng, deals=None if number == 1 else deals, actor="bench")
            if number == 1:
                result_confirm(table=table, actor="bench")
        if number == 1:
            round_close(round_=round_, actor="bench")
            if standings_current(event) is None:
                raise RuntimeError("round 1's standings were not built")
    games = Game.objects.filter(pk__in=[table.game_id for table in played]).order_by("pk")
    return event, [
        Table(
            game_id=game.pk,
            secret=game.secret,
            rules=engine.game_from_record(game_record(game)),
            version=game.version,
        )
        for game in games
    ]
