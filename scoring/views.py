"""The table pages: a new game, the table page (the score-keeper's and the watchers'), the
undo confirmation, the watchers' poll, the QR code and the referee's help.

Thin on purpose: reads go through scoring.selectors (worded by scoring.presenters), every
change through scoring.services with the actor "table". Without JavaScript each form posts
and redirects (POST-redirect-GET); with htmx the same views answer with the page's `game`
partial. The table secret is only ever shown to a session that already keeps the score.
"""

from __future__ import annotations

import hashlib
import io
import secrets
from functools import wraps
from pathlib import Path

import segno
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import (
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import engine

from . import presenters, selectors, services, throttle
from .errors import Conflict, ScoringError
from .forms import (
    CallForm,
    ConfirmForm,
    GameNewForm,
    LastTricksForm,
    LegalCardsForm,
    ReturnCardForm,
    TricksForm,
    UndoForm,
)
from .models import Game
from .names import near_pairs
from .rule_words import refusal, rule_text
from .tables import sheet_table

ACTOR = "table"
TABLE = "scoring/table.html"
#: How long a watchers' partial is kept. It is keyed by the game's version (and save time),
#: so it never goes out of date; this only bounds the memory of finished games.
SHEET_SECONDS = 600
#: How long a keeper link's QR code is kept (keyed by a digest of the link, secret and all).
QR_SECONDS = 3600


def _release() -> str:
    """Changes when the code, templates or translations behind the page change, so that a
    browser's cached page is not kept (304) across a deployment."""
    base = Path(settings.BASE_DIR)
    files = [
        *Path(__file__).parent.glob("*.py"),
        *(base / "templates").rglob("*.html"),
        *(base / "locale").rglob("*.mo"),
    ]
    return str(max((f.stat().st_mtime_ns for f in files if f.is_file()), default=0))


RELEASE = _release()


def keeper_key(game_id: int) -> str:
    return f"keeper:{game_id}"


def _secret_mark(game: Game) -> str:
    """What a keeper's session holds: a digest of the secret it was given, never the secret.
    Replacing the secret changes the mark, so every phone holding the old one stops keeping."""
    return hashlib.sha256(f"keeper|{game.pk}|{game.secret}".encode()).hexdigest()[:32]


def keep_grant(request, game: Game) -> None:
    """Grant keeping in a new session key: a session id planted before (session fixation)
    must not gain the table. The session's data moves to the new key."""
    request.session.cycle_key()
    request.session[keeper_key(game.pk)] = _secret_mark(game)


def keep_release(request, game: Game) -> None:
    request.session.pop(keeper_key(game.pk), None)


def is_keeper(request, game: Game) -> bool:
    """The holder of the table's current secret, or an organiser allowed to change the game."""
    held = request.session.get(keeper_key(game.pk))
    if isinstance(held, str) and secrets.compare_digest(held, _secret_mark(game)):
        return True
    return can_manage(request.user, game)


def can_manage(user, game: Game) -> bool:
    """An organiser of the game's event (or a superuser): may reopen, replace the secret."""
    return user.is_authenticated and user.has_perm("scoring.change_game", game)


def actor(request) -> str:
    """Who a change is written down as: the organiser's username, or "table" for the keeper."""
    return request.user.get_username() if request.user.is_authenticated else ACTOR


def _game(game_id: int) -> Game:
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404 from None


def _no_store(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_store=True, private=True)
    return response


# --- a new game, and the keeper's link --------------------------------------------------------


@require_http_methods(["GET", "POST"])
def game_new(request):
    form = GameNewForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        if not throttle.game_creation_allowed(request):
            status = 429
            form.add_error(None, _("Too many new games from here just now. Wait ten minutes."))
        else:
            data = form.cleaned_data
            try:
                game = services.game_create(
                    ruleset=data["ruleset"],
                    players=data["players"],
                    options=data["options"],
                    first_dealer=data["dealer"],
                    actor=actor(request),
                )
            except ScoringError as error:
                form.add_error(None, refusal(error))
            else:
                keep_grant(request, game)
                for name, other in near_pairs(game.players, []):
                    messages.warning(
                        request,
                        _("“%(name)s” and “%(other)s” look alike: are they two different players?")
                        % {"name": name, "other": other},
                    )
                return redirect("scoring:table", game_id=game.id)
    options = ("hands", "goal", "pass_turns", "exchange_order")
    context = {
        "form": form,
        "rulesets": list(zip(form["ruleset"], presenters.ruleset_choices(), strict=True)),
        "player_fields": [form[f"player_{seat}"] for seat in range(3)],
        "options_open": any(form[name].errors for name in options),
    }
    status = 400 if form.errors and status == 200 else status
    return render(request, "scoring/game_new.html", context, status=status)


@require_GET
def keep(request, game_id: int, secret: str):
    """The keeper's link: grants the right to this session, then leaves the secret behind."""
    game = _game(game_id)
    right = services.secret_matches(game, secret)
    verdict = throttle.judge_secret(request, game.pk, right=right, via="keeper link")
    if verdict is throttle.Verdict.RIGHT:
        keep_grant(request, game)
        response = redirect("scoring:table", game_id=game.id)
    else:
        blocked = verdict is throttle.Verdict.BLOCKED
        context = {"game": game, "blocked": blocked}
        status = 429 if blocked else 403
        response = render(request, "scoring/keep_denied.html", context, status=status)
    response["Referrer-Policy"] = "no-referrer"
    return _no_store(response)


# --- the table page ---------------------------------------------------------------------------


def _etag(request, game: Game, keeper: bool) -> str:
    parts = (
        RELEASE,
        str(game.pk),
        str(game.version),
        "keeper" if keeper else "watcher",
        "htmx" if request.htmx else "page",
        get_language() or "",
        request.GET.urlencode(),
    )
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f'"{digest}"'


def _keeper_link(request, game: Game) -> tuple[str, str]:
    """The keeper's link and its QR code, drawn once per link and language, then kept.

    The cache key holds a digest of the link, never the link: it carries the secret, and a
    key shows up in logs and monitoring more readily than a value. A new secret is a new
    link, so a new key."""
    url = request.build_absolute_uri(reverse("scoring:keep", args=[game.id, game.secret]))
    digest = hashlib.sha256(url.encode()).hexdigest()[:32]
    key = f"keeper-qr:{game.pk}:{digest}:{get_language() or ''}"
    svg = cache.get(key)
    if svg is None:
        svg = segno.make(url, error="m").svg_inline(
            scale=4, border=2, omitsize=True, title=_("Keeper link")
        )
        cache.set(key, svg, QR_SECONDS)
    return url, svg


def _render(
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
    clash: presenters.ClashView | None = None,
) -> HttpResponse:
    """The table page (or its `game` partial) from a fresh replay of the live deals."""
    entries = selectors.all_entries(game)  # one query: the live deals and any undone ones
    live = sorted((entry for entry in entries if entry.undone_at is None), key=_number)
    view = presenters.table_view(game, live, calls=calls, for_deal=for_deal)
    # The history is read only when a deal was ever taken back (undone or corrected).
    replaced = len(live) < len(entries)
    forms = forms or {}
    errors = dict(errors or {})
    names = view.names
    shown = {}
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
        if view.can_confirm:
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
        "sheet": sheet_table(view, correct=keeper and not view.confirmed),
        "errors": errors,
        "page_errors": page_errors,
        "tricks_form": shown.get("tricks"),
        "last_tricks_form": shown.get("last_tricks"),
        "confirm_form": shown.get("confirm"),
        "show_calls": "call" in shown,
        "clash": clash,
        "corrections": presenters.corrections(game) if replaced else [],
        "undo_query": urlencode({"deal": view.last_deal_number, "v": game.version}),
    }
    if partial is None:
        partial = bool(request.htmx)
    if not partial:
        context["watch_url"] = request.build_absolute_uri(reverse("scoring:table", args=[game.id]))
        if keeper:
            context["keep_url"], context["keep_qr"] = _keeper_link(request, game)
        context["keeper_here"] = keeper_key(game.pk) in request.session
        context["can_manage"] = can_manage(request.user, game)
    template = f"{TABLE}#game" if partial else TABLE
    if partial and request.htmx and status >= 400:
        status = 200  # htmx swaps only successful answers; the error is in the partial
    response = render(request, template, context, status=status)
    if keeper and request.htmx:
        # The address bar follows the keeper's step, so a reload mid-entry keeps the call.
        response["HX-Replace-Url"] = _step_url(game, view)
    return _revalidated(response)


