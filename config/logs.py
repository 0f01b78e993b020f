"""Keeping secrets out of every log line.

A keeper link (``/games/<id>/keep/<secret>/``, scoring/urls.py) carries its table's secret,
and whoever holds it keeps that table's score; an ``Authorization: Bearer`` header carries the
same secret for the API; cookies carry sessions. None of them may reach a log, where they
outlive the event and are read by more people. ``redact`` replaces them; it is applied

- to every line Django's logging writes, by the formatters of LOGGING (config/settings.py),
  which redact the finished line: message, arguments, extra fields such as Django's
  ``request``, tracebacks (``django.request``'s 4xx warnings name the path, secret and all);
- to gunicorn's access and error logs by config.gunicorn_logging.RedactingLogger.

What people type (names, reasons, paths) reaches log messages too; a line break or a
terminal escape in it could forge a line of its own or repaint an operator's terminal. So each
message is also neutralised (``neutral``): control characters and line separators written as
their escapes, one record one line. The traceback after it keeps its lines.

Kept pure (no Django settings): gunicorn's master imports it before Django is set up.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"

#: The secret part of a keeper link, whatever precedes it (absolute URL, request line, repr).
KEEPER_LINK = re.compile(r"(/games/\d+/keep/)[^/?#\s\"'<>]+", re.IGNORECASE)
#: A bearer token, in a header value or a message quoting one.
BEARER = re.compile(r"(\bBearer\s+)[^\s\"',;]+", re.IGNORECASE)

#: Header names whose whole value is a credential.
SECRET_HEADERS = frozenset({"authorization", "cookie", "set-cookie", "x-csrftoken"})


#: Characters that end a line or steer a terminal: C0 and C1 controls but the tab, DEL, and
#: Unicode's line and paragraph separators.
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")


def neutral(text: str) -> str:
    """The text on one line, each control character written as its escape (``\\n``, ``\\x1b``)."""
    return CONTROL.sub(lambda found: repr(found.group())[1:-1], text)


#: What both need to be there (a keeper link's "/keep/", the word "bearer"): a line with
#: neither, as nearly every access-log line is, costs one search and no substitution.
MAYBE_SECRET = re.compile(r"/keep/|bearer", re.IGNORECASE)


def redact(text: str) -> str:
    """The text with keeper-link secrets and bearer tokens replaced by ``[redacted]``."""
    if not MAYBE_SECRET.search(text):
        return text
    text = KEEPER_LINK.sub(rf"\1{REDACTED}", text)
    return BEARER.sub(rf"\1{REDACTED}", text)


class RedactingFormatter(logging.Formatter):
    """Another formatter's finished line, redacted: the message and its arguments, extra
    fields (the JSON format writes Django's ``request`` as its repr, path and all) and the
    traceback alike. The record itself is left untouched for any other handler."""

    def __init__(self, inner: logging.Formatter):
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        plain = neutral(message)
        if plain != message:  # a copy: the record itself stays as it came
            record = logging.makeLogRecord({**record.__dict__, "msg": plain, "args": None})
        return redact(self.inner.format(record))


def json_formatter(**options) -> RedactingFormatter:
    """LOGGING's ``json`` formatter: one JSON object per line (python-json-logger), redacted."""
    from pythonjsonlogger.json import JsonFormatter

    return RedactingFormatter(JsonFormatter(**options))


def text_formatter(**options) -> RedactingFormatter:
    """LOGGING's ``text`` formatter, for people, redacted."""
    return RedactingFormatter(logging.Formatter(**options))
