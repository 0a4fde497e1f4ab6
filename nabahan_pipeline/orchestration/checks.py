"""The asset checks, each a check spec of the asset it checks (``CHECK_SPECS``), evaluated in that
asset's own step once its table is stored: no step, no event and no Parquet read of their own.
Partitioned as their assets; each number in their metadata is named with its agent
(``correct_rate [embedded]``), since the UI plots a name over every partition's runs.

What that costs: Dagster runs a check spec with its asset, so the UI executes a check by
materializing its asset (the check's "Execute" says so) rather than alone."""

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Optional

import dagster as dg
import pandas as pd
import pyarrow as pa

from nabahan_pipeline.escaping import markdown_table, one_line
from nabahan_pipeline.evaluation.score_checks import GATE_VERDICTS, out_of_range, regression
from nabahan_pipeline.evaluation.cases import TestCaseError, load_test_cases
from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration.history import previous_archive
from nabahan_pipeline.orchestration.partitions import AGENTS
from nabahan_pipeline.settings import RunSettings


def partitioned_spec(name: str, asset: str, description: str) -> dg.AssetCheckSpec:
    """A non-blocking check of ``asset``, partitioned by agent as the evaluation assets are."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dg.PreviewWarning)
        return dg.AssetCheckSpec(name, asset=asset, description=description, partitions_def=AGENTS)


TEST_CASE_FILE_VALID = partitioned_spec(
    "test_case_file_valid", "test_cases", "The case file still loads and matches what was evaluated.")
SCORES_IN_RANGE = partitioned_spec(
    "scores_in_range", "case_scores", "Every score is within its range (0/1 points, tiers).")
NO_REGRESSION = partitioned_spec(
    "no_regression", "case_scores",
    "No significant drop against the previous run (exact McNemar, p < 0.05) and every must_pass case right, "
    "by the gate's verdict.")
PASS_RATE_THRESHOLD = partitioned_spec(
    "pass_rate_threshold", "evaluation_summary",
    "The gated rate (Correct Rate, or the seed's pass rate; or its interval's lower bound) is at or above the "
    "threshold.")
CHECK_SPECS = {
    "test_cases": [TEST_CASE_FILE_VALID],
    "case_scores": [SCORES_IN_RANGE, NO_REGRESSION],
    "evaluation_summary": [PASS_RATE_THRESHOLD],
}
"""Each asset's checks, by asset name (the asset's decorator takes its list)."""


def per_agent(context: dg.AssetExecutionContext, metadata: dict[str, object]) -> dict[str, object]:
    """``metadata`` with each number named with the check's agent (``correct_rate [embedded]``): the
    UI draws one plot per name, never two agents' runs in one."""
    if not context.has_partition_key:
        return metadata
    agent = context.partition_key
    return {f"{name} [{agent}]" if _plotted(value) else name: value for name, value in metadata.items()}


def _plotted(value: object) -> bool:
    """Whether the UI plots ``value``: a number, raw or as Dagster's metadata value."""
    if isinstance(value, (dg.IntMetadataValue, dg.FloatMetadataValue)):
        return True
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def test_case_file_valid(context: dg.AssetExecutionContext, path: Path, checked: Optional[tuple[str, int]],
                         test_cases: pd.DataFrame) -> dg.AssetCheckResult:
    """The case file is valid and holds every case materialized: unchanged since it was checked
    (``checked``: its sha256 and how many cases it held), or read again."""
    read_once = path.exists() and not path.is_file()  # a pipe: what was checked is all there is to read
    if checked is not None and (read_once or path.is_file() and file_sha256(path) == checked[0]):
        in_file, ids = checked[1], set(test_cases["case_id"])  # the cases came from this very file
    else:
        try:
            on_disk = load_test_cases(path)
        except TestCaseError as exc:
            return dg.AssetCheckResult(check_name=TEST_CASE_FILE_VALID.name, passed=False,
                                       metadata={"error": str(exc)})
        in_file, ids = len(on_disk), set(on_disk["case_id"])
    missing = sorted(set(test_cases["case_id"]) - ids)
    return dg.AssetCheckResult(check_name=TEST_CASE_FILE_VALID.name, passed=not missing, metadata=per_agent(
        context, {"cases_in_file": in_file, "missing_from_file": dg.MetadataValue.json(missing)}))


def scores_in_range(case_scores: pd.DataFrame) -> dg.AssetCheckResult:
    """Every value within what the case_scores schema allows (``evaluation.tables``): binary points
    0 or 1, point sums within bounds, latencies non-negative, tiers known, Correct only if passed;
    each value out of range named by column with a case."""
    problems = out_of_range(case_scores)
    return dg.AssetCheckResult(check_name=SCORES_IN_RANGE.name, passed=not problems,
                               metadata={"problems": dg.MetadataValue.json(problems)})


