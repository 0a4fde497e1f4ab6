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


def materialize(tmp_path: Path, cases: int = 2) -> dg.ExecuteInProcessResult:
    """The four table assets, with their checks, on ``cases`` count cases, the counting agent (the
    partition "counting", registered first)."""
    cases = [{"id": f"c{i}", "question": f"كم عدد المناقصات رقم {i}؟", "category": "count",
              "expected_table": "tenders_full_details"} for i in range(cases)]
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(tmp_path / "out"))
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("counting", COUNTING)])
        return dg.materialize(
            [table for table, _ in TABLES.values()],
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
    result = materialize(home)  # each table's checks run in its own step
    assert result.success
    for name, (_, schema) in TABLES.items():
        schema.validate(pd.read_parquet(home / "parquet" / f"{name}.parquet"), lazy=True)
    checks = {evaluation.check_name: evaluation.passed for evaluation in result.get_asset_check_evaluations()}
    assert checks == {"test_case_file_valid": True, "scores_in_range": True, "pass_rate_threshold": True,
                      "no_regression": True}
    # Each check ran in its asset's step, on its partition: no step (events, Parquet read) of its own.
    assert {event.step_key for event in result.all_events if event.step_key} == set(TABLES)
    assert {evaluation.partition for evaluation in result.get_asset_check_evaluations()} == {"counting"}


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


def test_the_ui_says_which_answers_are_not_correct_and_why(home: Path):
    """A real instance: evaluation_summary and the threshold check carry the table of the answers
    not Correct (failures first, the agent's rows beside the gold's, its markup literal text), the
    run log a line for each, case_scores' preview its failures and key columns first, and the
    Columns table each column's description."""
    cases = [
        {"id": "total", "question": "كم عدد المناقصات في المنصة؟", "category": "count",
         "expected_table": "tenders_full_details", "expected_sql": "SELECT COUNT(*) AS tenders FROM tenders_full_details"},
        {"id": "plain", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details"},
        {"id": "weather", "question": "ما حالة الطقس في جدة اليوم؟", "category": "out_of_scope"},
    ]
    path = home / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(home / "out"), test_suite_databases=0)
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("markup", "python:nabahan_pipeline_tests.sample_agents:markup_agent")])
        result = dg.materialize(
            [table for table, _ in TABLES.values()],
            resources={**run_resources(settings), "io_manager": ParquetIOManager(base_dir=str(home / "parquet"))},
            instance=instance, partition_key="markup",
        )
        stored = {key.path[-1]: record.asset_materialization.metadata for key in map(dg.AssetKey, TABLES)
                  for record in instance.fetch_materializations(key, limit=1).records}
        logged = [entry.user_message for entry in instance.all_logs(result.run_id) if entry.dagster_event is None]
    summary = stored["evaluation_summary"]
    assert summary["not_correct_count"].value == 2
    # Correct leads: the metadata's first entry, its first figure, the step's last log line.
    names = list(summary)
    assert names[0] == "verdict" and summary["verdict"].value.startswith("Correct 33.3% (1 of 3 cases) · the seed's")
    assert names.index("correct_rate") < names.index("pass_rate") < names.index("total")
    assert summary["verdict"].value in logged
    table = summary["not_correct"].value
    header, rule, *rows = table.splitlines()
    assert [cell.strip() for cell in header.strip("|").split("|")] == [
        "query\\_num", "case\\_id", "repeat", "category", "question", "why", "claims", "sql", "result", "expected"]
    assert [row.split("|")[2].strip() for row in rows] == ["weather", "total"], "the failure first"
    assert "answered an out-of-scope question" in rows[0] and "wrong result" in rows[1]
    assert rows[1].rstrip(" |").endswith(f"tenders: ({_tenders()})"), rows[1]
    assert "&lt;b&gt;x&lt;/b&gt; \\| \\[link\\](http\\://evil.example)" in rows[1] and "<b>" not in table
    [check] = [evaluation for evaluation in result.get_asset_check_evaluations()
               if evaluation.check_name == "pass_rate_threshold"]
    assert not check.passed and check.metadata["not_correct"].value == table
    assert [line for line in logged if line.startswith("case ")] == [
        "case 3 weather (out_of_scope): failed: answered an out-of-scope question",
        "case 1 total (count): passed the seed's checks, not correct: wrong result",
    ]
    preview = stored["case_scores"]["preview"].value.splitlines()
    assert [cell.strip() for cell in preview[0].strip("|").split("|")][:7] == [
        "query\\_num", "case\\_id", "repeat", "category", "correct", "overall\\_passed", "not\\_correct\\_because"]
    assert [row.split("|")[2].strip() for row in preview[2:]] == ["weather", "total", "plain"]
    for name, (_, schema) in TABLES.items():
        columns = stored[name]["dagster/column_schema"].value.columns
        assert [(column.name, column.description) for column in columns] == [
            (column_name, column.description) for column_name, column in schema.columns.items()]


