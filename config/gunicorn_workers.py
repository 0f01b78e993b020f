"""gunicorn's own refusals in the API's JSON shape.

gunicorn answers a request it cannot read (a header value holding a control character, a line
or a header over its limits, a malformed chunk) itself, before Django, with a small HTML page.
Under /api/ the contract is a JSON error, never an HTML page (shared/spec/http-api.md). These
worker classes write such a refusal as ``{"error": {"message": ...}}`` when the request's path
is under /api/, or could not be read (then no page was asked for: nginx answers the same way,
deploy/nginx/358.conf), and leave gunicorn's page for a page. The status is gunicorn's.

gunicorn writes every refusal through one function, ``gunicorn.util.write_error``, from the
worker's ``handle_error``, which knows the request when there is one; the function is replaced
in the worker's process by one that asks the path the worker saw, so gunicorn's choice of
status stays gunicorn's. The deployment names these classes: deploy/358-web.service and the
Procfile ``SyncWorker``, bin/serve (threads) ``ThreadWorker``.
"""

from __future__ import annotations

import json
import threading

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker as _ThreadWorker
from gunicorn.workers.sync import SyncWorker as _SyncWorker

from config.paths import is_api_path

_html_error = util.write_error
_refused = threading.local()  # the path of the request being refused, None when unread


def write_error(sock, status_int: int, reason: str, mesg: str) -> None:
    path = getattr(_refused, "path", None)
    if path is not None and not is_api_path(path):
        _html_error(sock, status_int, reason, mesg)
        return
    body = json.dumps({"error": {"message": reason.lower() or "bad request"}}).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = write_error


class _JsonRefusals:
    def handle_error(self, req, client, addr, exc):
        request = req if req is not None else getattr(exc, "req", None)
        _refused.path = getattr(request, "path", None) or None
        try:
            super().handle_error(req, client, addr, exc)
        finally:
            _refused.path = None


class SyncWorker(_JsonRefusals, _SyncWorker):
    """gunicorn's sync worker, its refusals in JSON under /api/."""


class ThreadWorker(_JsonRefusals, _ThreadWorker):
    """gunicorn's gthread worker, its refusals in JSON under /api/; it tells the site how many
    threads it serves with, so that polls may wait at the door (config.parking)."""

    def init_process(self):
        from config.parking import serve_with_threads

        serve_with_threads(self.cfg.threads)
        super().init_process()
