"""The instance our entry points open: Dagster's SQLite files, written through kept connections,
readable by Dagster's own classes; any other configured storage left as it is."""

from __future__ import annotations

import threading
from pathlib import Path

import dagster as dg
import pytest
import sqlalchemy

from dagster._core.storage.event_log.sqlite.sqlite_event_log import SqliteEventLogStorage

from nabahan_pipeline.api import open_instance
from nabahan_pipeline.orchestration import instance_storage
from nabahan_pipeline.orchestration.instance_storage import (
    RUN_SHARDS_KEPT,
    KeptConnectionsEventLogStorage,
    KeptConnectionsRunStorage,
)


@dg.asset
def numbers() -> list[int]:
    return [1, 2, 3]


@dg.asset
def total(numbers: list[int]) -> int:
    return sum(numbers)


def materialize(instance: dg.DagsterInstance) -> str:
    result = dg.materialize([numbers, total], instance=instance)
    assert result.success
    return result.run_id


@pytest.fixture
def connections_opened():
    """The database file of each connection SQLAlchemy opens while the test runs, by its name."""
    opened: list[str] = []

    def count(dbapi_connection, _record: object) -> None:
        files = [file for _, schema, file in dbapi_connection.execute("PRAGMA database_list") if schema == "main"]
        opened.append(Path(files[0]).name)

    sqlalchemy.event.listen(sqlalchemy.engine.Engine, "connect", count)
    yield opened
    sqlalchemy.event.remove(sqlalchemy.engine.Engine, "connect", count)


def shared_databases(opened: list[str]) -> list[str]:
    """The connections to the run storage and the event log's index (not to a run's own database)."""
    return [name for name in opened if name in ("runs.db", "index.db")]


def test_a_default_home_gets_kept_connections_and_dagster_reads_what_they_wrote(tmp_path: Path):
    with open_instance(tmp_path) as instance:
        assert isinstance(instance.event_log_storage, KeptConnectionsEventLogStorage)
        assert isinstance(instance.run_storage, KeptConnectionsRunStorage)
        run_ids = [materialize(instance) for _ in range(2)]
    with dg.DagsterInstance.from_config(str(tmp_path)) as plain:
        assert type(plain.event_log_storage).__name__ == "SqliteEventLogStorage"
        assert {run.run_id for run in plain.get_runs()} == set(run_ids)
        for run_id in run_ids:
            assert plain.get_run_by_id(run_id).is_success
            kinds = {entry.dagster_event_type for entry in plain.all_logs(run_id) if entry.is_dagster_event}
            assert dg.DagsterEventType.ASSET_MATERIALIZATION in kinds
        latest = plain.get_latest_materialization_event(dg.AssetKey("total"))
        assert latest is not None and latest.run_id == run_ids[-1]


def test_a_run_connects_to_the_shared_databases_once_not_per_event(tmp_path: Path, connections_opened: list[str]):
    with open_instance(tmp_path) as instance:
        materialize(instance)
        connections_opened.clear()
        run_id = materialize(instance)
        events = len(instance.all_logs(run_id))
    assert events > 20
    # Dagster's own table checks (has_table) make an engine of their own: one or two a run.
    assert len(shared_databases(connections_opened)) <= 3, connections_opened
    # a run's own database: its set-up (which inspects its tables on a second connection) and then
    # every write on one connection, not one per event
    assert connections_opened.count(f"{run_id}.db") <= 2 < events, connections_opened


def test_dagsters_own_storage_connects_for_every_query(tmp_path: Path, connections_opened: list[str]):
    """What the kept connections save (and a check that the count above can fail)."""
    with dg.DagsterInstance.from_config(str(tmp_path)) as instance:
        materialize(instance)
        connections_opened.clear()
        run_id = materialize(instance)
        events = len(instance.all_logs(run_id))
    assert len(shared_databases(connections_opened)) > events


def test_engines_of_old_runs_are_closed(tmp_path: Path):
    with open_instance(tmp_path) as instance:
        for _ in range(RUN_SHARDS_KEPT + 3):
            materialize(instance)
        storage = instance.event_log_storage
        assert len(storage._run_engines._engines) == RUN_SHARDS_KEPT
        assert len(storage._index_engines._engines) == 1
    assert storage._run_engines._engines == storage._index_engines._engines == {}, "disposing the instance closes them all"


