"""When the database goes away mid-request: a clean 503 that says so, never a 500 page.

A restart of PostgreSQL (or SQLite's lock held too long) surfaces as OperationalError or
InterfaceError. The transaction around the write is rolled back by the database itself, so
nothing is half-written; the client is told to try again (Retry-After), and under /api/ the
answer becomes the API's JSON error shape (config.api.ApiErrorMiddleware). Django closes the
broken connection when the request ends, so the next request connects afresh.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.shortcuts import render

log = logging.getLogger(__name__)

RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        log.error("database unavailable during %s %s: %s", request.method, request.path, exception)
        response = render(request, "503_database.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
