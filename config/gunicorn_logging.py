"""gunicorn's logs without secrets (deploy/358-web.service, the Procfile):
``gunicorn --logger-class config.gunicorn_logging.RedactingLogger``.

gunicorn writes its access log itself, before and outside Django's logging: the request line
(``%(r)s``), the path (``%(U)s``), the referrer and any header a custom format names. Every
atom the format reads is passed through config.logs.redact, and headers that are credentials
as a whole (Authorization, Cookie, Set-Cookie) are replaced; then both logs' lines are
redacted whole.
"""

from __future__ import annotations

import logging

from gunicorn.glogging import Logger, SafeAtoms

from config.logs import REDACTED, SECRET_HEADERS, RedactingFormatter, redact


def _header(key: str) -> str | None:
    """The header an atom holds: ``{cookie}i`` (request), ``{set-cookie}o`` (response),
    ``{http_cookie}e`` (the WSGI environ)."""
    if key.startswith("{") and key.endswith(("}i", "}o")):
        return key[1:-2].lower()
    if key.startswith("{http_") and key.endswith("}e"):
        return key[6:-2].lower().replace("_", "-")
    return None


class RedactedAtoms(SafeAtoms):
    """The access log's atoms, each redacted as the line's format reads it: gunicorn makes an
    atom of every header and environ variable of every request, and the format reads a
    handful (redacting them all was a tenth of a request's CPU, docs/performance.md), and
    logging formats the line twice (the redacting formatter reads the message, then its inner
    one), so each atom is redacted once and kept."""

    def __init__(self, atoms):
        super().__init__(atoms)
        self._redacted: dict = {}

    def __getitem__(self, key):
        if key in self._redacted:
            return self._redacted[key]
        value = super().__getitem__(key)
        if value != "-" and _header(key) in SECRET_HEADERS:
            value = REDACTED
        elif isinstance(value, str):
            value = redact(value)
        self._redacted[key] = value
        return value


class RedactingLogger(Logger):
    atoms_wrapper_class = RedactedAtoms

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if not isinstance(handler.formatter, RedactingFormatter):
                    inner = handler.formatter or logging.Formatter()
                    handler.setFormatter(RedactingFormatter(inner))
