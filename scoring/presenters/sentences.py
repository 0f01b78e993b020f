"""Sentences about a game in play: the exchange, who placed above whom and why, how it ended,
who a tie-break question is about, and each call made."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from scoring.words import call_label, signed


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


def call_made(made: engine.CallMade, names: list[str]) -> CallMadeView:
    return CallMadeView(
        seat=made.seat,
        name=names[made.seat],
        call=made.call.name,
        label=call_label(made.call.name),
        is_pass=made.call.is_pass,
    )
