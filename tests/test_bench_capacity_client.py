"""The capacity generator's HTTP client (bench/capacity/client.py): a phone's connection kept
as a browser keeps it, against small servers of asyncio's own on 127.0.0.1."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.capacity.client import Line, answer_end, exchange

ANSWERS = {
    b"/length": b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: "x1"\r\n\r\nhello',
    b"/chunked": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"3\r\n/sh\r\n9\r\neet/?v=42\r\n0\r\n\r\n",
    b"/empty": b"HTTP/1.1 204 No Content\r\n\r\n",
    b"/not-modified": b'HTTP/1.1 304 Not Modified\r\nETag: "x1"\r\n\r\n',
    b"/close": b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
    b"/bench-bare/": b"HTTP/1.1 204 No Content\r\n\r\n",  # bench.capacity.plan.BARE_PATH
}


def run(coroutine):
    """On an event loop of its own, in a thread of its own: the browser tests' sync
    Playwright leaves a loop running in pytest's thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


class Server:
    """Answers each request from ANSWERS; keeps the connection unless told to close it
    (`close_after`: after that many answers on a connection, closes it at once without a
    word, as a server whose keep-alive ran out does; `drop_after`: reads the request after
    that many answers and closes without answering, as when a request crosses the server's
    close). Notes each connection's requests."""

    def __init__(self, close_after=None, slow: float = 0.0, drop_after=None) -> None:
        self.close_after, self.slow, self.drop_after = close_after, slow, drop_after
        self.connections: list[list[bytes]] = []

    async def serve(self, reader, writer):
        seen: list[bytes] = []
        self.connections.append(seen)
        try:
            while True:
                request = await reader.readuntil(b"\r\n\r\n")
                if self.drop_after is not None and len(seen) >= self.drop_after:
                    break
                seen.append(request)
                await asyncio.sleep(self.slow)
                writer.write(ANSWERS[request.split()[1]])
                await writer.drain()
                if b"Connection: close" in request or request.split()[1] == b"/close":
                    break
                if self.close_after is not None and len(seen) >= self.close_after:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    async def __aenter__(self):
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc):
        self.server.close()


def get(line: Line, port: int, path: str):
    return line.exchange("127.0.0.1", port, "GET", path, {}, b"", 5)


def test_an_answer_ends_at_its_length_its_last_chunk_or_at_once_without_a_body():
    assert answer_end(ANSWERS[b"/length"]) == len(ANSWERS[b"/length"])
    assert answer_end(ANSWERS[b"/length"][:-1]) is None
    assert answer_end(ANSWERS[b"/chunked"]) == len(ANSWERS[b"/chunked"])
    assert answer_end(ANSWERS[b"/chunked"][:-2]) is None
    assert answer_end(ANSWERS[b"/empty"]) == len(ANSWERS[b"/empty"])
    assert answer_end(ANSWERS[b"/not-modified"]) == len(ANSWERS[b"/not-modified"])
    assert answer_end(b"HTTP/1.1 200 OK\r\n\r\nto the close") is None
    assert answer_end(b"HTTP/1.1 200 OK\r\nContent-Le") is None


def test_a_fresh_exchange_reads_an_answer_by_its_length_chunked_or_to_the_close():
    async def main():
        async with Server() as server:
            got = {}
            for path in ("/length", "/chunked", "/empty"):
                got[path] = await exchange("127.0.0.1", server.port, "GET", path, {}, b"", 5)
            with pytest.raises(OSError):
                await exchange("127.0.0.1", 9, "GET", "/", {}, b"", 5)  # nothing listens
            return got, server.connections

    got, connections = run(main())
    assert (got["/length"].status_code, got["/length"].content) == (200, b"hello")
    assert got["/length"].headers["etag"] == '"x1"'
    assert got["/chunked"].content == b"/sheet/?v=42"
    assert got["/empty"].status_code == 204 and got["/empty"].content == b""
    assert len(connections) == 3
    assert all(b"Connection: close" in c[0] for c in connections)


def test_a_phone_asks_again_on_its_kept_connection():
    async def main():
        async with Server() as server:
            line = Line()
            answers = [await get(line, server.port, p) for p in ("/empty", "/length") * 2]
            line.close()
            return answers, server.connections, line.counts

    answers, connections, counts = run(main())
    assert [a.status_code for a in answers] == [204, 200, 204, 200]
    assert len(connections) == 1 and len(connections[0]) == 4
    assert not any(b"Connection: close" in request for request in connections[0])
    assert counts == {"opened": 1, "reused": 3}


