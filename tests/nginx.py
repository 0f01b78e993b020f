"""The documented nginx in front of a real gunicorn of the site, on 127.0.0.1, for tests.

deploy/nginx/358.conf is started as it is, but for the few lines that name this machine's
ports and files (`render` checks that each of them is there, once). nginx runs in the
foreground as one process with its own prefix, pid, logs and temporary folders; gunicorn
runs the site with production settings and the request limits and worker class of
deploy/358-web.service. Both are stopped when the `with` ends, and every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import socket
import ssl
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx" / "358.conf"
WEB_UNIT = ROOT / "deploy" / "358-web.service"
NGINX = os.environ.get("NGINX", "/usr/sbin/nginx")
HOST = "358.example.org"
LOOPBACK = "127.0.0.1"
TIMEOUT = 10  # seconds for any one exchange


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return probe.getsockname()[1]


def wait_listening(port: int, process: subprocess.Popen, log: Path, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection((LOOPBACK, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port} after {seconds} s:\n{log.read_text()[-3000:]}")


def stop(process: subprocess.Popen, group: bool = False):
    """Stop the server; with `group`, its whole process group (it was started in a session of
    its own): a server whose workers are processes (granian's) may leave them running when
    only its main process is told, and they would serve on after the tests."""

    def signal_it(number: int) -> None:
        if group:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, number)
        else:
            process.send_signal(number)

    if process.poll() is None or group:
        signal_it(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            signal_it(signal.SIGKILL)
            process.wait(timeout=20)
    if group:  # the workers, when the main process left before them
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def certificate(folder: Path) -> tuple[Path, Path]:
    """A throw-away self-signed certificate for HOST."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", f"/CN={HOST}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


def render(conf: str, *, http: int, https: int, upstream: int, cert: Path, key: Path) -> str:
    """The documented configuration with this machine's ports and certificate, nothing else."""
    replacements = [
        (r"listen 80 default_server;", f"listen {LOOPBACK}:{http} default_server;"),
        (
            r"listen 443 ssl http2 default_server;",
            f"listen {LOOPBACK}:{https} ssl http2 default_server;",
        ),
        (r"ssl_certificate \S+;", f"ssl_certificate {cert};"),
        (r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};"),
        (r"proxy_pass http://127\.0\.0\.1:8000;", f"proxy_pass http://{LOOPBACK}:{upstream};"),
    ]
    for pattern, replacement in replacements:
        conf, count = re.subn(pattern, lambda _, r=replacement: r, conf)
        assert count == 1, f"{pattern!r} is not in the configuration exactly once"
    return conf


@dataclass
class Nginx:
    http: int
    https: int
    folder: Path

    @property
    def access_log(self) -> Path:
        return self.folder / "access.log"


@contextmanager
def nginx(folder: Path, upstream: int, conf: str | None = None):
    """nginx with the documented site configuration (or `conf`) in front of `upstream`."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = certificate(folder)
    front = Nginx(http=free_port(), https=free_port(), folder=folder)
    site = folder / "site.conf"
    site.write_text(
        render(conf or CONF.read_text(), http=front.http, https=front.https,
               upstream=upstream, cert=cert, key=key)
    )  # fmt: skip
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (folder / "nginx.conf").write_text(
        f"""daemon off;
master_process off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} info;
events {{ worker_connections 64; }}
http {{
    access_log {front.access_log};
{temp}
    include {site};
}}
"""
    )
    log = folder / "error.log"
    command = [NGINX, "-e", str(log), "-p", str(folder), "-c", str(folder / "nginx.conf")]
    with (folder / "stderr.log").open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_listening(front.https, process, log)
        yield front
    finally:
        stop(process)


def unit_options() -> list[str]:
    """gunicorn's --limit-request-* and --worker-class options as the web unit passes them."""
    unit = WEB_UNIT.read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    words = shlex.split(start.partition("=")[2])
    options = []
    for i, word in enumerate(words):
        if word.startswith("--limit-request") or word == "--worker-class":
            options += [word, words[i + 1]]
    return options


@contextmanager
def gunicorn(folder: Path, options: list[str] | None = None):
    """The site under gunicorn with production settings behind a proxy; yields its port.
    `options` replace the web unit's request limits and worker class."""
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("DJANGO_")
        and key not in ("DATABASE_URL", "CELERY_BROKER_URL", "ALLOW_LOCAL_BROKER")
    }
    env.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="nginx-test-" + "k" * 50,
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_BEHIND_PROXY="1",
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_CACHE_URL=f"file://{folder / 'cache'}",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/15",  # named, never contacted here
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",  # not reached by these requests
    )
    command = [
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"{LOOPBACK}:{port}",
        "--workers", "1", "--no-control-socket", *(unit_options() if options is None else options),
    ]  # fmt: skip
    with served(command, env, port, folder / "gunicorn.log"):
        yield port


@contextmanager
def served(command: list[str], env: dict[str, str], port: int, log: Path):
    """`command` (a server) run from the project's folder, its output in `log`, until it
    listens on `port`; stopped when the `with` ends. Yields its process."""
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
        )
    try:
        wait_listening(port, process, log, seconds=60)
        yield process
    finally:
        stop(process, group=True)


# --- talking to it ----------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")


def _tls(sock: socket.socket) -> ssl.SSLSocket:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the throw-away certificate
    return context.wrap_socket(sock, server_hostname=HOST)


def exchange(port: int, request: bytes, tls: bool = True) -> Answer:
    """Sends raw bytes on a new connection, reads one HTTP/1.1 answer (ask)."""
    sock = socket.create_connection((LOOPBACK, port), timeout=TIMEOUT)
    if tls:
        sock = _tls(sock)
    with sock:
        return ask(sock, request)


def ask(sock: socket.socket, request: bytes) -> Answer:
    """Sends raw bytes on `sock`, reads one HTTP/1.1 answer (none of a body for a 204 or a
    304, else to its Content-Length, its last chunk or the connection's end); the connection
    stays open."""
    sock.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError(f"the connection closed without an answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if status in (204, 304):  # no body, whatever the headers say
        return Answer(status, headers, body)
    if "content-length" in headers:
        while len(body) < int(headers["content-length"]):
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    else:
        try:
            while not body.endswith(b"0\r\n\r\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                body += chunk
        except (ConnectionResetError, TimeoutError):
            pass
        if headers.get("transfer-encoding") == "chunked":
            body = _unchunk(body)
    return Answer(status, headers, body)


def _unchunk(data: bytes) -> bytes:
    body = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        body, data = body + data[:size], data[size + 2 :]
    return body


def curl_http2(port: int, path: str, folder: Path, *args: str) -> tuple[int, Answer | None]:
    """One request over HTTP/2 with curl: (curl's exit code, the answer if there was one)."""
    folder.mkdir(parents=True, exist_ok=True)
    headers, body = folder / "headers", folder / "body"
    result = subprocess.run(
        ["curl", "--silent", "--insecure", "--http2", "--noproxy", "*", "--max-time",
         str(TIMEOUT), "--resolve", f"{HOST}:{port}:{LOOPBACK}", "--path-as-is",
         "--dump-header", str(headers), "--output", str(body), *args,
         f"https://{HOST}:{port}{path}"],
        capture_output=True, timeout=TIMEOUT + 20,
    )  # fmt: skip
    if result.returncode != 0 or not headers.exists():
        return result.returncode, None
    lines = headers.read_text("latin-1").strip().splitlines()
    assert lines[0].startswith("HTTP/2 "), lines[0]
    parsed = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        parsed[name.strip().lower()] = value.strip()
    return 0, Answer(int(lines[0].split()[1]), parsed, body.read_bytes())
