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
    # Each thread's first query waits for the other thread's: one thread cannot take both shares
    # before the second starts (and the test fails, timed out, if only one thread runs them).
    both_started = threading.Barrier(2, timeout=10)
    started: set[int] = set()

    class Counted(agent_sql.ReadOnlyConnection):
        def run(self, sql: str, **limits: object) -> agent_sql.QueryResult:
            if threading.get_ident() != caller and threading.get_ident() not in started:
                started.add(threading.get_ident())
                both_started.wait()
            ran.append((id(self), sql, threading.get_ident()))
            return super().run(sql, **limits)

        def close(self) -> None:
            closed.append(id(self))
            super().close()

    caller = threading.get_ident()
    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    queries = [f"SELECT COUNT(*) + {i} FROM tenders_full_details" for i in range(6)]
    checked = [check_agent_sql(sql) for sql in [*queries, *queries, "DELETE FROM regions"]]
    with QueryRunner(default_db, [small_db]) as runner:
        runner.run_ahead(checked, threads=2)
        assert sorted(sql for _, sql, _ in ran) == sorted(queries * 2), "each safe query once per database"
        threads = {thread for _, _, thread in ran}
        assert len(threads) == 2 and threading.get_ident() not in threads, "on two threads of the runner's"
        assert len({connection for connection, _, _ in ran}) == 4, "each thread its own connection to each database"
        before = len(ran)
        ahead = [runner.agent_runs(one) for one in checked]
        assert len(ran) == before, "agent_runs finds them run"
    assert sorted(closed) == sorted({connection for connection, _, _ in ran}), "closed with the runner"
    with QueryRunner(default_db, [small_db]) as fresh:
        assert ahead == [fresh.agent_runs(one) for one in checked], "the same runs as run one by one"


def test_a_runner_forgets_earlier_batches_runs_past_its_bound_and_keeps_answers_alike(
    small_db: Path, default_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(agent_sql, "MAX_KEPT_RUNS", 10)
    ran: list[str] = []

    class Counted(agent_sql.ReadOnlyConnection):
        def run(self, sql: str, **limits: object) -> agent_sql.QueryResult:
            ran.append(sql)
            return super().run(sql, **limits)

    monkeypatch.setattr(agent_sql, "ReadOnlyConnection", Counted)
    alike = check_agent_sql("SELECT COUNT(*) FROM tenders_full_details")
    with QueryRunner(default_db, [small_db]) as runner:
        for batch in range(6):  # each batch: one answer like every batch's, three of its own
            checked = [alike, *(check_agent_sql(f"SELECT {batch * 10 + i} AS n") for i in range(3))]
            runner.run_ahead(checked, threads=2)
            runs = [runner.agent_runs(one) for one in checked]
            assert [[run.result.rows for run in each] for each in runs[1:]] == [
                [[(batch * 10 + i,)]] * 2 for i in range(3)]
            assert len(runner._runs) <= 10 + 2 * (len(checked) - 1), "bounded: earlier batches forgotten"
    # batches 0, 2 and 4 start with their runs forgotten (8, 14, 8, 14... kept): the one alike
    # runs again there, on both databases; in batches 1, 3 and 5 it is found kept
    assert ran.count(alike.sqlite) == 3 * 2
