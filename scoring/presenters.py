"""What the table pages show: the engine's answers turned into view data and sentences.

Reads only. The game and its live deals come from `scoring.selectors`; every rule comes
from the engine (targets, who calls, what may be called, the exchange, the placings and
why). This module only words them, through gettext, so that English and Bulgarian read
the same. The engine's own English texts (such as `Reason.text`) are never shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

import engine
from engine.rulesets import ExchangeTiming

from . import selectors
from .models import DealEntry, Game, GameChange
from .templatetags.numbers import minus

# --- words ------------------------------------------------------------------------------------

#: What a player says at the calling phase (Bulgarian: the singular, as said at the table).
CALL_NAMES = {
    "spades": pgettext_lazy("call", "spades"),
    "hearts": pgettext_lazy("call", "hearts"),
    "diamonds": pgettext_lazy("call", "diamonds"),
    "clubs": pgettext_lazy("call", "clubs"),
    "no-trump": pgettext_lazy("call", "no-trump"),
    "miz": pgettext_lazy("call", "miz"),
    "pass": pgettext_lazy("call", "pass"),
}

#: A suit as a colour of cards (Bulgarian: the plural).
SUIT_NAMES = {
    engine.Suit.SPADES: pgettext_lazy("suit", "spades"),
    engine.Suit.HEARTS: pgettext_lazy("suit", "hearts"),
    engine.Suit.DIAMONDS: pgettext_lazy("suit", "diamonds"),
    engine.Suit.CLUBS: pgettext_lazy("suit", "clubs"),
}

SUIT_SYMBOLS = {
    engine.Suit.SPADES: "♠",
    engine.Suit.HEARTS: "♥",
    engine.Suit.DIAMONDS: "♦",
    engine.Suit.CLUBS: "♣",
}
RED_SUITS = {engine.Suit.HEARTS, engine.Suit.DIAMONDS}

RULESET_NAMES = {
    "blato": gettext_lazy("Blato"),
    "three-five-eight": gettext_lazy("3-5-8"),
    "sergeant-major": gettext_lazy("Sergeant Major"),
    "sergeant-major-alternate": gettext_lazy("Sergeant Major (alternate)"),
    "nine-five-two": gettext_lazy("9-5-2"),
}

DIRECTIONS = {
    "counter-clockwise": gettext_lazy("counter-clockwise"),
    "clockwise": gettext_lazy("clockwise"),
}


def call_label(name: str) -> str:
    return str(CALL_NAMES.get(name, name))


def call_symbol(name: str) -> str:
    call = engine.call_named(name)
    return SUIT_SYMBOLS[call.trump] if call.trump else ""


def ruleset_label(ruleset_id: str) -> str:
    return str(RULESET_NAMES.get(ruleset_id, ruleset_id))


def signed(number: int | None) -> str:
    """+2, −1 (a true minus sign), 0."""
    if number is None:
        return ""
    return f"+{number}" if number > 0 else minus(number)


def direction_sentence(ruleset: engine.Ruleset) -> str:
    if ruleset.direction == "counter-clockwise":
        return _("Play goes counter-clockwise: the next player sits on the right.")
    return _("Play goes clockwise: the next player sits on the left.")


@dataclass(frozen=True)
class CardView:
    text: str  # as the engine writes it: 10H
    rank: str
    symbol: str
    suit_name: str
    red: bool


def card_view(card: engine.Card) -> CardView:
    text = str(card)
    return CardView(
        text=text,
        rank=text[:-1],
        symbol=SUIT_SYMBOLS[card.suit],
        suit_name=str(SUIT_NAMES[card.suit]),
        red=card.suit in RED_SUITS,
    )


# --- rulesets (the new game page) -------------------------------------------------------------


def _end_sentences(options: engine.Options, ruleset: engine.Ruleset) -> list[str]:
    """When the game ends, one sentence per end condition."""
    ends = []
    if options.hands is not None:
        ends.append(
            ngettext(
                "The game ends after %(n)s hand.", "The game ends after %(n)s hands.", options.hands
            )
            % {"n": options.hands}
        )
    if options.goal is not None:
        ends.append(
            ngettext(
                "The game ends when a total reaches %(n)s point.",
                "The game ends when a total reaches %(n)s points.",
                options.goal,
            )
            % {"n": options.goal}
        )
    if options.instant_win_tricks is not None:
        ends.append(
            ngettext(
                "A player who takes %(n)s trick in one hand wins at once.",
                "A player who takes %(n)s tricks in one hand wins at once.",
                options.instant_win_tricks,
            )
            % {"n": options.instant_win_tricks}
        )
    if ruleset.each_call_once:
        ends.append(_("The game ends when every player has made every call once."))
    return ends


def ruleset_summary(ruleset: engine.Ruleset) -> list[str]:
    """A few short lines saying how a ruleset is played, all from its data."""
    options = ruleset.defaults
    targets = options.targets
    caller = _("the dealer calls") if ruleset.caller_position == 0 else _("the next player calls")
    lines = [
        _("Targets: dealer %(dealer)s, next %(next)s, third %(third)s; %(caller)s.")
        % {"dealer": targets[0], "next": targets[1], "third": targets[2], "caller": caller}
    ]
    calls = ", ".join(call_label(call.name) for call in ruleset.calls)
    if ruleset.passes_per_game:
        lines.append(
            ngettext(
                "Calls: %(calls)s, or pass (%(n)s time per game).",
                "Calls: %(calls)s, or pass (%(n)s times per game).",
                ruleset.passes_per_game,
            )
            % {"calls": calls, "n": ruleset.passes_per_game}
        )
    elif ruleset.each_call_once:
        lines.append(_("Calls: %(calls)s; each player makes each call once.") % {"calls": calls})
    else:
        lines.append(_("Calls: %(calls)s.") % {"calls": calls})
    if ruleset.exchange is ExchangeTiming.NEVER:
        lines.append(_("No card exchange."))
    elif ruleset.exchange is ExchangeTiming.BEFORE_CALL:
        lines.append(_("Card exchange from the second hand, before the call."))
    elif ruleset.exchange_skipped_after:
        lines.append(
            _("Card exchange from the second hand, after the call; none after %(calls)s.")
            % {"calls": ", ".join(call_label(c.name) for c in ruleset.exchange_skipped_after)}
        )
    else:
        lines.append(_("Card exchange from the second hand, after the call."))
    lines.extend(_end_sentences(options, ruleset))
    lines.append(
        _("Direction of play: %(direction)s.") % {"direction": DIRECTIONS[ruleset.direction]}
    )
    return lines


@dataclass(frozen=True)
class RulesetChoice:
    id: str
    name: str
    summary: list[str]
    has_pass: bool


def ruleset_choices() -> list[RulesetChoice]:
    return [
        RulesetChoice(
            id=ruleset.id,
            name=ruleset_label(ruleset.id),
            summary=ruleset_summary(ruleset),
            has_pass=bool(ruleset.passes_per_game),
        )
        for ruleset in engine.RULESETS.values()
    ]


# --- sentences about a game -------------------------------------------------------------------


def exchange_sentence(transfer: engine.Transfer, names: list[str]) -> str:
    values = {
        "giver": names[transfer.giver],
        "receiver": names[transfer.receiver],
        "count": transfer.cards,
    }
    return (
        ngettext(
            "%(giver)s gives %(count)s card to %(receiver)s; for it, %(receiver)s returns "
            "their strongest card of that suit if it is higher, otherwise the same card.",
            "%(giver)s gives %(count)s cards to %(receiver)s; for each, %(receiver)s returns "
            "their strongest card of that suit if it is higher, otherwise the same card.",
            transfer.cards,
        )
        % values
    )


def reason_sentence(reason: engine.Reason, names: list[str]) -> str:
    """Why one player is placed above another, in the page's language."""
    values = {
        "above": names[reason.above],
        "below": names[reason.below] if reason.below is not None else "",
        "value": reason.value,
        "other": reason.other_value,
    }
    if reason.rule == "instant_win":
        return (
            ngettext(
                "%(above)s is first: took %(value)s trick in the last hand.",
                "%(above)s is first: took %(value)s tricks in the last hand.",
                reason.value,
            )
            % values
        )
    if reason.rule == "last_hand_points":
        values["value"] = signed(reason.value)
        values["other"] = signed(reason.other_value)
        return (
            _(
                "%(above)s is ahead of %(below)s on equal totals: %(value)s points to "
                "%(other)s in the last hand."
            )
            % values
        )
    if reason.rule == "trick" and reason.value is not None:
        return (
            _("%(above)s is ahead of %(below)s: %(above)s won trick %(value)s of the last hand.")
            % values
        )
    if reason.rule == "trick" and reason.other_value is None:
        return (
            _("%(above)s is ahead of %(below)s: %(below)s took no trick in the last hand.") % values
        )
    if reason.rule == "trick":
        return (
            _(
                "%(above)s is ahead of %(below)s: %(below)s won no trick after trick "
                "%(other)s of the last hand."
            )
            % values
        )
    return _("%(above)s and %(below)s are level on every tie-break; listed by seat.") % values


