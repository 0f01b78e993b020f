"""The public event pages: for players' phones (no login) and the projector on the wall.

Read-only: everything comes through tournaments.selectors and nothing here writes. Nothing
secret is shown either: a table links only to its game's public watch page (scoring:table),
never to the keeper's link, and the table secret is never put in a context.

The standings and the projector poll a fragment every 15 s (htmx). A poll first asks the
selectors only what would change the answer (which snapshot, whether it is stale, the
current round's games' versions); that, with the language and the "built … ago" wording,
makes the ETag, and a matching If-None-Match is answered 304 before any row is read or
rendered. The standings fragment's ETag is kept for FRESH_SECONDS (the check takes three
queries), and the rendered fragment under that ETag, so the phones that need a 200 (a new
snapshot, a new minute of "built … ago") share one render: a 999-player table takes
~120 ms to render, a cache read one or two. Without JavaScript every page is complete and
a reload refreshes it.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from datetime import timedelta
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.timesince import timesince
from django.utils.translation import (
    get_language,
    gettext_lazy,
    ngettext,
    pgettext,
    pgettext_lazy,
)
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.models import Game
from scoring.presenters import ruleset_label
from scoring.views import RELEASE

from .. import selectors, walkouts
from ..models import Event, Player, Round, Table

PAGES = "tournaments/public/"
STANDINGS = PAGES + "standings.html"
PROJECTOR = PAGES + "projector.html"
POLL_SECONDS = 15
MAX_ROUND = 32767  # a PositiveSmallIntegerField: anything larger names no round
MAX_ID = 2**63 - 1  # larger ids would overflow the database's integers
#: How long what the standings fragment is now (its ETag) is kept before the database is
#: asked again: a new snapshot or new results show up at most this much later.
FRESH_SECONDS = 2
#: How long a request waits for the standings fragment another one is rendering, when there
#: is no older one to answer with (the render itself takes ~0.1 s for 999 players).
RENDER_WAIT_SECONDS = 5
#: How long the last rendered fragment is kept to answer with while the next one is rendered.
LAST_SECONDS = 600
#: How long a rendered standings fragment is kept. It is keyed by everything that changes
#: it but the players' names, which come live from their rows: a renamed player shows up
#: within this time (or with the next snapshot).
FRAGMENT_SECONDS = 30

#: Column headings of the standings, one per metric (tournaments.standings.METRICS).
METRIC_HEADINGS = {
    "placing_points": pgettext_lazy("standings column", "Placing points"),
    "score": pgettext_lazy("standings column", "Game points"),
    "firsts": pgettext_lazy("standings column", "Wins"),
    "opponents": pgettext_lazy("standings column", "Opponents"),
    "head_to_head": pgettext_lazy("standings column", "Level players beaten"),
    "games": pgettext_lazy("standings column", "Games"),
    "lot": pgettext_lazy("standings column", "Lot"),
}
#: What each column means, for the legend under the standings.
METRIC_MEANINGS = {
    "placing_points": gettext_lazy("points for placings, added up over the games"),
    "score": gettext_lazy("the game totals, added up"),
    "firsts": gettext_lazy("first places"),
    "opponents": gettext_lazy("the placing points of the opponents met, added up"),
    "head_to_head": gettext_lazy(
        "among players level on the columns before it: how many of them this player placed "
        "above in their games together (0 when that does not separate them)"
    ),
    "games": gettext_lazy("games played"),
    "lot": gettext_lazy("the event's drawing of lots"),
}
#: The metrics as a sentence names them ("level on points and game points").
METRIC_WORDS = {
    "placing_points": gettext_lazy("points"),
    "score": gettext_lazy("game points"),
    "firsts": gettext_lazy("wins"),
    "opponents": gettext_lazy("opponents' points"),
    "head_to_head": gettext_lazy("head-to-head results"),
    "games": gettext_lazy("games played"),
    "lot": gettext_lazy("lot"),
}
PLACES = {
    1: pgettext_lazy("placing", "1st"),
    2: pgettext_lazy("placing", "2nd"),
    3: pgettext_lazy("placing", "3rd"),
}


# --- finding the event, and the 404 page ------------------------------------------------------


class Missing(Exception):
    """Something the address names does not exist (or is not public): a 404 page."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _not_found(request, message: str, event: Event | None = None) -> HttpResponse:
    context = {"message": message, "event": event}
    return render(request, PAGES + "not_found.html", context, status=404)


