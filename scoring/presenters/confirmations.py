"""Who has confirmed a result, as the table pages, the player's own page and the organiser's
round page show it: each seat claimed or not (and how it was proven), agreed or disputed (and
why), the keeper's word, and how many agreements the quorum still needs."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.models import Game, GameChange, Quorum, SeatClaim
from scoring.selectors import dispute_answer
from scoring.services.verdicts import (
    SEATS,
    counted_seats,
    current_verdicts,
    still_to_confirm,
    waiting_for,
)
from scoring.words import signed


@dataclass(frozen=True)
class SeatWord:
    seat: int
    name: str
    claimed: bool
    mine: bool
    #: "agreed", "disputed", or "" (nothing said on this version of the result)
    said: str
    reason: str
    #: How the claim was proven (SeatClaim.Proof), "" when the seat is not claimed.
    proof: str = ""
    #: Whether this seat's word counts towards the quorum (proven where proof is needed).
    counts: bool = False

    @property
    def proof_label(self) -> str:
        return str(SeatClaim.Proof(self.proof).label) if self.proof else ""


@dataclass(frozen=True)
class Board:
    game_id: int
    seats: list[SeatWord]
    keeper_agreed: bool
    quorum: str
    quorum_label: str
    #: Agreements still needed before the result locks (0 once locked).
    waiting: int
    #: Whether the keeper's word is missing, the seats that may still agree, how many must.
    still: tuple[bool, list[int], int]
    #: The result can be agreed with or disputed now (finished, settled, not locked).
    open: bool
    confirmed: bool
    my_seat: int | None
    #: (place, name, total signed as every score is: "+6", "−2"), first to last, once the
    #: placings are settled.
    placings: list[tuple[int, str, str]]
    #: The organiser's answer to the newest dispute, in a sentence ("" when none).
    answer: str = ""

    @property
    def disputes(self) -> list[SeatWord]:
        return [seat for seat in self.seats if seat.said == "disputed"]

    @property
    def mine(self) -> SeatWord | None:
        return None if self.my_seat is None else self.seats[self.my_seat]

    @property
    def claimed(self) -> bool:
        return any(seat.claimed for seat in self.seats)

    @property
    def unclaimed(self) -> list[SeatWord]:
        return [seat for seat in self.seats if not seat.claimed]

    @property
    def waiting_line(self) -> str:
        """Who the result still waits for, in people: "Waiting for Boris and Vera"."""
        keeper_missing, open_seats, needed = self.still
        if self.confirmed:
            return ""
        names = [self.seats[seat].name for seat in open_seats]
        if needed and needed == len(names):
            return _("Waiting for %(names)s.") % {"names": names_and(names)}
        if needed == 1:
            return _("Waiting for %(names)s.") % {"names": names_or(names)}
        if needed:
            return _("Waiting for %(n)s of %(names)s.") % {"n": needed, "names": names_and(names)}
        if keeper_missing:
            return _("Waiting for the score-keeper.")
        return ""

    @property
    def asks_players(self) -> bool:
        """Whether the players' own confirmations count towards the lock."""
        return self.quorum != Quorum.KEEPER


def board(game: Game, holder: str | None = None) -> Board:
    """The confirmations of the game's current version, seen from the phone whose holder
    digest is `holder` (None: nobody's)."""
    rows = list(game.claims.all())
    claims = {claim.seat: claim.holder for claim in rows}
    proofs = {claim.seat: claim.proof for claim in rows}
    counted = counted_seats(game)
    # A locked result shows the words it was locked on (the lock itself is one version on).
    verdicts = current_verdicts(game, game.version - 1 if game.confirmed else None)
    my_seat = next((seat for seat, h in claims.items() if holder and h == holder), None)
    seats = []
    for seat in SEATS:
        verdict = verdicts.get(seat)
        said = "" if verdict is None else ("agreed" if verdict.agrees else "disputed")
        seats.append(
            SeatWord(
                seat=seat,
                name=game.players[seat],
                claimed=seat in claims,
                mine=seat == my_seat,
                said=said,
                reason=verdict.reason if verdict is not None else "",
                proof=proofs.get(seat, ""),
                counts=seat in counted,
            )
        )
    keeper = verdicts.get(None)
    return Board(
        game_id=game.pk,
        seats=seats,
        keeper_agreed=game.confirmed or (keeper is not None and keeper.agrees),
        quorum=game.quorum,
        quorum_label=str(Quorum(game.quorum).label),
        waiting=waiting_for(game),
        still=still_to_confirm(game),
        open=game.confirmable and not game.confirmed,
        confirmed=game.confirmed,
        my_seat=my_seat,
        placings=[
            (place, game.players[seat], signed(game.totals[seat]) if game.totals else "")
            for place, seat in enumerate(game.placings or [], start=1)
        ],
        answer=answer_line(game),
    )


def answer_line(game: Game) -> str:
    """The organiser's answer to the newest dispute, as the disputing player reads it."""
    answer = dispute_answer(game)
    if answer is None:
        return ""
    if answer.action == GameChange.Action.REOPENED:
        return _("The organiser reopened the result: “%(words)s”") % {"words": answer.words}
    return _("The organiser confirmed the result: “%(words)s”") % {"words": answer.words}


def names_and(names: list[str]) -> str:
    """ "Vera", "Boris and Vera", "Ana, Boris and Vera" (a table's three at most)."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def names_or(names: list[str]) -> str:
    """ "Vera", "Boris or Vera": any one of them will do."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s or %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def said_line(seat: SeatWord) -> str:
    """ "Vera says: the 3rd deal was 5 tricks, not 4." """
    return _("%(name)s says: %(reason)s") % {"name": seat.name, "reason": seat.reason}
