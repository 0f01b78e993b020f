"""Production settings: Django's deploy checks pass, the security headers are sent (on the
static files too), logs are JSON, a start on development-only settings (a per-process cache,
the folder broker) is refused, and /healthz reports the database and the broker without
telling the public why one failed."""

import json
import logging
import os
import secrets
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError

from config import health
from config.celery import app as celery_app
from config.env import env_choice, env_int

ROOT = Path(__file__).resolve().parent.parent


SHARED_CACHE = f"file://{Path(tempfile.gettempdir()) / '358-production-test-cache'}"
REAL_BROKER = "redis://127.0.0.1:6379/15"  # named, never contacted by these tests


def production_env(**extra) -> dict:
    """A production process: DEBUG off, a shared cache and a real broker (as the start-up
    checks require); `extra` overrides, and a value of None removes a variable."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_")
        and key not in ("DATABASE_URL", "CELERY_BROKER_URL", "ALLOW_LOCAL_BROKER")
    }
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="club.example.org",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_CACHE_URL=SHARED_CACHE,
        CELERY_BROKER_URL=REAL_BROKER,
    )
    env.update(extra)
    return {key: value for key, value in env.items() if value is not None}


def run(args, env) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_deploy_checks_pass_with_production_settings():
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_env())
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_answers_carry_the_security_headers_and_no_debug_page(tmp_path):
    script = """
import django, json, logging
django.setup()
from django.templatetags.static import static
from django.test import Client
client = Client(HTTP_HOST="club.example.org")
plain = client.get("/referee/")
page = client.get("/referee/", secure=True)
missing = client.get("/no-such-page/", secure=True)
css = client.get(static("css/site.css"), secure=True)
logging.getLogger("probe").warning("hello %s", "log")
print(json.dumps({
    "redirect": [plain.status_code, plain.get("Location")],
    "headers": {k: page.get(k) for k in (
        "Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
        "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy")},
    "cookie_secure": bool(page.cookies.get("csrftoken") and page.cookies["csrftoken"]["secure"]),
    "missing": [missing.status_code, "Traceback" in missing.content.decode()],
    "static": [css.status_code, {k: css.get(k) for k in (
        "Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
        "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Resource-Policy")}],
}))
"""
    env = production_env(DJANGO_STATIC_ROOT=str(tmp_path / "static"))
    collected = run(["manage.py", "collectstatic", "--no-input", "--verbosity", "0"], env)
    assert collected.returncode == 0, collected.stderr
    result = run(["-c", script], env)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["redirect"] == [301, "https://club.example.org/referee/"]
    headers = report["headers"]
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    csp = headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert report["cookie_secure"] is True
    assert report["missing"] == [404, False]
    # Static files (answered by WhiteNoise before the views' middleware) carry them too.
    status, static_headers = report["static"]
    assert status == 200
    assert "max-age=31536000" in static_headers["Strict-Transport-Security"]
    assert "default-src 'none'" in static_headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in static_headers["Content-Security-Policy"]
    assert static_headers["X-Frame-Options"] == "DENY"
    assert static_headers["X-Content-Type-Options"] == "nosniff"
    assert static_headers["Referrer-Policy"] == "same-origin"
    assert static_headers["Cross-Origin-Resource-Policy"] == "same-origin"
    log_lines = [line for line in result.stderr.splitlines() if '"probe"' in line]
    assert json.loads(log_lines[0])["message"] == "hello log"


def test_htmx_is_told_to_inject_no_inline_style(client):
    page = client.get("/referee/").content.decode()
    assert '"includeIndicatorStyles": false' in page
    assert "<style" not in page and " style=" not in page


def test_numbers_and_choices_from_the_environment_are_checked():
    assert env_int({"N": " 42 "}, "N", default=1) == 42
    assert env_int({}, "N", default=7) == 7
    with pytest.raises(ImproperlyConfigured, match="N='x'"):
        env_int({"N": "x"}, "N", default=1)
    assert env_choice({"F": "JSON"}, "F", ("json", "text"), default="text") == "json"
    with pytest.raises(ImproperlyConfigured, match="json, text"):
        env_choice({"F": "xml"}, "F", ("json", "text"), default="text")


@pytest.mark.django_db
def test_healthz_says_ok_when_database_and_broker_answer(client):
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200 and body["ok"] is True
    assert body["database"]["status"] == "ok" and body["broker"]["status"] == "ok"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_names_an_unreachable_broker(client, monkeypatch, caplog):
    monkeypatch.setattr(health, "BROKER_TIMEOUT", 0.5)
    # The write URL: Celery prefers a CELERY_BROKER_URL in the environment (CI sets one) to
    # conf.broker_url, but takes conf.broker_write_url as given.
    monkeypatch.setattr(celery_app.conf, "broker_write_url", "redis://127.0.0.1:1/0")
    caplog.set_level(logging.ERROR, logger="config.health")
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503 and body["ok"] is False
    assert body["database"]["status"] == "ok"
    assert body["broker"]["status"] == "error"
    assert any(r.name == "config.health" and r.exc_info for r in caplog.records)


@pytest.mark.django_db
def test_healthz_names_a_failing_database_but_keeps_the_reason_for_the_log(
    client, monkeypatch, caplog
):
    """The probe is public; host names and driver messages are not."""

    def broken():
        raise OperationalError('could not connect to server at "db.internal" (10.0.0.5)')

    monkeypatch.setitem(health.CHECKS, "database", broken)
    caplog.set_level(logging.ERROR, logger="config.health")
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"]["status"] == "error"
    assert "db.internal" not in response.content.decode()
    assert "OperationalError" not in response.content.decode()
    logged = [r for r in caplog.records if r.name == "config.health"]
    assert logged and "database" in logged[0].getMessage()
    assert "db.internal" in str(logged[0].exc_info[1])


# --- start-up checks ------------------------------------------------------------------------------


def test_a_production_start_without_a_shared_cache_is_refused():
    result = run(["manage.py", "check"], production_env(DJANGO_CACHE_URL=None))
    assert result.returncode != 0
    assert "site_config.E001" in result.stderr and "DJANGO_CACHE_URL" in result.stderr


def test_a_production_start_on_the_folder_broker_is_refused_unless_allowed():
    refused = run(["manage.py", "check"], production_env(CELERY_BROKER_URL=None))
    assert refused.returncode != 0
    assert "site_config.E002" in refused.stderr and "ALLOW_LOCAL_BROKER=1" in refused.stderr
    allowed = run(
        ["manage.py", "check"], production_env(CELERY_BROKER_URL=None, ALLOW_LOCAL_BROKER="1")
    )
    assert allowed.returncode == 0, allowed.stderr


def test_gunicorn_loading_the_site_is_refused_too():
    """gunicorn runs no system checks: config.wsgi does, and the worker cannot boot."""
    code = ["-c", "import config.wsgi"]
    refused = run(code, production_env(DJANGO_CACHE_URL=None, CELERY_BROKER_URL=None))
    assert refused.returncode != 0
    assert "ImproperlyConfigured" in refused.stderr
    assert "site_config.E001" in refused.stderr and "site_config.E002" in refused.stderr
    assert run(code, production_env()).returncode == 0


def test_development_keeps_local_memory_and_the_folders():
    """bin/demo, bin/setup and the tests run with DEBUG on: no refusal."""
    env = production_env(
        DJANGO_DEBUG="1", DJANGO_CACHE_URL=None, CELERY_BROKER_URL=None, DJANGO_SECRET_KEY=None
    )
    result = run(["manage.py", "check", "--fail-level", "WARNING"], env)
    assert result.returncode == 0, result.stderr
