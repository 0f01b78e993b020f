"""The table page: the score-keeper's and the watchers', and the keeper's changes to it (a
call, a deal's tricks, the last tricks' winners, the confirmation, leaving the table).

Thin on purpose: the page is rendered by scoring.web.table_page, every change goes through
scoring.services (as the organiser's username, or "table": scoring.web.keeper), and a refusal
comes back on the page through scoring.web.pages.submit. Without JavaScript each form posts and
redirects (POST-redirect-GET); with htmx the same views answer with the page's `game`
partial. The other pages: game_new (a new game, the keeper's link), watch (the watchers'
poll, the QR code), undo, correct, manage, referee.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.messages import get_messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.errors import Conflict
from scoring.forms import CallForm, ConfirmForm, LastTricksForm, TricksForm
from scoring.models import Game
from scoring.presenters.corrections import clash_view
from scoring.presenters.meanwhile import changed_since
from scoring.signals import identity_at
from scoring.web.keeper import actor, can_manage, is_keeper, keep_release, keeper_key  # noqa: F401 (keeper_key: callers)
from scoring.web.pages import game_or_404, no_store, not_keeper, submit
from scoring.web.table_page import etag, render_table
from scoring.words import calls_from_text


@require_GET
def table(request, game_id: int):
    """The table page: entry forms for the score-keeper, read-only for everyone else."""
    game = game_or_404(game_id)
    keeper = is_keeper(request, game)
    # A message waiting for this session ("Deal 2 is corrected.") is said once, now: such a
    # page is neither answered "not modified" (the message would wait for a later page) nor
    # kept under the game's validator (a later 304 would show it again).
    if len(get_messages(request)):
        response = _page(request, game, keeper)
        return no_store(response)
    tag = etag(request, game, keeper)
    # Without a CSRF cookie the page must be sent: rendering it sets the cookie its forms need.
    has_csrf_cookie = "CSRF_COOKIE" in request.META
    not_modified = get_conditional_response(request, etag=tag) if has_csrf_cookie else None
    if not_modified is not None:
        not_modified["ETag"] = tag
        patch_cache_control(not_modified, private=True, no_cache=True)
        return not_modified
    response = _page(request, game, keeper)
    response["ETag"] = tag
    # The keeper's page is never stored: it holds the keeper link, and Back to it (after a
    # hand recorded without JavaScript: POST, redirect, GET) must show the game as it is now,
    # not a copy whose form would enter the same hand again.
    return no_store(response) if keeper else response


def _page(request, game: Game, keeper: bool) -> HttpResponse:
    calls, for_deal = [], None
    if keeper:
        calls = calls_from_text(request.GET.get("calls"))
        for_deal = _int(request.GET.get("deal"))
    return render_table(request, game, keeper=keeper, calls=calls, for_deal=for_deal)


# --- changes: the score-keeper only -----------------------------------------------------------


def _int(value: object) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def keeper_post(view_func):
    """A POST from the score-keeper's session; anyone else gets a 403 page."""

    @require_POST
    @wraps(view_func)
    def wrapper(request, game_id: int):
        game = game_or_404(game_id)
        if not is_keeper(request, game):
            return not_keeper(request, game)
        return view_func(request, game)

    return wrapper


def _done(request, game: Game, since: int | None = None) -> HttpResponse:
    """After a change: the fresh partial for htmx, else redirect to the table page.

    Either way the change is a new step of the phone's history (a redirect after a POST is
    one; htmx is told to push the page), so Back right after recording a hand lands on the
    keeper's page, reloaded as it is now, not on the form before it (the PIN, the new game).
    What other phones changed since the version this phone showed (`since`) is said with it:
    this phone's own change is the game's latest version."""
    if request.htmx:
        response = render_table(request, game, keeper=True, since=since, own=game.version)
        response.headers.pop("HX-Replace-Url", None)
        response["HX-Push-Url"] = reverse("scoring:table", args=[game.id])
        return response
    for line in changed_since(game, since, own=game.version):
        messages.info(request, line)
    return redirect("scoring:table", game_id=game.id)


def _clash(game: Game, submitted, number, calls, tricks):
    """Another phone recorded this deal first, with other values, or undid it after this
    page was shown: both versions, to keep either (presenters.corrections.clash_view); None
    for any other refusal."""
    if not isinstance(submitted.refused, Conflict):
        return None
    undone = submitted.refused.code == "deal_stale"
    return clash_view(game, number, calls, tricks, undone=undone)