def event_page(view_func):
    """A GET of an event's page by slug; an unknown slug, round or player is a 404 page."""

    @require_GET
    @wraps(view_func)
    def wrapper(request, slug: str, **kwargs):
        try:
            event = selectors.event_by_slug(slug)
        except Event.DoesNotExist:
            return _not_found(request, _("There is no such event."))
        try:
            return view_func(request, event, **kwargs)
        except Missing as missing:
            return _not_found(request, missing.message, event)

    return wrapper


# --- words --------------------------------------------------------------------------------------


def built_ago(moment, now=None) -> str:
    """When the standings were built, to the minute: the wording is part of the poll's ETag,
    so it may change once a minute, not with every poll."""
    now = now or timezone.now()
    if now - moment < timedelta(minutes=1):
        return _("built just now")
    return _("built %(time)s ago") % {"time": timesince(moment, now, depth=1)}


def tie_sentence(decided_by: str | None, order: tuple[str, ...]) -> str:
    """Why a player is below the one above when the first metric did not separate them."""
    if not decided_by or decided_by not in order:
        return ""
    names = [str(METRIC_WORDS[name]) for name in order[: order.index(decided_by)]]
    level = get_text_list(names, pgettext("the last join of a list: a, b and c", "and"))
    if decided_by == "lot":
        return _("Level with the player above on %(level)s: placed below by lot.") % {
            "level": level
        }
    return _("Level with the player above on %(level)s: placed below on %(metric)s.") % {
        "level": level,
        "metric": METRIC_WORDS[decided_by],
    }


def tie_marker(decided_by: str | None, order: tuple[str, ...]) -> str:
    """The same reason in two words, for a row of the standings table (the sentence above the
    table explains the markers once, rather than every tied row repeating it)."""
    if not decided_by or decided_by not in order:
        return ""
    if decided_by == "lot":
        return _("by lot")
    return _("by %(metric)s") % {"metric": METRIC_WORDS[decided_by]}


def order_sentence(order: tuple[str, ...]) -> str:
    """How the standings are ordered, said once above the table."""
    names = [str(METRIC_WORDS[name]) for name in order]
    joined = get_text_list(names, pgettext("the last join of a list: a, b and c", "and"))
    return _(
        "Ranked by %(order)s, in that order. “by …” after a name says what placed the player"
        " below the one above, when they were level before it."
    ) % {"order": joined}


def game_state(game: Game | None, deals: int) -> str:
    if game is None:
        return _("no game yet")
    if game.result == Game.Result.VOID:
        return _("void: set aside by the organisers")
    if game.result == Game.Result.CONFIRMED:
        return _("confirmed")
    if game.result == Game.Result.FINISHED:
        return _("finished, waiting for confirmation")
    if not deals:
        return _("not started")
    return ngettext("in play: %(n)s deal", "in play: %(n)s deals", deals) % {"n": deals}


def round_state(progress: selectors.RoundProgress | None, event: Event) -> str:
    """The newest round's state in a sentence, for the event's home page."""
    if progress is None:
        return _("No round has been drawn yet.")
    round_, number = progress.round, progress.round.number
    if round_.status == Round.Status.PUBLISHED:
        return ngettext(
            "Round %(number)s is being played: %(done)s of %(total)s table has a confirmed result.",
            "Round %(number)s is being played: %(done)s of %(total)s tables have a confirmed "
            "result.",
            progress.tables,
        ) % {"number": number, "done": progress.confirmed, "total": progress.tables}
    if round_.status == Round.Status.CLOSED:
        if event.status == Event.Status.CLOSED:
            return _("Round %(number)s is over, and so is the event.") % {"number": number}
        return _("Round %(number)s is over; the next round has not been drawn yet.") % {
            "number": number
        }
    return _("Round %(number)s is being drawn.") % {"number": number}


