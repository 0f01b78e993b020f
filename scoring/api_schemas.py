"""The shapes of the games API's answers (scoring.api), for its OpenAPI schema: a game, the
engine's state of it (../shared/spec/engine.md, "Game state": all its keys always present, the
per-seat lists by seat), a refusal because the game moved on. Declarations only: the views
build each answer themselves (config.api_schema, ``Out``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, create_model

from config.api_schema import Out, absent


class CallOut(Out):
    seat: int
    call: str


#: One exchange of cards before a hand (its keys: ``from`` is a word Python keeps for itself).
TransferOut = create_model(
    "TransferOut",
    __base__=Out,
    __doc__="Cards passed before a hand, from one seat to another.",
    **{
        "from": (int, Field(description="the seat that gives")),
        "to": (int, Field(description="the seat that receives")),
        "cards": (int, Field(description="how many cards")),
    },
)


class DealOut(Out):
    """One deal as played: a hand, or a redeal (no hand, contract, tricks nor points)."""

    deal: int
    hand: int | None
    dealer: int
    targets: list[int]
    caller: int
    calls: list[CallOut]
    contract: str | None
    declarer: int | None
    redeal: bool
    exchange: list[TransferOut] = Field(description="the transfers before this hand, in order")
    tricks: list[int] | None
    points: list[int] | None
    totals: list[int] = Field(description="the running totals after this deal")


class NextDealOut(Out):
    """The deal to be entered next."""

    deal: int = Field(description="the number a new deal must be sent with")
    hand: int
    dealer: int
    targets: list[int]
    caller: int
    allowed_calls: list[str] = Field(description="the calls open to the next caller")
    exchange: list[TransferOut] = Field(description="the transfers due before the next hand")


class NeedsOut(Out):
    last_tricks: int = Field(description="give the winners of at least this many last tricks")


class GameStateOut(Out):
    """The engine's state of the game (``python -m engine replay``)."""

    ruleset: str
    deals: list[DealOut]
    totals: list[int]
    passes_left: list[int] = Field(description="the passes each seat may still make")
    finished: bool
    next: NextDealOut | None = Field(description="null once the game is finished")
    placings: list[int] | None = Field(description="when settled: the seats from first to last")
    needs: NeedsOut | None = Field(description="what a tie-break still needs; else null")


class GameOut(Out):
    id: int
    players: list[str] = Field(description="the players' names, by seat")
    state: GameStateOut
    version: int = Field(description="goes up with every change; send it back with a write")


class GameCreated(GameOut):
    token: str = Field(description="the table's secret: shown here only (and to organisers)")
    url: str = Field(description="the table's page")


class RecordOut(Out):
    """A deal as a write sends it (its values as sent: the engine judges them)."""

    deal: Any
    calls: Any = absent("the calls, in order")
    tricks: Any = absent("tricks won, by seat")
    last_tricks: Any = absent("the seats that won the last tricks, most recent first")


class Side(Out):
    version: int | None
    deal: RecordOut | None = Field(
        None, description="deal n as this side has it; null: not recorded"
    )


class StaleDetail(Out):
    message: str
    yours: Side | None = None
    current: Side | None = None


class StaleOut(Out):
    """A write refused because the game moved on: both sides, and the state as it is."""

    error: StaleDetail
    state: GameStateOut | None = None
    version: int | None = None
