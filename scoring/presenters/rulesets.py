"""The new game page: each ruleset in a few sentences, all from its data."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from engine.rulesets import ExchangeTiming
from scoring.words import DIRECTIONS, call_label, ruleset_label


def end_sentences(options: engine.Options, ruleset: engine.Ruleset) -> list[str]:
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
    lines.extend(end_sentences(options, ruleset))
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
