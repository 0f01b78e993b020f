"""A club's invitations still waiting to be used (tournaments.clubs.services.invitations)."""

from __future__ import annotations

from django.utils import timezone

from tournaments.club_models import ClubInvitation
from tournaments.models import Club


def waiting(club: Club) -> list[ClubInvitation]:
    """Neither used, withdrawn nor expired: the ones an organiser may still withdraw."""
    rows = ClubInvitation.objects.filter(club=club, used_at=None, revoked_at=None)
    return list(rows.filter(expires_at__gt=timezone.now()))


def invitation(club: Club, pk) -> ClubInvitation | None:
    return ClubInvitation.objects.filter(club=club, pk=pk).first()
