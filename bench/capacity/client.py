"""The generator's HTTP/1.1 client: a phone's connection kept between its requests, as a
browser keeps it.

A browser sends its next request on the connection of its last while the server keeps it
open, opens a new one once the server closed it (its keep-alive over, or `Connection:
close`), and sends a request again on a new connection when a kept one turns out closed
before any answer came (the server closed it as the request left). `Line` does the same, so
what the server's keep-alive saves, or does not, shows in the run. An asyncio protocol of a
few lines, not asyncio's streams: fewer objects and calls a request, and the generator must
stay small beside the server it measures.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter

from bench.site_load.connection import Answer

CONTENT_LENGTH = re.compile(rb"(?im)^content-length:\s*(\d+)")
CHUNKED = re.compile(rb"(?im)^transfer-encoding:\s*chunked")
CLOSE = re.compile(rb"(?im)^connection:\s*close")


def answer_end(data: bytes | bytearray) -> int | None:
    """Where the answer at the start of `data` ends, or None while it is not all there (or,
    with neither a length nor chunks, runs to the connection's close)."""
    head_end = data.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    head, start = bytes(data[:head_end]), head_end + 4
    status = int(head.split(None, 2)[1])
    if status in (204, 304) or 100 <= status < 200:
        return start
    length = CONTENT_LENGTH.search(head)
    if length:
        end = start + int(length.group(1))
        return end if len(data) >= end else None
    if not CHUNKED.search(head):
        return None
    at = start
    while True:
        line_end = data.find(b"\r\n", at)
        if line_end < 0:
            return None
        size = int(bytes(data[at:line_end]).split(b";")[0] or b"0", 16)
        if size == 0:  # the last chunk, then the empty line (no trailers here)
            return line_end + 4 if len(data) >= line_end + 4 else None
        at = line_end + 2 + size + 2


def parse(raw: bytes) -> Answer:
    """The status, headers (lower-case names) and body of an HTTP/1.1 answer."""
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks, rest = [], body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if not size:
                break
            chunks.append(rest[:size])
            rest = rest[size + 2 :]
        body = b"".join(chunks)
    return Answer(int(lines[0].split()[1]), headers, body)


def message(host: str, port: int, method: str, path: str, headers: dict, body: bytes,
            close: bool) -> bytes:  # fmt: skip
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}"]
    if close:
        lines.append("Connection: close")
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class _Wire(asyncio.Protocol):
    """One TCP connection: one exchange at a time, each done at its answer's end."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.done: asyncio.Future | None = None
        self.data = bytearray()
        self.closed = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def send(self, request: bytes, done: asyncio.Future) -> None:
        self.done, self.data = done, bytearray()
        self.transport.write(request)

    def data_received(self, data: bytes) -> None:
        self.data += data
        end = answer_end(self.data)
        if end is not None and self.done is not None and not self.done.done():
            self.done.set_result(bytes(self.data[:end]))

    def connection_lost(self, error) -> None:
        self.closed = True
        if self.done is None or self.done.done():
            return
        if self.data:  # an answer that runs to the close
            self.done.set_result(bytes(self.data))
        else:
            self.done.set_exception(error or ConnectionResetError("closed before an answer"))


class Line:
    """A phone's connection: kept while the server keeps it (`keep`), else one a request.
    `counts` says how many connections were opened, how many requests went on a kept one,
    and how many were sent again on a new one after a kept one was found closed."""

    def __init__(self, counts: Counter | None = None, keep: bool = True) -> None:
        self.counts = Counter() if counts is None else counts
        self.keep = keep
        self.wire: _Wire | None = None
        self.busy = False

    async def exchange(self, host: str, port: int, method: str, path: str, headers: dict,
                       body: bytes, timeout: float) -> Answer:  # fmt: skip
        if self.busy:  # the last request is still out: a browser opens another connection
            return await Line(self.counts, keep=False).exchange(
                host, port, method, path, headers, body, timeout
            )
        self.busy = True
        request = message(host, port, method, path, headers, body, close=not self.keep)
        try:
            async with asyncio.timeout(timeout):
                kept = self.wire is not None and not self.wire.closed
                if kept:
                    try:
                        answer = await self._send(request)
                        self.counts["reused"] += 1
                        return answer
                    except ConnectionError:
                        self.counts["sent_again"] += 1  # closed as it left: a new one
                return await self._send(request, fresh=(host, port))
        except BaseException:
            self.close()
            raise
        finally:
            self.busy = False

    async def _send(self, request: bytes, fresh: tuple[str, int] | None = None) -> Answer:
        if fresh:
            self.close()
            loop = asyncio.get_running_loop()
            _, self.wire = await loop.create_connection(_Wire, *fresh)
            self.counts["opened"] += 1
        done = asyncio.get_running_loop().create_future()
        self.wire.send(request, done)
        raw = await done
        if not self.keep or CLOSE.search(raw[: raw.find(b"\r\n\r\n")]):
            self.close()
        return parse(raw)

    def close(self) -> None:
        if self.wire is not None and self.wire.transport is not None:
            self.wire.transport.close()
        self.wire = None


async def exchange(host: str, port: int, method: str, path: str, headers: dict, body: bytes,
                   timeout: float) -> Answer:  # fmt: skip
    """One request on a fresh TCP connection, closed after the answer."""
    return await Line(keep=False).exchange(host, port, method, path, headers, body, timeout)
