"""agent_comparison end to end: two scripted agents (sample_agents.scripted_agent_a and _b, each
answer chosen per question) evaluated by the Python API, and every figure of the comparison
checked against what their answers must score, worked out by hand:

    case     category       gold SQL  agent a                      agent b
    total    count          yes       right                        right
    riyadh   region_filter  yes       right                        no region: wrong result
    weather  out_of_scope   -         refuses                      answers it
    active   count          no        status error                 right
    big      value_filter   no        DROP TABLE (unsafe)          writes 31415, not in its rows

a: Correct 3/5, passed 3/5 (the error and the unsafe SQL never pass), execution 2/2, errors 1,
unsafe 1, 5 x (100 + 20) tokens. b: Correct 2/5, passed 4/5 (only the answered out-of-scope
question fails the seed's checks: a wrong result and an ungrounded number keep their form),
execution 1/2, no errors, no tokens. They disagree on riyadh, weather and active; both are wrong
on big and right on total.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from nabahan_pipeline import NabahanEvaluationPipeline
from nabahan_pipeline.evaluation.intervals import wilson
from nabahan_pipeline_tests.sample_agents import SCRIPT_CASES

A = "a=python:nabahan_pipeline_tests.sample_agents:scripted_agent_a"
B = "b=python:nabahan_pipeline_tests.sample_agents:scripted_agent_b"


def by_hand_percentile(values: list[float], share: float) -> float:
    """Linear interpolation between the closest ranks (numpy's and pandas' default)."""
    ordered = sorted(values)
    position = share * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (position - low) * (ordered[high] - ordered[low])


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    workspace = tmp_path_factory.mktemp("comparison")
    cases = workspace / "cases.json"
    cases.write_text(json.dumps(SCRIPT_CASES, ensure_ascii=False), encoding="utf-8")
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setenv("NABAHAN_HOME", str(workspace / "home"))
        monkeypatch.delenv("DAGSTER_HOME", raising=False)
        result = NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=cases, agent=[A, B]).run_complete_pipeline()
    return result, workspace


def test_every_figure_of_the_agents_table(compared: tuple[dict, Path]):
    result, _ = compared
    a, b = result["comparison"]["agents"]
    latencies = {label: [row["latency_s"] for row in result["agents"][label]["results"]] for label in ("a", "b")}
    expected = {
        "a": {"agent": "a", "cases": 5, "answers": 5, "correct": 3, "correct_rate": 0.6, "pass_rate": 0.6,
              "execution_accuracy": 1.0, "test_suite_accuracy": 1.0, "errors": 1, "unsafe_sql": 1,
              "total_tokens": 600.0},
        "b": {"agent": "b", "cases": 5, "answers": 5, "correct": 2, "correct_rate": 0.4, "pass_rate": 0.8,
              "execution_accuracy": 0.5, "test_suite_accuracy": 0.5, "errors": 0, "unsafe_sql": 0,
              "total_tokens": None},
    }
    for row in (a, b):
        label = row["agent"]
        assert {key: value for key, value in row.items()
                if not key.endswith(("_latency", "_low", "_high"))} == expected[label]
        correct = expected[label]["correct"]
        assert (row["correct_rate_low"], row["correct_rate_high"]) == pytest.approx(wilson(correct, 5))
        assert row["p50_latency"] == pytest.approx(by_hand_percentile(latencies[label], 0.5))
        assert row["p95_latency"] == pytest.approx(by_hand_percentile(latencies[label], 0.95))
    assert min(latencies["b"]) >= 0.05, "b sleeps 0.05 s before each answer"
    assert result["comparison"]["cases"] == 5 and result["comparison"]["disagreements"] == 3
    # b against a: active won, riyadh and weather lost: McNemar (1, 2) p = 2 * (1 + 3) / 8 -> 1.
    (pair,) = result["comparison"]["pairs"]
    assert pair == {"agent": "b", "against": "a", "cases": 5, "better": 1, "worse": 2, "p_value": 1.0,
                    "significant": False, "better_cases": ["active"], "worse_cases": ["riyadh", "weather"]}


def test_the_three_csv_files_and_the_chart(compared: tuple[dict, Path]):
    result, workspace = compared
    files = {name: Path(path) for name, path in result["files"].items()}
    assert set(files) == {"comparison_csv", "matrix_csv", "pairs_csv", "agent_comparison.png", "report_html"}
    assert all(path.parent == workspace / "out" for path in files.values()), "beside the agents' folders"
    agents = pd.read_csv(files["comparison_csv"], encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert agents["Correct Rate Low"].tolist() == [f"{wilson(3, 5)[0]:.1%}", f"{wilson(2, 5)[0]:.1%}"]
    bounds = [column for column in agents.columns if column.endswith((" Low", " High"))]
    assert len(bounds) == 8
    assert agents.drop(columns=["P50 Latency (s)", "P95 Latency (s)", *bounds]).values.tolist() == [
        ["a", "5", "5", "3", "60.0%", "60.0%", "100.0%", "100.0%", "1", "1", "600"],
        ["b", "5", "5", "2", "40.0%", "80.0%", "50.0%", "50.0%", "0", "0", ""],
    ]
    matrix = pd.read_csv(files["matrix_csv"], encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert list(matrix.columns) == ["Case ID", "Question", "Category", "Agents Disagree", "Agents Correct", "a", "b"]
    assert matrix[["Case ID", "Agents Disagree", "Agents Correct", "a", "b"]].values.tolist() == [
        ["riyadh", "yes", "1", "correct", "wrong result"],
        ["weather", "yes", "1", "correct", "answered an out-of-scope question"],
        ["active", "yes", "1", "error: model overloaded", "correct"],
        ["total", "no", "2", "correct", "correct"],
        ["big", "no", "0", "unsafe SQL: not a read-only query: DROP statement", "unverified: … عدد المناقصات المطابقة 31415 مناقصة وفق البيانات …"],
    ]
    questions = {case["id"]: case["question"] for case in SCRIPT_CASES}
    assert matrix["Question"].tolist() == [questions[case] for case in matrix["Case ID"]]
    pairs = pd.read_csv(files["pairs_csv"], encoding="utf-8-sig", dtype=str, keep_default_na=False)
    assert pairs.values.tolist() == [["b", "a", "5", "1", "2", "1", "no", "active", "riyadh weather"]]
    assert files["agent_comparison.png"].read_bytes().startswith(b"\x89PNG")


def test_each_agent_is_its_own_partition_with_its_own_reports(compared: tuple[dict, Path]):
    result, workspace = compared
    for label in ("a", "b"):
        run = result["agents"][label]
        assert run["agent_label"] == label and run["summary"]["total"] == 5
        assert Path(run["files"]["results_csv"]).parent == workspace / "out" / label
        assert run["checks"]["no_regression"] is True, "its first run"
    stored = pd.read_parquet(workspace / "home" / "parquet" / "agent_comparison.parquet")
    assert stored["agent"].tolist() == ["a", "b"] and stored["correct"].tolist() == [3, 2]


def test_the_ui_shows_the_chart_and_the_table(compared: tuple[dict, Path]):
    result, workspace = compared
    with dg.DagsterInstance.from_config(str(workspace / "home" / "dagster")) as instance:
        (record,) = instance.fetch_materializations(dg.AssetKey("agent_comparison"), limit=5).records
        assert instance.get_dynamic_partitions("agents") == ["a", "b"]
    metadata = {key: entry.value for key, entry in record.asset_materialization.metadata.items()}
    assert record.run_id == result["comparison"]["run_id"]
    assert re.match(r"!\[[^]]*\]\(data:image/png;base64,", metadata["chart"])
    assert "| a " in metadata["agents"] and "60.0%" in metadata["agents"]
    assert metadata["runs"] == {label: result["agents"][label]["run_id"] for label in ("a", "b")}
    assert (metadata["disagreements"], metadata["cases"], metadata["not_evaluated"]) == (3, 5, [])
    assert metadata["significant_pairs"] == 0 and metadata["pairs"] == result["comparison"]["pairs"]
