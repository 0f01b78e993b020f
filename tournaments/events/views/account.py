"""The organiser's account page: their API token for scripts (see docs/api.md).

A new token is shown once, on the answer to the POST that made it (never stored, never put
in a redirect or the session), and that answer is kept out of every cache. Replacing the
token ends the old one at once; removing it leaves the account without API access.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.common import tokens

TEMPLATE = "tournaments/organise/account.html"


def _page(request, *, new_token: str = "", status: int = 200):
    context = {"token": tokens.token_of(request.user), "new_token": new_token}
    response = render(request, TEMPLATE, context, status=status)
    patch_cache_control(response, private=True, no_cache=True, no_store=True)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def account(request):
    """GET: whether the account has a token; POST ``action=create``: a new one, shown once;
    POST ``action=revoke``: none any more."""
    if request.method == "GET":
        return _page(request)
    action = request.POST.get("action")
    if action == "create":
        return _page(request, new_token=tokens.token_issue(user=request.user))
    if action == "revoke":
        if tokens.token_revoke(user=request.user):
            messages.success(request, _("Your API token was removed: it no longer works."))
        return redirect("tournaments:organise_account")
    messages.error(request, _("Choose to create or remove the token."))
    return _page(request, status=400)
