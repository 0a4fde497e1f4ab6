"""The evaluation databases on disk: where the default one is cached (built there once, on first
use), the test-suite databases beside it, opening one read-only, and its content hash."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path

from nabahan_pipeline.errors import DatabaseBuildError
from nabahan_pipeline.etimad_db.generator import (
    DEFAULT_PROJECTS, DEFAULT_RANDOM_SEED, DEFAULT_TENDERS, GENERATOR_VERSION, build_database, checked_sizes,
)
from nabahan_pipeline.files import file_sha256, fsync_file, remove_stale_temporaries, temporary_name
from nabahan_pipeline.settings import MAX_SUITE_DATABASES, cache_dir


def default_database_path() -> Path:
    """Where the default database is cached: $NABAHAN_CACHE_DIR, $XDG_CACHE_HOME/nabahan or
    ~/.cache/nabahan; the name carries the generator version, random seed and sizes."""
    name = f"etimad-v{GENERATOR_VERSION}-seed{DEFAULT_RANDOM_SEED}-{DEFAULT_TENDERS}t-{DEFAULT_PROJECTS}p.sqlite"
    return cache_dir() / name


_ensure_lock = threading.Lock()

# Test-suite execution match (Zhong, Yu and Klein 2020; docs/verdict_study.md): databases of other
# random seeds and sizes catch a query right by chance on one. In each, every ROUND_EVERY-th row's
# money is rounded to one or two significant digits, as real estimates are: a threshold asked in
# words ("more than a million") then meets values on its boundary.
SUITE_SIZES: tuple[int, ...] = (1_000, 300, 3_000)
ROUND_EVERY = 5


def suite_database_path(index: int) -> Path:
    """Where the ``index``-th (0-based) test-suite database is cached, beside the default one."""
    tenders, projects, random_seed = checked_sizes(SUITE_SIZES[index % len(SUITE_SIZES)], None,
                                                   DEFAULT_RANDOM_SEED + 1 + index)
    name = f"etimad-v{GENERATOR_VERSION}-seed{random_seed}-{tenders}t-{projects}p-round{ROUND_EVERY}.sqlite"
    return default_database_path().with_name(name)


def suite_databases(count: int) -> list[Path]:
    """The first ``count`` test-suite databases, each built into the cache on first use."""
    if not 0 <= count <= MAX_SUITE_DATABASES:
        raise DatabaseBuildError(f"test-suite databases must number 0 to {MAX_SUITE_DATABASES}, got {count}")
    paths = []
    for index in range(count):
        path = suite_database_path(index)
        if not path.is_file():
            with _ensure_lock:
                if not path.is_file():
                    _build_suite_database(path, SUITE_SIZES[index % len(SUITE_SIZES)], DEFAULT_RANDOM_SEED + 1 + index)
        paths.append(path)
    return paths


def _build_suite_database(path: Path, tenders: int, random_seed: int) -> None:
    # Built and rounded under a temporary name, then renamed: never seen half-made.
    tmp = temporary_name(path)
    try:
        build_database(tmp, tenders=tenders, random_seed=random_seed)
        con = sqlite3.connect(tmp)
        try:
            with con:
                for table, key in (("tenders_full_details", "tender_id"), ("future_projects", "project_id")):
                    money = ["estimated_value", "awarded_value"] if table == "tenders_full_details" else ["estimated_value"]
                    rows = con.execute(
                        f"SELECT {key}, {', '.join(money)} FROM {table} WHERE {key} % ? = 0", (ROUND_EVERY,)
                    ).fetchall()
                    con.executemany(
                        f"UPDATE {table} SET {', '.join(f'{column} = ?' for column in money)} WHERE {key} = ?",
                        [(*(_round_figure(v, 1 + key_value % 2) for v in values), key_value) for key_value, *values in rows],
                    )
        finally:
            con.close()
        fsync_file(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _round_figure(value: float | None, digits: int) -> float | None:
    return None if value is None else float(f"{value:.{digits}g}")


def ensure_database(path: str | Path | None = None) -> Path:
    """The path of a usable database: ``path`` if given (it must exist), else the default one,
    built into the cache on first use."""
    if path is not None:
        given = Path(path).expanduser()
        if given.is_dir():
            raise DatabaseBuildError(f"database path is a directory, not a file: {given}")
        if not given.is_file():
            raise DatabaseBuildError(f"database not found: {given}")
        return given
    default = default_database_path()
    if default.is_file():
        return default
    # Other processes may build at the same time: each writes its own temporary file and
    # renames it over the same name, with identical content.
    with _ensure_lock:
        if not default.is_file():
            remove_stale_temporaries(default.parent)  # half-built files of killed builds
            build_database(default)
    return default


def connect_readonly(path: str | Path) -> sqlite3.Connection:
    """Open the database read-only (a ``mode=ro`` URI): untrusted SQL cannot change it."""
    resolved = Path(path).expanduser().resolve()
    if not resolved.is_file():
        raise DatabaseBuildError(f"database not found: {resolved}")
    con = sqlite3.connect(f"{resolved.as_uri()}?mode=ro", uri=True, check_same_thread=False)
    con.execute("PRAGMA query_only = ON")
    return con


def database_hash(path: str | Path) -> str:
    """SHA-256 (hex) of the database file, to key caches and results to the data they saw."""
    return file_sha256(Path(path).expanduser().resolve())
