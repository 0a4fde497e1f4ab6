"""The instance's SQLite files: unsynced commits inside the folder while a run holds it, each
written file synced once at its end, every other database left to SQLite's defaults."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy

from nabahan_pipeline.orchestration import instance_sync
from nabahan_pipeline.orchestration.instance_sync import synced_at_end

FULL, OFF = 2, 0  # PRAGMA synchronous


def synchronous(path: Path) -> int:
    engine = sqlalchemy.create_engine(f"sqlite:///{path}", poolclass=sqlalchemy.pool.NullPool)
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS t (x INTEGER)")
            connection.exec_driver_sql("INSERT INTO t VALUES (1)")
            return connection.exec_driver_sql("PRAGMA synchronous").scalar()
    finally:
        engine.dispose()


def test_only_the_folders_databases_skip_syncs_and_only_while_held(tmp_path: Path):
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    (home / "history").mkdir(parents=True)
    elsewhere.mkdir()
    with synced_at_end(home):
        assert synchronous(home / "history" / "runs.db") == OFF
        assert synchronous(elsewhere / "runs.db") == FULL
        assert synchronous(tmp_path / "home2.db") == FULL, "a sibling sharing the folder's name as prefix"
    assert synchronous(home / "history" / "runs.db") == FULL


def test_a_symlinked_home_is_the_same_folder(tmp_path: Path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with synced_at_end(tmp_path / "link"):
        assert synchronous(tmp_path / "real" / "a.db") == OFF


def test_the_files_written_are_synced_at_the_end(tmp_path: Path, monkeypatch):
    old = tmp_path / "old.db"
    synchronous(old)
    os.utime(old, ns=(0, 0))  # written long before the run
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(instance_sync.os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")),
                                                               real_fsync(fd)))
    (tmp_path / "runs").mkdir()
    with synced_at_end(tmp_path):
        synchronous(tmp_path / "runs" / "new.db")
        (tmp_path / "notes.txt").write_text("not a database")
        assert synced == [], "nothing synced while the run holds the folder"
    assert sorted(synced) == sorted([str(tmp_path / "runs" / "new.db"), str(tmp_path / "runs")])


def test_a_failed_run_still_syncs(tmp_path: Path, monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(instance_sync.os, "fsync", calls.append)
    try:
        with synced_at_end(tmp_path):
            synchronous(tmp_path / "a.db")
            raise RuntimeError("the run failed")
    except RuntimeError:
        pass
    assert len(calls) == 2  # a.db and its folder