def end_sentence(state: engine.GameState, names: list[str]) -> str:
    last = state.hands[-1] if state.hands else None
    if state.end == "instant_win" and last is not None:
        seat = max(range(3), key=lambda s: last.tricks[s])
        return ngettext(
            "The game is over: %(name)s took %(n)s trick in one hand.",
            "The game is over: %(name)s took %(n)s tricks in one hand.",
            last.tricks[seat],
        ) % {"name": names[seat], "n": last.tricks[seat]}
    if state.end == "goal":
        goal = state.rules.options.goal
        return ngettext(
            "The game is over: a total reached %(n)s point.",
            "The game is over: a total reached %(n)s points.",
            goal,
        ) % {"n": goal}
    if state.end == "hands":
        hands = state.rules.options.hands
        return ngettext(
            "The game is over after %(n)s hand.", "The game is over after %(n)s hands.", hands
        ) % {"n": hands}
    return _("The game is over: every player has made every call.")


# --- the table page ---------------------------------------------------------------------------


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


@dataclass(frozen=True)
class CallMadeView:
    seat: int
    name: str
    call: str
    label: str
    is_pass: bool

    @property
    def sentence(self) -> str:
        if self.is_pass:
            return _("%(name)s passed.") % {"name": self.name}
        return _("%(name)s called %(call)s.") % {"name": self.name, "call": self.label}


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
    def can_confirm(self) -> bool:
        return self.finished and self.state.placings is not None and not self.confirmed

    @property
    def can_undo(self) -> bool:
        return self.last_deal_number > 0 and not self.confirmed