def _tenders() -> int:
    import sqlite3

    from nabahan_pipeline.etimad_db.store import ensure_database

    connection = sqlite3.connect(ensure_database(None))
    try:
        return connection.execute("SELECT COUNT(*) FROM tenders_full_details").fetchone()[0]
    finally:
        connection.close()


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


def test_a_partitions_metadata_names_its_own_runs_files_not_another_agents(home: Path, monkeypatch: pytest.MonkeyPatch):
    """Two agents run from the UI one after the other into one output folder (the location's
    default): every path the first run's materializations name is still the first run's file once
    the second has run (the charts' link and the published Parquet are the second's by then)."""
    import os

    from nabahan_pipeline.definitions import defs

    monkeypatch.setenv("NABAHAN_HOME", str(home / "home"))
    cases = [{"id": "c0", "question": "كم عدد المناقصات؟", "category": "count", "expected_table": "tenders_full_details"}]
    (home / "cases.json").write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    config = {"test_file": str(home / "cases.json"), "output_dir": str(home / "out"), "test_suite_databases": 0,
              "in_process": True, "robustness": True}
    job = defs.resolve_job_def("evaluation_job")
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("counting", COUNTING), LabelledAgent("embedded", "embedded")])
        runs = {label: job.execute_in_process(instance=instance, partition_key=label,
                                              run_config={"resources": {"evaluation": {"config": config}}})
                for label in ("counting", "embedded")}

    def paths(result: dg.ExecuteInProcessResult) -> dict[tuple[str, str], Path]:
        """The files the run wrote, as its materializations name them (not its inputs: the case file, the database)."""
        return {(event.asset_key.to_user_string(), name): Path(str(value.value))
                for event in result.get_asset_materialization_events()
                for name, value in event.materialization.metadata.items()
                if isinstance(value, dg.PathMetadataValue)
                and any(Path(str(value.value)).is_relative_to(home / folder) for folder in ("out", "home"))}

    first, second = paths(runs["counting"]), paths(runs["embedded"])
    named = {asset for asset, _ in first}
    assert named >= {"case_scores", "evaluation_reports", "evaluation_charts", "evaluation_report_page", "robustness"}
    theirs = {os.path.realpath(path) for path in second.values()}
    for (asset, name), path in first.items():
        assert path.exists() and os.path.realpath(path) not in theirs, f"{asset} {name}: {path}"
    scores = pd.read_parquet(first[("case_scores", "path")])
    assert scores["sql"].tolist() == runs["counting"].asset_value("case_scores")["sql"].tolist()
    assert scores["sql"].tolist() != runs["embedded"].asset_value("case_scores")["sql"].tolist()


def test_a_second_run_of_the_same_case_file_and_database_runs_no_gold_sql(home: Path, monkeypatch: pytest.MonkeyPatch):
    import nabahan_pipeline.evaluation.agent_sql as agent_sql

    ran: list[str] = []
    real = agent_sql.expected_result
    monkeypatch.setattr(agent_sql, "expected_result",
                        lambda database, sql, **options: ran.append(sql) or real(database, sql, **options))
    gold = "SELECT COUNT(*) AS n FROM tenders_full_details"
    cases = [{"id": f"c{i}", "question": f"كم عدد المناقصات رقم {i}؟", "category": "count",
              "expected_table": "tenders_full_details", "expected_sql": gold} for i in range(3)]
    path = home / "cases.json"
    path.write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(home / "out"), test_suite_databases=1)

    def run() -> pd.DataFrame:
        # as our entry points run it: the case file checked first, the check handed to the run
        checked = assets.checked_test_cases(settings.resolved())
        with dg.instance_for_test() as instance:
            register_agents(instance, [LabelledAgent("counting", COUNTING)])
            result = dg.materialize(
                [table for table, _ in TABLES.values()],
                resources={**run_resources(settings), "checked_cases": checked,
                           "io_manager": ParquetIOManager(base_dir=str(home / "parquet"))},
                instance=instance, partition_key="counting",
            )
        return result.asset_value("case_scores")

    first = run()
    assert ran == [gold, gold], "the first run: the gold SQL once on each database, by the check alone"
    ran.clear()
    second = run()
    assert ran == [], "the same case file and database: no gold SQL runs"
    assert list(second["execution_match"]) == list(first["execution_match"])
    path.write_text(json.dumps(cases[:2], ensure_ascii=False), encoding="utf-8")
    run()
    assert ran == [gold, gold], "a changed case file: its gold SQL runs again"
