"""The table page: everything it shows, from one replay of the live deals."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

import engine
from engine.rulesets import ExchangeTiming
from scoring import selectors
from scoring.models import DealEntry, Game
from scoring.presenters.numbering import deal_title, hand_title
from scoring.presenters.rulesets import end_sentences
from scoring.presenters.sentences import (
    CallMadeView,
    call_made,
    end_sentence,
    exchange_sentence,
    reason_sentence,
    tie_sentence,
)
from scoring.presenters.settled import settled_by_hand
from scoring.words import (
    RED_SUITS,
    SUIT_SYMBOLS,
    actor_name,
    call_label,
    direction_sentence,
    ruleset_label,
    short_names,
    signed,
)


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    target: int | None
    total: str
    short: str  # as the narrow places show it (short_names); the full name is read out
    dealer: bool
    caller: bool
    to_call: bool
    passes_left: int | None  # None where the ruleset has no pass


@dataclass(frozen=True)
class CallChoice:
    value: str
    label: str
    symbol: str
    red: bool
    is_pass: bool


@dataclass
class ExchangeView:
    """The card exchange due before this hand, worded."""

    note: str = ""
    sentences: list[str] = field(default_factory=list)


@dataclass
class DealView:
    """The deal being entered: who deals, targets, the calls so far, the exchange."""

    number: int
    hand: int
    heading: str
    dealer_name: str
    seats: list[SeatView]
    exchange: ExchangeView
    calls_made: list[CallMadeView]
    calls_value: str  # the calls so far, comma-separated, for hidden fields
    to_call_name: str = ""
    choices: list[CallChoice] = field(default_factory=list)
    contract: CallMadeView | None = None
    calls_error: str = ""


@dataclass(frozen=True)
class PlacingView:
    place: int
    name: str
    total: str


@dataclass(frozen=True)
class SheetCell:
    tricks: int
    points: str
    total: str
    target: int


@dataclass
class TableView:
    game: Game
    names: list[str]
    ruleset: engine.Ruleset
    ruleset_name: str
    direction: str
    play_order: str
    goal_line: str
    state: engine.GameState
    tricks_per_hand: int
    rows: list[dict]
    totals: list[str]
    deal: DealView | None = None
    end_sentence: str = ""
    placings: list[PlacingView] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    needs_last_tricks: int | None = None
    last_tricks_given: tuple[int, ...] = ()
    last_deal_number: int = 0
    sheet_names: list[str] = field(default_factory=list)
    tie_sentence: str = ""

    @property
    def step(self) -> str:
        if self.deal is None:
            return "end"
        return "tricks" if self.deal.contract else "call"

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def confirmed(self) -> bool:
        return self.game.confirmed

    @property
    def confirmed_by(self) -> str:
        """Who confirmed, as the reader's language names them (the round clock, a table)."""
        return actor_name(self.game.confirmed_by)

    @property
    def can_confirm(self) -> bool:
        """The confirmation is offered under the result, once the sheet is played out; whether
        the result may be confirmed is the game's one rule (Game.confirmable)."""
        return self.finished and self.game.confirmable

    @property
    def can_undo(self) -> bool:
        return self.last_deal_number > 0 and not self.confirmed


def _goal_line(options: engine.Options, ruleset: engine.Ruleset) -> str:
    return " ".join(end_sentences(options, ruleset))


def _deal_heading(hand: int, options: engine.Options) -> str:
    """The hand being entered, as the players count it (presenters.numbering): a redeal
    deals the same hand again."""
    values = {"hand": hand, "hands": options.hands}
    if options.hands is not None:
        return _("Hand %(hand)s of %(hands)s") % values
    return hand_title(hand)


def _exchange_view(
    game: engine.Game, names: list[str], made: engine.CallMade | None, hand: int
) -> ExchangeView:
    ruleset = game.rules.ruleset
    contract = made.call if made else None
    if ruleset.exchange is ExchangeTiming.NEVER:
        return ExchangeView()
    if hand == 1:
        return ExchangeView(note=_("No card exchange in the first hand."))
    if contract is not None and contract in ruleset.exchange_skipped_after:
        return ExchangeView(
            note=_("%(name)s called %(call)s: no card exchange this hand.")
            % {"name": names[made.seat], "call": call_label(contract.name)}
        )
    transfers = game.exchange_due(contract)
    if not transfers:
        return ExchangeView(note=_("No card exchange: nobody was up in the last hand."))
    if contract is not None:
        note = _("Before the play:")
    elif ruleset.exchange is ExchangeTiming.BEFORE_CALL:
        note = _("Before the call:")
    elif ruleset.exchange_skipped_after:
        note = _("Only if a suit is called, not after %(calls)s:") % {
            "calls": ", ".join(call_label(c.name) for c in ruleset.exchange_skipped_after)
        }
    else:
        note = _("After the call:")
    return ExchangeView(note=note, sentences=[exchange_sentence(t, names) for t in transfers])


def _calls_so_far(
    game: engine.Game, calls: list[str], for_deal: int | None, upcoming: int
) -> engine.Auction | None:
    """The next deal's calls the page holds, or None when they no longer fit: they were made
    for another deal, the rules refuse one, or they end in a redeal (recorded at once, a
    redeal never waits on the page)."""
    auction = game.auction()
    if calls and for_deal != upcoming:
        return None
    try:
        for name in calls:
            auction = auction.call(name)
    except engine.RuleError:
        return None
    return None if auction.redeal else auction


