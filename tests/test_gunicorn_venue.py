"""A phone's polls come on one kept connection: bin/serve's gunicorn (config/gunicorn_venue.py)
and the deploy's nginx keep it longer than any page polls.

A phone polls the sheet every 5 s and the standings every 15 s; with gunicorn's 2-s keep-alive
every poll opened a new TCP connection, which cost the server more than the door's answer.
"""

from __future__ import annotations

import re
import resource
import socket
import time
from pathlib import Path

from config import gunicorn_venue
from tests import nginx as proxy

ROOT = Path(__file__).resolve().parent.parent
#: How late a phone's timer may run (a busy phone, a slow network) and still find its
#: connection kept.
TIMER_SLACK_SECONDS = 4


def _page_poll_seconds() -> dict[str, float]:
    """Every poll interval a page sets: htmx's `every Ns` in the templates, the polls'
    named paces, and the "My next seat" script's own."""
    from tournaments.common.web import polls
    from tournaments.rounds.views import public_next

    found = {
        "standings and projector": polls.POLL_SECONDS,
        "next seat (version)": public_next.VERSION_POLL_SECONDS,
        "next seat (playing)": public_next.PLAYING_POLL_SECONDS,
    }
    for template in (ROOT / "templates").rglob("*.html"):
        for seconds in re.findall(r"every (\d+)s", template.read_text()):
            found[f"{template.relative_to(ROOT)} every {seconds}s"] = int(seconds)
    script = (ROOT / "static" / "js" / "next_seat.js").read_text()
    found["next_seat.js POLL_MS"] = int(re.search(r"POLL_MS = (\d+)", script).group(1)) / 1000
    return found


def test_an_idle_connection_is_kept_longer_than_any_page_polls():
    polls = _page_poll_seconds()
    assert len(polls) > 5  # the templates' polls were found
    slowest = max(polls, key=polls.get)
    assert gunicorn_venue.keepalive == gunicorn_venue.KEEP_ALIVE_SECONDS
    assert gunicorn_venue.KEEP_ALIVE_SECONDS >= polls[slowest] + TIMER_SLACK_SECONDS, slowest


#: nginx's own keep-alive for a client's connection when its configuration names none.
NGINX_KEEPALIVE_DEFAULT = 75


def test_nginx_keeps_a_phones_connection_longer_than_any_page_polls():
    """The deploy's nginx (deploy/nginx/358.conf) keeps a phone's connection between its
    polls too: no `keepalive_timeout` below the slowest poll."""
    conf = (ROOT / "deploy" / "nginx" / "358.conf").read_text()
    named = re.findall(r"^\s*keepalive_timeout\s+(\d+)s?\b", conf, re.MULTILINE)
    kept = [int(seconds) for seconds in named] or [NGINX_KEEPALIVE_DEFAULT]
    polls = _page_poll_seconds()
    assert min(kept) >= max(polls.values()) + TIMER_SLACK_SECONDS


def test_connections_stay_below_the_open_files_a_process_may_have():
    within = gunicorn_venue.connections_within
    assert within(1_048_576, 512) == gunicorn_venue.WANTED_CONNECTIONS
    assert within(4096, 512) == 4096 - gunicorn_venue.OWN_FILES
    assert within(1024, 512) == 1024 - gunicorn_venue.OWN_FILES
    assert within(600, 512) == 512  # never fewer than one a thread
    assert within(resource.RLIM_INFINITY, 512) == gunicorn_venue.WANTED_CONNECTIONS
    # What bin/serve's processes would be given here: idle phones beside a full set of threads.
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    assert gunicorn_venue.worker_connections == within(soft, gunicorn_venue.threads)


def test_bin_serve_runs_gunicorn_with_these_settings():
    serve = (ROOT / "bin" / "serve").read_text().replace("\\\n", " ")
    starts = [line for line in serve.splitlines() if "gunicorn config.wsgi" in line]
    assert len(starts) == 1 and "-c python:config.gunicorn_venue" in starts[0]
    assert gunicorn_venue.worker_class == "config.gunicorn_workers.ThreadWorker"
    assert gunicorn_venue.logger_class == "config.gunicorn_logging.RedactingLogger"


POLL = (
    b"GET /healthz HTTP/1.1\r\nHost: "
    + proxy.HOST.encode()
    + b"\r\nX-Forwarded-Proto: https\r\n\r\n"
)


def test_a_phone_polling_every_few_seconds_keeps_its_connection(tmp_path):
    """A real gunicorn with bin/serve's settings answers a second poll, 3 s after the first
    (the old keep-alive closed the connection after 2 s), on the same connection."""
    options = ["-c", "python:config.gunicorn_venue", "--threads", "4"]
    with proxy.gunicorn(tmp_path, options) as port:
        with socket.create_connection((proxy.LOOPBACK, port), timeout=proxy.TIMEOUT) as sock:
            first = proxy.ask(sock, POLL)
            time.sleep(3)
            second = proxy.ask(sock, POLL)  # fails if the connection was closed
    for answer in (first, second):
        assert answer.status == 200, answer
        assert answer.headers.get("connection") != "close", answer.headers
