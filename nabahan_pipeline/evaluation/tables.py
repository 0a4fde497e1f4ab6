"""The tables between the assets as pandera schemas (docs/internals.md), gathered here; each
declared by what makes it. The Dagster layer checks every table at the step that makes it."""

from __future__ import annotations

import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import AGENT_RESPONSES, NON_NEGATIVE, non_text_dtypes
from nabahan_pipeline.evaluation.case_table import CATEGORIES, OUT_OF_SCOPE, TEST_CASE_COLUMNS, TEST_CASES
from nabahan_pipeline.evaluation.scoring.case_scores import CASE_SCORE_DTYPES, CASE_SCORES
from nabahan_pipeline.evaluation.scoring.declare import RATE, bounds
from nabahan_pipeline.evaluation.summary import EVALUATION_SUMMARY, SUMMARY_COLUMNS, SUMMARY_DTYPES, TREND_FIGURES


def _count(description: str) -> pa.Column:
    return pa.Column(int, pa.Check.ge(0), description=description)


def _rate(description: str, *, nullable: bool = False) -> pa.Column:
    return pa.Column(float, RATE, nullable=nullable, description=description)


def _seconds(description: str) -> pa.Column:
    return pa.Column(float, NON_NEGATIVE, description=description)


AGENT_COMPARISON = pa.DataFrameSchema(
    {
        "agent": pa.Column(str, unique=True, description="The agent's label (its partition)."),
        "cases": _count("Distinct cases of its evaluation."),
        "answers": _count("Answers: cases x repeats."),
        "correct": _count("Correct answers."),
        "correct_rate": _rate("Correct answers, a fraction 0..1."),
        **bounds("correct_rate"),
        "pass_rate": _rate("The seed's pass rate (Overall Passed), a fraction 0..1."),
        **bounds("pass_rate"),
        "execution_accuracy": _rate("Execution match over the answers with gold SQL; NaN without.", nullable=True),
        **bounds("execution_accuracy"),
        "test_suite_accuracy": _rate("Test-suite match over the answers run there; NaN without.", nullable=True),
        **bounds("test_suite_accuracy"),
        "p50_latency": _seconds("Median latency, seconds."),
        "p95_latency": _seconds("95th percentile latency, seconds."),
        "errors": _count("Error answers."),
        "unsafe_sql": _count("Answers whose SQL is not one read-only SELECT."),
        "total_tokens": pa.Column(float, nullable=True, description="Prompt + completion tokens; NaN when none reported."),
    },
    name="agent_comparison",
    description="The agents side by side: each one's overall figures on the same cases, one row per agent.",
    strict=True,
    ordered=True,
)

AGENT_COMPARISON_DTYPES: dict[str, str] = non_text_dtypes(AGENT_COMPARISON)

__all__ = [
    "AGENT_COMPARISON", "AGENT_COMPARISON_DTYPES", "AGENT_RESPONSES", "CASE_SCORES", "CASE_SCORE_DTYPES",
    "CATEGORIES", "EVALUATION_SUMMARY", "OUT_OF_SCOPE", "SUMMARY_COLUMNS", "SUMMARY_DTYPES", "TEST_CASES",
    "TEST_CASE_COLUMNS", "TREND_FIGURES",
]
