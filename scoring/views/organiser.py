"""The organiser's page for one game: its whole history, reopening a locked result with a
reason, confirming it, and replacing the table's secret.

Who may come here is Django's object-permission question ``has_perm("scoring.change_game",
game)``: superusers, and (answered by the tournaments app's auth backend) the organisers of
the event the game belongs to. Every change is written down with the organiser's username.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.forms import ReasonForm
from scoring.models import Game
from scoring.presenters.history import entries_view, history
from scoring.web.keeper import actor, can_manage
from scoring.web.pages import game_or_404, keeper_link, no_store, submit

TEMPLATE = "scoring/manage.html"


def organiser_only(view_func):
    """Anonymous → the login page; logged in without the right → 403."""

    @wraps(view_func)
    def wrapper(request, game_id: int):
        game = game_or_404(game_id)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_manage(request.user, game):
            context = {"game": game}
            return no_store(render(request, "scoring/manage_denied.html", context, status=403))
        return view_func(request, game)

    return wrapper


def _page(request, game: Game, *, forms=None, error: str = "", status: int = 200):
    forms = forms or {}
    keep_url, keep_qr = keeper_link(request, game)
    context = {
        "game": game,
        "names": list(game.players),
        "history": history(game, selectors.game_history(game)),
        "deals": entries_view(game, selectors.all_entries(game)),
        "keep_url": keep_url,
        "keep_qr": keep_qr,
        "reopen_form": forms.get("reopen") or ReasonForm(prefix="reopen"),
        "secret_form": forms.get("secret") or ReasonForm(prefix="secret", required=False),
        "error": error,
        "can_confirm": game.confirmable,
        "can_correct": not game.confirmed and not game.void,
    }
    return no_store(render(request, TEMPLATE, context, status=status))


@require_GET
@organiser_only
def manage(request, game: Game):
    return _page(request, game)


def _write(request, game: Game, name: str, write, *, reason_required: bool = False):
    """Run one service write, `write(actor, reason)`, from the reason form `name` (through
    pages.submit); refusals come back on the page with their status."""
    form = ReasonForm(request.POST, prefix=name, required=reason_required)
    by = actor(request)
    submitted = submit(form, lambda data: write(by, data["reason"]), on_form=False)
    if submitted.ok:
        return redirect("scoring:manage", game_id=game.pk)
    forms = {name: form}
    return _page(request, game, forms=forms, error=submitted.message, status=submitted.status)


@require_POST
@organiser_only
def reopen(request, game: Game):
    """Unlock a confirmed result so deals can be corrected; the reason goes in the history."""
    return _write(
        request,
        game,
        "reopen",
        lambda by, reason: services.game_reopen(game_id=game.pk, actor=by, reason=reason),
        reason_required=True,
    )


@require_POST
@organiser_only
def confirm(request, game: Game):
    """Confirm a finished result on the players' behalf (e.g. after a correction), as the
    page showed it: a result changed since (its version, a hidden field) is refused."""
    version = _version(request.POST.get("version"))
    return _write(
        request,
        game,
        "confirm",
        lambda by, reason: services.game_confirm(game_id=game.pk, actor=by, version=version),
    )


def _version(posted: str | None) -> object:
    """The posted version as a number; anything else as it came (the service refuses it)."""
    try:
        return None if posted is None else int(posted)
    except ValueError:
        return posted


@require_POST
@organiser_only
def secret(request, game: Game):
    """A new table secret: the old keeper link and every phone keeping with it stop working."""
    return _write(
        request,
        game,
        "secret",
        lambda by, reason: services.secret_replace(game_id=game.pk, actor=by, reason=reason),
    )
