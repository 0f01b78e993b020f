"""Reads for the event pages and the events API: few queries, whatever the field's size."""

from __future__ import annotations

from dataclasses import dataclass

from . import bridge
from .models import Event, Player, Round, Standings, Table


@dataclass(frozen=True)
class StandingsView:
    snapshot: Standings | None
    stale: bool
    names: dict[int, str]


def event_by_slug(slug: str) -> Event:
    return Event.objects.select_related("club").get(slug=slug)


def player_names(event: Event) -> dict[int, str]:
    return dict(Player.objects.filter(entries__event=event).values_list("pk", "name"))


def standings_latest(event: Event) -> StandingsView:
    """The newest stored standings, and whether results have come in since."""
    snapshot = event.standings.first()
    stale = snapshot is None or snapshot.results_stamp != bridge.results_stamp(event)
    return StandingsView(snapshot, stale, player_names(event))


def round_by_number(event: Event, number: int) -> Round:
    return event.rounds.get(number=number)


def round_tables(round_: Round) -> list[Table]:
    return list(
        round_.tables.select_related("seat_0", "seat_1", "seat_2", "game").order_by("number")
    )


def round_byes(round_: Round) -> list:
    return list(round_.byes.select_related("player").order_by("player__name"))


def published_rounds(event: Event):
    return event.rounds.filter(status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
