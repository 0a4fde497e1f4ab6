"""The agent's SQL, judged by running it ourselves.

The SQL an agent reports is untrusted. It is parsed in the agent's dialect (SQLite unless the
answer names another); unless it is exactly one read-only query it is unsafe and never run. A safe
query is transpiled to SQLite and run read-only, with a time limit and a row cap, on the
evaluation database (its rows verify the rows the agent reported) and on the test-suite databases.
The gold SQL of each case runs on the same databases; every distinct query runs once per database.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nabahan_pipeline.etimad_db.sql_safety import (
    QueryResult,
    ReadOnlyConnection,
    UnsafeSQLError,
    read_sql,
    referenced_columns,
    referenced_tables,
)
from nabahan_pipeline.evaluation.execution_match import (
    ExpectedResult,
    GoldQuery,
    expected_result,
    gold_query,
    rows_match,
)
from nabahan_pipeline.settings import SETTINGS

DEFAULT_SQL_TIMEOUT_S: float = SETTINGS["sql_timeout_s"].default
DEFAULT_MAX_ROWS: int = SETTINGS["sql_max_rows"].default
# Threads that run queries ahead (``QueryRunner.run_ahead``): SQLite lets go of the interpreter while
# a query runs, so two threads, each with its own connection to each database, keep both cores busy.
QUERY_THREADS = 2
# The agent's queries whose runs a runner keeps (on every database), the oldest forgotten first: an
# answer's SQL seen again (a case's repeats, one query for several questions) runs once, while a
# run of 100,000 distinct answers does not hold 400,000 results (about 600 bytes each, 240 MB).
# More than a batch of case_scores (2,000 answers), whose runs are made ahead and then read.
RUNS_KEPT = 16_384

# Gold results kept for the process, by database identity and SQL text: a run runs its gold SQL
# three times (checked before the run, the test_cases asset, execution match in case_scores), each
# distinct query once per database. Bounded by the values they hold (rows x columns): a suite of
# 100,000 distinct gold queries of a few rows each fits; past the bound, all are forgotten at once.
_GOLD_RESULTS: dict[tuple, ExpectedResult] = {}
_GOLD_CELLS_MAX = 4_000_000
_gold_cells = 0
_GOLD_LOCK = threading.Lock()


@dataclass(frozen=True)
class CheckedSQL:
    """The agent's SQL after the safety check: ``sqlite`` is what we run (None when there is no
    SQL or it is unsafe); ``problem`` says why it is unsafe."""

    sqlite: str | None
    unsafe: bool = False
    problem: str | None = None


@dataclass(frozen=True)
class SQLRun:
    """One query on one database: its result, or why there is none (it failed, ran past the time
    limit, or returned more rows than the cap)."""

    result: QueryResult | None
    problem: str | None = None


def check_agent_sql(sql: str | None, dialect: str | None = None) -> CheckedSQL:
    """Unsafe when ``sql`` is present and not exactly one read-only query (a statement that writes,
    two statements, or text that does not parse as SQL of its dialect)."""
    if sql is None or not sql.strip():
        return CheckedSQL(sqlite=None)
    reading = read_sql(sql, dialect)
    if reading.problem is not None:
        return CheckedSQL(sqlite=None, unsafe=True, problem=reading.problem)
    return CheckedSQL(sqlite=reading.sqlite)


def rows_verified(columns: Sequence[str], rows: Sequence[Sequence[Any]], run: SQLRun | None) -> bool | None:
    """True when the agent's SQL, re-run, returns the rows the agent reported (as a multiset, each
    reported column matched by value to a column of the re-run); False when not; None when the
    SQL could not be run here (nothing to compare with)."""
    if run is None or run.result is None:
        return None
    result = run.result
    if result.truncated:
        # More rows than the cap: a report of fewer rows than the cap is wrong, a longer one unknown.
        return None if len(rows) > len(result.rows) else False
    if not rows:
        return not result.rows
    if not columns:
        return False
    return rows_match(result.rows, list(columns), [tuple(row) for row in rows], ordered=False)


def lost_in_transpiling(sql: str | None, dialect: str | None, run: SQLRun | None) -> bool:
    """True when SQL written in a dialect other than SQLite (it parsed there) failed here as SQLite
    for a reason other than a table or column its own text names that the database lacks: SQLite
    refused what the transpile wrote (a function or syntax it lacks), not the agent's query."""
    if sql is None or (dialect or "sqlite").lower() == "sqlite" or run is None or run.problem is None:
        return False
    failure = run.problem.removeprefix(_QUERY_FAILED)
    if failure == run.problem:
        return False  # no SQLite error: past the time limit or the row cap
    missing = _MISSING_NAME.match(failure)
    if missing is None:
        return True
    name = missing.group(2).split(".")[-1].lower()
    names = referenced_tables if missing.group(1) == "table" else referenced_columns
    try:
        named = names(sql, dialect.lower())
    except (UnsafeSQLError, ValueError):
        return False
    return name not in named


_QUERY_FAILED = "query failed: "  # ReadOnlyConnection's words before SQLite's own
_MISSING_NAME = re.compile(r"no such (table|column): (\S+)")


