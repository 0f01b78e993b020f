"""The open-loop generator: every request sent at its scheduled time, whatever the answers;
its latency counted from that scheduled time.

One asyncio loop and a small HTTP/1.1 client (bench.capacity.client): each phone (and each
keeper) keeps its connection as a browser does, for as long as the server keeps it open, so
a server whose keep-alive outlasts a phone's period is polled on kept connections, and one
that closes sooner (the deploy's sync workers close after every answer) gets a new
connection a request; `--fresh-connections` opens one a request whatever the server. The
phase talks to the site; the floor phase sends the same schedule to the floor views
(bench.floor.views.replay), each request replaying the SQL its product request sent
(bench.capacity.recipes). The generator measures its own CPU (os.times, user and system,
over the phase's wall time): above plan.GENERATOR_MAX_CORE_SHARE of one core the phase is
marked invalid, since its own lateness would be in the latencies. On loopback the kernel's
work for a connection is charged partly to the generator (its system time).
"""

from __future__ import annotations

import asyncio
import errno
import json
import math
import os
import random
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from . import plan
from .client import Line
from .recipes import DEAL_RECIPE, SHEET_CHANGED, SHEET_UNCHANGED, STANDINGS_RECIPE

#: Errors of the generator's own making (out of file descriptors or local ports): the
#: phase then says nothing about the server.
GENERATOR_ERRNOS = {errno.EMFILE, errno.ENFILE, errno.EADDRNOTAVAIL}
NEXT_VERSION = re.compile(rb"/sheet/\?v=(\d+)")
EXPECTED = {
    "product": {plan.DEAL: {200, 201}, plan.SHEET: {200, 204, 304}, plan.STANDINGS: {200, 304}},
    "floor": {plan.DEAL: {200}, plan.SHEET: {204}, plan.STANDINGS: {204}},
}
for _expected in EXPECTED.values():
    _expected[plan.BARE] = {204}


@dataclass
class Phone:
    version: int = 0  # the sheet's version this phone shows (product)
    seen: int = 0  # the floor's deals of its table this phone has seen (floor)
    etag: str | None = None  # the standings' ETag it holds
    line: Line = field(default_factory=Line)  # its connection (each phase gives a new one)
    asking: bool = False  # a held sheet question is out (its ticks meanwhile send nothing)
    queued: bool = False  # a tick came meanwhile: asked again when the answer comes
    asked: bool = False  # has asked a held sheet question in this phase


@dataclass
class Keeper:
    """A table: its keeper's game (the engine's, to make valid deals) and its phones."""

    game_id: int
    secret: str
    game: object  # engine.Game
    rng: random.Random
    acked: int = 0  # deals the site answered 200/201 to: stored
    #: The game's versions its deals made, with each deal's scheduled send time (the loop's
    #: clock): when a phone first holds one, the news took that long (plan.NEWS).
    made: dict[int, float] = field(default_factory=dict)
    floor_deals: int = 0
    pending: tuple[dict, bytes] | None = None  # the next deal, sent again until answered
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    line: Line = field(default_factory=Line)  # the keeper's phone's connection
    sheet: list[Phone] = field(default_factory=list)
    standings: list[Phone] = field(default_factory=list)

    def next_deal(self) -> tuple[dict, bytes]:
        from scoring.autoplay import next_deal

        if self.pending is None:
            deal = next_deal(self.game, self.rng)
            body = {"deal": self.acked + 1, "calls": deal["calls"], "tricks": deal["tricks"]}
            self.pending = (deal, json.dumps(body).encode())
        return self.pending