def _number(entry) -> int:
    return entry.number


def _step_url(game: Game, view: presenters.TableView) -> str:
    """The table page's address for the step the keeper is at: with the call chosen (and
    its deal) while the tricks are being entered, else the plain page."""
    url = reverse("scoring:table", args=[game.id])
    if view.step == "tricks" and view.deal.calls_value:
        return f"{url}?{urlencode({'deal': view.deal.number, 'calls': view.deal.calls_value})}"
    return url


def _revalidated(response: HttpResponse) -> HttpResponse:
    """The table page or its partial (which one, by HX-Request): asked for afresh each time,
    kept by no shared cache."""
    patch_vary_headers(response, ("HX-Request",))
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_GET
def table(request, game_id: int):
    """The table page: entry forms for the score-keeper, read-only for everyone else."""
    game = _game(game_id)
    keeper = is_keeper(request, game)
    etag = _etag(request, game, keeper)
    # Without a CSRF cookie the page must be sent: rendering it sets the cookie its forms need.
    has_csrf_cookie = "CSRF_COOKIE" in request.META
    not_modified = get_conditional_response(request, etag=etag) if has_csrf_cookie else None
    if not_modified is not None:
        not_modified["ETag"] = etag
        patch_cache_control(not_modified, private=True, no_cache=True)
        return not_modified
    calls, for_deal = [], None
    if keeper:
        calls = presenters.calls_from_text(request.GET.get("calls"))
        for_deal = _int(request.GET.get("deal"))
    response = _render(request, game, keeper=keeper, calls=calls, for_deal=for_deal)
    response["ETag"] = etag
    return response


