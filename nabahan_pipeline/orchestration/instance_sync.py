"""The Dagster instance's SQLite files synced to disk once, when our run is done, not at each commit.

Dagster's SQLite storage opens a connection per event and closes it after one commit, and each
run's events go to a database of its own, created table by table: every commit and every close
waits for the disk (fsync). A 20-case run synced about 700 times, a first run 1,100: 1.5 to 2.5 s
of a 6 s run spent waiting. While ``synced_at_end`` holds, this process's connections to the
databases under the instance's folder run with ``PRAGMA synchronous=OFF`` (SQLite hands its
writes to the operating system and goes on), and at its end each database file written meanwhile,
and its folder, is synced once.

What this gives up: a crash of this process loses nothing (the writes are the system's by then);
a crash of the machine itself during the run may lose, or damage, what the run wrote to the
instance, as it would any file not yet synced. Other processes (`dagster dev`, the daemon) keep
Dagster's defaults.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy

# The folders whose databases are synced at the end (a prefix each, ending with a separator).
_deferred: list[str] = []
_lock = threading.Lock()
_listening = False

# The files SQLite writes for a database: the database itself and its write-ahead log.
_DATABASE_SUFFIXES = (".db", ".db-wal")


@contextmanager
def synced_at_end(folder: str | Path) -> Iterator[None]:
    """While held, SQLite connections this process opens through SQLAlchemy to databases under
    ``folder`` do not sync at each commit; when it ends, every database file under ``folder``
    written since it began is synced, with the folders that hold them."""
    global _listening
    prefix = os.path.join(os.path.realpath(folder), "")
    started_ns = time.time_ns()
    with _lock:
        if not _listening:
            sqlalchemy.event.listen(sqlalchemy.engine.Engine, "connect", _unsynced_connection)
            _listening = True
        _deferred.append(prefix)
    try:
        yield
    finally:
        with _lock:
            _deferred.remove(prefix)
        sync_written(Path(prefix), since_ns=started_ns)


def sync_written(folder: Path, *, since_ns: int) -> list[Path]:
    """Sync each database file under ``folder`` modified at or after ``since_ns`` (epoch
    nanoseconds), then each folder holding one, so that a file just created is found again;
    returns the files synced."""
    # A coarse file clock can stamp a write a little before the moment it was taken.
    since_ns -= 2_000_000_000
    synced: list[Path] = []
    for root, _, names in os.walk(folder):
        written = [Path(root, name) for name in names if name.endswith(_DATABASE_SUFFIXES)]
        written = [path for path in written if _modified_ns(path) >= since_ns]
        for path in written:
            _fsync(path, os.O_RDONLY)
        if written:
            _fsync(Path(root), os.O_RDONLY | os.O_DIRECTORY)
        synced.extend(written)
    return synced


def _unsynced_connection(dbapi_connection: object, _record: object) -> None:
    if not _deferred or not isinstance(dbapi_connection, sqlite3.Connection):
        return
    for _, schema, file in dbapi_connection.execute("PRAGMA database_list"):
        if schema == "main" and file and file.startswith(tuple(_deferred)):
            dbapi_connection.execute("PRAGMA synchronous=OFF")


def _modified_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:  # a write-ahead log removed as its last connection closed
        return -1


def _fsync(path: Path, flags: int) -> None:
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        return
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
