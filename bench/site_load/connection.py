"""The phones' own keep-alive HTTP/1.1 client."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass


@dataclass
class Answer:
    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


class Connection:
    """A phone's own keep-alive connection: a small HTTP/1.1 client for GETs.

    httpx spends most of its time in its connection pool when a thousand clients share it,
    and its pure-Python parser is slow on the standings' large bodies: the load generator
    would take the CPU the site needs. This reads a status line, headers and a
    Content-Length (or chunked) body straight off an asyncio stream. Like a browser, it
    reconnects and sends again once when the server has closed a connection kept alive.
    """

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, url: str, headers: dict[str, str] | None = None, body: bytes = b""
    ):
        lines = [f"{method} {url} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        reused = self.writer is not None
        try:
            return await self._exchange(message)
        except (ConnectionError, asyncio.IncompleteReadError):
            self.close()
            if not reused:
                raise
        return await self._exchange(message)

    async def _exchange(self, message: bytes) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(message)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionResetError("the server closed the connection")
        status = int(status_line.split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding", "").lower() == "chunked":
            content = b""
            while size := int((await self.reader.readline()).split(b";")[0], 16):
                content += await self.reader.readexactly(size)
                await self.reader.readline()
            await self.reader.readline()
        else:
            content = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, headers, content)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None
