"""Becoming an organiser, and a way back in: a club organiser's page that makes one-time
invitation links (shown as a link and a QR code, e-mailed too when the site can send mail),
withdraws them, and issues another organiser a one-time link to set a new password; and the
public page the invitation link opens. Nothing here needs a mail server or the internet:
the links are handed over on the spot. Every change goes through
tournaments.clubs.services.invitations, which writes the club's log."""

from __future__ import annotations

import logging

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.core.mail import send_mail
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from config.accounts import can_send_mail
from tournaments.clubs.selectors import invitations as reads
from tournaments.clubs.selectors import members
from tournaments.clubs.services import invitations as writes
from tournaments.common.errors import Forbidden, NotAllowed, TournamentError
from tournaments.common.permissions import runs_club
from tournaments.common.web.access import actor, private
from tournaments.common.web.clubs import club_organiser_required
from tournaments.common.web.public import not_found
from tournaments.models import Club

PAGES = "tournaments/club/"
QR_SCALE = 6
#: The account a new organiser is logged in with after choosing a password (the lockout
#: backend before it only counts wrong passwords, and none was typed wrong).
BACKEND = "django.contrib.auth.backends.ModelBackend"

log = logging.getLogger(__name__)


class InvitationForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("Whom it is for (optional, a reminder for you)"),
        max_length=writes.MAX_NOTE,
        required=False,
    )
    email = forms.EmailField(label=gettext_lazy("Also e-mail it to (optional)"), required=False)


def _qr(link: str, title: str) -> str:
    return segno.make(link, error="m").svg_inline(
        scale=QR_SCALE, border=2, omitsize=True, title=title
    )


def _page(request, club: Club, *, form=None, error: str = "", status: int = 200):
    context = {
        "club": club,
        "form": form or InvitationForm(),
        "waiting": reads.waiting(club),
        "organisers": members.club_organisers(club),
        "can_send_mail": can_send_mail(),
        "days": writes.INVITATION_DAYS,
        "error": error,
    }
    return render(request, PAGES + "invitations.html", context, status=status)


def _mailed(request, club: Club, address: str, link: str) -> bool:
    """Sent, or False (said on the page, the link still there to hand over)."""
    subject = _("An invitation to run %(club)s") % {"club": club.name}
    body = _(
        "%(name)s invites you to run %(club)s with them. Open this link to choose a "
        "username and password (it works once, for %(days)s days):\n\n%(link)s\n"
    ) % {
        "name": request.user.get_username(),
        "club": club.name,
        "days": writes.INVITATION_DAYS,
        "link": link,
    }
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:  # a mail server that refuses or is away: the link is on the page
        log.warning("invitation mail not sent", exc_info=True)
        return False
    return True


@club_organiser_required
@require_http_methods(["GET", "POST"])
def invitations(request, club: Club):
    """The club's waiting invitations, a new one, and a password-reset link for an organiser."""
    if request.method == "GET":
        return _page(request, club)
    form = InvitationForm(request.POST)
    if not form.is_valid():
        return _page(request, club, form=form, status=400)
    invitation, token = writes.invitation_create(
        club=club, note=form.cleaned_data["note"], actor=actor(request), by=request.user
    )
    link = request.build_absolute_uri(reverse("tournaments:invitation_accept", args=[token]))
    address = form.cleaned_data["email"] if can_send_mail() else ""
    context = {
        "club": club,
        "invitation": invitation,
        "link": link,
        "qr": _qr(link, _("An invitation to run %(club)s") % {"club": club.name}),
        "address": address,
        "mailed": bool(address) and _mailed(request, club, address, link),
        "days": writes.INVITATION_DAYS,
    }
    return render(request, PAGES + "invitation_made.html", context, status=201)


@club_organiser_required
@require_POST
def invitation_revoke(request, club: Club, invitation_id: int):
    invitation = reads.invitation(club, invitation_id)
    if invitation is None:
        return not_found(request, _("There is no such invitation."))
    try:
        writes.invitation_revoke(invitation=invitation, actor=actor(request), by=request.user)
    except TournamentError as refused:
        return _page(request, club, error=refused.message, status=409)
    messages.success(request, _("Invitation withdrawn: its link no longer works."))
    return redirect("tournaments:organise_club_invitations", club.slug)


@club_organiser_required
@require_POST
def reset_link(request, club: Club):
    """A one-time link for another organiser of the club to set a new password: shown here,
    handed over in person; no mail needed."""
    try:
        user, uidb64, token = writes.reset_link_issue(
            club=club,
            username=request.POST.get("username", ""),
            actor=actor(request),
            by=request.user,
        )
    except TournamentError as refused:
        status = 403 if isinstance(refused, Forbidden) else 400
        return _page(request, club, error=refused.message, status=status)
    path = reverse("password_reset_confirm", kwargs={"uidb64": uidb64, "token": token})
    link = request.build_absolute_uri(path)
    context = {
        "club": club,
        "name": user.get_username(),
        "link": link,
        "qr": _qr(link, _("A new password for %(name)s") % {"name": user.get_username()}),
        "hours": settings.PASSWORD_RESET_TIMEOUT // 3600,
    }
    return render(request, PAGES + "reset_link.html", context, status=201)


@require_http_methods(["GET", "POST"])
def invitation_accept(request, token: str):
    """Public: the invitation's link. A new person chooses a username and password; someone
    logged in accepts with their account. Used, withdrawn or expired: refused at once."""
    try:
        invitation = writes.invitation_of(token)
    except TournamentError as refused:
        status = 410 if isinstance(refused, NotAllowed) else 404
        context = {"error": refused.message}
        return private(render(request, PAGES + "invitation_refused.html", context, status=status))
    club = invitation.club
    user = request.user if request.user.is_authenticated else None
    form = None if user else UserCreationForm(request.POST or None)
    error, status = "", 200
    if request.method == "POST":
        if form is not None and not form.is_valid():
            status = 400
        else:
            account = user or form.save(commit=False)
            try:
                writes.invitation_accept(token=token, user=account)
            except TournamentError as refused:
                error, status = refused.message, 409
            else:
                if user is None:
                    login(request, account, backend=BACKEND)
                messages.success(request, _("Welcome: you now run %(club)s.") % {"club": club.name})
                return redirect("tournaments:organise_club", club.slug)
    context = {
        "club": club,
        "invitation": invitation,
        "form": form,
        "already": user is not None and runs_club(user, club),
        "error": error,
    }
    return private(render(request, PAGES + "invitation_accept.html", context, status=status))
