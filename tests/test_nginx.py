"""The documented nginx (deploy/nginx/358.conf) in front of a real gunicorn of the site.

Under /api/ whatever nginx refuses itself is the API's JSON error and a 4xx
(shared/spec/http-api.md), a gunicorn that does not answer a JSON 503; a page gets a plain
4xx page, never nginx's 500; and what nginx lets through, over HTTP/1.1 and HTTP/2, is within
gunicorn's limits of deploy/358-web.service, so it reaches Django and not gunicorn's HTML page.
"""

import json
import socket
import threading

import pytest

from tests import nginx as proxy

pytestmark = pytest.mark.nginx

HOST = f"Host: {proxy.HOST}\r\n".encode()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nginx-site")
    with proxy.gunicorn(folder / "gunicorn") as upstream:
        with proxy.nginx(folder / "nginx", upstream) as front:
            yield front


def request(target: bytes, *, method: bytes = b"GET", version: bytes = b"HTTP/1.1",
            headers: bytes = b"", body: bytes = b"") -> bytes:  # fmt: skip
    return b"%s %s %s\r\n%s%sConnection: close\r\n\r\n%s" % (
        method,
        target,
        version,
        HOST,
        headers,
        body,
    )


def assert_json_error(answer: proxy.Answer, status: int | None = None):
    assert answer.content_type.startswith("application/json"), (answer, answer.content_type)
    assert b"<html" not in answer.body.lower()
    message = json.loads(answer.body)["error"]["message"]
    assert isinstance(message, str) and message
    if status is not None:
        assert answer.status == status, answer


def assert_django_answered(answer: proxy.Answer, path: str = "/api/no-such-thing"):
    """Django's own JSON 404 for an unknown API path: the request passed nginx AND gunicorn."""
    assert answer.status == 404, answer
    message = json.loads(answer.body)["error"]["message"]
    assert message == f"no such API endpoint: {path}"[: len(message)]
    assert message.startswith("no such API endpoint: /api/")


A_3000, A_5000 = b"a" * 3000, b"a" * 5000

REFUSED_UNDER_API = {
    # what the probe sent: a line nginx cannot read, or reads and refuses
    "request line over 4 kB": (request(b"/api/" + b"a" * 5000), 414),
    "a path climbing above the root": (request(b"/api/../../x"), 400),
    "an encoded climb": (request(b"/api/games/..%2F..%2F..%2Fetc/passwd"), 400),
    "a NUL in the path": (request(b"/api/games/%00"), 400),
    "HTTP/9.9": (request(b"/api/games", version=b"HTTP/9.9"), 400),
    "TRACE": (request(b"/api/games", method=b"TRACE"), 405),
    "a body over 2 MB": (
        request(b"/api/games", method=b"POST", headers=b"Content-Length: 3000000\r\n"),
        413,
    ),
    "one header over 4 kB": (request(b"/api/games", headers=b"X-Big: %s\r\n" % A_5000), 431),
    "all headers over 16 kB": (
        request(b"/api/games", headers=b"".join(b"X-%d: %s\r\n" % (i, A_3000) for i in range(6))),
        431,
    ),
    "an unknown transfer coding": (
        request(b"/api/games", method=b"POST", headers=b"Transfer-Encoding: gzip\r\n"),
        400,
    ),
    "two Content-Lengths": (
        request(
            b"/api/games",
            method=b"POST",
            headers=b"Content-Length: 1\r\nContent-Length: 1\r\n",
            body=b"x",
        ),
        400,
    ),  # fmt: skip
    "a folded header": (request(b"/api/games", headers=b"X-A: b\r\n c\r\n"), 400),
    "no Host": (b"GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    # what nginx would pass and gunicorn refuse with its HTML page
    "a byte outside ASCII in the path": (request(b"/api/games/\xff"), 400),
    "a two-letter method": (request(b"/api/games", method=b"AB"), 400),
    "a method of 21 letters": (request(b"/api/games", method=b"A" * 21), 400),
}


@pytest.mark.parametrize("case", REFUSED_UNDER_API)
def test_every_refusal_under_api_is_a_json_4xx(site, case):
    raw, status = REFUSED_UNDER_API[case]
    answer = proxy.exchange(site.https, raw)
    assert_json_error(answer, status)


@pytest.mark.parametrize("raw", [b"\x00\x01\x02 junk\r\n\r\n", b"G@T /api/x HTTP/1.1\r\n\r\n"])
def test_a_line_nginx_cannot_read_at_all_is_a_json_400(site, raw):
    """No path could be read, so no page was asked for: the JSON answer."""
    assert_json_error(proxy.exchange(site.https, raw), 400)


REFUSED_PAGES = {
    "request line over 4 kB": (request(b"/" + b"a" * 5000), 414),
    "a path climbing above the root": (request(b"/static/..%2F..%2Fetc/passwd"), 400),
    "a NUL in the path": (request(b"/games/%00"), 400),
    "one header over 4 kB": (request(b"/", headers=b"Cookie: " + b"a" * 5000 + b"\r\n"), 400),
    "TRACE": (request(b"/", method=b"TRACE"), 405),
    "a byte outside ASCII in the path": (request(b"/games/\xff"), 400),
}


@pytest.mark.parametrize("case", REFUSED_PAGES)
def test_a_malformed_request_for_a_page_is_a_plain_4xx(site, case):
    raw, status = REFUSED_PAGES[case]
    answer = proxy.exchange(site.https, raw)
    assert answer.status == status, answer
    assert answer.content_type.startswith("text/html")
    assert b"<title>5" not in answer.body  # no nginx 5xx page


def test_what_nginx_passes_reaches_django(site):
    assert_django_answered(proxy.exchange(site.https, request(b"/api/no-such-thing")))


def test_what_nginx_passes_and_gunicorn_refuses_is_json_too(site):
    """nginx does not look into header values; gunicorn refuses a control character in one,
    in JSON under /api/ (config/gunicorn_workers.py, the web unit's worker class)."""
    answer = proxy.exchange(site.https, request(b"/api/games", headers=b"X-A: a\x01b\r\n"))
    assert_json_error(answer, 400)


def test_a_hundred_and_twenty_headers_reach_django_not_gunicorns_page(site):
    """nginx has no limit on the number of headers, only on their size: gunicorn's limit on
    their number (100 by default) must be above what fits in nginx's buffers."""
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(120))
    assert_django_answered(proxy.exchange(site.https, request(b"/api/no-such-thing", headers=many)))


