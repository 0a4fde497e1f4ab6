"""The asset checks as Dagster runs them: no_regression against a baseline run (a significant drop
by McNemar, a must_pass case) and the threshold on the rate or its interval's lower bound, with
the metadata each check leaves in the UI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dagster as dg
import pytest

from nabahan_pipeline.agents.labels import LabelledAgent
from nabahan_pipeline.orchestration import assets
from nabahan_pipeline.orchestration.io_manager import ParquetIOManager
from nabahan_pipeline.orchestration.partitions import register_agents
from nabahan_pipeline.orchestration.resources import EvaluationSettings, run_resources

COUNTING = "python:nabahan_pipeline_tests.sample_agents:counting_agent"
RAISING = "python:nabahan_pipeline_tests.sample_agents:raising_agent"
TABLES = [assets.test_cases, assets.agent_responses, assets.case_scores, assets.evaluation_summary]


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("NABAHAN_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("DAGSTER_HOME", raising=False)
    with dg.instance_for_test() as instance:
        register_agents(instance, [LabelledAgent("counting", COUNTING), LabelledAgent("raising", RAISING)])
        yield instance


def run(instance: dg.DagsterInstance, tmp_path: Path, partition: str, cases: int, *, must_pass: tuple[int, ...] = (),
        keep_history: int = 50, **options: Any) -> dict[str, dg.AssetCheckEvaluation]:
    """The table assets and their checks for ``partition`` on ``cases`` count cases (those
    numbered in ``must_pass`` marked so); each check's evaluation by name."""
    entries = [{"id": f"c{i}", "question": f"كم عدد المناقصات رقم {i}؟", "category": "count",
                "expected_table": "tenders_full_details", **({"must_pass": True} if i in must_pass else {})}
               for i in range(cases)]
    path = tmp_path / f"cases_{partition}_{len(must_pass)}.json"
    path.write_text(json.dumps(entries, ensure_ascii=False), encoding="utf-8")
    settings = EvaluationSettings(test_file=str(path), output_dir=str(tmp_path / "out"), test_suite_databases=0,
                                  **options)
    result = dg.materialize(
        TABLES,  # their checks with them: each a check spec of its asset
        resources={**run_resources(settings), "io_manager": ParquetIOManager(base_dir=str(tmp_path / "parquet"),
                                                                       keep_history=keep_history)},
        instance=instance, partition_key=partition, raise_on_error=False,
    )
    assert result.success
    return {evaluation.check_name: evaluation for evaluation in result.get_asset_check_evaluations()} | {
        "run_id": result.run_id}


def values(evaluation: dg.AssetCheckEvaluation) -> dict[str, Any]:
    """The check's metadata by name, each number's agent (`` [counting]``) taken off its name."""
    suffix = f" [{evaluation.partition}]"
    return {key.removesuffix(suffix): value.value for key, value in evaluation.metadata.items()}


def test_a_significant_drop_fails_and_lists_the_cases_it_lost(instance, tmp_path: Path):
    first = run(instance, tmp_path, "counting", 8)
    assert first["no_regression"].passed and values(first["no_regression"])["must_pass_failed"] == []
    # Every one of 8 cases lost: p = 2 / 2^8.
    dropped = run(instance, tmp_path, "raising", 8, baseline=first["run_id"])
    meta = values(dropped["no_regression"])
    assert not dropped["no_regression"].passed
    assert (meta["cases_compared"], meta["regressed_count"], meta["improved_count"]) == (8, 8, 0)
    assert meta["mcnemar_p"] == pytest.approx(2 / 256) and meta["significant_drop"] is True
    assert meta["regressed_case_ids"] == [f"c{i}" for i in range(8)] and meta["improved_case_ids"] == []
    assert "McNemar" in meta["rule"]


def test_a_small_drop_is_noise_but_a_must_pass_case_fails(instance, tmp_path: Path):
    first = run(instance, tmp_path, "counting", 3)
    noise = run(instance, tmp_path, "raising", 3, baseline=first["run_id"])
    meta = values(noise["no_regression"])
    assert noise["no_regression"].passed, "3 cases lost: p = 0.25"
    assert (meta["regressed_count"], meta["mcnemar_p"], meta["significant_drop"]) == (3, 0.25, False)
    must = run(instance, tmp_path, "raising", 3, must_pass=(1,))
    assert not must["no_regression"].passed, "a must_pass case wrong, even with no run to compare with"
    assert values(must["no_regression"])["must_pass_failed"] == ["c1"]


