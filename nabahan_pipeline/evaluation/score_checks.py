"""What the asset checks test of a run's scores: values in range, and cases that regressed."""

from __future__ import annotations

import pandas as pd

BINARY_COLUMNS = (
    "sql_valid",
    "table_match",
    "has_rows",
    "retrieval_accuracy",
    "status_match",
    "arabic_text",
    "numbers_present",
    "no_hallucination",
    "generation_fidelity",
)
LATENCY_SCORES = (1.0, 0.8, 0.5, 0.2)
# The per-answer verdict behind each gated rate.
GATE_VERDICTS = {"correct_rate": "correct", "pass_rate": "overall_passed"}


def out_of_range(scores: pd.DataFrame) -> list[str]:
    """Each score outside its range, as 'column: n rows (e.g. case X = v)'; empty when all are in range."""
    problems: list[str] = []

    def report(column: str, bad: pd.Series) -> None:
        if bad.any():
            first = scores.loc[bad].iloc[0]
            problems.append(f"{column}: {int(bad.sum())} rows (e.g. case {first['case_id']} = {first[column]!r})")

    for column in BINARY_COLUMNS:
        report(column, ~scores[column].isin((0, 1)))
    report("retrieval_points", ~scores["retrieval_points"].between(0, 3))
    report("fidelity_points", ~scores["fidelity_points"].between(0, 4))
    report("latency_s", ~(scores["latency_s"] >= 0))
    report("latency_score", ~scores["latency_score"].isin(LATENCY_SCORES))
    for column in ("execution_match", "test_suite_match"):
        report(column, ~(scores[column].isna() | scores[column].isin((0.0, 1.0))))
    report("correct", scores["correct"].astype(bool) & ~scores["overall_passed"].astype(bool))
    return problems


def regressions(previous: pd.DataFrame, current: pd.DataFrame, verdict: str = "correct") -> pd.DataFrame:
    """Cases (by case_id and repeat) that passed in ``previous`` and fail in ``current`` by the
    ``verdict`` column (a previous run from before that column is read by Overall Passed)."""
    keys = ["case_id", "repeat"]
    before_column = verdict if verdict in previous.columns else "overall_passed"
    before = previous[keys + [before_column]].rename(columns={before_column: "passed_before"})
    joined = current.merge(before, on=keys, how="inner")
    regressed = joined[joined["passed_before"].astype(bool) & ~joined[verdict].astype(bool)]
    return regressed[["case_id", "repeat", "question", "category", "status"]].reset_index(drop=True)
