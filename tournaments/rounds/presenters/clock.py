"""The round clock in words: what happens at time as the event set it, and the event log's
lines for the clock's moves (tournaments.rounds.services.clock)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.common.vocabulary import CLOCK_AT_TIME_LABELS, ClockAtTime


def clock_rule_words(event) -> str:
    """What happens at time, as the event set it ("play 2 more deals, ...")."""
    if event.clock_at_time == ClockAtTime.MORE:
        return ngettext(
            "finish the deal being played and %(n)s more, then the game ends as it stands",
            "finish the deal being played and %(n)s more, then the game ends as it stands",
            event.clock_more_deals,
        ) % {"n": event.clock_more_deals}
    return str(CLOCK_AT_TIME_LABELS.get(event.clock_at_time, event.clock_at_time))


def clock_log_words(action: str, data: dict, values: dict) -> str:
    """The log's words for a move of a round's clock ("" for any other action)."""
    if action == "clock_started":
        if data.get("by_itself"):
            return _("Round %(round)s: the clock started as the round was published.") % values
        return _("Round %(round)s: clock started.") % values
    if action == "clock_paused":
        return _("Round %(round)s: clock paused.") % values
    if action == "clock_resumed":
        return _("Round %(round)s: clock resumed.") % values
    if action == "clock_extended":
        return _("Round %(round)s: clock extended by %(minutes)s minutes.") % {
            **values,
            "minutes": data.get("minutes"),
        }
    if action == "clock_stopped":
        return _("Round %(round)s: clock stopped.") % values
    if action == "table_clock_extended":
        return _("Round %(round)s, table %(table)s: %(minutes)s minutes more for this table.") % {
            **values,
            "minutes": data.get("minutes"),
        }
    if action == "table_ended_at_time":
        return _("Round %(round)s, table %(table)s: ended at time as it stood, confirmed.") % values
    return ""
