"""The robustness asset in a whole run (issue 29): with the option, every variant asked of the
run's agent and scored, its files and chart written, its table stored; without it, nothing."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
import pandas as pd
import pytest

from nabahan_pipeline import NabahanEvaluationPipeline
from nabahan_pipeline.settings import SHIPPED_TEST_CASES


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    monkeypatch.delenv("NABAHAN_ROBUSTNESS", raising=False)
    return tmp_path


def _materialized(home: Path, run_id: str) -> set[str]:
    with dg.DagsterInstance.from_config(str(home / "home" / "dagster")) as instance:
        return {entry.asset_materialization.asset_key.to_user_string() for entry in instance.all_logs(run_id)
                if entry.is_dagster_event and entry.dagster_event.event_type_value == "ASSET_MATERIALIZATION"}


def test_with_the_option_each_variant_is_asked_scored_and_reported(workspace: Path) -> None:
    result = NabahanEvaluationPipeline(output_dir=workspace / "out", quick=True, test_suite_databases=0,
                                       robustness=True).run_complete_pipeline()
    files = result["files"]
    results = pd.read_csv(files["robustness_results_csv"], encoding="utf-8-sig")
    summary = pd.read_csv(files["robustness_summary_csv"], encoding="utf-8-sig")
    chart = Path(files["robustness_summary_csv"]).with_suffix(".png")
    assert chart.is_file() and chart.stat().st_size > 10_000
    quick_ids = {row["case_id"] for row in result["results"]}
    assert set(results["case_id"]) == quick_ids, "every case asked, out-of-scope ones too"
    assert not results.duplicated(["case_id", "perturbation"]).any()
    assert results["original_correct"].all(), "the embedded agent is right on the quick suite"
    # What the run's own scores say of each original, and a refused case's variants still refused.
    assert set(results.loc[results["category"] == "out_of_scope", "status"]) == {"out_of_scope"}
    assert summary["perturbation"].iloc[-1] == "overall" and summary["cases"].iloc[-1] == len(results)
    broken = results[results["broke"]]
    assert summary["broken"].iloc[-1] == len(broken)
    assert all(f"{row.case_id}: {row.variant}" in summary["broken_cases"].iloc[-1] for row in broken.itertuples())
    assert "robustness" in _materialized(workspace, result["run_id"])
    # The original run is the one it is without the option: 8 cases, 8 answers.
    assert result["summary"]["total"] == 8 and len(result["results"]) == 8


def test_without_the_option_nothing_runs_and_nothing_is_written(workspace: Path) -> None:
    result = NabahanEvaluationPipeline(output_dir=workspace / "out", test_file=SHIPPED_TEST_CASES, quick=True,
                                       test_suite_databases=0).run_complete_pipeline()
    assert not any(key.startswith("robustness") for key in result["files"])
    assert not list((workspace / "out").glob("robustness*"))
    assert "robustness" not in _materialized(workspace, result["run_id"])
    assert "case_scores" in _materialized(workspace, result["run_id"])
