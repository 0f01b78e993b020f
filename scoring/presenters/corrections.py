"""Correcting a deal, and two phones that entered the same deal: the choices and the words."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine
from scoring import selectors
from scoring.models import DealEntry, Game, GameChange
from scoring.presenters.numbering import deal_name, deal_title, hand_of, hand_title, tricks_of
from scoring.presenters.sentences import call_made
from scoring.words import actor_name, calls_text, seats_text


@dataclass(frozen=True)
class CallsChoice:
    value: str  # the calls, comma-separated, as the forms carry them
    label: str
    redeal: bool


def _auction_words(auction: engine.Auction, names: list[str]) -> str:
    words = " ".join(call_made(made, names).sentence for made in auction.calls)
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

    walk(selectors.engine_game(game, before).auction())
    return choices


def deal_words(game: Game, before: list[DealEntry], calls: object, tricks: object) -> str:
    """A deal as it was (or would be) entered after `before`: who called what, each player's
    tricks. Calls the rules do not allow there are listed by name."""
    names = list(game.players)
    try:
        auction = selectors.engine_game(game, before).auction()
        for name in calls if isinstance(calls, list) else []:
            auction = auction.call(name)
        words = _auction_words(auction, names)
    except engine.RuleError:
        words = _("calls: %(calls)s") % {"calls": calls_text(calls)}
    if isinstance(tricks, list) and len(tricks) == 3:
        words += " " + _("Tricks: %(tricks)s.") % {"tricks": seats_text(tricks, names)}
    return words


@dataclass(frozen=True)
class CorrectionView:
    number: int
    title: str  # the deal as the players name it: "Hand 3" (presenters.numbering)
    name: str  # ... inside a sentence: "hand 3"
    dealer_name: str
    targets: list[tuple[str, int]]  # name, target
    recorded: str  # the deal as it stands, in words
    choices: list[CallsChoice]
    entry: DealEntry
    entries: list[DealEntry]  # the live deals it is one of


def correction_view(game: Game, number: int) -> CorrectionView | None:
    """What the correction page shows for deal `number`; None if it is not recorded."""
    entries = selectors.live_entries(game)
    if not 1 <= number <= len(entries):
        return None
    before = entries[: number - 1]
    played = selectors.engine_game(game, before)
    upcoming = played.state().next
    names = list(game.players)
    entry = entries[number - 1]
    return CorrectionView(
        number=number,
        title=deal_title(entries, number),
        name=deal_name(entries, number),
        dealer_name=names[upcoming.dealer],
        targets=[(names[seat], upcoming.targets[seat]) for seat in range(3)],
        recorded=deal_words(game, before, entry.calls, entry.tricks),
        choices=calls_choices(game, before),
        entry=entry,
        entries=entries,
    )


@dataclass(frozen=True)
class ClashView:
    """Two phones entered the same deal differently (or one undid it after the other's page
    was shown): both versions, side by side."""

    number: int
    title: str  # the deal as the players name it (presenters.numbering)
    recorded: str
    mine: str
    calls: str  # what this phone sent, for the "keep mine" form
    tricks: list[int] | None
    undone: bool = False  # not on the sheet: "keep mine" records it anew

    @property
    def last_call(self) -> str:
        """A redeal kept anew goes through the call form: its last call..."""
        return self.calls.split(",")[-1]

    @property
    def calls_before(self) -> str:
        """... after the calls before it."""
        return ",".join(self.calls.split(",")[:-1])


def clash_view(
    game: Game, number: object, calls: list, tricks: list | None, *, undone: bool = False
) -> ClashView | None:
    """The clash when deal `number` is recorded with other values than these, or (`undone`)
    was undone on another phone after this one was entered; else None."""
    entries = selectors.live_entries(game)
    if not isinstance(number, int) or not 1 <= number <= len(entries) + undone:
        return None
    before = entries[: number - 1]
    mine = deal_words(game, before, calls, tricks)
    chosen = {"number": number, "mine": mine, "calls": ",".join(calls), "tricks": tricks}
    if number > len(entries):
        recorded = _("Not on the score sheet: undone on another phone.")
        title = hand_title(hand_of(tricks_of(entries), number), tricks is None)
        return ClashView(title=title, recorded=recorded, undone=True, **chosen)
    entry = entries[number - 1]
    if (entry.calls, entry.tricks) == (calls, tricks):
        return None
    recorded = deal_words(game, before, entry.calls, entry.tricks)
    return ClashView(title=deal_title(entries, number), recorded=recorded, **chosen)


@dataclass(frozen=True)
class CorrectionNote:
    at: object
    actor: str
    number: int
    before: str
    after: str
    title: str = ""  # the deal as the players name it (presenters.numbering)


def corrections(game: Game, changes: list[GameChange] | None = None) -> list[CorrectionNote]:
    """The corrections made to the game's deals, oldest first: who, when, before → after."""
    changes = selectors.game_history(game) if changes is None else changes
    names = list(game.players)
    entries = None
    notes = []
    for change in changes:
        if change.action != GameChange.Action.DEAL_CORRECTED:
            continue
        data = change.data or {}
        words = []
        for key in ("before", "after"):
            deal = data.get(key) or {}
            words.append(deal_record_words(deal, names))
        who = actor_name(change.actor)
        if entries is None:
            entries = selectors.live_entries(game)
        title = deal_title(entries, change.deal_number or 0)
        notes.append(CorrectionNote(change.at, who, change.deal_number, *words, title))
    return notes


def deal_record_words(deal: dict, names: list[str]) -> str:
    parts = [_("calls: %(calls)s") % {"calls": calls_text(deal.get("calls"))}]
    if deal.get("tricks") is not None:
        parts.append(_("tricks: %(tricks)s") % {"tricks": seats_text(deal["tricks"], names)})
    return "; ".join(parts)