def pass_rate_threshold(context: dg.AssetExecutionContext, evaluation: RunSettings, evaluation_summary: pd.DataFrame,
                        not_correct: Mapping[str, object]) -> dg.AssetCheckResult:
    """The ``gate`` rate (or with ``gate_on`` lower, its interval's lower bound) >= ``pass_threshold``;
    beside it the answers not Correct (``not_correct``: the summary's own count and table)."""
    overall = evaluation_summary.iloc[0]
    figure = evaluation.gated_figure()
    judged = float(overall.get(figure, float("nan")))
    return dg.AssetCheckResult(
        check_name=PASS_RATE_THRESHOLD.name,
        passed=judged >= evaluation.pass_threshold,
        severity=dg.AssetCheckSeverity.WARN,
        metadata=per_agent(context, {
            "gate": evaluation.gate,
            "gate_on": evaluation.gate_on,
            evaluation.gate: float(overall[evaluation.gate]),
            f"{evaluation.gate}_interval": dg.MetadataValue.json(
                [_number(overall.get(f"{evaluation.gate}_low")), _number(overall.get(f"{evaluation.gate}_high"))]),
            "pass_rate": float(overall["pass_rate"]),
            "threshold": evaluation.pass_threshold,
            **not_correct,
        }),
    )


def _number(value: object) -> float | None:
    """A bound as JSON holds it: None for NaN or missing."""
    return None if value is None or pd.isna(value) else float(value)


def no_regression(context: dg.AssetExecutionContext, evaluation: RunSettings, case_scores: pd.DataFrame,
                  test_cases: pd.DataFrame, series: Mapping[str, str]) -> dg.AssetCheckResult:
    """Case by case against the previous run of the suite and agent (``series``) or ``baseline``, by
    the gate's verdict: fails on a significant drop or a ``must_pass`` case not right; lists the
    flipped cases."""
    archive = previous_archive(context.instance, "case_scores", context.run.run_id, series=dict(series),
                               baseline=evaluation.baseline, partition=context.partition_key)
    found = archive is not None and Path(archive).exists()
    if evaluation.baseline and not found:
        return dg.AssetCheckResult(check_name=NO_REGRESSION.name, passed=False,
                                   metadata={"baseline": f"no run {evaluation.baseline!r} found"})
    try:
        previous = pd.read_parquet(archive) if found else None
    except (OSError, ValueError, pa.ArrowException) as exc:  # cut short, or not Parquet: this run stands
        return dg.AssetCheckResult(check_name=NO_REGRESSION.name, passed=False, metadata={
            "baseline": evaluation.baseline or "the previous run of this agent on this suite",
            "error": f"the compared run's scores cannot be read: {archive}: {one_line(exc, 300)}"})
    must_pass = test_cases.loc[test_cases["must_pass"].astype(bool), "case_id"] if "must_pass" in test_cases else []
    result = regression(previous, case_scores, must_pass, verdict=GATE_VERDICTS[evaluation.gate])
    metadata: dict[str, dg.RawMetadataValue] = {
        "rule": "fails on a significant drop (exact McNemar p < 0.05, more cases worse than better) "
                "or on a must_pass case not right",
        "must_pass_failed": dg.MetadataValue.json(list(result.must_pass_failed)),
    }
    paired = result.paired
    if paired is None:
        metadata["previous_run"] = "none of this agent on this suite"
    else:
        worse = case_scores.drop_duplicates("case_id").set_index("case_id").loc[list(paired.worsened)].reset_index()
        metadata.update({
            "previous_scores": dg.MetadataValue.path(archive),
            "compared_with": evaluation.baseline or "the previous run of this agent on this suite",
            "cases_compared": paired.cases,
            "regressed_count": len(paired.worsened),
            "improved_count": len(paired.improved),
            "mcnemar_p": paired.p_value,
            "significant_drop": paired.significant_drop,
            "regressed": dg.MetadataValue.md(
                markdown_table(worse[["case_id", "question", "category", "status"]]) if len(worse) else "none"),
            "regressed_case_ids": dg.MetadataValue.json(list(paired.worsened)),
            "improved_case_ids": dg.MetadataValue.json(list(paired.improved)),
        })
    return dg.AssetCheckResult(check_name=NO_REGRESSION.name, passed=result.passed,
                               metadata=per_agent(context, metadata))
