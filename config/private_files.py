"""The SQLite database is its owner's only.

A venue laptop's database (``var/db.sqlite3``) holds every table secret, session and password
hash; SQLite creates it, and its ``-wal`` and ``-shm`` files, with the mode the umask of
whoever starts the site allows, which is most often readable by every account of the
machine. So each new connection to a SQLite file takes the group's and others' bits off the
file and its side files (a few ``stat`` calls; Django keeps connections). SQLite makes a new
``-wal`` or ``-shm`` file with the mode of its database, so once the database is the owner's,
so are they, from birth. The first connection of a new database comes before anything is
written to it, and a file an older install left readable is closed at the next start.

bin/serve also sets the umask 077 and ``var/`` to 700, so that the logs, the cache and the
folder broker are born private too (docs/deploy.md).
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger(__name__)

#: What SQLite keeps beside a database file (WAL mode, or a rollback journal).
SIDE_FILES = ("-wal", "-shm", "-journal")
#: The bits of a mode that let anyone but the owner in.
OTHERS = 0o077


def sqlite_files(name) -> list[Path]:
    """The files of the SQLite database at ``name``, and those SQLite keeps beside it."""
    path = Path(name)
    return [path, *(path.with_name(path.name + side) for side in SIDE_FILES)]


def owner_only(paths) -> None:
    """Take the group's and others' bits off each of these files that exists."""
    for path in paths:
        try:
            current = stat.S_IMODE(os.stat(path).st_mode)
            if current & OTHERS:
                os.chmod(path, current & ~OTHERS)
        except FileNotFoundError:
            continue
        except PermissionError:  # another account's file: say so, and let the site run
            logger.warning("cannot make %s readable by its owner only", path)


def on_connection(sender, connection, **kwargs) -> None:
    """django.db's ``connection_created``: a SQLite file's connection closes the file."""
    if connection.vendor == "sqlite" and not connection.is_in_memory_db():
        owner_only(sqlite_files(connection.settings_dict["NAME"]))
