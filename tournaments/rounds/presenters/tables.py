"""A round's tables in words, for the public round page, the projector, "where do I sit" and a
player's page: who sits where, who deals first, each game's state, totals and placings; a
table's state in words (state_words) wherever it is shown."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from scoring.models import Game
from scoring.selectors import from_hand
from tournaments.common.vocabulary import TableStatus
from tournaments.models import Round, Table
from tournaments.rounds.selectors import TableState, table_state

PLACES = {
    1: pgettext_lazy("placing", "1st"),
    2: pgettext_lazy("placing", "2nd"),
    3: pgettext_lazy("placing", "3rd"),
}


def state_words(state: TableState) -> str:
    """A table's state in words: the one wording of the round pages (public and organiser's),
    the table page, a player's page, the projector, the exports and the standings' notes."""
    if not state.published:
        return _("no game yet")
    if state.status == TableStatus.VOID:
        return _("void, set aside by the organisers")
    if state.status == TableStatus.ADJUSTED:
        return _("adjusted result, confirmed")
    if state.ended_early:
        return _("ended as it stood, confirmed")
    if state.ended_at_time:
        return _("ended at time as it stood (round clock), confirmed")
    if state.status == TableStatus.CONFIRMED:
        return _("confirmed")
    if state.status == TableStatus.FINISHED:
        if not state.placed:
            return _("finished — the last tricks are needed")
        return _("finished, waiting for confirmation")
    if state.deals is None:
        return _("in play")
    if not state.deals:
        return _("not started")
    return ngettext("in play: %(n)s deal", "in play: %(n)s deals", state.deals) % {"n": state.deals}


def settled_labelled(tables: list[Table]) -> list[Table]:
    """The tables the organisers settled, each with `label` (its state in words), for the
    note under the public standings."""
    for table in tables:
        table.label = state_words(table_state(table))
    return tables


def player_notes(tables: list[Table]) -> dict[int, list[str]]:
    """Per player, the rounds whose result was not simply played out (`tables`: those settled,
    ended at time or substituted, rounds.services.walkouts.changed_tables), for the standings
    export's table notes: where a row's numbers need a word."""
    notes: dict[int, list[str]] = {}
    for table in tables:
        where = {"n": table.round.number, "t": table.number}
        if table.outcome != Table.Outcome.PLAYED:
            label = state_words(table_state(table))
            for player in table.seat_ids:
                notes.setdefault(player, []).append(
                    _("round %(n)s table %(t)s: %(what)s") % {**where, "what": label}
                )
        for move in table.substitutions:
            notes.setdefault(move["joined"], []).append(
                _("round %(n)s table %(t)s: substitute from hand %(d)s")
                % {**where, "d": from_hand(move)}
            )
            notes.setdefault(move["left"], []).append(
                _("round %(n)s table %(t)s: left, no game") % where
            )
    return notes


def round_over(round_: Round | None) -> bool:
    """Whether a public round is over (closed) rather than being played: the templates ask
    this flag, never the stored status."""
    return round_ is not None and round_.is_closed


@dataclass(frozen=True)
class SeatLine:
    seat: int  # 1, 2 or 3, as players count
    player_id: int
    name: str
    deals_first: bool
    total: int | None
    place: str  # "1st" once the game has placings, else ""
    first: bool  # first place


@dataclass(frozen=True)
class TableLine:
    number: int
    game_id: int | None
    seats: list[SeatLine]
    dealer: SeatLine
    state: str
    result: str  # the game's result code ("in_play", "finished", "confirmed", "void"), or ""
    outcome: str = "played"  # how the organisers settled it (Table.Outcome: "adjusted", ...)

    @property
    def settled(self) -> bool:
        """The organisers settled the table after a walkout (adjusted, ended early, void)."""
        return self.outcome != Table.Outcome.PLAYED

    @property
    def void(self) -> bool:
        """The game was set aside by the organisers."""
        return self.result == Game.Result.VOID

    def seat_of(self, player_id: int) -> SeatLine | None:
        return next((line for line in self.seats if line.player_id == player_id), None)

    def others(self, player_id: int) -> list[SeatLine]:
        return [line for line in self.seats if line.player_id != player_id]


def table_line(table: Table) -> TableLine:
    """A table in words (read with its live deal count, `deals`, by the selectors)."""
    game = table.game
    deals = table.deals
    shows_totals = game is not None and (deals > 0 or game.result != Game.Result.IN_PLAY)
    placings = list(game.placings) if game is not None and game.placings is not None else []
    seats = []
    for seat, player in enumerate(table.seats):
        total = game.totals[seat] if shows_totals and len(game.totals) == 3 else None
        place = PLACES[placings.index(seat) + 1] if seat in placings else ""
        seats.append(
            SeatLine(
                seat=seat + 1,
                player_id=player.pk,
                name=player.name,
                deals_first=seat == table.first_dealer,
                total=total,
                place=str(place),
                first=bool(placings) and placings[0] == seat,
            )
        )
    return TableLine(
        number=table.number,
        game_id=table.game_id,
        seats=seats,
        dealer=seats[table.first_dealer],
        state=state_words(table_state(table, deals)),
        result=game.result if game is not None else "",
        outcome=table.outcome,
    )
