"""A player's own phone at the table: "I am Vera" once (the seat is claimed), then "Confirm"
or "This is wrong" with a reason; and the organiser (or a casual game's keeper) resetting a
claim. The rules live in scoring.services.verdicts; this module only reads the phone's token
and words the answers.

Where the quorum asks the players (an event's games), a phone speaks for the person it has
proven to be: the game's owner answers who that is from its own signed cookie
(scoring.signals.identity_at), and only that person's seat can be claimed; a made-up cookie
proves nothing (docs/confirmations.md). Elsewhere (casual games) the phone is known by a
random token in its own cookie (one for every game; only a per-game digest of it is stored),
not by its session: claiming needs no login and survives a keeper link opened on the same
phone. Claims are throttled per client address like the other public writes. The organiser
may also confirm for a player ("vouch"). Without JavaScript every form posts and redirects
(POST-redirect-GET).
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.client_ip import client_address
from config.throttle import Throttle, is_loopback
from scoring import services
from scoring.errors import Conflict, ScoringError
from scoring.presenters.confirmations import board, said_line
from scoring.presenters.place import place_line, place_of
from scoring.rule_words import refusal
from scoring.signals import Identity, identity_at
from scoring.web.keeper import actor, can_manage, is_keeper, is_keeper_mark
from scoring.web.pages import game_or_404, no_store, not_keeper, status_of

COOKIE = "seat_token"
COOKIE_SECONDS = 60 * 60 * 24 * 30
#: Seat claims from one client address within the window (a club's phones share one).
CLAIMS_PER_ADDRESS = 60
CLAIMS_WINDOW_SECONDS = 600
CLAIMS = Throttle("seat-claims", CLAIMS_WINDOW_SECONDS, address=CLAIMS_PER_ADDRESS)
TEMPLATE = "scoring/seat_me.html"


def _token(request) -> str | None:
    token = request.COOKIES.get(COOKIE)
    return token if isinstance(token, str) and 16 <= len(token) <= 64 else None


def _holders(request, game, identity: Identity | None) -> list[str]:
    """What this phone may hold a claim of this game as: its proven person, its own cookie."""
    holders = []
    if identity is not None and identity.person is not None:
        holders.append(services.person_holder(game.pk, identity.person))
    token = _token(request)
    if token:
        holders.append(services.holder_digest(game.pk, token))
    return holders


def _holder(request, game, identity: Identity | None = None) -> str | None:
    """The holder this phone speaks as: the one with a claim of this game, else its first."""
    holders = _holders(request, game, identity)
    claimed = set(game.claims.filter(holder__in=holders).values_list("holder", flat=True))
    return next((h for h in holders if h in claimed), holders[0] if holders else None)


def _claim_allowed(request) -> bool:
    """Counts every claim attempt of the client address; the machine itself is not limited."""
    address = client_address(request)
    if is_loopback(address):
        return True
    return CLAIMS.count(address=address).within


def _seat_param(value: object) -> int | None:
    try:
        seat = int(str(value))
    except ValueError:
        return None
    return seat if seat in (0, 1, 2) else None


def _page(request, game, *, error: str = "", status: int = 200, reason: str = ""):
    identity = identity_at(game, request.COOKIES)
    holder = _holder(request, game, identity)
    asked = _seat_param(request.GET.get("seat", ""))
    person = identity.person if identity else None
    context = {
        "person": person,
        "prove_url": identity.prove_url if identity and person is None else "",
        "proof_needed": services.needs_proof(game),
        "game": game,
        "board": board(game, holder),
        "asked": asked,
        "error": error,
        "reason": reason,
        "place_line": place_line(game, place_of(game)),
        "names": game.players,
    }
    context["said"] = [said_line(seat) for seat in context["board"].disputes]
    context["speaks"] = _speaks(context["board"], person)
    return no_store(render(request, TEMPLATE, context, status=status))


def _speaks(board, person):
    """The seat this phone speaks for: its claim, else its proven player's free seat here (a
    phone that said "this is me" is not asked again who it is: its word claims the seat)."""
    if board.mine is not None or person is None or person.seat is None:
        return board.mine
    seat = board.seats[person.seat]
    return None if seat.claimed else seat


@require_GET
def me(request, game_id: int):
    """This phone's seat at the table: claim it, then confirm or dispute the result."""
    return _page(request, game_or_404(game_id))


