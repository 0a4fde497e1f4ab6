"""The agent's SQL judged by running it here (``agent_sql``): unsafe or not, execution match on the
evaluation and test-suite databases, and whether it returns the rows reported. SQL that is unsafe,
fails here or runs out of time scores 0, whatever rows the agent reported beside it."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline.evaluation.agent_sql import SQLRun, rows_verified
from nabahan_pipeline.evaluation.execution_match import ExpectedResult, execution_match, result_matches
from nabahan_pipeline.evaluation.scoring.answer import Answer, text_or_none
from nabahan_pipeline.evaluation.scoring.declare import MATCH, Column, Figure, by_case, scorer, sum_of


def _accuracy(key: str, match: str, description: str, cases: str, cases_description: str,
              counted: str) -> tuple[Figure, Figure]:
    """The accuracy ``key``: the mean of ``match`` over the answers where it is known (NaN: no gold
    SQL, or no test-suite run; NaN when none is); and ``cases``, their count, its denominator
    (``counted`` says it in words: "6 of 17 with gold SQL")."""
    def value(scores: pd.DataFrame) -> float:
        known = scores[match].astype(float).dropna()
        return float(known.mean()) if len(known) else math.nan

    return (Figure(key, key.replace("_", " ").title(), "rate", description, value,
                   by_case(lambda scores: scores[match]), kpi=True, trend=True, nullable=True,
                   denominator=cases, counted=counted),
            Figure(cases, cases.replace("_", " ").title(), "count", cases_description,
                   lambda scores: len(scores[match].astype(float).dropna())))


@scorer(
    Column("execution_match", pa.Column(float, MATCH, nullable=True, description="The result is the gold SQL's: 1.0/0.0, NaN when the case has no gold SQL."),
           "Execution Match"),
    Column("unsafe_sql", pa.Column(bool, description="The SQL is not one read-only SELECT (never run)."), "Unsafe SQL"),
    Column("sql_problem", pa.Column(str, nullable=True, description="Why the SQL is unsafe, or why it could not run here."),
           "SQL Problem"),
    Column("rows_verified", pa.Column("boolean", nullable=True, description="The re-run SQL returns the reported rows; NA when it could not run."),
           "Rows Verified"),
    Column("test_suite_match", pa.Column(
        float, MATCH, nullable=True,
        description="Right on every test-suite database too: 1.0/0.0 (0.0 when it fails on one), NaN without gold SQL, suite or SQL that ran here.",
    ), "Test Suite Match"),
    figures=[
        *_accuracy("execution_accuracy", "execution_match",
                   "Execution match over the answers with gold SQL; NaN when no case has gold SQL.",
                   "execution_cases", "Answers whose case has gold SQL.", "with gold SQL"),
        *_accuracy("test_suite_accuracy", "test_suite_match",
                   "Test-suite match over the answers run there; NaN when none ran on the test-suite databases.",
                   "test_suite_cases", "Answers run on the test-suite databases.", "run on the test-suite databases"),
        Figure("unsafe_sql", "Unsafe SQL", "count", "Answers whose SQL is not one read-only SELECT.",
               sum_of("unsafe_sql"), trend=True),
        Figure("rows_not_verified", "Rows Not Verified", "count", "Answers reporting rows their SQL does not return.",
               lambda scores: int((~scores["rows_verified"].astype("boolean").fillna(True)).sum()), trend=True),
    ],
)
def execution(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """Execution match (NaN without gold SQL) and test-suite match on the rows the agent's SQL
    returns here, whether it is unsafe or why it gave no result, and whether its rows are the
    ones reported (None when it did not run)."""
    replay = answer.replay
    # The rows the agent's SQL returns here. None at all for unsafe SQL (never run) and for SQL
    # that fails or runs out of time here: the rows an agent reports beside such SQL prove nothing.
    # Only with no database to run on (replay None) do the reported rows stand in.
    not_run = answer.checked.unsafe or (replay is not None and replay.result is None)
    if not_run:
        result_rows: Sequence[Sequence[Any]] = []
    elif replay is not None:
        result_rows = [tuple(row) for row in replay.result.rows]
    else:
        result_rows = answer.rows
    match = _execution_match(answer.case, "not run" if not_run else answer.status, result_rows, answer.gold)
    return {
        "execution_match": match,
        "unsafe_sql": answer.checked.unsafe,
        "sql_problem": answer.checked.problem or (replay.problem if replay is not None else None),
        "rows_verified": rows_verified(answer.columns, answer.rows, replay) if replay is not None else None,
        "test_suite_match": _test_suite_match(match, answer.status, answer.suite, ran_here=not not_run),
    }


def _execution_match(
    case: Mapping[str, Any], status: Any, rows: Sequence[Sequence[Any]], gold: QueryResult | ExpectedResult | None
) -> float:
    gold_sql = text_or_none(case.get("expected_sql"))
    if gold_sql is None:
        return math.nan
    if gold is None:
        raise ValueError(f"case {case.get('case_id', '?')}: has expected_sql but no gold result was given")
    return 1.0 if status == "success" and execution_match(rows, gold, gold_sql) else 0.0


def _test_suite_match(
    execution: float, status: Any, suite: Sequence[tuple[ExpectedResult, SQLRun]], *, ran_here: bool
) -> float:
    """1 when the result is right on the evaluation database and on every test-suite database, 0
    when not (SQL that runs here and fails on a test-suite database is not right there); NaN
    without gold SQL, without suite databases, or when the agent's SQL did not run here."""
    if math.isnan(execution) or not suite or not ran_here:
        return math.nan
    if execution != 1.0 or status != "success":
        return 0.0
    return float(all(run.result is not None and result_matches(run.result.rows, expected)
                     for expected, run in suite))


def suite_failure(suite: Sequence[tuple[ExpectedResult, SQLRun]]) -> str | None:
    """Which test-suite database (numbered from 1) the agent's SQL gave no result on first, and
    why; None when it ran on each."""
    for number, (_, run) in enumerate(suite, start=1):
        if run.result is None:
            why = (run.problem or "no result").removeprefix("query failed: ")
            return f"fails on test-suite database {number}: {why}"
    return None
