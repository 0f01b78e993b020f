"""The pairing's flags in the organiser's words, before a round is published.

A flag comes in as stored (pairing `Flag.as_dict`: a code and player ids); the caller gives
the names (player id → name, fetched once) and, for a keep-apart flag, the organisers'
reasons (tournaments.teams.selectors.apart_reasons). Every sentence goes through gettext.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.bridge import PLAN_ROUNDS, ROUNDS_BOUND
from tournaments.pairing import WHY_CODE

#: pair of player ids (smaller first) → the keep-apart rules' reasons ("" when none given)
Reasons = dict[tuple[int, int], str]


def _name(names: dict[int, str], player: object) -> str:
    return names.get(player, "?") if isinstance(player, int) else "?"


def _pair(flag: dict, names: dict[int, str]) -> dict:
    a, b = flag.get("players", [None, None])[:2]
    return {"a": _name(names, a), "b": _name(names, b)}


def _apart(flag: dict, names: dict[int, str], reasons: Reasons) -> str:
    """Two players who must be kept apart share the table (the field left no other way, or a
    swap seated them so), with the organiser's reason when one was given."""
    values = _pair(flag, names)
    players = [p for p in flag.get("players", []) if isinstance(p, int)][:2]
    reason = reasons.get(tuple(sorted(players)), "") if len(players) == 2 else ""
    if reason:
        return _(
            "%(a)s and %(b)s are seated together although they must be kept apart "
            "(reason: %(reason)s)."
        ) % {**values, "reason": reason}
    return _("%(a)s and %(b)s are seated together although they must be kept apart.") % values


def _why_together(flag: dict) -> str:
    """Why the draw left a keep-apart pair or teammates together (pairing.RuleReason)."""
    return {
        "unavoidable": _("No seating of this round's players keeps them apart."),
        "not_found": _("The search found no seating that parts them in time: a swap may."),
        "by_hand": _("Seated so by hand: another seating would part them."),
    }.get(flag.get("reason"), "")


def _rule(sentence: str, flag: dict) -> str:
    why = _why_together(flag)
    return f"{sentence} {why}" if why else sentence


def plan_line(flags: list[dict], names: dict[int, str] | None = None) -> str:
    """How many rounds the round's plan still gives with nobody meeting twice and every rule
    kept, this one included (common.bridge.PLAN_ROUNDS); for a round that follows no plan, at
    most how many the field still allows (`bound_line`); "" when neither is known."""
    amount = next((f.get("amount") for f in flags if f.get("code") == PLAN_ROUNDS), None)
    if not isinstance(amount, int):
        return bound_line(flags, names or {})
    return ngettext(
        "The plan gives %(n)s round, this one included, with nobody meeting twice and every "
        "rule kept.",
        "The plan gives %(n)s rounds, this one included, with nobody meeting twice and every "
        "rule kept.",
        amount,
    ) % {"n": amount}


def bound_line(flags: list[dict], names: dict[int, str]) -> str:
    """At most how many more rounds can follow this draft with nobody meeting twice and every
    rule kept, and the player who runs out first (common.bridge.ROUNDS_BOUND,
    pairing.outlook); "" without that note."""
    bound = next((f for f in flags if f.get("code") == ROUNDS_BOUND), None)
    amount = bound.get("amount") if bound else None
    if not isinstance(amount, int):
        return ""
    if amount < 1:
        return _(
            "No more rounds can pass with nobody meeting twice: this draft already seats "
            "together players who have met or must be kept apart."
        )
    more, left = amount - 1, bound.get("left") or 0
    players = bound.get("players") or []
    why = _who_runs_out(_name(names, players[0]), left, more > left // 2) if players else ""
    if more:
        bound_words = ngettext(
            "At most %(n)s more round can follow with nobody meeting twice and every rule kept.",
            "At most %(n)s more rounds can follow with nobody meeting twice and every rule kept.",
            more,
        ) % {"n": more}
    else:
        bound_words = _("No more rounds can follow with nobody meeting twice and every rule kept.")
    return f"{bound_words} {why}".strip()


def _who_runs_out(name: str, left: int, sits_out: bool) -> str:
    """Why the bound is what it is: the player with the fewest people left to meet; when the
    byes let the rounds go on longer than those people allow (`sits_out`), by sitting out."""
    values = {"name": name, "left": left}
    if sits_out:
        if not left:
            return (
                _("%(name)s has nobody left to meet, and would have to sit out every round.")
                % values
            )
        return (
            ngettext(
                "%(name)s has %(left)s player left to meet, and would have to sit out the other "
                "rounds.",
                "%(name)s has %(left)s players left to meet, and would have to sit out the other "
                "rounds.",
                left,
            )
            % values
        )
    if not left:
        return _("%(name)s has nobody left to meet.") % values
    return (
        ngettext(
            "%(name)s has %(left)s player left to meet.",
            "%(name)s has %(left)s players left to meet.",
            left,
        )
        % values
    )


def flag_sentence(flag: dict, names: dict[int, str], reasons: Reasons | None = None) -> str:
    """One flag (pairing `Flag.as_dict`) as the organiser reads it before publishing."""
    code = flag.get("code")
    players = flag.get("players", [])
    if code == "repeat" and len(players) == 2:
        rounds = ", ".join(str(number) for number in flag.get("rounds", []))
        values = {**_pair(flag, names), "rounds": rounds}
        if rounds:
            count = len(flag.get("rounds", []))
            return (
                ngettext(
                    "%(a)s and %(b)s have met before (round %(rounds)s).",
                    "%(a)s and %(b)s have met before (rounds %(rounds)s).",
                    count,
                )
                % values
            )
        return _("%(a)s and %(b)s have met before.") % values
    if code == "apart" and len(players) == 2:
        return _rule(_apart(flag, names, reasons or {}), flag)
    if code == "teammates" and len(players) == 2:
        return _rule(_("%(a)s and %(b)s are teammates.") % _pair(flag, names), flag)
    if code == "second_bye" and players:
        return _("%(name)s sits out again: this is bye number %(n)s.") % {
            "name": _name(names, players[0]),
            "n": flag.get("amount", 2),
        }
    if code == "spread":
        return _(
            "The players here stand %(amount)s places apart in the standings (more than %(limit)s)."
        ) % {"amount": flag.get("amount"), "limit": flag.get("limit")}
    if code == "search_limit":
        count = flag.get("amount") or 0
        return ngettext(
            "The search ran out of time with %(n)s repeat left: a swap may still remove it.",
            "The search ran out of time with %(n)s repeats left: swaps may still remove them.",
            count,
        ) % {"n": count}
    return str(code)


def flag_sentences(
    flags: list[dict], names: dict[int, str], reasons: Reasons | None = None
) -> list[str]:
    """The flags to look at; a swiss table's explanation (`why_line`) is not one of them."""
    hidden = (WHY_CODE, PLAN_ROUNDS, ROUNDS_BOUND)  # told in lines of their own
    shown = [flag for flag in flags if flag.get("code") not in hidden]
    return [flag_sentence(flag, names, reasons) for flag in shown]
