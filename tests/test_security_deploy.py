"""The deployment the tests assume is the one documented.

docs/deploy.md's nginx block is deploy/nginx/358.conf, which tests/test_nginx.py starts and
tests/test_security_addresses.py simulates (nginx writes the one address it saw into
X-Forwarded-For); the example environment file starts a production process past the start-up
checks; static files carry security headers here too.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parent.parent


def nginx_block() -> str:
    text = (ROOT / "docs" / "deploy.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/deploy.md should hold exactly one nginx configuration"
    return blocks[0]


def directives(block: str) -> list[str]:
    return [
        " ".join(line.split("#", 1)[0].split())
        for line in block.splitlines()
        if line.split("#", 1)[0].strip()
    ]


def test_the_documented_nginx_is_the_file_the_tests_start():
    """tests/test_nginx.py starts deploy/nginx/358.conf; the doc shows that file, whole."""
    assert nginx_block() == (ROOT / "deploy" / "nginx" / "358.conf").read_text()


def test_the_documented_nginx_overwrites_x_forwarded_for_with_the_address_it_saw():
    lines = directives(nginx_block())
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in lines
    assert not any("$proxy_add_x_forwarded_for" in line for line in lines)
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in lines
    assert "proxy_pass http://127.0.0.1:8000;" in lines
    # One proxy, so Django reads exactly that header and then REMOTE_ADDR (nginx).
    env_example = (ROOT / "deploy" / "358.env.example").read_text()
    assert "DJANGO_BEHIND_PROXY=1" in env_example


def test_the_documented_nginx_sends_its_refusals_to_pages_by_uri_never_by_name():
    """A named location cannot take a request without a URI: nginx answers it with a 500."""
    pages = [line for line in directives(nginx_block()) if line.startswith("error_page ")]
    assert pages and all(line.split()[-1].startswith("/.nginx/") for line in pages)
    answered = {code for line in pages for code in line.split()[1:-2]}
    assert {"400", "405", "413", "414", "494", "500", "502", "503", "504", "505"} <= answered


def test_gunicorn_takes_whatever_nginx_lets_through():
    """The numbers of docs/deploy.md's table; tests/test_nginx.py runs gunicorn with them."""
    unit = (ROOT / "deploy" / "358-web.service").read_text()
    assert "--limit-request-line 8190" in unit
    assert "--limit-request-fields 32768" in unit
    assert "--limit-request-field_size 16384" in unit
    assert "large_client_header_buffers 4 4k;" in directives(nginx_block())


def test_the_example_environment_passes_the_production_start_up_checks(tmp_path):
    example = {}
    for line in (ROOT / "deploy" / "358.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            example[key.strip()] = value.strip()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DJANGO_") and k not in ("CELERY_BROKER_URL", "ALLOW_LOCAL_BROKER")
    }
    env.update(example)
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"  # not reached by `check`
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr


@override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True)
def test_static_files_carry_security_headers():
    """WhiteNoise answers /static/ before the views' middleware; its own headers function and
    its place after SecurityMiddleware give the files a policy too. (Served from the source
    folders here; the production process of tests/test_production.py reads collected files.)"""
    response = Client().get(f"/{settings.STATIC_URL}css/site.css".replace("//", "/"))
    assert response.status_code == 200
    assert "default-src 'none'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Resource-Policy"] == "same-origin"
