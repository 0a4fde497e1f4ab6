"""The four table assets carry their pandera schema as their Dagster type: the UI shows each
column, and a table with a wrong column fails the step that made it, naming the column."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from nabahan_pipeline.agents.labels import LabelledAgent
from nabahan_pipeline.evaluation.tables import AGENT_RESPONSES, CASE_SCORES, EVALUATION_SUMMARY, TEST_CASES
from nabahan_pipeline.orchestration import assets
from nabahan_pipeline.orchestration.checks import evaluation_checks
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.partitions import register_agents
from nabahan_pipeline.orchestration.resources import EvaluationSettings, run_resources

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
TABLES = {
    "test_cases": (assets.test_cases, TEST_CASES),
    "agent_responses": (assets.agent_responses, AGENT_RESPONSES),
    "case_scores": (assets.case_scores, CASE_SCORES),
    "evaluation_summary": (assets.evaluation_summary, EVALUATION_SUMMARY),
}


def materialize(tmp_path: Path, *extra: dg.AssetChecksDefinition, cases: int = 2) -> dg.ExecuteInProcessResult:
    """The four table assets (and ``extra`` checks) on ``cases`` count cases, the counting agent
    (the partition "counting", registered first)."""
    cases = [{"id": f"c{i}", "question": f"كم عدد المناقصات رقم {i}؟", "category": "count",
              "expected_table": "tenders_full_details"} for i in range(cases)]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(tmp_path / "out"))
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("counting", COUNTING)])
        return dg.materialize(
            [table for table, _ in TABLES.values()] + list(extra),
            resources={**run_resources(settings), "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
            instance=instance,
            partition_key="counting",
            raise_on_error=False,
        )


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    return tmp_path


@pytest.mark.parametrize("name", list(TABLES))
def test_each_table_assets_dagster_type_is_its_schema(name: str):
    asset, schema = TABLES[name]
    dagster_type = asset.op.outs["result"].dagster_type
    assert dagster_type.display_name == name and dagster_type.description == schema.description
    columns = dagster_type.metadata["schema"].value.columns
    assert [column.name for column in columns] == list(schema.columns)
    assert [column.description for column in columns] == [column.description for column in schema.columns.values()]
    assert all(column.description for column in columns)


def test_the_stored_tables_hold_to_their_schemas_and_the_checks_pass(home: Path):
    result = materialize(home, *evaluation_checks)
    assert result.success
    for name, (_, schema) in TABLES.items():
        schema.validate(pd.read_parquet(home / "parquet" / f"{name}.parquet"), lazy=True)
    checks = {evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()}
    assert checks == {"test_case_file_valid": True, "scores_in_range": True, "pass_rate_threshold": True,
                      "no_regression": True}


def test_each_run_hands_its_own_tables_on_whatever_ran_before(home: Path):
    first = materialize(home, cases=3)
    second = materialize(home, cases=2)
    assert first.success and second.success
    for result, ids in ((first, ["c0", "c1", "c2"]), (second, ["c0", "c1"])):
        stored = pd.read_parquet(home / "parquet" / "history" / "case_scores" / f"{result.run_id}.parquet")
        assert stored["case_id"].tolist() == ids
        summary = pd.read_parquet(home / "parquet" / "history" / "evaluation_summary" / f"{result.run_id}.parquet")
        assert summary["total"].iloc[0] == len(ids)


def _drop(column: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda table: table.drop(columns=column)


def _as_text(column: str) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda table: table.assign(**{column: table[column].astype(str)})


def _set(column: str, value: object) -> Callable[[pd.DataFrame], pd.DataFrame]:
    return lambda table: table.assign(**{column: value})


@pytest.mark.parametrize(
    ("step", "maker", "wrong", "column"),
    [
        ("test_cases", "parse_test_cases", _drop("tags"), "tags"),  # missing
        ("agent_responses", "run_agent", _as_text("latency_s"), "latency_s"),  # wrong type
        ("agent_responses", "run_agent", _set("status", "maybe"), "status"),  # not a status
        ("case_scores", "score_responses", _set("retrieval_points", 4), "retrieval_points"),  # out of range
        ("evaluation_summary", "summarize", _set("pass_rate", 1.5), "pass_rate"),  # out of range
    ],
    ids=["missing", "wrong-type", "unknown-value", "points-out-of-range", "rate-out-of-range"],
)
def test_a_wrong_column_fails_the_step_that_made_it(
    home: Path, monkeypatch: pytest.MonkeyPatch, step: str, maker: str, wrong: Callable, column: str
):
    real = getattr(assets, maker)
    monkeypatch.setattr(assets, maker, lambda *args, **kwargs: wrong(real(*args, **kwargs)))
    result = materialize(home)
    assert not result.success
    [failure] = result.get_step_failure_events()
    assert failure.step_key == step
    message = failure.event_specific_data.error.message
    assert f'expected type "{step}"' in message and f'"column": "{column}"' in message
    assert not (home / "parquet" / f"{step}.parquet").exists(), "the wrong table is not stored"


def ui_run(tmp_path: Path, gold: str, **options: object) -> dg.ExecuteInProcessResult:
    """The table assets as the UI and the sensor run them: no checked cases handed in."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps([{"id": "c0", "question": "كم عدد المناقصات؟", "category": "count",
                                 "expected_table": "tenders_full_details", "expected_sql": gold}],
                               ensure_ascii=False), encoding="utf-8")
    # In this process, so that sample_agents.CALLS counts the calls.
    settings = EvaluationSettings(test_file=str(path), test_suite_databases=0, in_process=True, **options)
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("counting", COUNTING)])
        return dg.materialize(
            [table for table, _ in TABLES.values()],
            resources={**run_resources(settings), "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"))},
            instance=instance, partition_key="counting", raise_on_error=False,
        )


def test_a_ui_run_checks_gold_and_output_under_its_own_limits_before_any_call(home: Path):
    from nabahan_pipeline_tests import sample_agents

    calls = len(sample_agents.CALLS)
    gold = "SELECT tender_id FROM tenders_full_details LIMIT 50"
    over = ui_run(home, gold, sql_max_rows=10, output_dir=str(home / "out"))
    (failure,) = [event for event in over.all_events if event.is_step_failure]
    assert failure.step_key == "test_cases" and "at most 10 rows" in str(failure.event_specific_data.error)
    (home / "report.csv").write_text("mine", encoding="utf-8")
    file_output = ui_run(home, gold, output_dir=str(home / "report.csv"))
    (failure,) = [event for event in file_output.all_events if event.is_step_failure]
    assert failure.step_key == "test_cases" and "is not a folder" in str(failure.event_specific_data.error)
    assert len(sample_agents.CALLS) == calls  # neither run asked the agent
    assert ui_run(home, gold, output_dir=str(home / "out")).success  # the default cap holds 50 rows
    assert len(sample_agents.CALLS) == calls + 1