def _deal_view(
    game: engine.Game, names: list[str], calls: list[str], for_deal: int | None
) -> DealView:
    upcoming = game.state().next
    auction = _calls_so_far(game, calls, for_deal, upcoming.number)
    calls_error = ""
    if auction is None:
        auction = game.auction()
        calls_error = _("Those calls no longer fit this deal: start the calls again.")
    passes = game.rules.ruleset.passes_per_game
    to_call = auction.to_call
    shorts = short_names(names)
    seats = [
        SeatView(
            seat=seat,
            name=names[seat],
            target=upcoming.targets[seat],
            total=signed(game.totals[seat]),
            short=shorts[seat],
            dealer=seat == upcoming.dealer,
            caller=seat == upcoming.caller,
            to_call=seat == to_call,
            passes_left=auction.entitlements.passes_left[seat] if passes else None,
        )
        for seat in range(3)
    ]
    contract = auction.contract
    view = DealView(
        number=upcoming.number,
        hand=upcoming.hand,
        heading=_deal_heading(upcoming.hand, game.rules.options),
        dealer_name=names[upcoming.dealer],
        seats=seats,
        exchange=_exchange_view(game, names, contract, upcoming.hand),
        calls_made=[call_made(made, names) for made in auction.calls],
        calls_value=",".join(made.call.name for made in auction.calls),
        calls_error=calls_error,
    )
    if contract is not None:
        view.contract = call_made(contract, names)
    else:
        view.to_call_name = names[to_call]
        view.choices = [
            CallChoice(
                value=call.name,
                label=call_label(call.name),
                symbol=SUIT_SYMBOLS[call.trump] if call.trump else "",
                red=call.trump in RED_SUITS,
                is_pass=call.is_pass,
            )
            for call in auction.allowed_calls()
        ]
    return view


def _sheet_rows(state: engine.GameState, names: list[str]) -> list[dict]:
    """One row per deal (redeals included), worded."""
    rows = []
    played = 0
    for deal in state.deals:
        played += 0 if deal.redeal else 1
        if deal.redeal:
            # One pass redeals at once, or (pass_turns) everyone passed.
            call = (
                _("Redeal: %(name)s passed.") % {"name": names[deal.calls[0].seat]}
                if len(deal.calls) == 1
                else _("Redeal: everyone passed.")
            )
        else:
            call = _("%(call)s · %(name)s") % {
                "call": call_label(deal.contract.name),
                "name": names[deal.declarer],
            }
        row = {
            "number": deal.number,
            # The hand it is, or (redealt) the hand dealt again next: presenters.numbering.
            "hand": played + 1 if deal.redeal else played,
            "dealer": names[deal.dealer],
            "call": call,
            "redeal": deal.redeal,
        }
        for seat in range(3):
            row[f"seat{seat}"] = (
                None
                if deal.redeal
                else SheetCell(
                    tricks=deal.tricks[seat],
                    points=signed(deal.points[seat]),
                    total=signed(deal.totals[seat]),
                    target=deal.targets[seat],
                )
            )
        rows.append(row)
    return rows


def table_view(
    game: Game,
    entries: list[DealEntry] | None = None,
    calls: list[str] | None = None,
    for_deal: int | None = None,
) -> TableView:
    """Everything the table page shows, from one replay of the live deals."""
    entries = selectors.live_entries(game) if entries is None else entries
    played = selectors.engine_game(game, entries)
    state = played.state()
    names = list(game.players)
    ruleset = played.rules.ruleset
    first = names[0]
    view = TableView(
        game=game,
        names=names,
        ruleset=ruleset,
        ruleset_name=ruleset_label(ruleset.id),
        direction=direction_sentence(ruleset),
        play_order=" → ".join([*names, first]),
        goal_line=_goal_line(played.rules.options, ruleset),
        state=state,
        tricks_per_hand=played.rules.tricks_per_hand,
        rows=_sheet_rows(state, names),
        totals=[signed(total) for total in state.totals],
        last_deal_number=len(entries),
        sheet_names=short_names(names),
    )
    settled = settled_by_hand(game, state)
    if settled:
        # Ended otherwise than by its rules (as it stood, by the round clock or the organisers):
        # the game's own result, not the sheet's, and no more deals.
        view.end_sentence = settled
        view.placings = [
            PlacingView(place=place, name=names[seat], total=signed(game.totals[seat]))
            for place, seat in enumerate(game.placings, start=1)
        ]
        return view
    if not state.finished:
        view.deal = _deal_view(played, names, calls or [], for_deal)
        return view
    view.end_sentence = end_sentence(state, names)
    view.needs_last_tricks = state.needs_last_tricks
    if state.needs_last_tricks:
        view.tie_sentence = tie_sentence(state, names)
    view.last_tricks_given = state.hands[-1].last_tricks if state.hands else ()
    if state.placings is not None:
        view.placings = [
            PlacingView(place=place, name=names[seat], total=signed(state.totals[seat]))
            for place, seat in enumerate(state.placings, start=1)
        ]
        view.reasons = [reason_sentence(reason, names) for reason in state.outcome.reasons]
    return view


def undo_summary(game: Game, entries: list[DealEntry]) -> str:
    """The last live deal in one sentence, for the undo confirmation."""
    if not entries:
        return ""
    state = selectors.engine_game(game, entries).state()
    deal = state.deals[-1]
    names = list(game.players)
    title = deal_title(entries, deal.number)
    if deal.redeal and len(deal.calls) == 1:
        return _("%(deal)s: a redeal (%(name)s passed).") % {
            "deal": title,
            "name": names[deal.calls[0].seat],
        }
    if deal.redeal:
        return _("%(deal)s: a redeal (everyone passed).") % {"deal": title}
    tricks = ", ".join(f"{names[seat]} {deal.tricks[seat]}" for seat in range(3))
    return _("%(deal)s: %(name)s called %(call)s; tricks %(tricks)s.") % {
        "deal": title,
        "name": names[deal.declarer],
        "call": call_label(deal.contract.name),
        "tricks": tricks,
    }
