"""Production settings: Django's deploy checks pass, the security headers are sent, logs are
JSON, and /healthz reports the database and the broker."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import OperationalError

from config import health
from config.celery import app as celery_app
from config.env import env_choice, env_int

ROOT = Path(__file__).resolve().parent.parent


def production_env(**extra) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_") and key not in ("DATABASE_URL", "CELERY_BROKER_URL")
    }
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="club.example.org",
        DJANGO_SETTINGS_MODULE="config.settings",
        **extra,
    )
    return env


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
from django.test import Client
client = Client(HTTP_HOST="club.example.org")
plain = client.get("/referee/")
page = client.get("/referee/", secure=True)
missing = client.get("/no-such-page/", secure=True)
logging.getLogger("probe").warning("hello %s", "log")
print(json.dumps({
    "redirect": [plain.status_code, plain.get("Location")],
    "headers": {k: page.get(k) for k in (
        "Strict-Transport-Security", "Content-Security-Policy", "X-Frame-Options",
        "X-Content-Type-Options", "Referrer-Policy", "Cross-Origin-Opener-Policy")},
    "cookie_secure": bool(page.cookies.get("csrftoken") and page.cookies["csrftoken"]["secure"]),
    "missing": [missing.status_code, "Traceback" in missing.content.decode()],
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
def test_healthz_names_an_unreachable_broker(client, monkeypatch):
    monkeypatch.setattr(health, "BROKER_TIMEOUT", 0.5)
    # The write URL: Celery prefers a CELERY_BROKER_URL in the environment (CI sets one) to
    # conf.broker_url, but takes conf.broker_write_url as given.
    monkeypatch.setattr(celery_app.conf, "broker_write_url", "redis://127.0.0.1:1/0")
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503 and body["ok"] is False
    assert body["database"]["status"] == "ok"
    assert body["broker"]["status"].startswith("error:")


@pytest.mark.django_db
def test_healthz_names_a_failing_database(client, monkeypatch):
    def broken():
        raise OperationalError("the database is restarting")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    body = client.get("/healthz").json()
    assert body["database"]["status"] == "error: OperationalError: the database is restarting"