def _sheet_key(game_id: int, mark: tuple[int, float]) -> str:
    version, saved = mark
    return f"sheet:{game_id}:{version}:{saved}:{get_language() or ''}:{RELEASE}"


@require_GET
def sheet(request, game_id: int):
    """The watchers' poll: 204 while the game's version is unchanged (one query, for the
    version alone), else the partial for that version, rendered once per version and
    language and kept: a table's three phones each ask for every version."""
    mark = selectors.game_mark(game_id)
    if mark is None:
        raise Http404
    if request.GET.get("v") == str(mark[0]):
        response = HttpResponse(status=204)
        patch_cache_control(response, no_cache=True)
        return response
    html = cache.get(_sheet_key(game_id, mark))
    if html is None:
        game = _game(game_id)  # may be newer still: kept under its own version
        response = _render(request, game, keeper=False, partial=True)
        saved = (game.version, game.updated_at.timestamp())
        cache.set(_sheet_key(game.pk, saved), response.content, SHEET_SECONDS)
        return response
    return _revalidated(HttpResponse(html))


@require_GET
def qr(request, game_id: int):
    """A QR code of the watch link, for the other players' phones."""
    game = _game(game_id)
    url = request.build_absolute_uri(reverse("scoring:table", args=[game.id]))
    buffer = io.BytesIO()
    segno.make(url, error="m").save(
        buffer, kind="svg", scale=8, border=2, xmldecl=False, omitsize=True
    )
    response = HttpResponse(buffer.getvalue(), content_type="image/svg+xml")
    patch_cache_control(response, public=True, max_age=3600)
    return response


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
        game = _game(game_id)
        if not is_keeper(request, game):
            return _no_store(render(request, "scoring/not_keeper.html", {"game": game}, status=403))
        return view_func(request, game)

    return wrapper


def _done(request, game: Game) -> HttpResponse:
    """After a change: the fresh partial for htmx, else redirect to the table page."""
    if request.htmx:
        return _render(request, game, keeper=True)
    return redirect("scoring:table", game_id=game.id)