# --- what the templates show -------------------------------------------------------------------


@dataclass(frozen=True)
class SeatLine:
    seat: int  # 1, 2 or 3, as players count
    player_id: int
    name: str
    deals_first: bool
    total: int | None
    place: str  # "1st" once the game has placings, else ""
    first: bool  # first place


@dataclass(frozen=True)
class TableLine:
    number: int
    game_id: int | None
    seats: list[SeatLine]
    dealer: SeatLine
    state: str
    result: str  # the game's result code ("in_play", "finished", "confirmed", "void"), or ""
    outcome: str = "played"  # how the organisers settled it (Table.Outcome: "adjusted", ...)

    def seat_of(self, player_id: int) -> SeatLine | None:
        return next((line for line in self.seats if line.player_id == player_id), None)

    def others(self, player_id: int) -> list[SeatLine]:
        return [line for line in self.seats if line.player_id != player_id]


def table_line(table: Table) -> TableLine:
    """A table in words (read with its live deal count, `deals`, by the selectors)."""
    game = table.game
    deals = table.deals
    shows_totals = game is not None and (deals > 0 or game.result != Game.Result.IN_PLAY)
    placings = list(game.placings) if game is not None and game.placings is not None else []
    seats = []
    for seat, player in enumerate(table.seats):
        total = game.totals[seat] if shows_totals and len(game.totals) == 3 else None
        place = PLACES[placings.index(seat) + 1] if seat in placings else ""
        seats.append(
            SeatLine(
                seat=seat + 1,
                player_id=player.pk,
                name=player.name,
                deals_first=seat == table.first_dealer,
                total=total,
                place=str(place),
                first=bool(placings) and placings[0] == seat,
            )
        )
    return TableLine(
        number=table.number,
        game_id=table.game_id,
        seats=seats,
        dealer=seats[table.first_dealer],
        state=_settled_state(table, game_state(game, deals)),
        result=game.result if game is not None else "",
        outcome=table.outcome,
    )


def _settled_state(table: Table, state: str) -> str:
    """A confirmed result the organisers settled after a walkout says so (tournaments.walkouts)."""
    if table.game is None or not table.game.confirmed:
        return state
    if table.outcome == Table.Outcome.ADJUSTED:
        return _("adjusted result, confirmed")
    if table.outcome == Table.Outcome.ENDED_EARLY:
        return _("ended as it stood, confirmed")
    return state


@dataclass(frozen=True)
class StandingsRow:
    rank: int
    player_id: int
    name: str
    values: list[int]
    tie: str
    tie_marker: str
    withdrawn: bool = False


def standings_label(snapshot) -> str:
    """What a snapshot counts, said exactly (the one home of this label: the standings, the
    projector): the closed rounds, plus the settled tables of the round being played, e.g.
    "After 1 round + 3 of 5 tables of round 2"."""
    if snapshot is None:
        return ""
    done = snapshot.rounds_complete
    counted = snapshot.counted or {}
    if not counted.get("settled"):
        if not done:
            return ""
        return ngettext("After %(n)s round", "After %(n)s rounds", done) % {"n": done}
    tables = ngettext(
        "%(settled)s of %(tables)s table of round %(round)s",
        "%(settled)s of %(tables)s tables of round %(round)s",
        counted["tables"],
    ) % {"settled": counted["settled"], "tables": counted["tables"], "round": counted["round"]}
    if not done:
        return _("After %(tables)s") % {"tables": tables}
    return ngettext("After %(n)s round + %(tables)s", "After %(n)s rounds + %(tables)s", done) % {
        "n": done,
        "tables": tables,
    }


