"""gunicorn's logs without secrets (deploy/358-web.service, the Procfile):
``gunicorn --logger-class config.gunicorn_logging.RedactingLogger``.

gunicorn writes its access log itself, before and outside Django's logging: the request line
(``%(r)s``), the path (``%(U)s``), the referrer and any header a custom format names. Every
atom is passed through config.logs.redact, and headers that are credentials as a whole
(Authorization, Cookie, Set-Cookie) are replaced; then both logs' lines are redacted whole.
"""

from __future__ import annotations

import logging

from gunicorn.glogging import Logger

from config.logs import REDACTED, SECRET_HEADERS, RedactingFormatter, redact


def _header(key: str) -> str | None:
    """The header an atom holds: ``{cookie}i`` (request), ``{set-cookie}o`` (response),
    ``{http_cookie}e`` (the WSGI environ)."""
    if key.startswith("{") and key.endswith(("}i", "}o")):
        return key[1:-2].lower()
    if key.startswith("{http_") and key.endswith("}e"):
        return key[6:-2].lower().replace("_", "-")
    return None


class RedactingLogger(Logger):
    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                if not isinstance(handler.formatter, RedactingFormatter):
                    inner = handler.formatter or logging.Formatter()
                    handler.setFormatter(RedactingFormatter(inner))

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key, value in atoms.items():
            if _header(key) in SECRET_HEADERS:
                atoms[key] = REDACTED
            elif isinstance(value, str):
                atoms[key] = redact(value)
        return atoms