@keeper_post
def call(request, game: Game):
    """One call. A redeal is recorded at once; otherwise the page asks for the next step."""
    form = CallForm(request.POST)
    if not form.is_valid():
        return _render(
            request,
            game,
            keeper=True,
            errors={"call": _("Choose one of the calls shown.")},
            status=400,
        )
    number = form.cleaned_data["deal"]
    calls = [*form.cleaned_data["calls"], form.cleaned_data["call"]]
    auction = presenters.auction_after(game, calls)
    if auction is None:
        return _render(
            request,
            game,
            keeper=True,
            errors={"call": _("That call is not open now: start the calls again.")},
            status=400,
        )
    if auction.redeal:
        try:
            recorded = services.deal_record(
                game_id=game.id, number=number, calls=calls, actor=actor(request)
            )
        except ScoringError as error:
            clash = _clash(game, error, number, calls, None)
            return _render(
                request,
                game,
                keeper=True,
                errors={} if clash else {"call": refusal(error, list(game.players))},
                status=error.status,
                clash=clash,
            )
        return _done(request, recorded.game)
    if request.htmx:
        return _render(request, game, keeper=True, calls=calls, for_deal=number)
    # Without JavaScript the page opens at what is now due: the exchange, then the tricks.
    query = urlencode({"deal": number, "calls": ",".join(calls)})
    return redirect(f"{reverse('scoring:table', args=[game.id])}?{query}#now")


def _clash(game: Game, error: ScoringError, number, calls, tricks):
    """Another phone recorded this deal first, with other values: both versions, to keep
    either (presenters.clash_view); None for any other refusal."""
    if not isinstance(error, Conflict):
        return None
    return presenters.clash_view(game, number, calls, tricks)


def _submit(form, write, names: list[str] | None = None):
    """Run a service write for a valid form; a refusal becomes the form's error (in the page's
    language) and status, and is kept on the form as `refused`."""
    if not form.is_valid():
        return None, 400
    try:
        return write(form.cleaned_data), 200
    except ScoringError as error:
        form.refused = error
        form.add_error(None, refusal(error, names))
        return None, error.status


@keeper_post
def deal(request, game: Game):
    """A played deal: its calls and the tricks each seat took."""
    rules = presenters.rules_of(game)
    form = TricksForm(request.POST, names=list(game.players), per_hand=rules.tricks_per_hand)
    recorded, status = _submit(
        form,
        lambda data: services.deal_record(
            game_id=game.id,
            number=data["deal"],
            calls=data["calls"],
            tricks=data["tricks"],
            actor=actor(request),
        ),
        list(game.players),
    )
    if recorded:
        return _done(request, recorded.game)
    refused = getattr(form, "refused", None)
    if refused is not None:
        data = form.cleaned_data
        clash = _clash(game, refused, data["deal"], data["calls"], data["tricks"])
        if clash is not None:
            return _render(request, game, keeper=True, status=status, clash=clash)
    return _render(
        request,
        game,
        keeper=True,
        calls=presenters.calls_from_text(request.POST.get("calls")),
        for_deal=_int(request.POST.get("deal")),
        forms={"tricks": form},
        status=status,
    )


@keeper_post
def last_tricks(request, game: Game):
    """Who won the last tricks of the last hand, when a tie-break needs them."""
    rules = presenters.rules_of(game)
    count = min(max(_int(request.POST.get("count")) or 1, 1), rules.tricks_per_hand)
    form = LastTricksForm(
        request.POST, names=list(game.players), per_hand=rules.tricks_per_hand, count=count
    )
    recorded, status = _submit(
        form,
        lambda data: services.last_tricks_add(
            game_id=game.id, number=data["deal"], last_tricks=data["winners"], actor=actor(request)
        ),
        list(game.players),
    )
    if recorded:
        return _done(request, recorded.game)
    return _render(request, game, keeper=True, forms={"last_tricks": form}, status=status)


@keeper_post
def confirm(request, game: Game):
    """A second player confirms the result, which locks it."""
    form = ConfirmForm(request.POST, names=list(game.players))
    confirmed, status = _submit(
        form,
        lambda data: services.game_confirm(game_id=game.id, actor=data["player"]),
        list(game.players),
    )
    if confirmed:
        return _done(request, confirmed)
    return _render(request, game, keeper=True, forms={"confirm": form}, status=status)