def _goal_line(options: engine.Options, ruleset: engine.Ruleset) -> str:
    return " ".join(_end_sentences(options, ruleset))


def _deal_heading(number: int, hand: int, options: engine.Options) -> str:
    values = {"deal": number, "hand": hand, "hands": options.hands}
    if options.hands is not None:
        return _("Deal %(deal)s · hand %(hand)s of %(hands)s") % values
    return _("Deal %(deal)s · hand %(hand)s") % values


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


def _made(made: engine.CallMade, names: list[str]) -> CallMadeView:
    return CallMadeView(
        seat=made.seat,
        name=names[made.seat],
        call=made.call.name,
        label=call_label(made.call.name),
        is_pass=made.call.is_pass,
    )


def _deal_view(
    game: engine.Game, names: list[str], calls: list[str], for_deal: int | None
) -> DealView:
    upcoming = game.state().next
    auction = game.auction()
    calls_error = ""
    try:
        if calls and for_deal != upcoming.number:
            raise engine.RuleError("another deal")
        for name in calls:
            auction = auction.call(name)
        if auction.redeal:  # a redeal is recorded at once: it never waits on the page
            raise engine.RuleError("redeal")
    except engine.RuleError:
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
        heading=_deal_heading(upcoming.number, upcoming.hand, game.rules.options),
        dealer_name=names[upcoming.dealer],
        seats=seats,
        exchange=_exchange_view(game, names, contract, upcoming.hand),
        calls_made=[_made(made, names) for made in auction.calls],
        calls_value=",".join(made.call.name for made in auction.calls),
        calls_error=calls_error,
    )
    if contract is not None:
        view.contract = _made(contract, names)
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