def test_a_connection_the_server_closed_is_replaced_and_a_closing_answer_ends_it():
    async def main():
        async with Server(close_after=2) as server:
            line = Line()
            for path in ("/empty", "/empty"):  # the server closes after the second
                await get(line, server.port, path)
            await asyncio.sleep(0.1)  # the close has come: the line knows it
            await get(line, server.port, "/empty")
            await get(line, server.port, "/close")  # says Connection: close
            await get(line, server.port, "/empty")
            line.close()
            return [len(c) for c in server.connections], line.counts

    sizes, counts = run(main())
    assert sizes == [2, 2, 1]
    assert counts == {"opened": 3, "reused": 2}


def test_a_request_on_a_connection_closed_as_it_left_is_sent_again_on_a_new_one():
    """The server closes a kept connection as the phone's next request reaches it, without
    an answer: the request is sent again on a new connection (browsers do), not an error."""

    async def main():
        async with Server(drop_after=1) as server:
            line = Line()
            await get(line, server.port, "/empty")
            answer = await get(line, server.port, "/length")
            line.close()
            return answer, line.counts, [len(c) for c in server.connections]

    answer, counts, sizes = run(main())
    assert answer.status_code == 200 and answer.content == b"hello"
    assert sizes == [1, 1]
    assert counts == {"opened": 2, "sent_again": 1}


def test_a_phone_whose_last_request_is_still_out_asks_on_another_connection():
    async def main():
        async with Server(slow=0.3) as server:
            line = Line()
            answers = await asyncio.gather(get(line, server.port, "/empty"),
                                           get(line, server.port, "/length"))  # fmt: skip
            await get(line, server.port, "/empty")
            line.close()
            return answers, [len(c) for c in server.connections], line.counts

    answers, sizes, counts = run(main())
    assert [a.status_code for a in answers] == [204, 200]
    assert sorted(sizes) == [1, 2]  # the kept one asked twice, the other once
    assert counts == {"opened": 2, "reused": 1}


def test_a_request_that_times_out_leaves_no_connection_behind():
    async def main():
        async with Server(slow=1.0) as server:
            line = Line()
            with pytest.raises(TimeoutError):
                await line.exchange("127.0.0.1", server.port, "GET", "/empty", {}, b"", 0.2)
            return line.wire

    assert run(main()) is None


def test_a_warm_up_gives_each_phone_its_connection_and_is_not_counted():
    """The cost pass's warm-up: each phone asks once first (its connection made, as a
    phone polling all along has it); the figures and the CPU count start after it."""
    import random

    from bench.capacity import plan
    from bench.capacity.load import Keeper, Phase, Phone, drive

    keepers = [Keeper(n, "secret", None, random.Random(n)) for n in range(3)]
    for keeper in keepers:
        keeper.sheet = [Phone()]
    # 3 phones, each asking every second: an answer comes long before the phone asks again,
    # also on a machine busy with other work (at 0.2 s an answer once came after the next ask).
    arrivals = plan.one_kind(plan.BARE, 3, rate=3, seconds=5, period=1.0)
    warm_up = plan.one_kind(plan.BARE, 3, rate=3, seconds=1.0, period=1.0)
    counted: list[int] = []

    async def main():
        async with Server() as server:
            phase = Phase("product", "127.0.0.1", server.port, "slug", keepers, 5.0)
            made = lambda: counted.append(len(server.connections))  # noqa: E731
            result = await drive(phase, arrivals, lead=0.0, warm_up=warm_up, counting=made)
            return result, len(server.connections)

    result, connections = run(main())
    assert len(warm_up) == 3 and counted == [3]  # the count began with 3 connections made
    assert result["kinds"][plan.BARE]["statuses"] == {"204": 15}  # the warm-up's left out
    assert result["connections"] == {"reused": 15} and connections == 3


