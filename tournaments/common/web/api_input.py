"""Reading the organisers' API requests: numbers from the path and one-line fields.

The values' rules live in the services; these only turn a path's text into a number (or the
API's 404) and check a field's JSON type and length, worded in the request's language.
"""

from django.utils.translation import gettext as _

from config.api import ApiError, Body, loose

MAX_ID = 2**63 - 1  # the largest primary key any database here stores
MAX_REASON = 500  # as the pages' reason fields


class ReasonIn(Body):
    """An optional reason (kept in the event's log where the service keeps one)."""

    reason: loose({"type": "string", "maxLength": MAX_REASON}) = ""


def actor(user) -> str:
    """The name the audit trails keep for what this account did."""
    return user.get_username()


def number(text: str, missing: str, limit: int = MAX_ID) -> int:
    """A number from the path; anything else (or too large for the database) is a 404 with
    the message `missing`."""
    if not text.isascii() or not text.isdigit() or len(text) > 19 or not 1 <= int(text) <= limit:
        raise ApiError(404, missing)
    return int(text)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: object, key: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        raise ApiError(
            400,
            _("%(key)s must be a whole number from %(low)s to %(high)s")
            % {"key": key, "low": low, "high": high},
        )
    return value


def text(value: object, key: str, max_length: int, *, blank: bool = False) -> str:
    """A one-line text field (runs of spaces become one), at most `max_length` long."""
    if not isinstance(value, str):
        raise ApiError(400, _("%(key)s must be a string") % {"key": key})
    value = " ".join(value.split())
    if not value and not blank:
        raise ApiError(400, _("%(key)s may not be empty") % {"key": key})
    if len(value) > max_length:
        raise ApiError(
            400,
            _("%(key)s has at most %(n)s characters") % {"key": key, "n": max_length},
        )
    return value


def reason(value: object) -> str:
    """The reason given, if any (whether one is needed is the service's rule)."""
    if not isinstance(value, str):
        raise ApiError(400, _("reason must be a string"))
    value = value.strip()
    if len(value) > MAX_REASON:
        raise ApiError(400, _("reason has at most %(n)s characters") % {"n": MAX_REASON})
    return value
