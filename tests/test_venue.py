"""The venue laptop (bin/serve, config/venue.py): the address phones reach, the secret key
kept between evenings, the join lines with their QR code, and the command itself serving the
site with production settings on SQLite, its database and var/ its owner's only."""

from __future__ import annotations

import ipaddress
import os
import re
import signal
import socket
import stat
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from config import venue

ROOT = Path(__file__).resolve().parents[1]


def test_the_lan_address_is_an_ipv4_address_of_this_machine():
    address = ipaddress.ip_address(venue.lan_address())
    assert address.version == 4 and not address.is_unspecified


def test_the_secret_key_is_made_once_and_kept_private(tmp_path):
    first = venue.secret_key(tmp_path)
    assert len(first) >= 50
    assert venue.secret_key(tmp_path) == first
    assert (tmp_path / venue.SECRET_KEY_FILE).stat().st_mode & 0o077 == 0


def test_the_join_lines_say_the_address_and_draw_its_code():
    lines = venue.join_lines("http://10.1.2.3:8000/")
    assert "http://10.1.2.3:8000/" in lines
    code = [line for line in lines.splitlines() if "█" in line]
    assert len(code) > 10  # a QR code of 21+ modules, two rows a line


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_bin_serve_serves_the_site_with_production_settings(tmp_path):
    port = _free_port()
    database = tmp_path / "venue.sqlite3"
    # An older install left the database and var/ readable by every account of the laptop.
    database.touch(mode=0o644)
    database.chmod(0o644)
    (ROOT / "var").mkdir(exist_ok=True)
    (ROOT / "var").chmod(0o755)
    env = {
        **os.environ,
        "PORT": str(port),
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_CACHE_URL": f"file://{tmp_path / 'cache'}",
    }
    env.pop("CELERY_BROKER_URL", None)  # the venue laptop's own folder broker
    serve = subprocess.Popen(
        [str(ROOT / "bin" / "serve")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        said = ""
        deadline = time.monotonic() + 150
        while "Ctrl-C stops the site" not in said and time.monotonic() < deadline:
            line = serve.stdout.readline()
            if not line and serve.poll() is not None:
                break
            said += line
        assert re.search(rf"The site is at http://[\d.]+:{port}/", said), said[-2000:]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/events/", timeout=10) as answer:
            assert answer.status == 200
            page = answer.read().decode()
        assert "<html" in page and "Traceback" not in page
        # Production settings: no debug page for a missing page.
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=10)
        except urllib.error.HTTPError as error:
            assert error.code == 404
            assert "DEBUG = True" not in error.read().decode()
        # Every table secret, session and password hash: the owner's only, WAL files too.
        sides = [database, *(database.with_name(database.name + s) for s in ("-wal", "-shm"))]
        assert {p.name: _mode(p) for p in sides} == dict.fromkeys((p.name for p in sides), 0o600)
        assert _mode(ROOT / "var") == 0o700
        assert _mode(ROOT / "var" / "secret_key") == 0o600
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
