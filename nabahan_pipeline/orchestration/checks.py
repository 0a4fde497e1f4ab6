"""Asset checks: a valid case file, scores in range, the pass-rate threshold, no regressions.

Each check is partitioned as its asset is (one result per agent in the UI); Dagster marks
partitioned checks as a preview, a warning we keep off every command's stderr.
"""

import warnings
from pathlib import Path
from typing import Optional

import dagster as dg
import pandas as pd

from nabahan_pipeline.escaping import markdown_table
from nabahan_pipeline.evaluation.score_checks import GATE_VERDICTS, out_of_range, regressions
from nabahan_pipeline.evaluation.cases import TestCaseError, load_test_cases
from nabahan_pipeline.files import file_sha256
from nabahan_pipeline.orchestration.assets import (
    CheckedCases,
    case_scores,
    evaluation_summary,
    run_series,
    test_cases,
)
from nabahan_pipeline.orchestration.history import previous_archive
from nabahan_pipeline.orchestration.partitions import AGENTS
from nabahan_pipeline.settings import RunSettings


def partitioned_check(**kwargs: object):
    """``dg.asset_check`` partitioned by agent, as the evaluation assets are."""
    decorate = dg.asset_check(partitions_def=AGENTS, **kwargs)

    def wrap(function):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", dg.PreviewWarning)
            return decorate(function)

    return wrap


@partitioned_check(asset=test_cases, description="The case file still loads and matches what was evaluated.")
def test_case_file_valid(
    evaluation: dg.ResourceParam[RunSettings],
    checked_cases: dg.ResourceParam[Optional[CheckedCases]],
    test_cases: pd.DataFrame,
) -> dg.AssetCheckResult:
    """The case file must be valid and hold every case that was materialized: unchanged since an
    entry point checked it (its sha256), else read again."""
    path = evaluation.case_file()
    read_once = path.exists() and not path.is_file()  # a pipe: what was checked is all there is to read
    if checked_cases is not None and (read_once or path.is_file() and file_sha256(path) == checked_cases.sha256):
        in_file, ids = checked_cases.in_file, set(test_cases["case_id"])  # the cases came from this very file
    else:
        try:
            on_disk = load_test_cases(path)
        except TestCaseError as exc:
            return dg.AssetCheckResult(passed=False, metadata={"error": str(exc)})
        in_file, ids = len(on_disk), set(on_disk["case_id"])
    missing = sorted(set(test_cases["case_id"]) - ids)
    return dg.AssetCheckResult(
        passed=not missing,
        metadata={"cases_in_file": in_file, "missing_from_file": dg.MetadataValue.json(missing)},
    )


@partitioned_check(asset=case_scores, description="Every score is within its range (0/1 points, tiers).")
def scores_in_range(case_scores: pd.DataFrame) -> dg.AssetCheckResult:
    """Every value within what the case_scores schema allows (``evaluation.tables``): binary points
    0 or 1, point sums within bounds, latencies non-negative, tiers known, Correct only if passed."""
    problems = out_of_range(case_scores)
    return dg.AssetCheckResult(passed=not problems, metadata={"problems": dg.MetadataValue.json(problems)})


@partitioned_check(
    asset=evaluation_summary,
    description="The gated rate (Correct Rate, or the seed's pass rate) is at or above the threshold.",
)
def pass_rate_threshold(
    context: dg.AssetCheckExecutionContext, evaluation: dg.ResourceParam[RunSettings],
    evaluation_summary: pd.DataFrame,
) -> dg.AssetCheckResult:
    """The ``gate`` rate (default correct_rate) >= ``pass_threshold`` (default 0.8); beside it the
    answers not Correct, as this run's evaluation_summary lists them."""
    rate = float(evaluation_summary.iloc[0][evaluation.gate])
    return dg.AssetCheckResult(
        passed=rate >= evaluation.pass_threshold,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "gate": evaluation.gate,
            evaluation.gate: rate,
            "pass_rate": float(evaluation_summary.iloc[0]["pass_rate"]),
            "threshold": evaluation.pass_threshold,
            **_not_correct_of_this_run(context),
        },
    )


def _not_correct_of_this_run(context: dg.AssetCheckExecutionContext) -> dict[str, dg.MetadataValue]:
    """The not-Correct table and count of this run's evaluation_summary materialization (its
    partition's), passed on rather than built again; none when the summary came from another run."""
    partitions = [context.partition_key] if context.has_partition_key else None
    records = context.instance.fetch_materializations(
        dg.AssetRecordsFilter(asset_key=evaluation_summary.key, asset_partitions=partitions), limit=1
    ).records
    if not records or records[0].run_id != context.run.run_id:
        return {}
    metadata = records[0].asset_materialization.metadata
    return {name: metadata[name] for name in ("not_correct_count", "not_correct") if name in metadata}


@partitioned_check(asset=case_scores, description="No case that passed (by the gate's verdict) in the previous run fails now.")
def no_regression(
    context: dg.AssetCheckExecutionContext, evaluation: dg.ResourceParam[RunSettings], case_scores: pd.DataFrame
) -> dg.AssetCheckResult:
    """Compare with the previous run of the same suite and agent (or the ``baseline`` run); list
    the cases that went from pass to fail by the gate's verdict (Correct, or the seed's)."""
    archive = previous_archive(context.instance, "case_scores", context.run.run_id,
                               series=run_series(evaluation, case_scores), baseline=evaluation.baseline,
                               partition=context.partition_key)
    if archive is None or not Path(archive).exists():
        if evaluation.baseline:
            return dg.AssetCheckResult(passed=False, metadata={"baseline": f"no run {evaluation.baseline!r} found"})
        return dg.AssetCheckResult(passed=True, metadata={"previous_run": "none of this agent on this suite"})
    regressed = regressions(pd.read_parquet(archive), case_scores, verdict=GATE_VERDICTS[evaluation.gate])
    return dg.AssetCheckResult(
        passed=regressed.empty,
        metadata={
            "previous_scores": dg.MetadataValue.path(archive),
            "compared_with": evaluation.baseline or "the previous run of this agent on this suite",
            "regressed_count": len(regressed),
            "regressed": dg.MetadataValue.md(markdown_table(regressed) if len(regressed) else "none"),
            "regressed_case_ids": dg.MetadataValue.json(regressed["case_id"].tolist()),
        },
    )


evaluation_checks = [test_case_file_valid, scores_in_range, pass_rate_threshold, no_regression]