def standings_context(
    event: Event, view: selectors.StandingsView, *, player_id: int | None = None
) -> dict:
    """The standings as the page, its fragment, the player page and the projector show them;
    with `player_id`, only that player's row (their page shows one row of up to 999)."""
    order = selectors.standings_order(event)
    columns = [name for name in order if name != "lot"]  # a lot's number means nothing to read
    if "games" not in columns:  # games played: always shown, what the points come from
        columns.append("games")
    snapshot = view.snapshot
    stored = snapshot.rows if snapshot else []
    if player_id is not None:
        stored = [row for row in stored if row["player"] == player_id]
    rows = [
        StandingsRow(
            rank=row["rank"],
            player_id=row["player"],
            name=view.names.get(row["player"], "?"),
            values=[row["metrics"].get(name, 0) for name in columns],
            tie=tie_sentence(row.get("decided_by"), order),
            tie_marker=tie_marker(row.get("decided_by"), order),
            withdrawn=row["player"] in view.withdrawn,
        )
        for row in stored
    ]
    return {
        "snapshot": snapshot,
        "stale": view.stale and snapshot is not None,
        "built_ago": built_ago(snapshot.built_at) if snapshot else "",
        "counted": standings_label(snapshot),
        "headings": [METRIC_HEADINGS[name] for name in columns],
        "legend": [(METRIC_HEADINGS[name], METRIC_MEANINGS[name]) for name in columns],
        "order_sentence": order_sentence(order),
        "rows": rows,
        "poll_seconds": POLL_SECONDS,
    }


# --- conditional answers for the polls --------------------------------------------------------


def _etag(*parts) -> str:
    text = "|".join(str(part) for part in (RELEASE, get_language() or "", *parts))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _polled(response: HttpResponse, etag: str) -> HttpResponse:
    """Every poll asks again (no-cache), and the browser sends the ETag back with it."""
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _not_modified(request, etag: str) -> HttpResponse | None:
    """A 304 when the phone's copy is `etag` (headed like every poll's answer), else None."""
    response = get_conditional_response(request, etag=etag)
    return None if response is None else _polled(response, etag)


def _standings_etag(snapshot_id, stale: bool, built_at) -> str:
    """Names the standings fragment: which snapshot (its time too, as ids can come round
    again in a fresh database), whether it is stale, the "built … ago" wording, and through
    _etag the release and the active language."""
    moment = built_at.timestamp() if built_at else ""
    return _etag("standings", snapshot_id, moment, stale, built_ago(built_at) if built_at else "")


def _fragment_key(event_pk: int, slug: str, etag: str) -> str:
    return f"standings-fragment:{event_pk}:{slug}:{etag}"


def _last_key(event_pk: int, slug: str) -> str:
    """The fragment rendered last in the active language, shown while the next is rendered."""
    return f"standings-last:{event_pk}:{slug}:{get_language() or ''}"


def _rendering_key(event_pk: int, slug: str, etag: str) -> str:
    return f"standings-rendering:{event_pk}:{slug}:{etag}"


def _standings_fragment(request, event: Event, snapshot, stale: bool) -> tuple[str, str]:
    """(ETag, HTML) of the standings fragment for this snapshot and staleness: rendered once
    per snapshot, staleness, wording and language, then read from the cache. The players'
    names are read only to render."""
    built_at = snapshot.built_at if snapshot else None
    etag = _standings_etag(snapshot.pk if snapshot else None, stale, built_at)
    key = _fragment_key(event.pk, event.slug, etag)
    html = cache.get(key)
    if html is None:
        view = selectors.StandingsView(snapshot, stale, *selectors.standings_people(event))
        context = {"event": event, **standings_context(event, view)}
        html = render_to_string(STANDINGS + "#standings", context, request)
        cache.set(key, html, FRAGMENT_SECONDS)
        cache.set(_last_key(event.pk, event.slug), (etag, html), LAST_SECONDS)
    return etag, html


