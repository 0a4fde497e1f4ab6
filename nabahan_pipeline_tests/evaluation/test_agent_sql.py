"""The agent's SQL run by QueryRunner: on one connection per database, each query on every
database."""

from __future__ import annotations

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
    assert counts[:5] == counts[5:], "the same result again"
    assert counts[0][0] - 0 == counts[4][0] - 4 and counts[0][0] != counts[0][1], "its own database's rows"


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
