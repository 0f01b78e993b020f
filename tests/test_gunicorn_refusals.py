"""gunicorn's own refusals (before Django) are the API's JSON error under /api/.

A real gunicorn of the site with the deployment's worker classes (config/gunicorn_workers.py):
the sync worker of deploy/358-web.service and the Procfile, the threaded one of bin/serve
(the venue laptop, where no nginx stands in front). Plain sockets on 127.0.0.1, no nginx.
"""

import importlib
import json
import shlex
from pathlib import Path

import pytest

from tests import nginx as proxy

ROOT = Path(__file__).resolve().parent.parent
HOST = f"Host: {proxy.HOST}\r\nX-Forwarded-Proto: https\r\n".encode()
WORKERS = {
    "sync (the web unit)": None,
    "threads (bin/serve)": [
        "--worker-class", "config.gunicorn_workers.ThreadWorker", "--threads", "2",
    ],
}  # fmt: skip


@pytest.fixture(scope="module", params=list(WORKERS))
def site(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("gunicorn")
    with proxy.gunicorn(folder, WORKERS[request.param]) as port:
        yield port


def send(port: int, target: bytes, headers: bytes = b"") -> proxy.Answer:
    raw = b"GET %s HTTP/1.1\r\n%s%sConnection: close\r\n\r\n" % (target, HOST, headers)
    return proxy.exchange(port, raw, tls=False)


REFUSED = {
    "a control character in a header value": (b"/api/games", b"X-A: a\x01b\r\n", 400),
    "a request line over 8190 bytes": (b"/api/" + b"a" * 9000, b"", 414),
    "a header over 16 kB": (b"/api/games", b"X-Big: " + b"a" * 17000 + b"\r\n", 431),
    "a byte outside ASCII in the path": (b"/api/\xff", b"", 400),
    "a Content-Length that is not a number": (b"/api/games", b"Content-Length: x\r\n", 400),
}


@pytest.mark.parametrize("case", REFUSED)
def test_gunicorns_refusals_under_api_are_json(site, case):
    target, headers, status = REFUSED[case]
    answer = send(site, target, headers)
    assert answer.status == status, answer
    assert answer.content_type == "application/json"
    assert json.loads(answer.body)["error"]["message"]


def test_a_refused_page_keeps_gunicorns_page(site):
    """When gunicorn knows the path (the request line was read and kept)."""
    answer = send(site, b"/games/1", b"Content-Length: x\r\n")
    assert answer.status == 400
    assert answer.content_type == "text/html"


def test_a_request_gunicorn_reads_is_djangos_to_answer(site):
    answer = send(site, b"/api/no-such-thing")
    assert answer.status == 404
    message = json.loads(answer.body)["error"]["message"]
    assert message == "no such API endpoint: /api/no-such-thing"


@pytest.mark.parametrize(
    ("path", "worker"),
    [
        ("deploy/358-web.service", "config.gunicorn_workers.SyncWorker"),
        ("Procfile", "config.gunicorn_workers.SyncWorker"),
        ("bin/serve", "config.gunicorn_workers.ThreadWorker"),
    ],
)
def test_the_deployment_runs_the_json_refusing_workers(path, worker):
    """The worker class on gunicorn's command line, or in the settings module it names
    (bin/serve: config/gunicorn_venue.py)."""
    text = (ROOT / path).read_text().replace("\\\n", " ")
    starts = [line for line in text.splitlines() if "gunicorn config.wsgi" in line]
    assert starts
    for line in starts:
        words = shlex.split(line.replace("ExecStart=", ""))
        if "--worker-class" in words:
            assert words[words.index("--worker-class") + 1] == worker
        else:
            module = words[words.index("-c") + 1].removeprefix("python:")
            assert importlib.import_module(module).worker_class == worker