# --- the pages ---------------------------------------------------------------------------------


@require_GET
def home(request):
    """The front page: the events being played now, and the three things people come for."""
    running = [e for e in selectors.events_listed() if e.status == Event.Status.RUNNING][:5]
    return render(request, "home.html", {"running": running})


@require_GET
def events(request):
    """Every event: those being played first, then those taking entries, then closed ones."""
    return render(request, PAGES + "events.html", {"events": selectors.events_listed()})


@event_page
def event(request, event: Event):
    """The event's home: what it is, how far it has come, and where to look next."""
    progress = selectors.rounds_progress(event)
    latest = progress[-1] if progress else None
    published = [p.round for p in progress if p.round.status in selectors.PUBLIC_ROUNDS]
    context = {
        "event": event,
        "ruleset": ruleset_label(event.ruleset),
        "rounds_played": sum(1 for p in progress if p.round.status == Round.Status.CLOSED),
        "round_state": round_state(latest, event),
        "published": published,
        "current": published[-1] if published else None,
    }
    return render(request, PAGES + "event.html", context)


@dataclass(frozen=True)
class SeatAnswer:
    """Where a player sits in the newest published round ("table"), or why not."""

    kind: str  # "table", "bye", "left" (substituted), "not_in_round" or "no_round"
    round: Round | None = None
    table: TableLine | None = None
    seat: SeatLine | None = None
    others: tuple[SeatLine, ...] = ()


def seat_answer(event: Event, player_id: int) -> SeatAnswer:
    round_ = selectors.newest_published_round(event)
    if round_ is None:
        return SeatAnswer("no_round")
    table = next(
        (t for t in selectors.player_tables(event, player_id) if t.round_id == round_.pk), None
    )
    if table is not None:
        line = table_line(table)
        return SeatAnswer(
            "table", round_, line, line.seat_of(player_id), tuple(line.others(player_id))
        )
    if any(bye.round_id == round_.pk for bye in selectors.player_byes(event, player_id)):
        return SeatAnswer("bye", round_)
    if walkouts.left_table_of(round_, player_id) is not None:
        return SeatAnswer("left", round_)  # another player took the seat (a substitution)
    return SeatAnswer("not_in_round", round_)


def _id(value: object) -> int | None:
    text = str(value or "")
    return int(text) if text.isascii() and text.isdigit() and int(text) <= MAX_ID else None


#: How long a phone remembers whose seat it looks up (an evening, and the next club night).
ME_MAX_AGE = 14 * 24 * 3600


def _me_cookie(event: Event) -> str:
    return f"me-{event.pk}"


def _remembered(request, event: Event) -> tuple[int, str] | None:
    """The player this phone said it belongs to ("This is me"), if still in the event."""
    player_id = _id(request.COOKIES.get(_me_cookie(event)))
    if player_id is None:
        return None
    try:
        player = selectors.entered_player(event, player_id)
    except Player.DoesNotExist:
        return None
    return player.pk, player.name


@event_page
def seat(request, event: Event):
    """Where do I sit? A GET form: type a name, pick your own among the names it may mean
    (in Latin or Cyrillic letters), read the answer. Only a whole name goes straight to the
    seat: a part of one ("Georgi") may be someone else's ("Maria Georgieva"). A phone that
    said "This is me" shows that player's seat first, without typing."""
    typed = request.GET.get("name")
    query = " ".join((typed or "").split())
    me = _remembered(request, event)
    error, matches, found, answer = "", [], None, None
    if typed is not None and not query:
        error = _("Type your name, or a part of it.")
    elif query:
        exact, matches = selectors.players_matching(event, query)
        picked = _id(request.GET.get("player"))
        chosen = [m for m in matches if m[0] == picked] if picked else []
        if chosen or len(exact) == 1:
            found = (chosen or exact)[0]
            answer = seat_answer(event, found[0])
    elif me is not None:
        found, answer = me, seat_answer(event, me[0])
    context = {
        "event": event,
        "query": query,
        "error": error,
        "matches": matches,
        "player": found,
        "answer": answer,
        "searched": bool(query),
        "me": me,
        "me_answer": None if me is None else answer if found == me else seat_answer(event, me[0]),
    }
    response = render(request, PAGES + "seat.html", context, status=400 if error else 200)
    patch_cache_control(response, private=True)  # it depends on this phone's cookie
    return response


