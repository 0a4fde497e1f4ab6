"""The agent's SQL, untrusted, judged by running it ourselves: parsed in its dialect, never run
unless one read-only query, then transpiled and run read-only with limits on the evaluation and
test-suite databases, where the gold SQL runs too."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nabahan_pipeline.etimad_db.sql_safety import (
    QueryResult, ReadOnlyConnection, UnsafeSQLError, read_sql, referenced_columns, referenced_tables,
)
from nabahan_pipeline.evaluation.execution_match import (
    ExpectedResult, expected_result, gold_query, rows_match,
)
from nabahan_pipeline.settings import SETTINGS

DEFAULT_SQL_TIMEOUT_S: float = SETTINGS["sql_timeout_s"].default
DEFAULT_MAX_ROWS: int = SETTINGS["sql_max_rows"].default


@dataclass(frozen=True)
class CheckedSQL:
    """The agent's SQL after the safety check: ``sqlite`` is what we run (None when there is no
    SQL or it is unsafe); ``problem`` says why it is unsafe; ``aggregates`` is its reading's
    (``SQLReading.aggregates``)."""

    sqlite: str | None
    unsafe: bool = False
    problem: str | None = None
    aggregates: tuple[str | None, ...] | None = None


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
        return CheckedSQL(sqlite=None, unsafe=True, problem=reading.problem, aggregates=reading.aggregates)
    return CheckedSQL(sqlite=reading.sqlite, aggregates=reading.aggregates)


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
    """Runs gold and agent queries on the evaluation and test-suite databases, with one time limit
    and one row cap, on one read-only connection to each database (opened on first use, closed by
    ``close``). It keeps no results: its caller runs each distinct query once and passes them on.
    For one thread at a time."""

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
        self._connections: dict[int, ReadOnlyConnection] = {}

    def agent_runs(self, checked: CheckedSQL) -> list[SQLRun]:
        """The agent's safe SQL on every database (evaluation database first); [] when none."""
        if checked.sqlite is None:
            return []
        return [self._run(index, checked.sqlite) for index in range(len(self.databases))]

    def expected(self, gold_sql: str) -> list[ExpectedResult]:
        """The gold SQL's result on every database (evaluation database first). Raises
        UnsafeSQLError when it does not run (a broken suite, not the agent's fault)."""
        query = gold_query(gold_sql)  # read once for every database
        return [expected_result(database, gold_sql, timeout_s=self.timeout_s, max_rows=self.max_rows,
                                connection=self._connection(index), query=query)
                for index, database in enumerate(self.databases)]

    def _run(self, index: int, sql: str) -> SQLRun:
        try:
            result = self._connection(index).run(sql, timeout_s=self.timeout_s, max_rows=self.max_rows)
        except UnsafeSQLError as error:
            return SQLRun(None, str(error))
        # A result over the cap cannot equal a gold result (those are within it) and cannot be
        # verified: its rows are not kept, so that a cross join costs one fetch, not memory.
        return SQLRun(result) if not result.truncated else SQLRun(None, f"result over {result.cap}")

    def _connection(self, index: int) -> ReadOnlyConnection:
        connection = self._connections.get(index)
        if connection is None:
            connection = self._connections[index] = ReadOnlyConnection(self.databases[index])
        return connection

    def close(self) -> None:
        """Close the connections the queries ran on."""
        connections, self._connections = list(self._connections.values()), {}
        for connection in connections:
            connection.close()

    def __enter__(self) -> QueryRunner:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
