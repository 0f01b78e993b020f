"""Issuing, checking and removing API tokens (the writes and the one read the API needs).

Callers: the account page, ``manage.py api_token`` and the organisers' API
(tournaments.events.api). This module knows nothing of events: a token only says which
account is asking; what that account may do is Django's ``has_perm``, as on the pages.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from tournaments.models import ApiToken

#: A token's prefix: tells a reader (or a secret scanner) what the string is.
PREFIX = "358_"
#: The longest token accepted for checking; longer strings are refused unhashed.
MAX_LENGTH = 200
#: ``last_used_at`` is written at most this often: a script may call many times a second.
USED_EVERY = timedelta(minutes=5)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def token_issue(*, user: AbstractBaseUser) -> str:
    """A new token for this account, returned once; the account's old token stops working."""
    token = PREFIX + secrets.token_urlsafe(32)
    ApiToken.objects.filter(user=user).delete()
    ApiToken.objects.create(user=user, digest=digest(token))
    return token


def token_revoke(*, user: AbstractBaseUser) -> bool:
    """Remove the account's token; True if there was one."""
    deleted, _rows = ApiToken.objects.filter(user=user).delete()
    return bool(deleted)


def token_of(user: AbstractBaseUser) -> ApiToken | None:
    return ApiToken.objects.filter(user=user).first()


def token_user(token: object) -> AbstractBaseUser | None:
    """The active account this token belongs to, or None.

    The row is found by the token's digest (an index lookup: the digest of a random token
    tells a timing observer nothing), and the digests are then compared in constant time.
    """
    if not isinstance(token, str) or not token or len(token) > MAX_LENGTH:
        return None
    wanted = digest(token)
    found = ApiToken.objects.select_related("user").filter(digest=wanted).first()
    if found is None or not secrets.compare_digest(found.digest, wanted):
        return None
    if not found.user.is_active:
        return None
    now = timezone.now()
    if found.last_used_at is None or now - found.last_used_at > USED_EVERY:
        ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
    return found.user
