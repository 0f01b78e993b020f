"""A club's nights played through the services, for the season tests (pages and browser)."""

from __future__ import annotations

import random

from scoring import autoplay
from tournaments import services
from tournaments.models import Club, Event

MEMBERS = ["Ana", "Boris", "Vera", "Georgi", "Dana", "Emil"]


def play_night(
    club: Club, name: str, names=MEMBERS, *, seed: int = 1, rounds: int = 1, close: bool = True
) -> Event:
    """An event of the club with these players, every round paired, played, confirmed and
    (unless `close` is False, leaving the night running) closed; its standings built."""
    event = services.event_create(club=club, name=name, rounds_planned=rounds, seed=seed)
    services.players_register(event=event, names=list(names), checked_in=True)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        round_ = services.round_create(event=event, actor="test")
        round_ = services.round_pair(round_id=round_.pk)
        services.round_publish(round_=round_, actor="test")
        for table in round_.tables.select_related("game").order_by("number"):
            autoplay.play(table.game, rng, actor="test")
            services.result_confirm(table=table, actor="test")
        if close or number < rounds:
            services.round_close(round_=round_, actor="test")
    services.standings_build(event_id=event.pk)
    event.refresh_from_db()
    return event