class Phase:
    """One phase ("product" or "floor") of a stage: sends, and keeps what came back."""

    def __init__(self, name: str, host: str, port: int, slug: str, keepers: list[Keeper],
                 timeout: float, keep: bool = True, sheet_wait: int = 0,
                 spread_first: bool = False) -> None:  # fmt: skip
        self.name, self.host, self.port, self.slug = name, host, port, slug
        self.keepers, self.timeout = keepers, timeout
        self.sheet_wait = sheet_wait if name == "product" else 0  # the floor holds nothing
        #: With `spread_first`, a held phone's first question waits a random 1..sheet_wait
        #: seconds, as if asked at a random moment before the phase: the phones of a steady
        #: evening, whose questions come back spread over the wait, not all within the first
        #: period as phones that all opened the page at once.
        self.first_waits = random.Random(358) if spread_first else None
        self.skipped = 0  # held phones' ticks kept while their question was out
        self.news: list[float] = []  # plan.NEWS's latencies, ms
        #: News of deals sent before this moment (the loop's clock) is not timed: the phones
        #: ask first at a random point of their first period (plan.schedule), and until then
        #: a phone's first question is not out as a phone's on the page all along is.
        self.news_after = 0.0
        self.ends = math.inf  # no tick kept is sent after the schedule's last (drive sets it)
        self.connections: Counter = Counter()  # opened, reused, sent_again (client.Line)
        # Each phase runs on an event loop of its own (asyncio.run), and an asyncio lock
        # belongs to the loop it was first waited on: a keeper's lock from an overloaded
        # phase would refuse the next phase ("bound to a different event loop"). A
        # connection belongs to its loop too, and a phase starts, as phones coming in do,
        # with none.
        for keeper in keepers:
            keeper.lock = asyncio.Lock()
            for phone in (keeper, *keeper.sheet, *keeper.standings):
                phone.line = Line(self.connections, keep)
            for phone in keeper.sheet:
                phone.asked = False
        self.scheduled: dict[str, list[float]] = defaultdict(list)
        self.answered: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter] = defaultdict(Counter)
        self.errors: dict[str, Counter] = defaultdict(Counter)
        self.notes: list[str] = []
        self.send_lag: list[float] = []
        self.generator_errors: Counter = Counter()  # this process out of files or ports

    def forget(self) -> None:
        """The figures so far left out (a warm-up's); the phones and their connections kept."""
        for kept in (self.scheduled, self.answered, self.statuses, self.errors):
            kept.clear()
        self.notes.clear()
        self.send_lag.clear()
        self.news.clear()
        self.skipped = 0
        self.generator_errors.clear()
        self.connections.clear()  # the same counter the phones' lines count in

    async def send(self, arrival: plan.Arrival, due: float) -> None:
        if arrival.kind != plan.SHEET:
            await self._send_one(arrival, due)
            return
        phone = self.keepers[arrival.table].sheet[arrival.phone]
        if phone.asking:  # as htmx: no second question; the last tick is kept meanwhile
            phone.queued = True
            self.skipped += 1
            return
        await self._send_one(arrival, due)
        loop = asyncio.get_running_loop()
        while phone.queued and loop.time() < self.ends:  # and sent when the answer came
            phone.queued = False
            await self._send_one(arrival, loop.time())
        phone.queued = False

    async def _send_one(self, arrival: plan.Arrival, due: float) -> None:
        keeper = self.keepers[arrival.table]
        try:
            if arrival.kind == plan.DEAL:
                async with keeper.lock:  # a keeper's phone sends its queue in order
                    status = await self._deal(keeper, due)
            elif arrival.kind == plan.SHEET:
                status = await self._sheet(keeper, keeper.sheet[arrival.phone])
            elif arrival.kind == plan.BARE:  # on the connection of one of the table's phones
                line = keeper.sheet[arrival.phone].line
                status = (await self._get(line, plan.BARE_PATH)).status_code
            else:
                status = await self._standings(keeper.standings[arrival.phone])
        except (
            OSError,
            TimeoutError,
            asyncio.IncompleteReadError,
            ValueError,
            IndexError,
        ) as error:
            if isinstance(error, OSError) and error.errno in GENERATOR_ERRNOS:
                self.generator_errors[errno.errorcode[error.errno]] += 1
            self.errors[arrival.kind][type(error).__name__] += 1
            return
        self.statuses[arrival.kind][status] += 1
        if status not in EXPECTED[self.name][arrival.kind]:
            self.errors[arrival.kind][str(status)] += 1
            return
        self.scheduled[arrival.kind].append(due)
        self.answered[arrival.kind].append(asyncio.get_running_loop().time())

    async def _get(self, line: Line, path: str, headers: dict | None = None):
        return await line.exchange(
            self.host, self.port, "GET", path, headers or {}, b"", self.timeout
        )

    def close(self) -> None:
        """Every phone's connection closed: the phase is over."""
        for keeper in self.keepers:
            for phone in (keeper, *keeper.sheet, *keeper.standings):
                phone.line.close()

    def _note(self, text: str) -> None:
        if len(self.notes) < 10:
            self.notes.append(text)

    async def _deal(self, keeper: Keeper, due: float) -> int:
        deal, body = keeper.next_deal()
        headers = {"Authorization": f"Bearer {keeper.secret}", "Content-Type": "application/json"}
        if self.name == "floor":
            path = f"/bench-floor/replay/{DEAL_RECIPE}/"
        else:
            path = f"/api/games/{keeper.game_id}/deals"
        answer = await keeper.line.exchange(
            self.host, self.port, "POST", path, headers, body, self.timeout
        )
        if answer.status_code not in EXPECTED[self.name][plan.DEAL]:
            self._note(f"{path}: {answer.status_code} {answer.text[:200]}")
        elif self.name == "floor":
            keeper.floor_deals += 1
        else:
            keeper.game.play(**deal)
            keeper.acked += 1
            keeper.pending = None
            version = json.loads(answer.content).get("version")
            if isinstance(version, int):
                keeper.made[version] = due  # the send that stored it
        return answer.status_code

    async def _sheet(self, keeper: Keeper, phone: Phone) -> int:
        if self.name == "floor":
            changed = keeper.floor_deals > phone.seen
            phone.seen = keeper.floor_deals
            recipe = SHEET_CHANGED if changed else SHEET_UNCHANGED
            return (await self._get(phone.line, f"/bench-floor/replay/{recipe}/")).status_code
        path = f"/games/{keeper.game_id}/sheet/?v={phone.version}"
        if not self.sheet_wait:
            answer = await self._get(phone.line, path)
        else:
            wait = self.sheet_wait
            if not phone.asked and self.first_waits is not None:
                wait = self.first_waits.randint(1, self.sheet_wait)
            phone.asking = phone.asked = True
            try:
                answer = await phone.line.exchange(self.host, self.port, "GET",
                                                   f"{path}&wait={wait}", {}, b"",
                                                   self.timeout + wait)  # fmt: skip
            finally:
                phone.asking = False
        if answer.status_code == 200:
            found = NEXT_VERSION.search(answer.content)
            if found is None:
                self._note(f"sheet of game {keeper.game_id}: no next version in the answer")
            else:
                self._news(keeper, phone.version, int(found.group(1)))
                phone.version = int(found.group(1))
            phone.queued = False  # the page swapped: its kept tick went with the old element
        return answer.status_code

    def _news(self, keeper: Keeper, shown: int, now: int) -> None:
        """A phone that showed version `shown` holds `now`: the news of the first deal it had
        not seen took this long, from that deal's scheduled send. (A phone that has it before
        its keeper's answer came back, which a held poll rarely may, counts none.)"""
        sent = [due for version, due in keeper.made.items() if shown < version <= now]
        if sent and min(sent) >= self.news_after:
            self.news.append((asyncio.get_running_loop().time() - min(sent)) * 1000)

    async def _standings(self, phone: Phone) -> int:
        headers = {"If-None-Match": phone.etag} if phone.etag else {}
        if self.name == "floor":
            path = f"/bench-floor/replay/{STANDINGS_RECIPE}/"
            return (await self._get(phone.line, path, headers)).status_code
        answer = await self._get(phone.line, f"/events/{self.slug}/standings/live/", headers)
        if answer.status_code == 200:
            phone.etag = answer.headers.get("etag")
        return answer.status_code

    def report(self, wall: float, cpu: float) -> dict:
        kinds = {
            kind: plan.figures(
                plan.latencies_ms(self.scheduled[kind], self.answered[kind]),
                sum(self.errors[kind].values()),
            )
            | {
                "statuses": {str(s): n for s, n in sorted(self.statuses[kind].items())},
                "errors_by_cause": dict(self.errors[kind]),
            }
            for kind in (*plan.KINDS, plan.BARE)
            if self.statuses[kind] or self.errors[kind]
        }
        requests = sum(f["count"] for f in kinds.values())
        if self.news:
            kinds[plan.NEWS] = plan.figures(self.news, 0) | {"statuses": {}, "errors_by_cause": {}}
        return {
            "kinds": kinds,
            "requests": requests,
            "sheet_ticks_skipped": self.skipped,
            "wall_s": round(wall, 2),
            "generator_cpu_s": round(cpu, 2),
            "generator_core_share": round(cpu / wall, 3) if wall else None,
            "generator_errors": dict(self.generator_errors),
            "connections": dict(self.connections),
            "send_lag_p99_ms": plan.percentile((lag * 1000 for lag in self.send_lag), 99),
            "notes": self.notes,
        }


