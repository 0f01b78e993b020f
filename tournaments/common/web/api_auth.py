"""Who is asking the API: the account behind an ``Authorization: Bearer <token>`` header.

Organiser tokens (common.tokens) give exactly the account's rights on the site, asked the
same way the pages ask: ``user.has_perm("tournaments.change_event", event)``. Wrong tokens
are counted with the table secrets' throttle (scoring.throttle): one guesser, one count,
whichever kind of secret they try.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from ninja.security import HttpBearer

from config.api import ApiError, bearer_token
from scoring import throttle
from tournaments.common import tokens
from tournaments.common.selectors import event_by_slug
from tournaments.models import Event

PERMISSION = "tournaments.change_event"
CHALLENGE = 'Bearer realm="api"'
VIA = "organiser token"


#: Wrong organiser tokens are counted by scoring.throttle as if for one game, this one (no
#: game has id 0), besides its count of all wrong secrets of the address.
ORGANISER_TOKENS = 0


def no_token() -> ApiError:
    return ApiError(
        401,
        _("this needs an organiser's API token: send the header Authorization: Bearer <token>"),
        headers={"WWW-Authenticate": CHALLENGE},
    )


def too_many() -> ApiError:
    return ApiError(429, _("too many wrong tokens from this address: try again later"))


def judged_account(request, token: str, game_id: int = ORGANISER_TOKENS):
    """The active account of this token, or None for a wrong one (counted against the
    client's address by the throttle's one rule); 429 once the address is over its limit."""
    user = tokens.token_user(token)
    verdict = throttle.judge_secret(request, game_id, right=user is not None, via=VIA)
    if verdict is throttle.Verdict.BLOCKED:
        raise too_many()
    return user


def token_account(request, *, required: bool = True):
    """The active account whose token the request carries.

    Without a token: 401 when `required`, else None (a public read). An unknown, replaced
    or inactive account's token is always 401: a script with a stale token must hear so
    rather than silently get the public answer.
    """
    token = bearer_token(request)
    if token is None:
        if required:
            raise no_token()
        return None
    user = judged_account(request, token)
    if user is None:
        raise ApiError(
            401,
            _("this API token is unknown or was replaced: make a new one on your account page"),
            headers={"WWW-Authenticate": f'{CHALLENGE}, error="invalid_token"'},
        )
    return user


def event_or_404(slug: str) -> Event:
    try:
        return event_by_slug(slug)
    except Event.DoesNotExist:
        raise ApiError(404, _("no such event")) from None


def may_run(user, event: Event) -> bool:
    """Whether the token's account runs this event (its organisers, its club's, staff)."""
    return user is not None and user.has_perm(PERMISSION, event)


def organised_event(user, slug: str) -> Event:
    """The event by its slug, if this account runs it: 404 for none, 403 for someone else's."""
    event = event_or_404(slug)
    if not may_run(user, event):
        raise ApiError(403, _("your account does not organise this event"))
    return event


class OrganiserToken(HttpBearer):
    """ninja's auth for the organisers' routes (the bearer scheme in the OpenAPI schema): the
    token's account becomes ``request.auth``, before the path's 404s and the body's 400s;
    token_account's own 401 and 429 answers, not ninja's."""

    def __call__(self, request):
        return token_account(request)

    def authenticate(self, request, token):  # pragma: no cover - __call__ reads the header
        return judged_account(request, token)


organiser_token = OrganiserToken()
