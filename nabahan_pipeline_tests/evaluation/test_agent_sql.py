"""The agent's SQL run by QueryRunner: each distinct query once per database, on one connection per
database and thread (a batch's queries run ahead on two threads)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from nabahan_pipeline.evaluation import agent_sql
from nabahan_pipeline.evaluation.agent_sql import QueryRunner, check_agent_sql


def test_the_agents_queries_share_one_connection_per_database(
    small_db: Path, default_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[agent_sql.ReadOnlyConnection] = []
    closed: list[agent_sql.ReadOnlyConnection] = []

    class Counted(agent_sql.ReadOnlyConnection):
        def __init__(self, database: Path) -> None:
            super().__init__(database)
            opened.append(self)

        def close(self) -> None:
            closed.append(self)
            super().close()

    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    queries = [f"SELECT COUNT(*) + {i} FROM tenders_full_details" for i in range(5)]
    with QueryRunner(default_db, [small_db]) as runner:
        results = [runner.agent_runs(check_agent_sql(sql)) for sql in queries + queries]
        assert len(opened) == 2, "one connection per database, not one per query"
    assert sorted(map(id, closed)) == sorted(map(id, opened)), "closed with the runner"
    counts = [[run.result.rows[0][0] for run in runs] for runs in results]
    assert counts[:5] == counts[5:], "each query once per database, the same result again"
    assert counts[0][0] - 0 == counts[4][0] - 4 and counts[0][0] != counts[0][1], "its own database's rows"


def test_queries_run_ahead_on_threads_each_with_its_own_connections(
    small_db: Path, default_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[tuple[int, str, int]] = []  # (connection, SQL, thread) of each query run
    closed: list[int] = []

    class Counted(agent_sql.ReadOnlyConnection):
        def run(self, sql: str, **limits: object) -> agent_sql.QueryResult:
            ran.append((id(self), sql, threading.get_ident()))
            return super().run(sql, **limits)

        def close(self) -> None:
            closed.append(id(self))
            super().close()

    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    queries = [f"SELECT COUNT(*) + {i} FROM tenders_full_details" for i in range(6)]
    checked = [check_agent_sql(sql) for sql in [*queries, *queries, "DELETE FROM regions"]]
    with QueryRunner(default_db, [small_db]) as runner:
        runner.run_ahead(checked, threads=2)
        assert sorted(sql for _, sql, _ in ran) == sorted(queries * 2), "each safe query once per database"
        threads = {thread for _, _, thread in ran}
        assert len(threads) == 2 and threading.get_ident() in threads, "on this thread and one of the runner's"
        assert len({connection for connection, _, _ in ran}) == 4, "each thread its own connection to each database"
        before = len(ran)
        ahead = [runner.agent_runs(one) for one in checked]
        assert len(ran) == before, "agent_runs finds them run"
    assert sorted(closed) == sorted({connection for connection, _, _ in ran}), "closed with the runner"
    with QueryRunner(default_db, [small_db]) as fresh:
        assert ahead == [fresh.agent_runs(one) for one in checked], "the same runs as run one by one"


def test_a_runner_keeps_the_runs_of_its_last_queries_only(
    small_db: Path, default_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[str] = []

    class Counted(agent_sql.ReadOnlyConnection):
        def run(self, sql: str, **limits: object) -> agent_sql.QueryResult:
            ran.append(sql)
            return super().run(sql, **limits)

    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    monkeypatch.setattr(agent_sql, "RUNS_KEPT", 2)
    first, second, third = (check_agent_sql(f"SELECT {i} AS n") for i in range(3))
    with QueryRunner(default_db, [small_db]) as runner:
        kept = runner.agent_runs(first)
        runner.agent_runs(second)
        assert runner.agent_runs(first) == kept and len(ran) == 4, "kept: run once on each database"
        runner.agent_runs(third)  # two queries kept: the first is forgotten
        assert runner.agent_runs(second) and len(ran) == 6, "the second still kept"
        assert runner.agent_runs(first) == kept and len(ran) == 8, "the first run again, with the same result"


@pytest.mark.parametrize(
    ("sql", "dialect", "problem", "ours"),
    [
        ("SELECT EXTRACT(WEEK FROM d) FROM t", "postgres", 'query failed: near "FROM": syntax error', True),
        ("SELECT TO_DAYS(d) FROM t", "mysql", "query failed: no such function: TO_DAYS", True),
        ("SELECT x FROM t GROUP BY ALL", "duckdb", 'query failed: near "ALL": syntax error', True),
        ("SELECT DATEADD(day, 1, d) FROM t", "tsql", "query failed: no such column: day", True),  # not the agent's name
        ("SELECT winner FROM t", "postgres", "query failed: no such column: winner", False),  # its own name
        ("SELECT t.winner FROM t", "mysql", "query failed: no such column: t.winner", False),
        ("SELECT 1 FROM companies", "postgres", "query failed: no such table: companies", False),
        ("SELECT EXTRACT(WEEK FROM d) FROM t", None, 'query failed: near "FROM": syntax error', False),  # SQLite's own
        ("SELECT EXTRACT(WEEK FROM d) FROM t", "sqlite", 'query failed: near "FROM": syntax error', False),
        ("SELECT 1 FROM t", "postgres", "query exceeded the time limit of 5 s", False),
        ("SELECT 1 FROM t", "postgres", "result over the row cap of 100,000 rows", False),
    ],
)
def test_a_failure_is_the_transpiles_only_where_sqlite_refused_what_we_wrote(
    sql: str, dialect: str | None, problem: str, ours: bool
) -> None:
    assert agent_sql.lost_in_transpiling(sql, dialect, agent_sql.SQLRun(None, problem)) is ours


def test_sql_that_ran_is_never_lost_in_transpiling(small_db: Path) -> None:
    with QueryRunner(small_db) as runner:
        (run,) = runner.agent_runs(check_agent_sql("SELECT COUNT(*) FROM tenders_full_details", "postgres"))
    assert run.result is not None and not agent_sql.lost_in_transpiling("SELECT 1", "postgres", run)
    assert not agent_sql.lost_in_transpiling(None, "postgres", None)
