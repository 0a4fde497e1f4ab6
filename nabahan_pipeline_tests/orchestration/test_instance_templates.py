"""Dagster's empty databases, made once from Dagster's own classes and copied into each new home
and for each run: the same schema and versions as Dagster makes, found up to date by Dagster."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import dagster as dg
import pytest
import sqlalchemy
from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage
from dagster._core.storage.sqlite_storage import DagsterSqliteStorage
from sqlalchemy.pool import NullPool

from nabahan_pipeline.api import open_instance
from nabahan_pipeline.orchestration import instance_templates
from nabahan_pipeline.orchestration.instance_storage import KeptConnectionsEventLogStorage
from nabahan_pipeline.orchestration.instance_templates import HOME_DATABASES, templates_folder
from nabahan_pipeline_tests.orchestration.test_instance_storage import materialize


@pytest.fixture
def cache(tmp_path: Path, monkeypatch) -> Path:
    """A cache of our own: the templates are made in it by the test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(folder))
    return folder


def schema(path: Path) -> tuple:
    """What Dagster's set-up puts in a database: its tables and indexes, the alembic revision, the
    data migrations marked done, and its journal mode."""
    with sqlite3.connect(path) as connection:
        objects = sorted(connection.execute("SELECT type, name, sql FROM sqlite_master"))
        revision = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        tables = {name for kind, name, _ in objects if kind == "table"}
        migrations = (sorted(connection.execute("SELECT name FROM secondary_indexes"))
                      if "secondary_indexes" in tables else [])
        journal = connection.execute("PRAGMA journal_mode").fetchone()
    connection.close()
    return objects, revision, migrations, journal


@pytest.fixture
def initdb_calls(monkeypatch) -> list[str]:
    """The databases our event log asks Dagster to set up (create its tables, stamp it)."""
    calls: list[str] = []
    original = KeptConnectionsEventLogStorage._initdb

    def spy(self, engine, *args, **kwargs):
        calls.append(Path(engine.url.database).name)
        return original(self, engine, *args, **kwargs)

    monkeypatch.setattr(KeptConnectionsEventLogStorage, "_initdb", spy)
    return calls


def test_a_new_home_gets_the_databases_dagster_would_make(tmp_path: Path, cache: Path):
    plain = tmp_path / "plain"
    DagsterSqliteStorage.from_local(str(plain)).dispose()
    with open_instance(tmp_path / "ours") as instance:
        run_id = materialize(instance)
    assert templates_folder().parent == cache
    for name in HOME_DATABASES:
        assert schema(tmp_path / "ours" / name) == schema(plain / name), name
    made_by_dagster = tmp_path / "made.db"
    engine = sqlalchemy.create_engine(f"sqlite:///{made_by_dagster}", poolclass=NullPool)
    SqliteEventLogStorage(str(tmp_path / "events"))._initdb(engine)
    engine.dispose()
    assert schema(tmp_path / "ours" / "history" / "runs" / f"{run_id}.db") == schema(made_by_dagster)


def test_runs_databases_are_copies_not_set_up_each_time(tmp_path: Path, cache: Path, initdb_calls: list[str]):
    with open_instance(tmp_path / "first") as instance:
        materialize(instance)  # the templates are made here, once
    initdb_calls.clear()
    with open_instance(tmp_path / "second") as instance:
        run_ids = [materialize(instance) for _ in range(2)]
        assert all(instance.get_run_by_id(run_id).is_success for run_id in run_ids)
    # Only the index, which exists already, is checked; no run's database is set up by Dagster.
    assert initdb_calls == ["index.db"], initdb_calls
    with dg.DagsterInstance.from_config(str(tmp_path / "second")) as plain:
        for run_id in run_ids:
            kinds = {entry.dagster_event_type for entry in plain.all_logs(run_id) if entry.is_dagster_event}
            assert dg.DagsterEventType.ASSET_MATERIALIZATION in kinds


def test_without_a_cache_to_write_dagster_sets_up_each_database(tmp_path: Path, monkeypatch, initdb_calls: list[str]):
    not_a_folder = tmp_path / "cache"
    not_a_folder.write_text("a file where the cache folder would be", encoding="utf-8")
    monkeypatch.setenv("NABAHAN_CACHE_DIR", str(not_a_folder))
    with open_instance(tmp_path / "home") as instance:
        run_id = materialize(instance)
        assert instance.get_run_by_id(run_id).is_success
    assert f"{run_id}.db" in initdb_calls
    assert all((tmp_path / "home" / name).is_file() for name in HOME_DATABASES)


def test_the_templates_are_made_once_and_switched_in_whole(tmp_path: Path, cache: Path, monkeypatch):
    made: list[Path] = []
    original = instance_templates._make
    monkeypatch.setattr(instance_templates, "_make", lambda folder: made.append(folder) or original(folder))
    for home in ("a", "b", "c"):
        open_instance(tmp_path / home).dispose()
    assert made == [templates_folder()]
    assert [entry.name for entry in cache.iterdir()] == [templates_folder().name]  # no staging folder left


def test_a_template_folder_missing_a_file_is_made_again(tmp_path: Path, cache: Path):
    open_instance(tmp_path / "a").dispose()
    (templates_folder() / HOME_DATABASES[0]).unlink()
    with open_instance(tmp_path / "b") as instance:
        materialize(instance)
    assert all((templates_folder() / name).is_file() for name in HOME_DATABASES)
    assert schema(tmp_path / "b" / HOME_DATABASES[0]) == schema(tmp_path / "a" / HOME_DATABASES[0])


def test_a_home_that_has_its_databases_makes_no_templates(tmp_path: Path, cache: Path, monkeypatch):
    DagsterSqliteStorage.from_local(str(tmp_path / "home")).dispose()  # a home Dagster made
    made: list[Path] = []
    monkeypatch.setattr(instance_templates, "_make", made.append)
    open_instance(tmp_path / "home").dispose()
    assert made == []