@require_POST
def seat_me(request, slug: str):
    """ "This is me" (remember the player on this phone, in a cookie) or "Not you?" (forget).
    A plain form post, so it works without JavaScript; back to the seat page after."""
    try:
        event = selectors.event_by_slug(slug)
    except Event.DoesNotExist:
        return _not_found(request, _("There is no such event."))
    response = redirect("tournaments:seat", event.slug)
    player_id = _id(request.POST.get("player"))
    if request.POST.get("forget"):
        response.delete_cookie(_me_cookie(event), samesite="Lax")
    elif (
        player_id is not None and Player.objects.filter(pk=player_id, entries__event=event).exists()
    ):
        response.set_cookie(
            _me_cookie(event),
            str(player_id),
            max_age=ME_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


@event_page
def round_detail(request, event: Event, number: int):
    """A published (or closed) round: its tables, their games so far, and the byes."""
    if number > MAX_ROUND:
        raise Missing(_("There is no such round."))
    try:
        round_ = selectors.published_round(event, number)
    except Round.DoesNotExist:
        raise Missing(_("There is no such round, or it is not published yet.")) from None
    context = {
        "event": event,
        "round": round_,
        "tables": [table_line(table) for table in selectors.round_tables_played(round_)],
        "byes": selectors.round_byes(round_),
    }
    return render(request, PAGES + "round.html", context)


@event_page
def standings(request, event: Event):
    """The newest standings snapshot; the fragment inside (the kept one, shared with the
    poll) polls standings_live."""
    _, html = _standings_fragment(request, event, *selectors.standings_newest(event))
    context = {"event": event, "standings_html": mark_safe(html)}
    context["settled"] = walkouts.settled_tables(event)  # adjusted, void, ended as it stood
    return render(request, STANDINGS, context)


def _live_key(slug: str) -> str:
    return f"standings-live:{slug}:{get_language() or ''}"


@require_GET
def standings_live(request, slug: str):
    """The standings fragment for the poll: 304 while nothing it shows has changed, else the
    fragment kept for this snapshot and language (rendered by the first phone to ask).

    What the fragment is now (its ETag) is itself kept for FRESH_SECONDS, as the API does:
    the check (the event, its newest snapshot, results since) takes ~5 ms and three queries,
    and half the phones in the room run it every 15 s. Within that time a poll costs no
    query at all; a new snapshot or new results show up at most that much later.
    """
    kept = cache.get(_live_key(slug))
    if kept is not None:
        event_pk, etag = kept
        response = _kept_fragment(request, event_pk, slug, etag)
        if response is not None:
            return response
    return _standings_live(request, slug)


def _kept_fragment(request, event_pk: int, slug: str, etag: str) -> HttpResponse | None:
    """The answer from the cache: 304, the fragment named `etag`, or while another request
    renders that one, the fragment rendered before it (the phone gets the new one with its
    next poll); None when there is nothing to answer with."""
    response = _not_modified(request, etag)
    if response is not None:
        return response
    html = cache.get(_fragment_key(event_pk, slug, etag))
    if html is not None:
        return _polled(HttpResponse(html), etag)
    if cache.get(_rendering_key(event_pk, slug, etag)) is None:
        return None
    last = cache.get(_last_key(event_pk, slug))
    if last is None:
        return None
    last_etag, html = last
    return _not_modified(request, last_etag) or _polled(HttpResponse(html), last_etag)


@event_page
def _standings_live(request, event: Event):
    head = selectors.standings_head(event)
    etag = _standings_etag(head.snapshot_id, head.stale, head.built_at)
    cache.set(_live_key(event.slug), (event.pk, etag), FRESH_SECONDS)
    response = _kept_fragment(request, event.pk, event.slug, etag)
    if response is not None:
        return response
    # One request renders a new fragment; the others meanwhile answer with the one before
    # (above), or when there is none yet, wait for it a little. A new snapshot every few
    # seconds in the confirmation rush had all of a site's threads render the same 999 rows
    # at once, each taking seconds instead of ~0.1 s, while every other request queued.
    rendering = _rendering_key(event.pk, event.slug, etag)
    if not cache.add(rendering, True, RENDER_WAIT_SECONDS):
        deadline = time.monotonic() + RENDER_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
            html = cache.get(_fragment_key(event.pk, event.slug, etag))
            if html is not None:
                return _polled(HttpResponse(html), etag)
    try:
        # the newest standings, read whole: they may be newer still, under their own ETag
        new_etag, html = _standings_fragment(request, event, *selectors.standings_newest(event))
    finally:
        cache.delete(rendering)
    if new_etag != etag:
        cache.set(_live_key(event.slug), (event.pk, new_etag), FRESH_SECONDS)
    return _polled(HttpResponse(html), new_etag)


@dataclass(frozen=True)
class PlayerGame:
    round: int
    table: TableLine | None
    seat: SeatLine | None
    others: list[SeatLine]


@event_page
def player(request, event: Event, player_id: int):
    """One player's event: each published round's table (or bye) and their standing."""
    if player_id > MAX_ID:
        raise Missing(_("There is no such player in this event."))
    try:
        person: Player = selectors.entered_player(event, player_id)
    except Player.DoesNotExist:
        raise Missing(_("There is no such player in this event.")) from None
    games = []
    for table in selectors.player_tables(event, person.pk):
        line = table_line(table)
        games.append(
            PlayerGame(table.round.number, line, line.seat_of(person.pk), line.others(person.pk))
        )
    games += [
        PlayerGame(bye.round.number, None, None, [])
        for bye in selectors.player_byes(event, person.pk)
    ]
    games.sort(key=lambda game: game.round)
    table_standings = standings_context(
        event, selectors.standings_latest(event), player_id=person.pk
    )
    row = next(iter(table_standings["rows"]), None)
    context = {
        "event": event,
        "person": person,
        "games": games,
        "row": row,
        "standing": list(zip(table_standings["headings"], row.values, strict=True)) if row else [],
        **{key: table_standings[key] for key in ("snapshot", "stale", "built_ago", "headings")},
    }
    return render(request, PAGES + "player.html", context)


def _projector_etag(head: selectors.StandingsHead, round_: Round | None) -> str:
    round_part = (round_.pk, round_.status, round_.games_version) if round_ else None
    return _etag(
        "projector", _standings_etag(head.snapshot_id, head.stale, head.built_at), round_part
    )


def _projector_context(event: Event, round_: Round | None) -> dict:
    tables = selectors.round_tables_played(round_) if round_ else []
    return {
        "event": event,
        "round": round_,
        "tables": [table_line(table) for table in tables],
        "byes": selectors.round_byes(round_) if round_ else [],
        **standings_context(event, selectors.standings_latest(event)),
    }


@event_page
def projector(request, event: Event):
    """For the wall: the current round's tables, then the standings; projector.js scrolls
    through them and loops, and the fragment polls projector_live."""
    round_ = selectors.newest_published_round(event)
    return render(request, PROJECTOR, _projector_context(event, round_))


@event_page
def projector_live(request, event: Event):
    """The projector's fragment for the poll: 304 while no table and no standings changed."""
    head = selectors.standings_head(event)
    round_ = selectors.newest_published_round(event)
    etag = _projector_etag(head, round_)
    cached = _not_modified(request, etag)
    if cached is not None:
        return cached
    response = render(request, PROJECTOR + "#live", _projector_context(event, round_))
    return _polled(response, etag)
