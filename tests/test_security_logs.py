"""No table secret in any log line, and no line forged by what people type.

Django's own lines (``django.request`` names the path of every 4xx, keeper links included),
our loggers, tracebacks and the JSON format's extra fields are redacted by config.logs'
formatters on the configured handler; gunicorn's access and error logs by
config.gunicorn_logging. Both are checked on their real output.
"""

import io
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from config.logs import RedactingFormatter, json_formatter, redact
from scoring import services

ROOT = Path(__file__).resolve().parent.parent
SECRET = "Zk3vJm0S-secret-part-of-the-link_9QwErTy"


@pytest.fixture
def configured_output():
    """The text the configured stderr handler writes (LOGGING in config/settings.py)."""
    handler = next(
        h for h in logging.getLogger().handlers if isinstance(h.formatter, RedactingFormatter)
    )
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


def test_redact_hides_keeper_link_secrets_and_bearer_tokens():
    line = (
        f'GET /games/12/keep/{SECRET}/ "https://club.example.org/games/12/keep/{SECRET}?x=1" '
        f"Authorization: Bearer {SECRET}"
    )
    cleaned = redact(line)
    assert SECRET not in cleaned
    assert "/games/12/keep/[redacted]/" in cleaned and "Bearer [redacted]" in cleaned


@pytest.mark.parametrize(
    "line",
    [
        f"GET /GAMES/12/KEEP/{SECRET}/ HTTP/1.1",
        f"authorization: BEARER {SECRET}",
        f"x bearer\t{SECRET}",
    ],
)
def test_redact_finds_secrets_in_any_case(line):
    """redact looks for "/keep/" or "bearer" before it substitutes: in any case, as the
    substitutions themselves match."""
    assert SECRET not in redact(line)


@pytest.mark.django_db
def test_djangos_warnings_for_a_keeper_link_do_not_carry_its_secret(client, configured_output):
    game = services.game_create(ruleset="blato", players=["A", "B", "C"], first_dealer=0)
    link = reverse("scoring:keep", args=[game.pk, game.secret])
    assert client.post(link).status_code == 405  # "Method Not Allowed (POST): <path>"
    assert client.get(reverse("scoring:keep", args=[game.pk + 1, game.secret])).status_code == 404
    for _ in range(21):  # wrong guesses, then the 429 warning
        client.get(reverse("scoring:keep", args=[game.pk, game.secret[:-1] + "x"]))
    written = configured_output.getvalue()
    assert "Method Not Allowed" in written and "Too Many Requests" in written
    assert f"/games/{game.pk}/keep/[redacted]/" in written
    assert game.secret not in written and game.secret[:-1] not in written


def test_messages_arguments_tracebacks_and_extra_fields_are_redacted(rf, configured_output):
    log = logging.getLogger("probe.secrets")
    log.warning("token was %s", f"Bearer {SECRET}")
    try:
        raise ValueError(f"could not open /games/3/keep/{SECRET}/")
    except ValueError:
        log.exception("failed")
    log.warning("with a request", extra={"request": rf.get(f"/games/3/keep/{SECRET}/")})
    written = configured_output.getvalue()
    assert "failed" in written and "ValueError" in written
    assert SECRET not in written


def test_the_json_format_keeps_no_secret_in_its_extra_fields(rf):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter(fmt="{levelname}{name}{message}", style="{"))
    log = logging.getLogger("probe.json")
    log.addHandler(handler)
    try:
        request = rf.get(f"/games/7/keep/{SECRET}/")
        log.warning("Too Many Requests: %s", request.path, extra={"request": request})
    finally:
        log.removeHandler(handler)
    record = json.loads(stream.getvalue())
    assert record["message"] == "Too Many Requests: /games/7/keep/[redacted]/"
    assert SECRET not in stream.getvalue()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorns_access_log_has_no_secret(tmp_path):
    """A real gunicorn with the deployment's logger class; the access format also names the
    credential headers, which are written as [redacted]."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_DEBUG="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    access_format = '%(h)s "%(r)s" %(s)s "%(f)s" %(U)s %({authorization}i)s %({cookie}i)s'
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--access-logfile",
            "-",
            "--access-logformat",
            access_format,
            "--logger-class",
            "config.gunicorn_logging.RedactingLogger",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}/games/5/keep/{SECRET}/"
        headers = {
            "Authorization": f"Bearer {SECRET}",
            "Cookie": f"sessionid={SECRET}",
            "Referer": f"https://club.example.org/games/5/keep/{SECRET}/",
        }
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5)
                break
            except urllib.error.HTTPError:
                break  # any answer: the request was served and logged
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.3)
    finally:
        server.terminate()
        out, err = server.communicate(timeout=30)
    logged = out + err
    assert '"GET /games/5/keep/[redacted]/ HTTP/1.1"' in logged, logged[-2000:]
    assert "[redacted] [redacted]" in logged  # Authorization and Cookie
    assert SECRET not in logged


@pytest.mark.parametrize("path", ["deploy/358-web.service", "Procfile"])
def test_the_deployment_runs_gunicorn_with_the_redacting_logger(path):
    text = (ROOT / path).read_text()
    gunicorn_lines = [line for line in text.splitlines() if "gunicorn config.wsgi" in line]
    assert gunicorn_lines
    for line in gunicorn_lines:
        assert "--logger-class config.gunicorn_logging.RedactingLogger" in line


def test_what_people_type_cannot_forge_a_log_line_or_steer_a_terminal(configured_output):
    """A name with a line break and a terminal escape is written on its own record's line,
    its controls as escapes; a traceback keeps its lines."""
    log = logging.getLogger("probe.typed")
    typed = "Ana\nINFO django: organiser logged in\r\x1b[2J\u2028end"
    log.warning("renamed to %s", typed)
    try:
        raise ValueError("boom")
    except ValueError:
        log.exception("failed for %s", "Vera\nforged")
    written = configured_output.getvalue()
    first, *rest = written.splitlines()
    assert first.endswith(r"renamed to Ana\nINFO django: organiser logged in\r\x1b[2J\u2028end")
    assert "\x1b" not in written and "\u2028" not in written
    assert rest[0].endswith(r"failed for Vera\nforged") and rest[1].startswith("Traceback")
