"""Becoming an organiser of a club, and a way back in after a forgotten password, with no mail
server needed (a venue laptop has none; a club server often neither).

- An organiser makes a one-time invitation link (`invitation_create`) and hands it over: shown
  on screen as a link and a QR code, and e-mailed too when the site can send mail. Whoever
  opens it chooses a username and password, or accepts with the account they are logged in
  with, and runs the club from then on (`invitation_accept`). A link is used once, refused
  after `INVITATION_DAYS` and once withdrawn (`invitation_revoke`). Only the digest of its
  token is stored, as for API tokens (tournaments.common.tokens): the link is shown once.
- An organiser who forgot their password is given a one-time link to set a new one by
  another organiser of the club (`reset_link_issue`): Django's own password-reset link
  (``/accounts/reset/…``), which dies once used, once its holder logs in, and after
  ``PASSWORD_RESET_TIMEOUT``. It is refused for an account that can do more than the
  organiser asking (another club or event of theirs, the site's staff): a reset hands over
  the account, so it may hand over nothing the asker does not already run.

Each step is written in the club's log (ClubLog).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tournaments.club_models import ClubInvitation
from tournaments.common.errors import Forbidden, NotAllowed, TournamentError
from tournaments.common.permissions import require_club
from tournaments.common.tokens import digest
from tournaments.models import Club, ClubLog, Event

#: How long an invitation link may wait to be opened.
INVITATION_DAYS = 7
#: Random bytes in an invitation's token (its link carries them in base64).
TOKEN_BYTES = 24
#: The longest note kept on an invitation (whom it was for).
MAX_NOTE = 200


def _log(club: Club, actor: str, action: str, **data) -> None:
    ClubLog.objects.create(club=club, actor=actor, action=action, data=data)


@transaction.atomic
def invitation_create(
    *, club: Club, note: str = "", actor: str = "", by=None
) -> tuple[ClubInvitation, str]:
    """A new invitation to run the club, and its token (returned once: only its digest is
    kept)."""
    require_club(by, club)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    note = " ".join(str(note).split())[:MAX_NOTE]
    invitation = ClubInvitation.objects.create(
        club=club,
        digest=digest(token),
        made_by=actor,
        note=note,
        expires_at=timezone.now() + timedelta(days=INVITATION_DAYS),
    )
    _log(club, actor, "invitation_made", invitation=invitation.pk, note=note)
    return invitation, token


@transaction.atomic
def invitation_revoke(*, invitation: ClubInvitation, actor: str = "", by=None) -> ClubInvitation:
    """Withdraw an unused invitation: its link is refused from now on."""
    require_club(by, invitation.club)
    invitation = ClubInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.used_at is not None:
        raise NotAllowed("invitation_used")
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        _log(invitation.club, actor, "invitation_revoked", invitation=invitation.pk)
    return invitation


def invitation_of(token: object, *, lock: bool = False) -> ClubInvitation:
    """The usable invitation this token opens, or the refusal: unknown, used, withdrawn or
    expired."""
    if not isinstance(token, str) or not token or len(token) > 100:
        raise TournamentError("invitation_unknown")
    rows = ClubInvitation.objects.select_related("club")
    if lock:
        rows = rows.select_for_update(of=("self",))
    invitation = rows.filter(digest=digest(token)).first()
    if invitation is None:
        raise TournamentError("invitation_unknown")
    if invitation.used_at is not None:
        raise NotAllowed("invitation_used")
    if invitation.revoked_at is not None:
        raise NotAllowed("invitation_revoked")
    if invitation.expires_at <= timezone.now():
        raise NotAllowed("invitation_expired")
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, user) -> ClubInvitation:
    """Use the invitation: `user` runs its club from now on. `user` is the account logged in,
    or a new one not saved yet (saved here, only if the invitation is still good). The
    invitation is locked, so two people opening one link at once cannot both use it."""
    invitation = invitation_of(token, lock=True)
    club = invitation.club
    new_account = user.pk is None
    if new_account:
        user.save()
    elif club.organisers.filter(pk=user.pk).exists():
        raise TournamentError("invitation_accepted_already", club=club.name)
    club.organisers.add(user)
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    name = user.get_username()
    _log(
        club,
        name,
        "invitation_accepted",
        invitation=invitation.pk,
        username=name,
        made_by=invitation.made_by,
        new_account=new_account,
    )
    return invitation


def _within_reach(by, user) -> bool:
    """Whether `by` already runs everything `user` runs (so a reset hands over nothing more):
    not the site's staff, no club `by` does not run, no event `by` does not run."""
    if by is None or by.is_superuser:
        return True
    if user.is_superuser or user.is_staff:
        return False
    clubs = Club.objects.filter(organisers=user).exclude(organisers=by)
    events = Event.objects.filter(organisers=user).exclude(organisers=by)
    return not clubs.exists() and not events.exclude(club__organisers=by).exists()


@transaction.atomic
def reset_link_issue(*, club: Club, username: str, actor: str = "", by=None) -> tuple:
    """A one-time password-reset link's parts (the account, its uidb64, its token) for an
    organiser of this club, issued by another: Django's reset link, which needs no mail."""
    require_club(by, club)
    field = get_user_model().USERNAME_FIELD
    username = str(username).strip()
    user = club.organisers.filter(**{field: username}, is_active=True).first()
    if user is None:
        raise TournamentError("club_organiser_unknown", name=username)
    if not _within_reach(by, user):
        raise Forbidden("reset_beyond_you", name=username)
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    _log(club, actor, "reset_link_issued", username=user.get_username())
    return user, uidb64, token
