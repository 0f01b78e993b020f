"""Text no database can store, refused at the door: NUL characters and lone surrogates.

PostgreSQL refuses a NUL in any text value, so a ``?q=%00`` in a filter or a NUL in a form
field became a 500 wherever the text reached a query; a lone surrogate cannot even be encoded
to UTF-8. Rather than each form or view guarding its fields, one rule (``unstorable``) is
applied at one place per kind of input:

- ``UnstorableInputMiddleware``: the query string and the form fields (names and values) of
  every request: such a request is answered 400 (a short page in the visitor's language;
  under /api/ config.api.ApiErrorMiddleware turns it into the JSON error shape). No address
  of the site holds such text, so a path with it is a 404. Either way nothing reaches a view.
  Cookies holding such text are dropped, as if never sent.
- JSON bodies under /api/ are read by config.api.parse_json, which applies the same rule
  (the middleware leaves API bodies alone: reading them as a form would consume them).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from config.paths import is_api_path

log = logging.getLogger(__name__)

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> bool:
    """Whether the text holds a NUL character or a lone surrogate."""
    return UNSTORABLE.search(text) is not None


def _any_unstorable(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any(
        unstorable(name) or any(isinstance(v, str) and unstorable(v) for v in values)
        for name, values in pairs
    )


class UnstorableInputMiddleware:
    """Put it before SessionMiddleware, so a cookie with such text never reaches a query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        for name, value in list(request.COOKIES.items()):
            if unstorable(name) or unstorable(value):
                del request.COOKIES[name]
        if unstorable(request.path_info):
            raise Http404("no address of this site holds a NUL or a lone surrogate")
        if self.refused(request):
            log.info(
                "refused %s %s: NUL or lone surrogate in the input",
                request.method,
                request.path[:200],
            )
            return self.refusal(request)
        return self.get_response(request)

    @staticmethod
    def refused(request: HttpRequest) -> bool:
        if _any_unstorable(request.GET.lists()):
            return True
        if request.method == "POST" and not is_api_path(request.path_info):
            return _any_unstorable(request.POST.lists())
        return False

    @staticmethod
    def refusal(request: HttpRequest) -> HttpResponse:
        # Before LocaleMiddleware: answer in the language it would have chosen.
        with translation.override(translation.get_language_from_request(request)):
            return render(request, "400_input.html", status=400)
