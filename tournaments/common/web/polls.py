"""The polls' conditional answers: an ETag names what a fragment shows, a phone that has it
gets a 304, and every poll asks again (no-cache)."""

from __future__ import annotations

import hashlib

from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import get_language

from config.release import RELEASE

#: How often the standings and the projector poll their fragments (htmx).
POLL_SECONDS = 15


def etag(*parts) -> str:
    """Names a fragment: the release (templates change with it), the language, `parts`."""
    text = "|".join(str(part) for part in (RELEASE, get_language() or "", *parts))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def polled(response: HttpResponse, tag: str) -> HttpResponse:
    """Every poll asks again (no-cache), and the browser sends the ETag back with it."""
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def not_modified(request, tag: str) -> HttpResponse | None:
    """A 304 when the phone's copy is `tag` (headed like every poll's answer), else None."""
    response = get_conditional_response(request, etag=tag)
    return None if response is None else polled(response, tag)
