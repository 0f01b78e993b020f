"""The venue laptop's gunicorn (bin/serve starts it with ``-c python:config.gunicorn_venue``;
the benchmarks start it the same way, so they measure what the command runs).

Four processes of 64 threads, of which only a few work at once (the gate, config/parking.py);
the others wait their turn at the gate in a round's burst, or for a slow phone's request to
arrive. The polls the door holds ("My next seat" questions, the watchers' sheets) take no
thread: the worker keeps their connections until they wake (config.gunicorn_workers), up to
half its connections (docs/performance.md, "My next seat: held questions", "The watchers'
sheet held at the door"). Four processes of few working threads, not two of many: Python runs
one thread of a process at a time (docs/performance.md, "The venue laptop"). Each thread
that worked keeps its own SQLite connection: fewer threads, fewer open files.

**Keep-alive longer than any page polls.** A phone polls the sheet every 5 s and the
standings every 15 s; with gunicorn's 2-s keep-alive each poll paid for a new TCP connection
(accepting, reading the first request, closing), more than the door's answer itself. Kept
20 s, a phone's next poll comes on the connection of its last, as a browser keeps it. An idle
kept connection holds no thread: it waits in the process's selector, a file descriptor and a
few kilobytes (a held poll, likewise, is only its connection). Each process keeps up to
``worker_connections - threads`` idle ones; beyond that, answers say ``Connection: close``,
and a process at ``worker_connections`` stops accepting until one closes (the new phone waits
in the listen queue, it is not refused), so the limit is set below the open files the process
may have.
"""

from __future__ import annotations

import os
import resource

#: Processes, unless WEB_CONCURRENCY says otherwise.
WORKERS = 4
#: Seconds an idle connection is kept: longer than the slowest poll of a page a phone keeps
#: open (the standings and the projector, tournaments.common.web.polls.POLL_SECONDS), with
#: room for a phone's timer running late (tests/test_gunicorn_venue.py checks every poll).
KEEP_ALIVE_SECONDS = 20
#: Connections a process keeps open at most, working, held or idle, when the open-files
#: limit allows: a large venue's phones (2,000 tables, five phones each) over four
#: processes, which gunicorn does not share out evenly.
WANTED_CONNECTIONS = 8192
#: Open files a process keeps for itself beyond its connections (the database and its WAL,
#: the cache's files, logs, the listening socket, Python's imports).
OWN_FILES = 256

workers = int(os.environ.get("WEB_CONCURRENCY", WORKERS))
worker_class = "config.gunicorn_workers.ThreadWorker"
threads = 64
keepalive = KEEP_ALIVE_SECONDS
logger_class = "config.gunicorn_logging.RedactingLogger"


def connections_within(open_files: int, threads: int, wanted: int = WANTED_CONNECTIONS) -> int:
    """Connections a process may keep: `wanted`, or fewer when the open-files limit is lower
    (less what the process keeps for itself), never fewer than one a thread."""
    if open_files == resource.RLIM_INFINITY or open_files < 0:
        return max(threads, wanted)
    return max(threads, min(wanted, open_files - OWN_FILES))


worker_connections = connections_within(resource.getrlimit(resource.RLIMIT_NOFILE)[0], threads)
