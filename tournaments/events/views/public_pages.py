"""The public event pages that do not poll: the front page, the list of events, an event's
home, a round's tables and a player's page. No login, nothing secret: a table links only
to its game's public watch page (scoring:table), never to the keeper's link.

Read-only: rows come through tournaments.selectors, words through tournaments.presenters.
Without JavaScript every page is complete and a reload refreshes it.
"""

from __future__ import annotations

from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.presenters import ruleset_label
from tournaments.common.web.public import MAX_ID, MAX_ROUND, PAGES, Missing, event_page
from tournaments.events import presenters as event_words
from tournaments.events.selectors.entries import entered_player, events_listed
from tournaments.models import Event, Player, Round
from tournaments.results.presenters import standings_context
from tournaments.results.selectors import standings_latest
from tournaments.rounds.presenters.seat import player_games
from tournaments.rounds.presenters.tables import round_over
from tournaments.rounds.render import round_version
from tournaments.rounds.selectors import clock_of, published_round, rounds_progress
from tournaments.rounds.web import kept_page, round_tables_html


@require_GET
def home(request):
    """The front page: the events being played now, and the three things people come for."""
    running = event_words.running(events_listed())[:5]
    return render(request, "home.html", {"running": running})


@require_GET
def events(request):
    """Every event: those being played first, then those taking entries, then closed ones."""
    groups = event_words.event_groups(events_listed())
    return render(request, PAGES + "events.html", {"groups": groups})


@event_page
def event(request, event: Event):
    """The event's home: what it is, how far it has come, and where to look next."""
    context = {
        "event": event,
        "ruleset": ruleset_label(event.ruleset),
        **event_words.event_home(event, rounds_progress(event)),
    }
    return render(request, PAGES + "event.html", context)


@event_page
def round_detail(request, event: Event, number: int):
    """A published (or closed) round: its tables, their games so far, and the byes (kept
    until the round changes: tournaments.rounds.web)."""
    if number > MAX_ROUND:
        raise Missing(_("There is no such round."))
    try:
        round_ = published_round(event, number)
    except Round.DoesNotExist:
        raise Missing(_("There is no such round, or it is not published yet.")) from None

    # The round clock, with this moment's server time: put into the kept page each time.
    clock_html = round_clock_html(event, round_)

    def page(extra: dict):
        context = {
            "event": event,
            "round": round_,
            "round_over": round_over(round_),
            "tables_html": round_tables_html(request, event, round_),  # kept per version
            "clock_html": mark_safe(CLOCK_MARK) if "csrf_token" in extra else clock_html,
            **extra,
        }
        return render(request, PAGES + "round.html", context)

    version = ("round", *round_version(event, round_))
    return kept_page(request, version, page, queried=False, marks={CLOCK_MARK: clock_html})


#: Where the kept round page takes its clock (round_clock_html), answer by answer.
CLOCK_MARK = "<!--round-clock-->"


def round_clock_html(event: Event, round_: Round) -> str:
    """The round's clock with its scripts, or "" when there is none to show."""
    if not event.clock_minutes or not round_.is_published:
        return ""
    clock = clock_of(round_)
    if not clock.shown:
        return ""
    return render_to_string("_clock_block.html", {"clock": clock, "big": True})


#: What a player's page takes of the standings' head (tournaments.results.presenters).
HEAD_KEYS = ("snapshot", "stale", "built_ago", "built_words", "headings")


@event_page
def player(request, event: Event, player_id: int):
    """One player's event: each published round's table (or bye) and their standing."""
    if player_id > MAX_ID:
        raise Missing(_("There is no such player in this event."))
    try:
        person: Player = entered_player(event, player_id)
    except Player.DoesNotExist:
        raise Missing(_("There is no such player in this event.")) from None
    standing = standings_context(event, standings_latest(event), player_id=person.pk)
    row = next(iter(standing["rows"]), None)
    context = {
        "event": event,
        "person": person,
        "games": player_games(event, person),
        "row": row,
        "standing": list(zip(standing["headings"], row.values, strict=True)) if row else [],
        **{key: standing[key] for key in HEAD_KEYS},
    }
    return render(request, PAGES + "player.html", context)
