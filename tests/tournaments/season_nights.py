"""A club's nights played through the services, for the season tests (pages and browser)."""

from __future__ import annotations

import random

from scoring import autoplay
from tournaments.events.services.event import event_create, event_end
from tournaments.events.services.registration import players_register
from tournaments.models import Club, Event
from tournaments.results.services import result_confirm, standings_build
from tournaments.rounds.services.rounds import round_close, round_create, round_pair, round_publish

MEMBERS = ["Ana", "Boris", "Vera", "Georgi", "Dana", "Emil"]


def play_night(
    club: Club, name: str, names=MEMBERS, *, seed: int = 1, rounds: int = 1, close: bool = True
) -> Event:
    """An event of the club with these players, every round paired, played, confirmed and
    (unless `close` is False, leaving the night running) closed; its standings built."""
    event = event_create(club=club, name=name, rounds_planned=rounds, seed=seed)
    players_register(event=event, names=list(names), checked_in=True)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        round_ = round_create(event=event, actor="test")
        round_ = round_pair(round_id=round_.pk)
        round_publish(round_=round_, actor="test")
        for table in round_.tables.select_related("game").order_by("number"):
            autoplay.play(table.game, rng, actor="test")
            result_confirm(table=table, actor="test")
        if close or number < rounds:
            round_close(round_=round_, actor="test")
    if close:  # the night is over when its organiser ends it (docs/rounds.md)
        event_end(event=event, actor="test")
    standings_build(event_id=event.pk)
    event.refresh_from_db()
    return event