@require_POST
def claim(request, game_id: int):
    """ "I am X": the seat is this phone's from now on (services.seat_claim refuses a seat
    already claimed, and a second seat)."""
    game = game_or_404(game_id)
    if not _claim_allowed(request):
        return _page(
            request, game, error=_("Too many tries from here: wait a few minutes."), status=429
        )
    token = _token(request) or secrets.token_urlsafe(24)
    seat = _seat_param(request.POST.get("seat", ""))
    identity = identity_at(game, request.COOKIES)
    try:
        services.seat_claim(
            game_id=game.pk,
            seat=seat,
            holder=services.holder_digest(game.pk, token),
            keeper_phone=is_keeper_mark(request, game),
            person=identity.person if identity else None,
        )
    except ScoringError as error:
        return _page(request, game, error=refusal(error, game.players), status=status_of(error))
    response = redirect("scoring:me", game_id=game.pk)
    response.set_cookie(
        COOKIE,
        token,
        max_age=COOKIE_SECONDS,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


@require_POST
def verdict(request, game_id: int):
    """Confirm the result, or say it is wrong (a reason is required)."""
    game = game_or_404(game_id)
    identity = identity_at(game, request.COOKIES)
    holder = _holder(request, game, identity)
    person = identity.person if identity else None
    own = person if person is not None and person.seat is not None else None
    if own is not None and holder and game.claims.filter(holder=holder).exists():
        own = None  # the phone's seat is claimed: its word goes as before
    reason = request.POST.get("reason", "")
    wrong = request.POST.get("verdict") == "wrong"
    try:
        if own is not None:
            game = services.own_seat_say(
                game_id=game.pk, person=own, agrees=not wrong, reason=reason
            )
        elif holder is None:
            raise Conflict("no_seat_here")
        elif wrong:
            services.result_dispute(game_id=game.pk, holder=holder, reason=reason)
        else:
            game = services.result_agree(game_id=game.pk, holder=holder)
        if wrong:
            messages.success(request, _("Your word was sent to the organiser."))
        else:
            messages.success(request, _("Thank you: your confirmation is recorded."))
    except ScoringError as error:
        return _page(
            request,
            game,
            error=refusal(error, game.players),
            status=status_of(error),
            reason=reason,
        )
    return redirect("scoring:me", game_id=game.pk)


@require_POST
def reset(request, game_id: int, seat: int):
    """Free a claimed seat: the organiser, or the keeper of a casual game."""
    game = game_or_404(game_id)
    allowed = can_manage(request.user, game) or (is_keeper(request, game) and not place_of(game))
    if not allowed:
        return not_keeper(request, game)
    try:
        services.claim_reset(game_id=game.pk, seat=seat, actor=actor(request))
    except ScoringError as error:
        messages.error(request, refusal(error, game.players))
    else:
        messages.success(
            request, _("%(name)s's seat can be claimed again.") % {"name": game.players[seat]}
        )
    return _back(request, game)


@require_POST
def vouch(request, game_id: int, seat: int):
    """The organiser confirms the result for the player in `seat` (their say-so)."""
    game = game_or_404(game_id)
    if not can_manage(request.user, game):
        return not_keeper(request, game)
    try:
        game = services.seat_vouch(game_id=game.pk, seat=seat, actor=actor(request))
    except ScoringError as error:
        messages.error(request, refusal(error, game.players))
    else:
        messages.success(
            request, _("You confirmed the result for %(name)s.") % {"name": game.players[seat]}
        )
    return _back(request, game)


def _back(request, game):
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts=None) and back.startswith("/"):
        return redirect(back)  # a path of this site only (not //elsewhere, nor /\elsewhere)
    return redirect("scoring:table", game_id=game.pk)
