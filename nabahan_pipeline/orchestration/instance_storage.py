"""The instance's SQLite storage as our own runs use it: each database's engine made once, and
the connections to the run storage and the event log's index kept, for the life of the instance.

Dagster's SQLite storages make a new SQLAlchemy engine and a new connection for every query and
every event (a 20-case run: about 290 of them, half a millisecond each, and as many times the
connection set-up of ``instance_sync``). These subclasses keep the engines instead; the files,
their schema and what is written to them are Dagster's, so `dagster dev` and the daemon read the
same instance with Dagster's own classes, and follow our runs live as they would their own (a
run's own database is checkpointed after each write: see ``KeptConnectionsEventLogStorage``).
``open_instance`` uses them only where the instance is the default SQLite storage; a configured
one (PostgreSQL) is left as it is.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dagster._core.instance.ref import InstanceRef
from dagster._core.storage.event_log.sqlite.sqlite_event_log import (
    INDEX_SHARD_NAME,
    SQLITE_BUSY_TIMEOUT_SECONDS,
    SqliteEventLogStorage,
)
from dagster._core.storage.runs.sqlite.sqlite_run_storage import SqliteRunStorage
from dagster._core.storage.schedules.sqlite.sqlite_schedule_storage import SqliteScheduleStorage
from dagster._core.storage.sqlite_storage import (
    DagsterSqliteStorage,
    _event_logs_directory,
    _runs_directory,
    _schedule_directory,
)
from dagster._serdes import ConfigurableClassData
from sqlalchemy import Connection, Engine, create_engine

from nabahan_pipeline.orchestration.compute_logs import compute_logs_data
from nabahan_pipeline.orchestration.instance_templates import seed_home, seed_run_database

# A run's events go to a database of its own: the engines of the last few runs are kept.
RUN_SHARDS_KEPT = 4
# How long a dynamic partition (an agent) seen to exist is taken to exist still.
PARTITION_SEEN_FOR_S = 5.0

_DEFAULT_STORAGE = ("dagster._core.storage.sqlite_storage", "DagsterSqliteStorage")


class _Engines:
    """One engine per database URL, the least recently used closed beyond ``keep``."""

    def __init__(self, keep: int, **engine_options: object) -> None:
        self._keep = keep
        self._options = engine_options
        self._engines: OrderedDict[str, Engine] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, url: str) -> Engine:
        with self._lock:
            engine = self._engines.get(url)
            if engine is None:
                engine = self._engines[url] = create_engine(url, **self._options)
            self._engines.move_to_end(url)
            while len(self._engines) > self._keep:
                self._engines.popitem(last=False)[1].dispose()
            return engine

    def close(self) -> None:
        with self._lock:
            engines, self._engines = list(self._engines.values()), OrderedDict()
        for engine in engines:
            engine.dispose()


@contextmanager
def _transaction(engine: Engine, *, checkpoint: bool = False) -> Iterator[Connection]:
    """A connection of ``engine`` in a transaction, committed at the end; with ``checkpoint``, its
    database's write-ahead log then moved into the file, on the same connection."""
    with engine.connect() as connection:
        with connection.begin():
            yield connection
        if checkpoint:
            connection.connection.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)")


class KeptConnectionsRunStorage(SqliteRunStorage):
    """Dagster's SQLite run storage with its engine kept."""

    def __init__(self, conn_string: str, inst_data: ConfigurableClassData | None = None) -> None:
        self._engines = _Engines(keep=1)  # before Dagster's set-up, which connects
        super().__init__(conn_string, inst_data)

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        with _transaction(self._engines.get(self._conn_string)) as connection:
            yield connection

    def dispose(self) -> None:
        self._engines.close()
        super().dispose()