async def drive(phase: Phase, arrivals: list[plan.Arrival], lead: float = 0.5,
                warm_up: list[plan.Arrival] | None = None,
                counting: Callable[[], None] | None = None,
                settle: float = 0.0,
                counted: tuple[float, Callable[[], None]] | None = None) -> dict:  # fmt: skip
    """Every arrival at its time, never waiting for an answer before the next send; returns
    once the last answer is in (or timed out). With `warm_up`, those arrivals are sent and
    answered first, so that each phone has its connection as one polling all along has it;
    then `counting()` is called (the caller's CPU count starts there) and the figures start
    afresh. The news of deals sent in the first `settle` seconds is not timed (each phone has
    asked once by then: a period of its polls). With `counted` (seconds, stop), `stop()` is
    called that long after the start, the answers still out or not."""
    loop = asyncio.get_running_loop()
    if warm_up:
        await _send_all(phase, warm_up, loop.time() + lead)
        phase.forget()
    if counting is not None:
        counting()
    start = loop.time() + lead
    phase.news_after = start + settle
    phase.ends = start + (arrivals[-1].at if arrivals else 0.0)
    if counted is not None:
        loop.call_at(start + counted[0], counted[1])
    cpu = os.times()
    await _send_all(phase, arrivals, start)
    wall = loop.time() - start
    phase.close()
    used = os.times()
    user, system = used.user - cpu.user, used.system - cpu.system
    result = phase.report(wall, user + system)
    result["generator_user_s"], result["generator_system_s"] = round(user, 2), round(system, 2)
    return result


async def _send_all(phase: Phase, arrivals: list[plan.Arrival], start: float) -> None:
    loop = asyncio.get_running_loop()
    running: set[asyncio.Task] = set()
    for arrival in arrivals:
        due = start + arrival.at
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        phase.send_lag.append(max(0.0, loop.time() - due))
        task = asyncio.create_task(phase.send(arrival, due))
        running.add(task)
        task.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)