class QueryRunner:
    """Runs gold and agent queries on the evaluation and test-suite databases, each distinct query
    once per database (of the agent's, the last RUNS_KEPT), with one time limit and one row cap;
    safe to share between threads. Each
    thread that runs queries has its own read-only connection to each database; ``close`` closes
    them all."""

    def __init__(
        self,
        database: str | Path,
        suite: Sequence[str | Path] = (),
        *,
        timeout_s: float = DEFAULT_SQL_TIMEOUT_S,
        max_rows: int = DEFAULT_MAX_ROWS,
    ) -> None:
        self.databases = [Path(database), *map(Path, suite)]
        self.timeout_s, self.max_rows = timeout_s, max_rows
        self._runs: dict[tuple[int, str], SQLRun] = {}
        self._connections: dict[tuple[int, int], ReadOnlyConnection] = {}  # by thread and database
        self._identities: dict[int, tuple] = {}
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def agent_runs(self, checked: CheckedSQL) -> list[SQLRun]:
        """The agent's safe SQL on every database (evaluation database first); [] when none."""
        if checked.sqlite is None:
            return []
        return [self._run(index, checked.sqlite) for index in range(len(self.databases))]

    def run_ahead(self, checked: Iterable[CheckedSQL], threads: int = QUERY_THREADS) -> None:
        """Run the safe queries of ``checked`` on every database now, shared among ``threads``
        threads (this one and the runner's own), so that ``agent_runs`` finds them run (a batch of
        answers' SQL before they are scored one by one, on one thread)."""
        with self._lock:
            queries = [sql for sql in dict.fromkeys(one.sqlite for one in checked)
                       if sql is not None and (0, sql) not in self._runs]
        if threads <= 1 or len(queries) < 2:
            return  # agent_runs runs them, in order
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(threads - 1, thread_name_prefix="nabahan-sql")
            pool = self._pool

        def run(share: list[str]) -> None:
            for sql in share:
                for index in range(len(self.databases)):
                    self._run(index, sql)

        others = [pool.submit(run, queries[start::threads]) for start in range(1, threads)]
        try:
            run(queries[::threads])
        finally:
            for done in others:
                done.result()

    def expected(self, gold_sql: str) -> list[ExpectedResult]:
        """The gold SQL's result on every database (evaluation database first). Raises
        UnsafeSQLError when it does not run (a broken suite, not the agent's fault).

        Gold results are kept for the process, keyed by the database file's identity (taken once
        per runner), so that the check of the case file before the agent calls and the scoring
        after them run each once. A gold query runs on this runner's connection to its database."""
        global _gold_cells
        results = []
        query: GoldQuery | None = None  # parsed once for every database
        for index, database in enumerate(self.databases):
            key = (*self._identity(index), gold_sql, self.timeout_s, self.max_rows)
            with _GOLD_LOCK:
                known = _GOLD_RESULTS.get(key)
            if known is None:
                query = query or gold_query(gold_sql)
                known = expected_result(database, gold_sql, timeout_s=self.timeout_s, max_rows=self.max_rows,
                                        connection=self._connection(index), query=query)
                cells = (len(known.rows) + len(known.alternates)) * max(1, len(known.columns))
                with _GOLD_LOCK:
                    if _gold_cells + cells > _GOLD_CELLS_MAX:
                        _GOLD_RESULTS.clear()
                        _gold_cells = 0
                    _GOLD_RESULTS[key] = known
                    _gold_cells += cells
            results.append(known)
        return results

    def _identity(self, index: int) -> tuple:
        """The database file's identity: its real path, inode, size and modification time."""
        identity = self._identities.get(index)
        if identity is None:
            database = self.databases[index]
            stat = database.stat()
            identity = self._identities[index] = (str(database.resolve()), stat.st_ino, stat.st_size,
                                                  stat.st_mtime_ns)
        return identity

    def _run(self, index: int, sql: str) -> SQLRun:
        key = (index, sql)
        with self._lock:
            known = self._runs.get(key)
        if known is not None:
            return known
        try:
            result = self._connection(index).run(sql, timeout_s=self.timeout_s, max_rows=self.max_rows)
        except UnsafeSQLError as error:
            run = SQLRun(None, str(error))
        else:
            # A result over the cap cannot equal a gold result (those are within it) and cannot be
            # verified: its rows are not kept, so that a cross join costs one fetch, not memory.
            run = SQLRun(result) if not result.truncated else SQLRun(None, f"result over {result.cap}")
        with self._lock:
            self._runs[key] = run
            if len(self._runs) > RUNS_KEPT * len(self.databases):
                del self._runs[next(iter(self._runs))]
        return run

    def _connection(self, index: int) -> ReadOnlyConnection:
        key = (threading.get_ident(), index)
        with self._lock:
            connection = self._connections.get(key)
            if connection is None:
                connection = self._connections[key] = ReadOnlyConnection(self.databases[index])
        return connection

    def close(self) -> None:
        """End the threads that ran queries ahead and close the connections the queries ran on."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()
        with self._lock:
            connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            connection.close()

    def __enter__(self) -> QueryRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
