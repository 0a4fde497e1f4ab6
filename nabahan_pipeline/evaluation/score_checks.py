"""What the asset checks test of a run's scores: values in range, and cases that regressed."""

from __future__ import annotations

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.evaluation.tables import CASE_SCORES

# The per-answer verdict behind each gated rate.
GATE_VERDICTS = {"correct_rate": "correct", "pass_rate": "overall_passed"}


def out_of_range(scores: pd.DataFrame) -> list[str]:
    """Each value outside what the case_scores schema allows (0/1 points, point sums within
    bounds, non-negative latencies, known tiers, a Correct answer that passed ...), as
    'column: n rows (e.g. case X = v)'; empty when all are in range."""
    problems: list[str] = []
    for name, column in CASE_SCORES.columns.items():
        if not column.checks:
            continue
        bad = scores[name].isna() if not column.nullable else pd.Series(False, index=scores.index)
        for check in column.checks:
            bad |= ~_passes(check, scores[name])
        if bad.any():
            first = scores.loc[bad].iloc[0]
            problems.append(f"{name}: {int(bad.sum())} rows (e.g. case {first['case_id']} = {first[name]!r})")
    for check in CASE_SCORES.checks:
        bad = ~_passes(check, scores)
        if bad.any():
            problems.append(f"{check.name}: {int(bad.sum())} rows (e.g. case {scores.loc[bad].iloc[0]['case_id']})")
    return problems


def _passes(check: pa.Check, values: pd.Series | pd.DataFrame) -> pd.Series:
    """Row by row whether ``values`` pass ``check``; a missing value passes (nullability is the
    column's own rule)."""
    return check(values).check_output.reindex(values.index, fill_value=True).astype(bool)


def regressions(previous: pd.DataFrame, current: pd.DataFrame, verdict: str = "correct") -> pd.DataFrame:
    """Cases (by case_id and repeat) that passed in ``previous`` and fail in ``current`` by the
    ``verdict`` column (a previous run from before that column is read by Overall Passed)."""
    keys = ["case_id", "repeat"]
    before_column = verdict if verdict in previous.columns else "overall_passed"
    before = previous[keys + [before_column]].rename(columns={before_column: "passed_before"})
    joined = current.merge(before, on=keys, how="inner")
    regressed = joined[joined["passed_before"].astype(bool) & ~joined[verdict].astype(bool)]
    return regressed[["case_id", "repeat", "question", "category", "status"]].reset_index(drop=True)