def test_plain_http_on_the_https_port_is_a_json_400_under_api(site):
    answer = proxy.exchange(site.https, request(b"/api/games"), tls=False)
    assert_json_error(answer, 400)


def test_plain_http_is_sent_to_https_and_refused_in_json_under_api(site):
    answer = proxy.exchange(site.http, request(b"/api/games/1"), tls=False)
    assert answer.status == 301
    assert answer.headers["location"] == f"https://{proxy.HOST}/api/games/1"
    refused = proxy.exchange(site.http, request(b"/api/../../x"), tls=False)
    assert_json_error(refused, 400)


def test_no_refusal_was_logged_as_a_5xx(site):
    """Whatever the tests above sent, nginx logged no 5xx: no client makes the site log one."""
    for raw, _ in (*REFUSED_UNDER_API.values(), *REFUSED_PAGES.values()):
        proxy.exchange(site.https, raw)
    statuses = [line.split('"')[2].split()[0] for line in site.access_log.read_text().splitlines()]
    assert statuses and not [s for s in statuses if s.startswith("5")], statuses


# --- HTTP/2 ---------------------------------------------------------------------------------


def test_http2_refusals_under_api_are_json_too(site, tmp_path):
    for args, path, status in [
        (["--request", "TRACE"], "/api/games", 405),
        ([], "/api/../../x", 400),
        ([], "/api/games/%00", 400),
        (["--data-binary", f"@{big_file(tmp_path)}"], "/api/games", 413),
    ]:
        code, answer = proxy.curl_http2(site.https, path, tmp_path / str(status), *args)
        assert code == 0 and answer is not None, (args, path, code)
        assert_json_error(answer, status)


def big_file(folder) -> str:
    path = folder / "big.json"
    path.write_bytes(b"x" * 3_000_000)
    return str(path)


def test_http2_lets_a_5_kb_header_through_and_gunicorn_takes_it(site, tmp_path):
    """HTTP/1.1 refuses it (431 above); over HTTP/2 nginx counts a field after HPACK
    compression, so up to 6553 bytes of a field pass: gunicorn must take them."""
    code, answer = proxy.curl_http2(
        site.https, "/api/no-such-thing", tmp_path, "--header", "X-Big: " + "a" * 5000
    )
    assert code == 0 and answer is not None
    assert_django_answered(answer)


def test_http2_the_largest_field_nginx_passes_fits_gunicorn(site, tmp_path):
    """A name and a value of 6000 letters each (each under 4 kB once compressed): about 12 kB
    for gunicorn's limit on one field, which is 8190 bytes by default."""
    code, answer = proxy.curl_http2(
        site.https, "/api/no-such-thing", tmp_path, "--header", f"X{'a' * 6000}: {'a' * 6000}"
    )
    assert code == 0 and answer is not None
    assert_django_answered(answer)


def test_http2_many_headers_and_a_long_path_reach_django(site, tmp_path):
    many = [arg for i in range(120) for arg in ("--header", f"X-H{i}: v")]
    code, answer = proxy.curl_http2(site.https, "/api/no-such-thing", tmp_path / "many", *many)
    assert code == 0 and answer is not None
    assert_django_answered(answer)
    path = "/api/" + "a" * 6000
    code, answer = proxy.curl_http2(site.https, path, tmp_path / "long")
    assert code == 0 and answer is not None
    assert_django_answered(answer, path)


def test_http2_headers_beyond_nginx_limits_get_no_page_at_all(site, tmp_path):
    """Over its HTTP/2 limits nginx closes the connection (GOAWAY): no HTML, no 5xx."""
    code, answer = proxy.curl_http2(
        site.https, "/api/no-such-thing", tmp_path, "--header", "X-Big: " + "a" * 7000
    )
    assert code != 0 and answer is None


# --- a gunicorn that does not answer ----------------------------------------------------------


class Abrupt:
    """An upstream that reads a request and closes the connection, as a killed worker does."""

    def __init__(self):
        self.sock = socket.create_server((proxy.LOOPBACK, 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(5)
                try:
                    conn.recv(65536)
                except OSError:
                    pass

    def close(self):
        self.sock.close()
        self.thread.join(timeout=5)


def test_a_gunicorn_that_does_not_answer_is_a_json_503_under_api(tmp_path):
    upstream = Abrupt()
    try:
        with proxy.nginx(tmp_path, upstream.port) as front:
            lost = proxy.exchange(front.https, request(b"/api/games/1"))
            assert_json_error(lost, 503)
            assert lost.headers["retry-after"] == "5"
            page = proxy.exchange(front.https, request(b"/"))
            assert page.status == 503 and page.content_type.startswith("text/html")
            upstream.close()  # now nothing listens there at all
            new_game = request(
                b"/api/games", method=b"POST", headers=b"Content-Length: 2\r\n", body=b"{}"
            )
            refused = proxy.exchange(front.https, new_game)
            assert_json_error(refused, 503)
    finally:
        upstream.close()
