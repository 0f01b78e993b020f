"""The table page as rendered (not a view): from a fresh replay of the live deals, for the
keeper (with the entry forms) or a watcher, whole or as its `game` partial, revalidated on
every visit. The table page's views and the watchers' poll both render it through here.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import urlencode
from django.utils.translation import get_language

from config.release import RELEASE
from scoring import selectors
from scoring.forms import ConfirmForm, LastTricksForm, TricksForm
from scoring.models import Game, Quorum
from scoring.presenters.confirmations import board as confirmations_board
from scoring.presenters.corrections import ClashView, corrections
from scoring.presenters.meanwhile import changed_since
from scoring.presenters.place import place_line, place_of
from scoring.presenters.sheet import sheet_html
from scoring.presenters.table import TableView, table_view
from scoring.signals import Identity, identity_at
from scoring.web.keeper import can_manage, keeps_here
from scoring.web.pages import keeper_link

TABLE = "scoring/table.html"


def etag(request, game: Game, keeper: bool) -> str:
    """The table page's validator: the code served, the game's version, who asks and how."""
    parts = (
        RELEASE,
        str(game.pk),
        str(game.version),
        "keeper" if keeper else "watcher",
        "htmx" if request.htmx else "page",
        get_language() or "",
        request.GET.urlencode(),
        _word_mark(game),
        _keeper_mark(request, game) if keeper else "",
    )
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f'"{digest}"'


def keeper_me(request, game: Game, board) -> Identity | None:
    """Who the keeper's phone has proven to be, where the players' word counts (an event's
    table asking more than the keeper): the keeper who plays here confirms her own seat with
    the keeper's word; a phone not yet proven is offered the way to prove it."""
    if board is None or not board.asks_players or board.confirmed:
        return None
    if can_manage(request.user, game):
        return None  # an organiser's confirmation locks on its own
    return identity_at(game, request.COOKIES)


def _keeper_mark(request, game: Game) -> str:
    """Whom the keeper's phone has proven to be: her page offers her own seat's word."""
    if game.result != Game.Result.FINISHED or game.quorum == Quorum.KEEPER:
        return ""
    identity = identity_at(game, request.COOKIES)
    person = identity.person if identity else None
    return "" if person is None else f"{person.key}|{person.seat}"


def _word_mark(game: Game) -> str:
    """What the players said of a finished result (claims, agreements, disputes leave the
    version as it is): the game's latest history entry, asked only while it awaits them."""
    if game.result != Game.Result.FINISHED:
        return ""
    return str(game.changes.order_by("-pk").values_list("pk", flat=True).first() or "")