class KeptConnectionsEventLogStorage(SqliteEventLogStorage):
    """Dagster's SQLite event log with the connections to its index and to its latest runs'
    databases kept. After each use of a run's database its write-ahead log is checkpointed into
    the file: that change of the file is what Dagster's event watchers (the UI following a run
    live) wait for, and what closing the connection after each write, as Dagster does, gave them.
    A connection per write cost 0.5 ms of a 20-case run's 86 events."""

    def __init__(self, base_dir: str, inst_data: ConfigurableClassData | None = None) -> None:
        options = {"connect_args": {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS}}
        self._index_engines = _Engines(keep=1, **options)  # before Dagster's set-up, which connects
        self._run_engines = _Engines(keep=RUN_SHARDS_KEPT, **options)
        self._partitions_seen: dict[tuple[str, str], float] = {}
        super().__init__(base_dir, inst_data)

    @contextmanager
    def _connect(self, shard: str) -> Iterator[Connection]:
        with self._db_lock:
            engines = self._index_engines if shard == INDEX_SHARD_NAME else self._run_engines
            engine = engines.get(self.conn_string_for_shard(shard))
            if shard not in self._initialized_dbs:
                if shard == INDEX_SHARD_NAME or not seed_run_database(self.path_for_shard(shard)):
                    self._initdb(engine)
                self._initialized_dbs.add(shard)
            with _transaction(engine, checkpoint=shard != INDEX_SHARD_NAME) as connection:
                yield connection

    def has_dynamic_partition(self, partitions_def_name: str, partition_key: str) -> bool:
        """Whether the partition exists; one seen in the last ``PARTITION_SEEN_FOR_S`` seconds is
        taken to exist still (Dagster asks for each input and output of each step: 74 queries of
        a 20-case run). A partition this process deletes is forgotten at once; one another process
        deletes, after that long."""
        key = (partitions_def_name, partition_key)
        seen = self._partitions_seen.get(key)
        if seen is not None and time.monotonic() - seen < PARTITION_SEEN_FOR_S:
            return True
        exists = super().has_dynamic_partition(partitions_def_name, partition_key)
        if exists:
            self._partitions_seen[key] = time.monotonic()
        else:
            self._partitions_seen.pop(key, None)
        return exists

    def delete_dynamic_partition(self, partitions_def_name: str, partition_key: str) -> None:
        self._partitions_seen.pop((partitions_def_name, partition_key), None)
        super().delete_dynamic_partition(partitions_def_name, partition_key)

    def wipe(self) -> None:
        self._partitions_seen.clear()
        self._close_engines()
        super().wipe()

    def dispose(self) -> None:
        self._close_engines()
        super().dispose()

    def _close_engines(self) -> None:
        self._index_engines.close()
        self._run_engines.close()


class KeptConnectionsSqliteStorage(DagsterSqliteStorage):
    """Dagster's default SQLite storage, its run storage and event log keeping their engines (its
    schedule storage, which a run hardly uses and the instance never disposes, is Dagster's)."""

    def __init__(self, base_dir: str, inst_data: ConfigurableClassData | None = None) -> None:
        seed_home(base_dir)
        self.base_dir = base_dir
        self._run_storage = KeptConnectionsRunStorage.from_local(_runs_directory(base_dir))
        self._event_log_storage = KeptConnectionsEventLogStorage(_event_logs_directory(base_dir))
        self._schedule_storage = SqliteScheduleStorage.from_local(_schedule_directory(base_dir))
        self._inst_data = inst_data
        super(DagsterSqliteStorage, self).__init__()

    @classmethod
    def from_config_value(cls, inst_data: ConfigurableClassData, config_value: dict) -> KeptConnectionsSqliteStorage:
        return cls.from_local(inst_data=inst_data, **config_value)


def instance_ref(home: str | Path) -> InstanceRef:
    """The instance at ``home`` as its dagster.yaml configures it, with Dagster's default SQLite
    storage (none configured) kept-connection and its default compute logs mirrored without
    ``tail`` (``compute_logs``); any other storage or compute log manager (PostgreSQL, cloud
    storage, a custom class) as configured."""
    ref = InstanceRef.from_dir(str(home))
    ref = ref._replace(compute_logs_data=compute_logs_data(ref.compute_logs_data))
    data = ref.storage_data
    if data is None or (data.module_name, data.class_name) != _DEFAULT_STORAGE:
        return ref
    kept = ConfigurableClassData(__name__, KeptConnectionsSqliteStorage.__name__, data.config_yaml)
    return ref._replace(storage_data=kept)