def test_a_held_sheet_phone_asks_as_htmx_does_and_times_the_news():
    """`--sheet-wait`: a watcher's phone asks to be held and sends nothing else while its
    question is out; as htmx, it keeps the last tick meanwhile and asks again the moment a
    204 comes (after a new sheet, at its next tick: the page swapped). The news of a deal is
    timed from the deal's scheduled send to the phone holding the version it made."""
    import json
    import random

    import engine
    from bench.capacity import plan
    from bench.capacity.load import Keeper, Phase, Phone, drive

    asked: list[bytes] = []
    times: list[float] = []

    async def serve(reader, writer, dealt: asyncio.Event):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                asked.append(head.split()[1])
                times.append(asyncio.get_running_loop().time())
                if head.startswith(b"POST"):
                    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                    await reader.readexactly(length)
                    dealt.set()
                    body = json.dumps({"version": 5}).encode()
                    status = b"201 Created"
                elif b"v=0&wait=25" in head:  # held until the deal, at most 1 s
                    try:
                        await asyncio.wait_for(dealt.wait(), 1.0)
                        body, status = b'<div data-hx-get="/games/1/sheet/?v=5">', b"200 OK"
                    except TimeoutError:
                        body, status = b"", b"204 No Content"
                else:  # the new version held to its end
                    await asyncio.sleep(0.25)
                    body, status = b"", b"204 No Content"
                head = b"HTTP/1.1 %s\r\nContent-Length: %d\r\n\r\n" % (status, len(body))
                writer.write(head + body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        writer.close()

    record = {"ruleset": "blato", "options": {}, "deals": [], "first_dealer": 0}
    keeper = Keeper(1, "secret", engine.game_from_record(record), random.Random(1))
    keeper.sheet = [Phone()]
    ticks = [plan.Arrival(n * 0.2, plan.SHEET, 0, 0) for n in range(8)]
    arrivals = sorted([*ticks, plan.Arrival(0.45, plan.DEAL, 0, 0)])

    async def main():
        dealt = asyncio.Event()
        server = await asyncio.start_server(lambda r, w: serve(r, w, dealt), "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        phase = Phase("product", "127.0.0.1", port, "slug", [keeper], 5.0, sheet_wait=25)
        result = await drive(phase, arrivals, lead=0.0)
        server.close()
        return result

    result = run(main())
    asked_at = zip(times, asked, strict=True)
    sheets = [(t, path) for t, path in asked_at if path.startswith(b"/games/")]
    # Asked at 0 and held to the deal (0.45): the ticks meanwhile kept, then dropped with the
    # old page; asked again at the next tick (0.6), held 0.25 s, and again at once at its 204
    # (0.85: the tick kept, not the next one at 1.0).
    paths = [path for _, path in sheets]
    assert paths[:3] == [b"/games/1/sheet/?v=0&wait=25"] + [b"/games/1/sheet/?v=5&wait=25"] * 2
    assert 0.55 <= sheets[1][0] - sheets[0][0] < 0.7
    assert 0.25 <= sheets[2][0] - sheets[1][0] < 0.33
    assert result["sheet_ticks_skipped"] >= 4
    assert result["kinds"][plan.SHEET]["statuses"]["200"] == 1
    news = result["kinds"][plan.NEWS]
    assert news["count"] == 1 and 0 <= news["p95_ms"] < 100  # the deal's answer released it
    assert (
        plan.verdict(result["kinds"], 0.1, goals=plan.targets(plan.Pace(sheet_wait=25)))["slow"]
        == []
    )


def test_spread_first_questions_wait_a_random_part_of_the_wait_then_the_whole():
    """`--spread-first-questions`: each held phone's first question waits a random 1..wait
    seconds (a steady evening's questions come back spread over the wait, not together), and
    every later one the whole wait; without it, every question waits the whole wait."""
    import random
    import re

    import engine
    from bench.capacity import plan
    from bench.capacity.load import Keeper, Phase, Phone, drive

    async def serve(reader, writer, asked: list[bytes]):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                asked.append(head.split()[1])
                writer.write(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        writer.close()

    def waits(spread: bool) -> list[int]:
        record = {"ruleset": "blato", "options": {}, "deals": [], "first_dealer": 0}
        keeper = Keeper(1, "secret", engine.game_from_record(record), random.Random(1))
        keeper.sheet = [Phone() for _ in range(20)]
        arrivals = sorted(
            plan.Arrival(at, plan.SHEET, 0, phone) for phone in range(20) for at in (0.0, 0.3)
        )
        asked: list[bytes] = []

        async def main():
            server = await asyncio.start_server(lambda r, w: serve(r, w, asked), "127.0.0.1", 0)
            port = server.sockets[0].getsockname()[1]
            phase = Phase("product", "127.0.0.1", port, "slug", [keeper], 5.0,
                          sheet_wait=25, spread_first=spread)  # fmt: skip
            await drive(phase, arrivals, lead=0.0)
            server.close()

        run(main())
        return [int(re.search(rb"wait=(\d+)", path).group(1)) for path in asked]

    spread = waits(True)
    assert len(spread) == 40
    first, later = spread[:20], spread[20:]
    assert all(1 <= wait <= 25 for wait in first) and len(set(first)) > 5
    assert later == [25] * 20
    assert waits(False) == [25] * 40