#: The longest name (in characters) a third of a phone's width shows whole.
SHORT_NAME = 10


def short_names(names: list[str]) -> list[str]:
    """The names as the score sheet's narrow columns show them: each player's first word
    ("Александра" for "Александра Константинова-Петрова"), with the initial of the last word
    where two first words are the same, and the whole name where even that is not enough.
    A first word longer than ten letters is cut to eight and a full stop ("Максимил."): three
    columns of them, the deal's number and its call fit 390 px. The page shows the full
    names at its top (the order of play) and to screen readers and as a tooltip."""

    def first(name: str) -> str:
        word = name.split()[0] if name.split() else name
        return word if len(word) <= SHORT_NAME else word[: SHORT_NAME - 2] + "."

    def with_initial(name: str) -> str:
        words = name.split()
        return first(name) if len(words) < 2 else f"{first(name)} {words[-1][0]}."

    for shorten in (first, with_initial):
        short = [shorten(name) for name in names]
        if len({s.casefold() for s in short}) == len(names):
            return short
    return list(names)


def _sheet_rows(state: engine.GameState, names: list[str]) -> list[dict]:
    """One row per deal (redeals included), worded."""
    rows = []
    for deal in state.deals:
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


def calls_from_text(text: object) -> list[str]:
    """The calls so far as the page's hidden field carries them ("pass,hearts")."""
    if not isinstance(text, str) or not text.strip():
        return []
    return [name.strip() for name in text.split(",") if name.strip()][:3]


def engine_game(game: Game, entries: list[DealEntry]) -> engine.Game:
    return engine.game_from_record(selectors.game_record(game, entries))


def rules_of(game: Game) -> engine.Rules:
    return engine.Rules.build(game.ruleset, game.options)


def auction_after(game: Game, calls: list[str]) -> engine.Auction | None:
    """The next deal's calling phase after these calls, or None if they are not allowed."""
    auction = engine_game(game, selectors.live_entries(game)).auction()
    try:
        for name in calls:
            auction = auction.call(name)
    except engine.RuleError:
        return None
    return auction


def table_view(
    game: Game,
    entries: list[DealEntry] | None = None,
    calls: list[str] | None = None,
    for_deal: int | None = None,
) -> TableView:
    """Everything the table page shows, from one replay of the live deals."""
    entries = selectors.live_entries(game) if entries is None else entries
    played = engine_game(game, entries)
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


def _names_list(names: list[str]) -> str:
    if len(names) == 3:
        return _("%(a)s, %(b)s and %(c)s") % {"a": names[0], "b": names[1], "c": names[2]}
    return _("%(a)s and %(b)s") % {"a": names[0], "b": names[1]}


def tie_sentence(state: engine.GameState, names: list[str]) -> str:
    """Who the tie-break question is about: the players level on totals and on the points of
    the last hand, by name."""
    last = state.hands[-1] if state.hands else None
    groups: dict[tuple, list[int]] = {}
    for seat in range(3):
        key = (state.totals[seat], last.points[seat] if last else None)
        groups.setdefault(key, []).append(seat)
    tied = next((seats for seats in groups.values() if len(seats) > 1), None)
    if tied is None:
        return _(
            "Totals and last-hand points are level: who won the last tricks of the last "
            "hand decides."
        )
    values = {
        "names": _names_list([names[seat] for seat in tied]),
        "total": signed(state.totals[tied[0]]),
    }
    return (
        _(
            "%(names)s are level on totals (%(total)s) and on the points of the last hand: "
            "who won the last tricks of the last hand decides their places."
        )
        % values
    )


