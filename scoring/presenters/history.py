"""A game's history for its organisers: each deal as entered and each change, in words."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring import selectors
from scoring.models import DealEntry, Game, GameChange
from scoring.presenters.corrections import deal_record_words
from scoring.presenters.numbering import deal_name, hand_of, tricks_of
from scoring.words import actor_name, calls_text, placings_text, seats_text, winners_text


@dataclass(frozen=True)
class ChangeView:
    at: object
    actor: str
    action: str
    deal: int | None
    detail: str
    reason: str
    deal_name: str = ""  # the deal as the players name it: "hand 3" (presenters.numbering)


def entry_words(entry: DealEntry, names: list[str]) -> str:
    """A deal as entered, in words: the calls by their names and each player's tricks."""
    parts = [_("calls: %(calls)s") % {"calls": calls_text(entry.calls)}]
    if entry.tricks is not None:
        parts.append(_("tricks: %(tricks)s") % {"tricks": seats_text(entry.tricks, names)})
    if entry.last_tricks:
        parts.append(
            _("last tricks won by %(winners)s")
            % {"winners": winners_text(entry.last_tricks, names)}
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
    hand: str = ""  # the hand it is (a redeal: the hand dealt again), presenters.numbering


def entries_view(game: Game, entries: list[DealEntry]) -> list[EntryView]:
    names = list(game.players)
    # An undone row a correction replaced: its number and values are a correction's "before"
    # (matched by value, not by row id, so a restored backup reads the same).
    corrected = game.changes.filter(action=GameChange.Action.DEAL_CORRECTED)
    replaced = {
        (change.deal_number, json.dumps((change.data or {}).get("before"), sort_keys=True))
        for change in corrected
    }
    tricks = tricks_of([entry for entry in entries if entry.undone_at is None])
    return [
        EntryView(
            entry.number,
            entry.entered_at,
            actor_name(entry.entered_by),
            entry.undone_at,
            actor_name(entry.undone_by),
            entry_words(entry, names),
            entry.undone_at is not None
            and (entry.number, json.dumps(entry.as_record(), sort_keys=True)) in replaced,
            _hand_cell(hand_of(tricks, entry.number), entry.tricks is None),
        )
        for entry in entries
    ]


def _hand_cell(hand: int, redeal: bool) -> str:
    return _("%(n)s (dealt again)") % {"n": hand} if redeal else str(hand)


def change_detail(change: GameChange, names: list[str]) -> str:
    """One change's data in words, for the organiser's history of a game."""
    data = change.data or {}
    action = GameChange.Action
    if change.action in (action.DEAL_RECORDED, action.DEAL_UNDONE):
        parts = [_("calls: %(calls)s") % {"calls": calls_text(data.get("calls"))}]
        if data.get("tricks") is not None:
            parts.append(_("tricks: %(tricks)s") % {"tricks": seats_text(data["tricks"], names)})
        return "; ".join(parts)
    if change.action == action.DEAL_CORRECTED:
        return _("%(before)s → %(after)s") % {
            "before": deal_record_words(data.get("before") or {}, names),
            "after": deal_record_words(data.get("after") or {}, names),
        }
    if change.action == action.LAST_TRICKS:
        return _("last tricks won by %(before)s → %(after)s") % {
            "before": winners_text(data.get("before"), names),
            "after": winners_text(data.get("after"), names),
        }
    if change.action == action.CONFIRMED:
        return _("placings: %(placings)s") % {
            "placings": placings_text(data.get("placings"), names)
        }
    if change.action == action.ENDED_EARLY and data.get("at_time"):
        return _("at time: the round clock ran out; placings: %(placings)s") % {
            "placings": placings_text(data.get("placings"), names)
        }
    if change.action == action.CREATED:
        return ", ".join(str(name) for name in data.get("players", []))
    return ""


def history(game: Game, changes: list[GameChange]) -> list[ChangeView]:
    names = list(game.players)
    live = selectors.live_entries(game)
    return [
        ChangeView(
            at=change.at,
            actor=actor_name(change.actor),
            action=change.get_action_display(),
            deal=change.deal_number,
            detail=change_detail(change, names),
            reason=change.reason,
            deal_name=deal_name(live, change.deal_number) if change.deal_number else "",
        )
        for change in changes
    ]
