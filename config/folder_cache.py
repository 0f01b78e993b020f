"""The file cache of one machine (``DJANGO_CACHE_URL=file:///folder``: the venue laptop), sized
for what the site keeps and culled without listing its folder on every write.

Django's FileBasedCache lists the whole folder on every ``set`` to decide whether to cull, and
culls a random third once it holds MAX_ENTRIES (300 by default). An evening keeps far more than
300 entries: every table's sheet per version and language for ten minutes (scoring's
SHEET_SECONDS), the standings fragments and their ETags, the round pages, the QR codes. So the
folder was always full: each write (the standings poll's every two seconds among them) listed
~300 files and threw away a random hundred, often the entries just written and about to be read.

Here the folder is listed at most once every CULL_SECONDS per process (the writes in between
do not look), MAX_ENTRIES is sized for an evening (config.env.FOLDER_MAX_ENTRIES: a 100-table
evening writes ~3,000 sheet versions in ten minutes, each a few KB), and a cull removes the third
written longest ago, not a random third: what was just written is what is about to be read.
Every entry still expires as Django's does (on read); the count may overshoot MAX_ENTRIES by
what the processes write within CULL_SECONDS, which is no harm.
"""

from __future__ import annotations

import os
import threading
import time

from django.core.cache.backends.filebased import FileBasedCache

#: The least time between two listings of the folder by one process.
CULL_SECONDS = 30.0


class FolderCache(FileBasedCache):
    """FileBasedCache that lists its folder at most every CULL_SECONDS and culls the oldest."""

    def __init__(self, dir, params):
        super().__init__(dir, params)
        self._culled_at = float("-inf")
        self._cull_lock = threading.Lock()

    def _cull(self):
        now = time.monotonic()
        with self._cull_lock:
            if now - self._culled_at < CULL_SECONDS:
                return
            self._culled_at = now
        files = self._list_cache_files()
        if len(files) < self._max_entries:
            return
        if self._cull_frequency == 0:
            self.clear()
            return
        for name in sorted(files, key=_written_at)[: len(files) // self._cull_frequency]:
            self._delete(name)


def _written_at(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:  # gone meanwhile (read expired, or another process culled it)
        return float("-inf")