def undo_summary(game: Game, entries: list[DealEntry]) -> str:
    """The last live deal in one sentence, for the undo confirmation."""
    if not entries:
        return ""
    state = engine_game(game, entries).state()
    deal = state.deals[-1]
    names = list(game.players)
    if deal.redeal and len(deal.calls) == 1:
        return _("Deal %(deal)s: a redeal (%(name)s passed).") % {
            "deal": deal.number,
            "name": names[deal.calls[0].seat],
        }
    if deal.redeal:
        return _("Deal %(deal)s: a redeal (everyone passed).") % {"deal": deal.number}
    tricks = ", ".join(f"{names[seat]} {deal.tricks[seat]}" for seat in range(3))
    return _("Deal %(deal)s: %(name)s called %(call)s; tricks %(tricks)s.") % {
        "deal": deal.number,
        "name": names[deal.declarer],
        "call": call_label(deal.contract.name),
        "tricks": tricks,
    }


# --- correcting a deal, and two phones that entered the same deal ----------------------------


@dataclass(frozen=True)
class CallsChoice:
    value: str  # the calls, comma-separated, as the forms carry them
    label: str
    redeal: bool


def _auction_words(auction: engine.Auction, names: list[str]) -> str:
    words = " ".join(_made(made, names).sentence for made in auction.calls)
    return f"{words} {_('Redeal.')}" if auction.redeal else words


def calls_choices(game: Game, before: list[DealEntry]) -> list[CallsChoice]:
    """Every way the calls of the deal after `before` may go under the rules, in words: the
    choices of the correction form (a redeal, or a contract after any passes)."""
    names = list(game.players)
    choices: list[CallsChoice] = []

    def walk(auction: engine.Auction) -> None:
        for call in auction.allowed_calls():
            after = auction.call(call.name)
            if after.finished:
                value = ",".join(made.call.name for made in after.calls)
                choices.append(CallsChoice(value, _auction_words(after, names), after.redeal))
            else:
                walk(after)

    walk(engine_game(game, before).auction())
    return choices


def deal_words(game: Game, before: list[DealEntry], calls: object, tricks: object) -> str:
    """A deal as it was (or would be) entered after `before`: who called what, each player's
    tricks. Calls the rules do not allow there are listed by name."""
    names = list(game.players)
    try:
        auction = engine_game(game, before).auction()
        for name in calls if isinstance(calls, list) else []:
            auction = auction.call(name)
        words = _auction_words(auction, names)
    except engine.RuleError:
        words = _("calls: %(calls)s") % {"calls": _calls_text(calls)}
    if isinstance(tricks, list) and len(tricks) == 3:
        words += " " + _("Tricks: %(tricks)s.") % {"tricks": _seats_text(tricks, names)}
    return words


@dataclass(frozen=True)
class CorrectionView:
    number: int
    dealer_name: str
    targets: list[tuple[str, int]]  # name, target
    recorded: str  # the deal as it stands, in words
    choices: list[CallsChoice]
    entry: DealEntry


def correction_view(game: Game, number: int) -> CorrectionView | None:
    """What the correction page shows for deal `number`; None if it is not recorded."""
    entries = selectors.live_entries(game)
    if not 1 <= number <= len(entries):
        return None
    before = entries[: number - 1]
    played = engine_game(game, before)
    upcoming = played.state().next
    names = list(game.players)
    entry = entries[number - 1]
    return CorrectionView(
        number=number,
        dealer_name=names[upcoming.dealer],
        targets=[(names[seat], upcoming.targets[seat]) for seat in range(3)],
        recorded=deal_words(game, before, entry.calls, entry.tricks),
        choices=calls_choices(game, before),
        entry=entry,
    )


@dataclass(frozen=True)
class ClashView:
    """Two phones entered the same deal differently: both versions, side by side."""

    number: int
    recorded: str
    mine: str
    calls: str  # what this phone sent, for the "keep mine" form
    tricks: list[int] | None


