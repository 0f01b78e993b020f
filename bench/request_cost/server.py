"""One gunicorn sync worker, its CPU time, and a plain HTTP client for it.

One sync worker serves one request at a time in one thread: the CPU it spends between two
readings is the cost of the requests sent in between (the arbiter does not serve requests
and is not counted). The time is read from /proc/<pid>/task/*/schedstat, nanoseconds on a
CPU, rather than utime + stime (`Processes.cpu_seconds`), whose 10-ms ticks would need
thousands of sub-millisecond requests per reading; both are kept, the ticks as a check.
"""

from __future__ import annotations

import http.client
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.site_load.stack import Processes, free_port, wait_until_serving


@dataclass
class Cpu:
    ns: int  # schedstat: time on a CPU
    ticks: int  # utime + stime, in clock ticks

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(self.ns - other.ns, self.ticks - other.ticks)


def cpu_of(pid: int) -> Cpu:
    ns = ticks = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        ns += int((task / "schedstat").read_text().split()[0])
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return Cpu(ns, ticks)


TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


class Server:
    """gunicorn serving `wsgi` (the site's by default) with one sync worker, started in
    `processes`."""

    #: How gunicorn runs: one sync worker (a subclass may run another configuration).
    OPTIONS = ("--workers", "1", "--worker-class", "sync")

    def __init__(self, processes: Processes, env: dict[str, str], wsgi: str = "config.wsgi"):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "gunicorn", wsgi, *self.OPTIONS]
        command += ["--bind", f"127.0.0.1:{self.port}", "--timeout", "120"]
        self.arbiter = processes.start("gunicorn", command, env)
        wait_until_serving(self.base_url, processes)
        self.worker_pid = self._worker()

    def _worker(self) -> int:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            children = []
            for task in Path(f"/proc/{self.arbiter.pid}/task").iterdir():
                children += (task / "children").read_text().split()
            if len(children) == 1:
                return int(children[0])
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn has not exactly one worker: {children}")

    def cpu(self) -> Cpu:
        return cpu_of(self.worker_pid)

    def request(
        self,
        method: str,
        path: str,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
        cookies: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], bytes]:
        """One request on a new connection (a sync worker closes each one after answering),
        body read whole; cookies the answer sets are put into `cookies`."""
        headers = dict(headers or {})
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            content = response.read()
            if cookies is not None:
                for line in response.msg.get_all("Set-Cookie") or []:
                    name, _, rest = line.partition("=")
                    cookies[name.strip()] = rest.split(";", 1)[0]
            answer = {name.lower(): value for name, value in response.getheaders()}
            return response.status, answer, content
        finally:
            connection.close()
