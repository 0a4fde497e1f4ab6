"""The databases on disk: the cached default one built once, read-only connections, locating, hashing."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from nabahan_pipeline.errors import DatabaseBuildError
from nabahan_pipeline.etimad_db.generator import (
    DEFAULT_PROJECTS,
    DEFAULT_RANDOM_SEED,
    DEFAULT_TENDERS,
    GENERATOR_VERSION,
    build_database,
)
from nabahan_pipeline.etimad_db.store import connect_readonly, database_hash, default_database_path, ensure_database
from nabahan_pipeline_tests.etimad_db.queries import scalar, sha256


def test_default_database_is_built_once_into_the_session_cache(default_db: Path) -> None:
    assert default_db == default_database_path()
    assert Path(os.environ["NABAHAN_CACHE_DIR"]) in default_db.parents
    assert scalar(default_db, "SELECT count(*) FROM tenders_full_details") == DEFAULT_TENDERS
    assert scalar(default_db, "SELECT count(*) FROM future_projects") == DEFAULT_PROJECTS
    mtime = default_db.stat().st_mtime_ns
    assert ensure_database() == default_db
    assert default_db.stat().st_mtime_ns == mtime  # reused, not rebuilt


def test_read_only_connection_refuses_writes(small_db: Path) -> None:
    before = sha256(small_db)
    con = connect_readonly(small_db)
    try:
        with pytest.raises(sqlite3.OperationalError):
            con.execute("INSERT INTO regions VALUES (99, 'x', 'x')")
        with pytest.raises(sqlite3.OperationalError):
            con.execute("DROP TABLE future_projects")
    finally:
        con.close()
    assert sha256(small_db) == before


def test_read_only_connection_works_across_threads(small_db: Path) -> None:
    import threading

    con = connect_readonly(small_db)
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(con.execute("SELECT count(*) FROM regions").fetchone()[0]))
    thread.start()
    thread.join()
    con.close()
    assert result == [13]


def test_missing_database_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.sqlite"
    with pytest.raises(DatabaseBuildError, match="nope.sqlite"):
        ensure_database(missing)
    with pytest.raises(DatabaseBuildError, match="nope.sqlite"):
        connect_readonly(missing)
    with pytest.raises(DatabaseBuildError, match="directory"):
        ensure_database(tmp_path)


def test_ensure_database_returns_a_given_path(small_db: Path) -> None:
    assert ensure_database(small_db) == small_db
    assert ensure_database(str(small_db)) == small_db


def test_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(tmp_path / "mine"))
    path = default_database_path()
    assert path.parent == tmp_path / "mine"
    assert f"v{GENERATOR_VERSION}" in path.name and f"seed{DEFAULT_RANDOM_SEED}" in path.name
    assert str(DEFAULT_TENDERS) in path.name
    monkeypatch.delenv("NABAHAN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_database_path().parent == tmp_path / "xdg" / "nabahan"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_database_path().parent == tmp_path / "home" / ".cache" / "nabahan"


def test_database_hash_is_the_file_sha256_and_follows_changes(tmp_path: Path) -> None:
    path = build_database(tmp_path / "h.sqlite", tenders=50, random_seed=1)
    first = database_hash(path)
    assert first == sha256(path)
    build_database(path, tenders=50, random_seed=2)
    assert database_hash(path) == sha256(path) != first
