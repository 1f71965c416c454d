"""One process per SQLite file: an exclusive ``flock`` on ``<database>.lock`` beside the database.

SQLite serves one Parlor process (several would each run the scheduler and the per-match lock
would not span them); several processes need PostgreSQL. The lock is held for the life of the
process and released by the kernel when it exits, however it exits (kill -9 too), so a stale lock
file never blocks a restart: only a *live* holder refuses the start.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import IO

log = logging.getLogger(__name__)


class DatabaseInUse(Exception):
    """Another live process holds the database; the message is one line for the operator."""


def lock_path(db_path: str) -> Path:
    return Path(db_path + ".lock")


def acquire(database_url: str) -> IO[str] | None:
    """Lock the SQLite database of ``database_url``; keep the returned file open while running.

    Returns None (no lock needed or possible) for PostgreSQL, ``:memory:``, or when the lock file cannot
    be created (a missing or read-only folder: opening the store reports that, in its own words).
    """
    if not database_url.startswith("sqlite:///"):
        return None
    db_path = database_url.removeprefix("sqlite:///")
    if not db_path or db_path == ":memory:":
        return None
    path = lock_path(db_path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        f = open(path, "a+")  # noqa: SIM115 - held open (locked) for the life of the process
    except OSError as exc:
        log.debug("no lock file %s: %s", path, exc)
        return None
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.seek(0)
        holder = f.read().strip() or "unknown"
        f.close()
        raise DatabaseInUse(
            f"the SQLite database {db_path} is already in use by another Parlor process (pid {holder}); "
            "SQLite serves one process: stop the other one, or move to PostgreSQL to run several "
            "(README: 'Several processes')."
        ) from None
    f.seek(0)
    f.truncate()
    f.write(f"{os.getpid()}\n")
    f.flush()
    return f