@keeper_post
def call(request, game: Game):
    """One call. A redeal is recorded at once (services.calls_make decides); otherwise the
    page asks for the next step."""
    form = CallForm(request.POST)
    names = list(game.players)
    submitted = submit(
        form,
        lambda data: services.calls_make(
            game_id=game.id,
            number=data["deal"],
            calls=[*data["calls"], data["call"]],
            actor=actor(request),
            version=data["version"],
        ),
        names=names,
        on_form=False,
    )
    if submitted.status == 400 and submitted.refused is None:
        errors = {"call": _("Choose one of the calls shown.")}
        return render_table(request, game, keeper=True, errors=errors, status=400)
    if not submitted.ok:
        data = form.cleaned_data
        calls = [*data["calls"], data["call"]]
        clash = _clash(game, submitted, data["deal"], calls, None)
        errors = {} if clash else {"call": submitted.message}
        status = submitted.status
        return render_table(request, game, keeper=True, errors=errors, status=status, clash=clash)
    if submitted.result is not None:  # a redeal, recorded
        return _done(request, submitted.result.game, form.cleaned_data["version"])
    number = form.cleaned_data["deal"]
    calls = [*form.cleaned_data["calls"], form.cleaned_data["call"]]
    if request.htmx:
        return render_table(request, game, keeper=True, calls=calls, for_deal=number)
    # Without JavaScript the page opens at what is now due: the exchange, then the tricks.
    query = urlencode({"deal": number, "calls": ",".join(calls)})
    return redirect(f"{reverse('scoring:table', args=[game.id])}?{query}#now")


@keeper_post
def deal(request, game: Game):
    """A played deal: its calls and the tricks each seat took."""
    per_hand = selectors.rules_of(game).tricks_per_hand
    names = list(game.players)
    form = TricksForm(request.POST, names=names, per_hand=per_hand)
    submitted = submit(
        form,
        lambda data: services.deal_record(
            game_id=game.id,
            number=data["deal"],
            calls=data["calls"],
            tricks=data["tricks"],
            actor=actor(request),
            version=data["version"],
        ),
        names=names,
    )
    if submitted.ok:
        return _done(request, submitted.result.game, form.cleaned_data["version"])
    if submitted.refused is not None:
        data = form.cleaned_data
        clash = _clash(game, submitted, data["deal"], data["calls"], data["tricks"])
        if clash is not None:
            return render_table(request, game, keeper=True, status=submitted.status, clash=clash)
    return render_table(
        request,
        game,
        keeper=True,
        calls=calls_from_text(request.POST.get("calls")),
        for_deal=_int(request.POST.get("deal")),
        forms={"tricks": form},
        status=submitted.status,
    )


@keeper_post
def last_tricks(request, game: Game):
    """Who won the last tricks of the last hand, when a tie-break needs them."""
    per_hand = selectors.rules_of(game).tricks_per_hand
    count = min(max(_int(request.POST.get("count")) or 1, 1), per_hand)
    names = list(game.players)
    form = LastTricksForm(request.POST, names=names, per_hand=per_hand, count=count)
    submitted = submit(
        form,
        lambda data: services.last_tricks_add(
            game_id=game.id,
            number=data["deal"],
            last_tricks=data["winners"],
            actor=actor(request),
            version=data["version"],
        ),
        names=names,
    )
    if submitted.ok:
        return _done(request, submitted.result.game, form.cleaned_data["version"])
    forms = {"last_tricks": form}
    return render_table(request, game, keeper=True, forms=forms, status=submitted.status)


@keeper_post
def confirm(request, game: Game):
    """The keeper's confirmation: it locks the result once the game's quorum agrees
    (scoring.services.verdicts); an organiser's always locks."""
    names = list(game.players)
    form = ConfirmForm(request.POST, names=names)
    by_keeper = not can_manage(request.user, game)
    identity = identity_at(game, request.COOKIES) if by_keeper else None
    me = identity.person if identity else None
    if me is not None and me.seat is not None and request.POST.get("as_seat"):
        # The keeper who plays here: her own seat's word and the keeper's, one tap.
        submitted = submit(
            form,
            lambda data: services.keeper_confirm_as_player(
                game_id=game.id, person=me, actor=me.name, version=data["version"]
            ),
            names=names,
        )
    else:
        submitted = submit(
            form,
            lambda data: services.game_confirm(
                game_id=game.id,
                actor=data["player"],
                by_keeper=by_keeper,
                keeper_person=me.key if me else "",
                version=data["version"],
            ),
            names=names,
        )
    if submitted.ok:
        return _done(request, submitted.result)
    forms = {"confirm": form}
    return render_table(request, game, keeper=True, forms=forms, status=submitted.status)


@require_POST
def release(request, game_id: int):
    """Stop keeping the score on this phone: the session forgets the table's secret."""
    game = game_or_404(game_id)
    keep_release(request, game)
    return redirect("scoring:table", game_id=game.id)