def clash_view(game: Game, number: object, calls: list, tricks: list | None) -> ClashView | None:
    """The clash when deal `number` is recorded with other values than these; else None."""
    entries = selectors.live_entries(game)
    if not isinstance(number, int) or not 1 <= number <= len(entries):
        return None
    entry = entries[number - 1]
    if (entry.calls, entry.tricks) == (calls, tricks):
        return None
    before = entries[: number - 1]
    return ClashView(
        number=number,
        recorded=deal_words(game, before, entry.calls, entry.tricks),
        mine=deal_words(game, before, calls, tricks),
        calls=",".join(calls),
        tricks=tricks,
    )


@dataclass(frozen=True)
class CorrectionNote:
    at: object
    actor: str
    number: int
    before: str
    after: str


def corrections(game: Game, changes: list[GameChange] | None = None) -> list[CorrectionNote]:
    """The corrections made to the game's deals, oldest first: who, when, before → after."""
    changes = selectors.game_history(game) if changes is None else changes
    names = list(game.players)
    notes = []
    for change in changes:
        if change.action != GameChange.Action.DEAL_CORRECTED:
            continue
        data = change.data or {}
        words = []
        for key in ("before", "after"):
            deal = data.get(key) or {}
            words.append(_deal_record_words(deal, names))
        notes.append(CorrectionNote(change.at, change.actor, change.deal_number, *words))
    return notes


def _deal_record_words(deal: dict, names: list[str]) -> str:
    parts = [_("calls: %(calls)s") % {"calls": _calls_text(deal.get("calls"))}]
    if deal.get("tricks") is not None:
        parts.append(_("tricks: %(tricks)s") % {"tricks": _seats_text(deal["tricks"], names)})
    return "; ".join(parts)


def trick_label(number: int, per_hand: int) -> str:
    if number == per_hand:
        return _("Trick %(n)s (the last)") % {"n": number}
    return _("Trick %(n)s") % {"n": number}


# --- the referee's help -----------------------------------------------------------------------


def card_text(card: engine.Card) -> str:
    """A card as people write it: K♥, 10♠."""
    view = card_view(card)
    return f"{view.rank}{view.symbol}"


@dataclass(frozen=True)
class Answer:
    headline: str
    cards: list[CardView] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def return_answer(hand: tuple[engine.Card, ...], given: engine.Card) -> Answer:
    card = engine.card_to_return(hand, given)
    values = {
        "card": card_text(card),
        "given": card_text(given),
        "suit": SUIT_NAMES[given.suit],
    }
    if card == given:
        line = _("You have no card in %(suit)s higher than %(given)s.") % values
        return Answer(_("Return the same card: %(card)s.") % values, [card_view(card)], [line])
    line = _("It is your strongest card in %(suit)s, higher than %(given)s.") % values
    return Answer(_("Return %(card)s.") % values, [card_view(card)], [line])


def play_answer(
    ruleset: engine.Ruleset,
    contract: str,
    hand: tuple[engine.Card, ...],
    trick: tuple[engine.Card, ...],
) -> Answer:
    trump = engine.call_named(contract).trump
    legal = engine.legal_cards(hand, trick, trump, ruleset.strict_trumping)
    if len(legal) == len(hand):
        headline = _("You may play any of your cards.")
    else:
        headline = ngettext(
            "You may play this card:", "You may play one of these %(n)s cards:", len(legal)
        ) % {"n": len(legal)}
    lines = []
    if trick:
        winner = engine.trick_winner(trick, trump)
        lines.append(
            _("So far the trick goes to %(card)s, card %(n)s in the order played.")
            % {"card": card_text(trick[winner]), "n": winner + 1}
        )
        lines.append(_("Led suit: %(suit)s.") % {"suit": SUIT_NAMES[trick[0].suit]})
    if trump is not None:
        lines.append(_("Trumps: %(suit)s.") % {"suit": SUIT_NAMES[trump]})
    else:
        lines.append(_("No trumps: only following suit is compulsory."))
    return Answer(headline, [card_view(card) for card in legal], lines)


@dataclass(frozen=True)
class ChangeView:
    at: object
    actor: str
    action: str
    deal: int | None
    detail: str
    reason: str


def _calls_text(calls: object) -> str:
    if not isinstance(calls, list):
        return ""
    return ", ".join(call_label(call) if isinstance(call, str) else str(call) for call in calls)


