"""The venue laptop's file cache (config.folder_cache): a write does not list the folder, except
once every CULL_SECONDS per process; a full folder loses the entries written longest ago, never
the ones just written (Django's own culls a random third, on a listing made at every write)."""

import os

import pytest

from config import folder_cache
from config.folder_cache import FolderCache


@pytest.fixture
def listings(monkeypatch):
    """How many times the folder is listed."""
    counted = []
    listing = FolderCache._list_cache_files

    def counting(self):
        counted.append(1)
        return listing(self)

    monkeypatch.setattr(FolderCache, "_list_cache_files", counting)
    return counted


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    moments = Clock()
    monkeypatch.setattr(folder_cache.time, "monotonic", moments)
    return moments


def test_writes_list_the_folder_once_per_cull_time(tmp_path, listings, clock):
    cache = FolderCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 1000}})
    for n in range(50):
        cache.set(f"key-{n}", "x" * 100, 60)
    assert len(listings) == 1  # Django's FileBasedCache: 50
    clock.now += folder_cache.CULL_SECONDS
    cache.set("one-more", 1, 60)
    assert len(listings) == 2
    assert cache.get("key-0") == "x" * 100 and cache.get("one-more") == 1


def test_a_full_folder_loses_the_oldest_third_and_keeps_the_newest(tmp_path, clock):
    cache = FolderCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 30, "CULL_FREQUENCY": 3}})
    for n in range(30):
        cache.set(f"old-{n}", n, 600)
    for n, name in enumerate(sorted(cache._list_cache_files())):
        os.utime(name, (1_000_000 + n, 1_000_000 + n))  # written in order, a second apart
    oldest = sorted(cache._list_cache_files(), key=os.path.getmtime)[:10]
    clock.now += folder_cache.CULL_SECONDS
    cache.set("new", "kept", 600)
    left = set(cache._list_cache_files())
    assert len(left) == 21 and not left & set(oldest)
    assert cache.get("new") == "kept"
