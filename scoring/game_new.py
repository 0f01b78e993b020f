"""A new game, and the keeper's link that hands keeping its score to another phone."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from . import services, throttle
from .forms import GameNewForm
from .keeper import actor, keep_grant
from .names import near_pairs
from .pages import game_or_404, no_store, submit
from .presenters.rulesets import ruleset_choices

#: The fields of the new game form under "More options", opened when one of them is wrong.
OPTIONS = ("hands", "goal", "pass_turns", "exchange_order")


@require_http_methods(["GET", "POST"])
def game_new(request):
    form = GameNewForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and not throttle.game_creation_allowed(request):
            status = 429
            form.add_error(None, _("Too many new games from here just now. Wait ten minutes."))
        else:
            submitted = submit(
                form,
                lambda data: services.game_create(
                    ruleset=data["ruleset"],
                    players=data["players"],
                    options=data["options"],
                    first_dealer=data["dealer"],
                    actor=actor(request),
                ),
            )
            if submitted.ok:
                game = submitted.result
                keep_grant(request, game)
                for name, other in near_pairs(game.players, []):
                    messages.warning(
                        request,
                        _("“%(name)s” and “%(other)s” look alike: are they two different players?")
                        % {"name": name, "other": other},
                    )
                return redirect("scoring:table", game_id=game.id)
            status = submitted.status
    context = {
        "form": form,
        "rulesets": list(zip(form["ruleset"], ruleset_choices(), strict=True)),
        "player_fields": [form[f"player_{seat}"] for seat in range(3)],
        "options_open": any(form[name].errors for name in OPTIONS),
    }
    return render(request, "scoring/game_new.html", context, status=status)


@require_GET
def keep(request, game_id: int, secret: str):
    """The keeper's link: grants the right to this session, then leaves the secret behind."""
    game = game_or_404(game_id)
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
    return no_store(response)