def test_the_threshold_judges_the_rate_or_its_lower_bound(instance, tmp_path: Path):
    # 2 of 2 Correct: rate 1.0, Wilson lower bound 0.342 (1 + z²/2 = 2.9207; centre (1 + 0.9604) / 2.9207 = 0.6712; half 0.6711 * sqrt(0.2401) = 0.3288).
    on_rate = run(instance, tmp_path, "counting", 2, pass_threshold=0.8)
    assert on_rate["pass_rate_threshold"].passed
    on_lower = run(instance, tmp_path, "counting", 2, pass_threshold=0.8, gate_on="lower")
    meta = values(on_lower["pass_rate_threshold"])
    assert not on_lower["pass_rate_threshold"].passed
    assert meta["gate_on"] == "lower" and meta["correct_rate"] == 1.0
    assert meta["correct_rate_interval"] == [pytest.approx(0.342380, abs=1e-6), 1.0]


@pytest.mark.faults
def test_a_baseline_cut_short_is_a_failed_check_with_its_reason_not_a_lost_run(instance, tmp_path: Path):
    # It raised a pyarrow traceback from no_regression: the run failed and wrote no report.
    first = run(instance, tmp_path, "counting", 3, label="release-1")
    archive = tmp_path / "parquet" / "history" / "case_scores" / f"{first['run_id']}.parquet"
    archive.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    later = run(instance, tmp_path, "counting", 3, baseline="release-1")
    meta = values(later["no_regression"])
    assert not later["no_regression"].passed and meta["baseline"] == "release-1"
    assert meta["error"].startswith(f"the compared run's scores cannot be read: {archive}: "), meta["error"]
    assert later["pass_rate_threshold"].passed, "the run's other checks ran"


@pytest.mark.faults
def test_history_is_pruned_per_agent_and_never_a_run_a_label_names(instance, tmp_path: Path):
    # The history kept the newest files of each asset whichever agent wrote them: another agent's
    # runs pruned the named baseline's scores away, and --baseline found nothing to compare with.
    history = tmp_path / "parquet" / "history" / "case_scores"
    named = run(instance, tmp_path, "counting", 3, keep_history=2, label="release-1")["run_id"]
    others = [run(instance, tmp_path, "raising", 3, keep_history=2)["run_id"] for _ in range(3)]
    unnamed = run(instance, tmp_path, "counting", 3, keep_history=2)["run_id"]
    later = run(instance, tmp_path, "counting", 3, keep_history=2)
    last = run(instance, tmp_path, "counting", 3, keep_history=2, baseline="release-1")
    kept = {path.stem for path in history.glob("*.parquet")}
    assert kept == {named, *others[1:], later["run_id"], last["run_id"]}, "each agent's 2 newest, and the named run"
    assert unnamed not in kept
    meta = values(last["no_regression"])
    assert last["no_regression"].passed and meta["cases_compared"] == 3, meta


def test_each_agents_numbers_are_named_with_it_so_the_uis_plots_never_mix_agents(instance, tmp_path: Path):
    """The UI plots a check's numbers by name over every partition's executions: each number carries
    its agent, so the counting agent's correct_rate and the raising agent's are two plots."""
    counting = run(instance, tmp_path, "counting", 2)["pass_rate_threshold"]
    raising = run(instance, tmp_path, "raising", 2)["pass_rate_threshold"]
    assert counting.metadata["correct_rate [counting]"].value == 1.0
    assert raising.metadata["correct_rate [raising]"].value == 0.0
    for evaluation, other in ((counting, "raising"), (raising, "counting")):
        numbers = [name for name, value in evaluation.metadata.items()
                   if isinstance(value, (dg.IntMetadataValue, dg.FloatMetadataValue))]
        assert numbers and all(name.endswith(f" [{evaluation.partition}]") for name in numbers), numbers
        assert not any(other in name for name in evaluation.metadata)
    assert counting.metadata["gate"].value == "correct_rate", "text keeps its plain name"
