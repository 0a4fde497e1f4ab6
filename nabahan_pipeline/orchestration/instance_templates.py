"""Dagster's empty SQLite databases, made once per Dagster version and copied where one is missing.

A new instance home makes three databases (the run storage, the event log's index, the schedules)
and every run one more (its own event log), each through SQLAlchemy's ``create_all`` and an alembic
stamp: about 35 ms a run and 0.11 s a new home with our connections, more with Dagster's (it
syncs each), where copying a file of the same bytes takes 0.3 ms. The first time, Dagster's own
storage classes make them in a folder of the cache (``settings.cache_dir()``, beside the generated
databases); from then on a missing database is a copy of its template, put in place atomically
(never over a file another process made meanwhile), and Dagster finds it up to date. Where the
cache cannot be written, Dagster makes each database as it always did.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from dagster import __version__ as dagster_version
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from nabahan_pipeline.files import atomic_path
from nabahan_pipeline.settings import cache_dir

# The databases of an instance home, by their path in it (Dagster's layout).
HOME_DATABASES = ("history/runs.db", "history/runs/index.db", "schedules/schedules.db")
# A run's own event log database, in history/runs/ under its run id.
RUN_DATABASE = "history/runs/run.db"

_lock = threading.Lock()


def templates_folder() -> Path:
    """Where this Dagster version's empty databases are kept."""
    return cache_dir() / f"dagster-{dagster_version}-sqlite"


def seed_home(home: str | Path) -> list[Path]:
    """Put a copy of each empty home database that ``home`` lacks; the paths copied."""
    missing = [name for name in HOME_DATABASES if not Path(home, name).exists()]
    templates = _templates() if missing else None  # a home that has them all needs none made
    if templates is None:
        return []
    return [Path(home, name) for name in missing if _copy(templates / name, Path(home, name))]


def seed_run_database(path: str | Path) -> bool:
    """Put a copy of the empty run database at ``path`` when there is no file there; True when
    copied (Dagster need not make it)."""
    if os.path.exists(path):
        return False
    templates = _templates()
    return templates is not None and _copy(templates / RUN_DATABASE, Path(path))


def _copy(template: Path, path: Path) -> bool:
    try:
        with atomic_path(path, replace=False) as tmp:
            shutil.copyfile(template, tmp)
    except OSError:  # made meanwhile by another process (FileExistsError), or not ours to write
        return False
    return True


def _templates() -> Path | None:
    """The templates' folder, made by Dagster's classes the first time; None when it cannot be."""
    folder = templates_folder()
    if _complete(folder):
        return folder
    with _lock:
        if _complete(folder):
            return folder
        try:
            _make(folder)
        except OSError:  # a cache folder we cannot write: Dagster makes each database itself
            return None
    return folder if _complete(folder) else None


def _complete(folder: Path) -> bool:
    return all((folder / name).is_file() for name in (*HOME_DATABASES, RUN_DATABASE))


def _make(folder: Path) -> None:
    """Make the empty databases in a folder of their own, then switch it into place in one rename
    (a process that made them at the same time keeps its own)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = folder.with_name(f".{folder.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        storage = DagsterSqliteStorage.from_local(str(staging))
        try:
            run = create_engine(f"sqlite:///{staging / RUN_DATABASE}", poolclass=NullPool)
            event_log = storage.event_log_storage
            assert isinstance(event_log, SqliteEventLogStorage)
            event_log._initdb(run)
            run.dispose()
        finally:
            storage.dispose()
        try:
            os.rename(staging, folder)
        except OSError:  # there is a folder already: another process's, or one a file is missing from
            if not _complete(folder):
                shutil.rmtree(folder)
                os.rename(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