def _seats_text(values: object, names: list[str]) -> str:
    if not isinstance(values, list) or len(values) != len(names):
        return ""
    return ", ".join(f"{name} {value}" for name, value in zip(names, values, strict=True))


def _winners_text(seats: object, names: list[str]) -> str:
    if not isinstance(seats, list):
        return "—"
    return ", ".join(names[seat] if seat in (0, 1, 2) else "?" for seat in seats) or "—"


def _placings_text(seats: object, names: list[str]) -> str:
    """Placings are stored as seats, the winner's first: "1. Vera, 2. Ana, 3. Boris"."""
    if not isinstance(seats, list) or not all(seat in (0, 1, 2) for seat in seats):
        return "—"
    return ", ".join(f"{place}. {names[seat]}" for place, seat in enumerate(seats, start=1))


def entry_words(entry: DealEntry, names: list[str]) -> str:
    """A deal as entered, in words: the calls by their names and each player's tricks."""
    parts = [_("calls: %(calls)s") % {"calls": _calls_text(entry.calls)}]
    if entry.tricks is not None:
        parts.append(_("tricks: %(tricks)s") % {"tricks": _seats_text(entry.tricks, names)})
    if entry.last_tricks:
        parts.append(
            _("last tricks won by %(winners)s")
            % {"winners": _winners_text(entry.last_tricks, names)}
        )
    return "; ".join(parts)


@dataclass(frozen=True)
class EntryView:
    number: int
    entered_at: object
    entered_by: str
    undone_at: object
    undone_by: str
    words: str
    replaced: bool = False  # undone by a correction, not by an undo


def entries_view(game: Game, entries: list[DealEntry]) -> list[EntryView]:
    names = list(game.players)
    # An undone row a correction replaced: its number and values are a correction's "before"
    # (matched by value, not by row id, so a restored backup reads the same).
    corrected = game.changes.filter(action=GameChange.Action.DEAL_CORRECTED)
    replaced = {
        (change.deal_number, json.dumps((change.data or {}).get("before"), sort_keys=True))
        for change in corrected
    }
    return [
        EntryView(
            entry.number,
            entry.entered_at,
            entry.entered_by,
            entry.undone_at,
            entry.undone_by,
            entry_words(entry, names),
            entry.undone_at is not None
            and (entry.number, json.dumps(entry.as_record(), sort_keys=True)) in replaced,
        )
        for entry in entries
    ]


def change_detail(change: GameChange, names: list[str]) -> str:
    """One change's data in words, for the organiser's history of a game."""
    data = change.data or {}
    action = GameChange.Action
    if change.action in (action.DEAL_RECORDED, action.DEAL_UNDONE):
        parts = [_("calls: %(calls)s") % {"calls": _calls_text(data.get("calls"))}]
        if data.get("tricks") is not None:
            parts.append(_("tricks: %(tricks)s") % {"tricks": _seats_text(data["tricks"], names)})
        return "; ".join(parts)
    if change.action == action.DEAL_CORRECTED:
        return _("%(before)s → %(after)s") % {
            "before": _deal_record_words(data.get("before") or {}, names),
            "after": _deal_record_words(data.get("after") or {}, names),
        }
    if change.action == action.LAST_TRICKS:
        return _("last tricks won by %(before)s → %(after)s") % {
            "before": _winners_text(data.get("before"), names),
            "after": _winners_text(data.get("after"), names),
        }
    if change.action == action.CONFIRMED:
        return _("placings: %(placings)s") % {
            "placings": _placings_text(data.get("placings"), names)
        }
    if change.action == action.CREATED:
        return ", ".join(str(name) for name in data.get("players", []))
    return ""


def history(game: Game, changes: list[GameChange]) -> list[ChangeView]:
    names = list(game.players)
    return [
        ChangeView(
            at=change.at,
            actor=change.actor,
            action=change.get_action_display(),
            deal=change.deal_number,
            detail=change_detail(change, names),
            reason=change.reason,
        )
        for change in changes
    ]