def render_table(
    request,
    game: Game,
    *,
    keeper: bool,
    calls: list[str] | None = None,
    for_deal: int | None = None,
    forms: dict | None = None,
    errors: dict | None = None,
    status: int = 200,
    partial: bool | None = None,
    clash: ClashView | None = None,
    since: int | None = None,
    own: int | None = None,
) -> HttpResponse:
    """The table page (or its `game` partial) from a fresh replay of the live deals; its score
    sheet is rendered once per version and language (scoring.presenters.sheet.sheet_html). For the
    keeper, `since` is the version the phone showed: what changed after it (but the phone's
    `own` change) is said at the top (presenters.meanwhile)."""
    entries = selectors.all_entries(game)  # one query: the live deals and any undone ones
    live = sorted((entry for entry in entries if entry.undone_at is None), key=_number)
    view = table_view(game, live, calls=calls, for_deal=for_deal)
    # The history is read only when a deal was ever taken back (undone or corrected).
    replaced = len(live) < len(entries)
    forms = forms or {}
    errors = dict(errors or {})
    names = view.names
    shown = {}
    board = None
    extra: dict = {}
    if keeper and not view.confirmed:
        if view.step == "call":
            shown["call"] = None
        if view.step == "tricks":
            shown["tricks"] = forms.get("tricks") or TricksForm(
                initial={"deal": view.deal.number, "calls": view.deal.calls_value},
                names=names,
                per_hand=view.tricks_per_hand,
            )
        if view.needs_last_tricks:
            form = forms.get("last_tricks")
            if form is None or form.count != view.needs_last_tricks or form.is_valid():
                form = LastTricksForm(
                    initial={"deal": view.last_deal_number},
                    names=names,
                    per_hand=view.tricks_per_hand,
                    count=view.needs_last_tricks,
                    given=view.last_tricks_given,
                )
            shown["last_tricks"] = form
        board = confirmations_board(game) if view.can_confirm else None
        me = keeper_me(request, game, board)
        if me is not None:
            extra["keeper_prove_url"] = me.prove_url if me.person is None else ""
            extra["keeper_me"] = me.person if me.person and me.person.seat is not None else None
        if extra.get("keeper_me"):
            mine = board.seats[extra["keeper_me"].seat]
            if board.keeper_agreed and mine.said == "agreed":
                extra["keeper_me"] = None
        elif view.can_confirm and not (board.asks_players and board.keeper_agreed):
            shown["confirm"] = forms.get("confirm") or ConfirmForm(names=names)
    # An error for a form that is not on the page any more is said at the top.
    page_errors = [message for section, message in errors.items() if section not in shown]
    for section, form in forms.items():
        if section not in shown and form is not None and form.is_bound:
            page_errors.extend(form.non_field_errors())
    context = {
        "game": game,
        "view": view,
        "keeper": keeper,
        "sheet_html": sheet_html(view, correct=keeper and not view.confirmed),
        "errors": errors,
        "page_errors": page_errors,
        "tricks_form": shown.get("tricks"),
        "last_tricks_form": shown.get("last_tricks"),
        "confirm_form": shown.get("confirm"),
        "show_calls": "call" in shown,
        "clash": clash,
        "corrections": corrections(game) if replaced else [],
        "undo_query": urlencode({"deal": view.last_deal_number, "v": game.version}),
        "meanwhile": changed_since(game, since, own=own) if keeper else [],
        "poll_url": "",
        # Who confirmed the result (phone-neutral: the watchers' partial is shared).
        "board": board or (confirmations_board(game) if view.placings else None),
        **extra,
    }
    if partial is None:
        partial = bool(request.htmx)
    # This session's messages, shown (and so used up) inside the part each action replaces;
    # never in the watchers' partial, which is kept and served to every phone.
    context["show_messages"] = keeper or not partial
    # Where am I: asked of the game's owner only where the answer is shown (and for a
    # watchers' poll from a page that shows a round clock: the answer has the clock).
    asked = keeper or not partial or request.GET.get("c") is not None
    place = place_of(game) if asked else None
    context["place_line"] = place_line(game, place)
    # The round clock an event's table plays against (its owner's answer): shown at the top of
    # the sheet. A watchers' partial is kept and served later, so it carries no server time:
    # the page's own (measured when the page came) counts (static/js/clock/page.js).
    context["clock"] = (place or {}).get("clock")
    context["clock_fresh"] = keeper or not partial
    if keeper:
        context["poll_url"] = _poll_url(game, view, context["clock"])
    else:
        context["sheet_poll_url"] = _sheet_poll_url(game, context["clock"])
    context["can_play_again"] = keeper and bool(view.placings) and place is None
    # The keeper of a casual game resets its seat claims (an event's: its organiser).
    context["claims_resettable"] = keeper and place is None
    if not partial:
        context["watch_url"] = request.build_absolute_uri(reverse("scoring:table", args=[game.id]))
        if keeper:
            context["keep_url"], context["keep_qr"] = keeper_link(request, game)
        context["keeper_here"] = keeps_here(request, game)
        context["can_manage"] = can_manage(request.user, game)
    template = f"{TABLE}#game" if partial else TABLE
    if partial and request.htmx and status >= 400:
        status = 200  # htmx swaps only successful answers; the error is in the partial
    response = render(request, template, context, status=status)
    if keeper and request.htmx:
        # The address bar follows the keeper's step, so a reload mid-entry keeps the call.
        response["HX-Replace-Url"] = _step_url(game, view)
    return revalidated(response)


def _number(entry) -> int:
    return entry.number


def _step_url(game: Game, view: TableView) -> str:
    """The table page's address for the step the keeper is at: with the call chosen (and
    its deal) while the tricks are being entered, else the plain page."""
    url = reverse("scoring:table", args=[game.id])
    if view.step == "tricks" and view.deal.calls_value:
        return f"{url}?{urlencode({'deal': view.deal.number, 'calls': view.deal.calls_value})}"
    return url


def _poll_url(game: Game, view: TableView, clock=None) -> str:
    """What the keeper's page asks every few seconds: the watchers' versioned check
    (scoring.views.watch.sheet), as the keeper, with its own step (the call chosen stays chosen)
    and the round clock's mark it shows (an organiser's pause or extension is news)."""
    query = {"v": game.version, "keeper": 1}
    if clock is not None:
        query["c"] = clock.mark
    if view.step == "tricks" and view.deal.calls_value:
        query.update(deal=view.deal.number, calls=view.deal.calls_value)
    return f"{reverse('scoring:sheet', args=[game.pk])}?{urlencode(query)}"


def _sheet_poll_url(game: Game, clock=None) -> str:
    """What a watcher's page asks every few seconds: the sheet past the version it shows (and
    the clock's mark), asking to wait for a change (config.door): where the server holds it
    (bin/serve), the next deal shows within a second of the watcher's look; elsewhere it is
    answered at once, as a plain poll. While a question is out the page sends no other:
    htmx keeps the last tick meanwhile and sends it when the answer comes, so after a held
    answer the page asks again at once."""
    query = {"v": game.version}
    if clock is not None:
        query["c"] = clock.mark
    query["wait"] = settings.DOOR_WAIT_SECONDS
    return f"{reverse('scoring:sheet', args=[game.pk])}?{urlencode(query)}"


def revalidated(response: HttpResponse) -> HttpResponse:
    """The table page or its partial (which one, by HX-Request): asked for afresh each time,
    kept by no shared cache."""
    patch_vary_headers(response, ("HX-Request",))
    patch_cache_control(response, private=True, no_cache=True)
    return response