def test_dagster_watching_a_run_sees_its_events_as_they_are_written(tmp_path: Path):
    """`dagster dev` follows a run live by watching the run's database file change."""
    seen: list[str] = []
    arrived = threading.Event()

    def callback(entry, _cursor) -> None:
        seen.append(entry.message)
        arrived.set()

    with open_instance(tmp_path) as ours, dg.DagsterInstance.from_config(str(tmp_path)) as ui:
        run_id = materialize(ours)  # a run whose database exists, as a live run's does
        written = ui.event_log_storage.get_records_for_run(run_id, limit=10_000).cursor
        ui.event_log_storage.watch(run_id, written, callback)
        try:
            ours.report_engine_event("still going", ours.get_run_by_id(run_id))
            assert arrived.wait(10), "the watcher saw nothing while our instance was still open"
        finally:
            ui.event_log_storage.end_watch(run_id, callback)
    assert seen == ["still going"]


def test_threads_share_the_instance(tmp_path: Path):
    errors: list[BaseException] = []
    with open_instance(tmp_path) as instance:
        materialize(instance)

        def read_and_write() -> None:
            try:
                for _ in range(5):
                    instance.get_runs(limit=5)
                    instance.report_runless_asset_event(dg.AssetObservation(asset_key="numbers"))
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=read_and_write) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        observed = instance.fetch_observations(dg.AssetKey("numbers"), limit=100).records
    assert errors == []
    assert len(observed) == 30


def test_wipe_starts_again_from_empty_databases(tmp_path: Path):
    with open_instance(tmp_path) as instance:
        materialize(instance)
        instance.wipe()
        assert instance.get_runs() == []
        run_id = materialize(instance)
        assert [run.run_id for run in instance.get_runs()] == [run_id]


def test_a_configured_storage_is_left_as_configured(tmp_path: Path):
    events = tmp_path / "events"
    (tmp_path / "dagster.yaml").write_text(
        "event_log_storage:\n"
        "  module: dagster._core.storage.event_log\n"
        "  class: SqliteEventLogStorage\n"
        "  config:\n"
        f"    base_dir: {events}\n",
        encoding="utf-8",
    )
    with open_instance(tmp_path) as instance:
        assert type(instance.event_log_storage).__name__ == "SqliteEventLogStorage"
        materialize(instance)
    assert list(events.glob("*.db"))


AGENTS = dg.DynamicPartitionsDefinition(name="agents")


@dg.asset(partitions_def=AGENTS)
def answers() -> list[int]:
    return [1, 2]


@dg.asset(partitions_def=AGENTS)
def scores(answers: list[int]) -> int:
    return len(answers)


def test_a_partition_seen_is_not_asked_for_again_at_every_step(tmp_path: Path, monkeypatch):
    asked: list[str] = []
    original = SqliteEventLogStorage.has_dynamic_partition
    monkeypatch.setattr(SqliteEventLogStorage, "has_dynamic_partition",
                        lambda self, name, key: asked.append(key) or original(self, name, key))
    with open_instance(tmp_path) as instance, dg.DagsterInstance.from_config(str(tmp_path)) as plain:
        instance.add_dynamic_partitions("agents", ["a", "b"])
        assert dg.materialize([answers, scores], instance=instance, partition_key="a").success
        assert asked == ["a"], asked  # Dagster asked about it for every input and output
        plain.delete_dynamic_partition("agents", "b")  # never seen here: asked, and gone
        assert instance.has_dynamic_partition("agents", "b") is False
        instance.delete_dynamic_partition("agents", "a")  # by this one: at once
        assert instance.has_dynamic_partition("agents", "a") is False
        instance.add_dynamic_partitions("agents", ["c"])
        assert instance.has_dynamic_partition("agents", "c")
        plain.delete_dynamic_partition("agents", "c")
        assert instance.has_dynamic_partition("agents", "c")  # within the window
        monkeypatch.setattr(instance_storage, "PARTITION_SEEN_FOR_S", 0.0)
        assert instance.has_dynamic_partition("agents", "c") is False
