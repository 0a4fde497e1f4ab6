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
