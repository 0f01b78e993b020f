"""The SQLite database holds every table secret, session and password hash: its file and its
-wal and -shm files are readable by their owner only, whatever the umask of whoever starts
the site, and a file left readable by others (an older install) is closed at the next start.
bin/serve itself is checked in tests/test_venue.py."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest
from django.db import connections
from django.db.backends.sqlite3.base import DatabaseWrapper

from config.env import database_from_env

pytestmark = pytest.mark.django_db

OWNER_ONLY = 0o600


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    """The umask most systems give: files readable by everyone."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _open(path):
    """A connection as the site makes it to a SQLite file at path (its settings from
    config.env, WAL mode and all, whichever database the tests run on)."""
    settings = database_from_env({}, default_sqlite_path=path)
    wrapper = DatabaseWrapper({**connections["default"].settings_dict, **settings}, "probe")
    wrapper.ensure_connection()
    with wrapper.cursor() as cursor:
        cursor.execute("CREATE TABLE IF NOT EXISTS secret (value TEXT)")
        cursor.execute("INSERT INTO secret VALUES ('a table secret')")
    return wrapper


def _files(path):
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


def test_a_new_database_and_its_wal_files_are_the_owners_only(tmp_path, open_umask):
    path = tmp_path / "db.sqlite3"
    wrapper = _open(path)
    try:
        files = _files(path)
        assert all(file.exists() for file in files)  # WAL mode, while a connection is open
        assert {file.name: mode(file) for file in files} == dict.fromkeys(
            (file.name for file in files), OWNER_ONLY
        )
    finally:
        wrapper.close()


def test_a_database_left_readable_by_others_is_closed_at_the_next_connection(tmp_path, open_umask):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("PRAGMA journal_mode=WAL")
        old.execute("CREATE TABLE secret (value TEXT)")
    path.chmod(0o644)
    wrapper = _open(path)
    try:
        assert [mode(file) for file in _files(path)] == [OWNER_ONLY] * 3
    finally:
        wrapper.close()
    assert mode(path) == OWNER_ONLY