@require_http_methods(["GET", "POST"])
def undo(request, game_id: int):
    """Undo the last deal, after one confirmation step (this page).

    The confirmation is bound to the deal it names and the game's version when the table
    page offered it (?deal=&v=, then hidden fields): Back after an undo, or a second tap,
    finds it out of date and undoes nothing more. The page is never stored (no-store), and a
    successful undo redirects to the table (POST/redirect/GET)."""
    game = _game(game_id)
    if not is_keeper(request, game):
        return _no_store(render(request, "scoring/not_keeper.html", {"game": game}, status=403))
    entries = selectors.live_entries(game)
    last = len(entries)
    error, status, stale = "", 200, False
    if request.method == "POST":
        form = UndoForm(request.POST)
        if not form.is_valid():
            error, status, stale = _("Nothing to undo."), 400, True
        else:
            asked = form.cleaned_data
            try:
                services.deal_undo(
                    game_id=game.id,
                    number=asked["deal"],
                    version=asked["version"],
                    actor=actor(request),
                )
            except ScoringError as failure:
                error, status, stale = refusal(failure), failure.status, True
            else:
                messages.success(request, _("Deal %(n)s is undone.") % {"n": asked["deal"]})
                return redirect("scoring:table", game_id=game.id)
    else:
        asked_deal, asked_version = _int(request.GET.get("deal")), _int(request.GET.get("v"))
        if (asked_deal, asked_version) != (None, None) and (asked_deal, asked_version) != (
            last,
            game.version,
        ):
            stale, status = True, 409
            error = _(
                "This confirmation is out of date: the game has changed since it was shown "
                "(deal %(n)s may be undone already). Nothing was undone."
            ) % {"n": asked_deal}
    context = {
        "game": game,
        "form": UndoForm(initial={"deal": last, "version": game.version}),
        "summary": presenters.undo_summary(game, entries),
        "number": last,
        "locked": game.confirmed,
        "stale": stale,
        "error": error,
    }
    return _no_store(render(request, "scoring/undo.html", context, status=status))


@require_POST
def release(request, game_id: int):
    """Stop keeping the score on this phone: the session forgets the table's secret."""
    game = _game(game_id)
    keep_release(request, game)
    return redirect("scoring:table", game_id=game.id)


# --- the referee's help -----------------------------------------------------------------------


@require_GET
def referee(request, game_id: int | None = None):
    """Which card must I return? Which cards may I play, and who takes the trick? The engine
    answers; bad card text gets a clear message."""
    game = _game(game_id) if game_id is not None else None
    ruleset_id = game.ruleset if game else request.GET.get("ruleset", "blato")
    ruleset = engine.RULESETS.get(ruleset_id) or engine.RULESETS["blato"]
    ask = request.GET.get("ask")
    return_form = ReturnCardForm(request.GET if ask == "return" else None, prefix="return")
    play_form = LegalCardsForm(
        request.GET if ask == "play" else None, prefix="play", ruleset=ruleset
    )
    return_answer = play_answer = None
    if return_form.is_bound and return_form.is_valid():
        return_answer = presenters.return_answer(
            return_form.cleaned_data["hand"], return_form.cleaned_data["given"]
        )
    if play_form.is_bound and play_form.is_valid():
        data = play_form.cleaned_data
        try:
            play_answer = presenters.play_answer(
                ruleset, data["contract"], data["hand"], data["trick"]
            )
        except engine.RuleError as error:
            play_form.add_error(None, rule_text(error))
    context = {
        "game": game,
        "ruleset": ruleset,
        "ruleset_name": presenters.ruleset_label(ruleset.id),
        "rulesets": presenters.ruleset_choices(),
        "return_form": return_form,
        "play_form": play_form,
        "return_answer": return_answer,
        "play_answer": play_answer,
    }
    bad = (return_form.is_bound and return_form.errors) or (play_form.is_bound and play_form.errors)
    return render(request, "scoring/referee.html", context, status=400 if bad else 200)
