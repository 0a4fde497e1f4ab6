"""deploy/dagster.yaml on a real PostgreSQL server: two agents evaluated twice each through the
Python API (the same Dagster job as `nabahan eval`), and the runs, the assets' materializations and
the regression check's evaluations found in PostgreSQL itself.

The Kubernetes run launcher of deploy/dagster.yaml is replaced by Dagster's default for the test
(there is no cluster here); storage, run coordinator, monitoring and retention are deploy's.
When CI=true a PostgreSQL that cannot start fails the test; elsewhere it skips.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from nabahan_pipeline import NabahanEvaluationPipeline
from nabahan_pipeline_tests import sample_agents
from nabahan_pipeline_tests.postgres_server import PostgresUnavailable, postgres_server

DEPLOY_INSTANCE = Path(__file__).resolve().parents[1] / "deploy" / "dagster.yaml"
AGENTS = {
    "A": "python:nabahan_pipeline_tests.sample_agents:agent_a",
    "B": "python:nabahan_pipeline_tests.sample_agents:agent_b",
}
DATABASE = "nabahan_dagster"

pytestmark = pytest.mark.slow


@pytest.fixture
def server():
    try:
        with postgres_server() as running:
            yield running
    except PostgresUnavailable as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"PostgreSQL did not start on CI: {exc}")
        pytest.skip(f"no PostgreSQL server here: {exc}")


def test_two_agents_twice_are_recorded_in_postgresql(server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    server.create_database(DATABASE)
    for name, value in {"DAGSTER_PG_HOST": server.host, "DAGSTER_PG_PORT": str(server.port),
                        "DAGSTER_PG_USER": server.user, "DAGSTER_PG_PASSWORD": server.password,
                        "DAGSTER_PG_DB": DATABASE}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    instance_config = yaml.safe_load(DEPLOY_INSTANCE.read_text())
    del instance_config["run_launcher"]  # no cluster: Dagster's default launcher
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text(yaml.safe_dump(instance_config))
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps(sample_agents.COMPARED_CASES, ensure_ascii=False), encoding="utf-8")

    run_ids: dict[str, list[str]] = {label: [] for label in AGENTS}
    for _ in range(2):
        for label, spec in AGENTS.items():
            result = NabahanEvaluationPipeline(
                output_dir=tmp_path / "out", test_file=cases, agent=spec, dagster_home=home, label=label
            ).run_complete_pipeline()
            run_ids[label].append(result["run_id"])
            assert result["checks"]["no_regression"] is True

    connection = server.connect(DATABASE)
    with connection.cursor() as cursor:
        cursor.execute("SELECT run_id, status FROM runs")
        runs = dict(cursor.fetchall())
        cursor.execute("SELECT run_id, value FROM run_tags WHERE key = 'nabahan/agent'")
        agent_tags = dict(cursor.fetchall())
        cursor.execute(
            "SELECT run_id, asset_key FROM event_logs WHERE dagster_event_type = 'ASSET_MATERIALIZATION'"
        )
        materialized = cursor.fetchall()
        cursor.execute("SELECT run_id, check_name, execution_status FROM asset_check_executions")
        checks = cursor.fetchall()
        cursor.execute("SELECT run_id, evaluation_event FROM asset_check_executions WHERE check_name = 'no_regression'")
        regression_events = dict(cursor.fetchall())
    connection.close()

    every_run = [run_id for ids in run_ids.values() for run_id in ids]
    assert {run_id: runs.get(run_id) for run_id in every_run} == {run_id: "SUCCESS" for run_id in every_run}
    assert {agent_tags[run_id] for run_id in run_ids["A"]} == {AGENTS["A"]}
    assert {agent_tags[run_id] for run_id in run_ids["B"]} == {AGENTS["B"]}
    summaries = [run_id for run_id, key in materialized if json.loads(key) == ["evaluation_summary"]]
    assert sorted(summaries) == sorted(every_run)
    regression = [(run_id, status) for run_id, name, status in checks if name == "no_regression"]
    assert sorted(regression) == sorted((run_id, "SUCCEEDED") for run_id in every_run)
    # Each agent's second run was compared with its own first, the first runs with nothing.
    for first, second in run_ids.values():
        assert "none of this suite and agent" in regression_events[first]
        assert f"{first}.parquet" in regression_events[second]
        assert "regressed_count" in regression_events[second]
