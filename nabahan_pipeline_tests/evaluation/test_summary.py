"""The evaluation_summary table and its plain-dict form."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from nabahan_pipeline.evaluation.summary import SUMMARY_COLUMNS, summarize, summary_dict


def scores_row(category: str, *, passed: bool, latency: float, status: str = "success", execution: float = math.nan,
               retrieval: int = 1, fidelity: int = 1, false_refusal: bool = False, false_answer: bool = False,
               correct: bool | None = None, suite: float = math.nan, unsafe: bool = False,
               verified: bool | None = None) -> dict:
    tier_score = 1.0 if latency < 2 else 0.8 if latency < 5 else 0.5 if latency < 10 else 0.2
    return {
        "category": category,
        "status": status,
        "latency_s": latency,
        "latency_score": tier_score,
        "retrieval_accuracy": retrieval,
        "generation_fidelity": fidelity,
        "execution_match": execution,
        "overall_passed": passed,
        "false_refusal": false_refusal,
        "false_answer": false_answer,
        "correct": passed and execution != 0.0 if correct is None else correct,
        "test_suite_match": suite,
        "unsafe_sql": unsafe,
        "rows_verified": verified,
    }


@pytest.fixture
def scores() -> pd.DataFrame:
    return pd.DataFrame(
        [
            scores_row("out_of_scope", passed=True, latency=0.5, status="out_of_scope"),
            scores_row("count", passed=True, latency=1.0, execution=1.0, suite=0.0, correct=False, verified=True),
            scores_row("count", passed=False, latency=3.0, execution=0.0, fidelity=0, unsafe=True, verified=False),
            scores_row("aggregation", passed=False, latency=12.0, status="error", retrieval=0, fidelity=0),
            scores_row("count", passed=False, latency=6.0, status="out_of_scope", retrieval=0, false_refusal=True),
            scores_row("out_of_scope", passed=False, latency=2.0, retrieval=0, false_answer=True),
        ]
    )


def test_rows_overall_then_categories_in_canonical_order(scores: pd.DataFrame) -> None:
    summary = summarize(scores)
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert list(summary["scope"]) == ["overall", "count", "aggregation", "out_of_scope"]


def test_overall_figures(scores: pd.DataFrame) -> None:
    overall = summarize(scores).iloc[0]
    assert (overall["total"], overall["passed"], overall["failed"]) == (6, 2, 4)
    assert overall["pass_rate"] == pytest.approx(2 / 6)
    assert overall["avg_retrieval_accuracy"] == pytest.approx(3 / 6)
    assert overall["avg_generation_fidelity"] == pytest.approx(4 / 6)
    assert overall["avg_latency_score"] == pytest.approx((1.0 + 1.0 + 0.8 + 0.2 + 0.5 + 0.8) / 6)
    latencies = [0.5, 1.0, 3.0, 12.0, 6.0, 2.0]
    assert overall["avg_latency"] == pytest.approx(np.mean(latencies))
    assert overall["p50_latency"] == pytest.approx(np.percentile(latencies, 50))
    assert overall["p95_latency"] == pytest.approx(np.percentile(latencies, 95))
    assert overall["p95_latency"] == pytest.approx(10.5)  # linear between 6.0 and 12.0
    assert (overall["errors"], overall["false_refusals"], overall["false_answers"]) == (1, 1, 1)
    # Ours: only the out-of-scope refusal is Correct (the passed count case failed the test suite).
    assert (overall["correct"], overall["correct_rate"]) == (1, pytest.approx(1 / 6))
    assert (overall["test_suite_accuracy"], overall["test_suite_cases"]) == (0.0, 1)
    assert (overall["unsafe_sql"], overall["rows_not_verified"]) == (1, 1)


def test_execution_accuracy_over_cases_with_gold_only(scores: pd.DataFrame) -> None:
    summary = summarize(scores).set_index("scope")
    assert summary.loc["overall", "execution_accuracy"] == pytest.approx(0.5)
    assert summary.loc["overall", "execution_cases"] == 2
    assert summary.loc["count", "execution_accuracy"] == pytest.approx(0.5)
    assert math.isnan(summary.loc["aggregation", "execution_accuracy"])
    assert summary.loc["aggregation", "execution_cases"] == 0


def test_category_rows(scores: pd.DataFrame) -> None:
    summary = summarize(scores).set_index("scope")
    assert (summary.loc["count", "total"], summary.loc["count", "passed"]) == (3, 1)
    assert summary.loc["count", "false_refusals"] == 1
    assert summary.loc["out_of_scope", "false_answers"] == 1
    assert summary.loc["aggregation", "errors"] == 1
    assert summary.loc["aggregation", "p95_latency"] == 12.0


def test_integer_columns_are_integers(scores: pd.DataFrame) -> None:
    summary = summarize(scores)
    for column in ("total", "passed", "failed", "correct", "execution_cases", "test_suite_cases", "errors",
                   "unsafe_sql", "rows_not_verified", "false_refusals", "false_answers"):
        assert summary[column].dtype == "int64", column


def test_summary_dict_is_plain_python(scores: pd.DataFrame) -> None:
    figures = summary_dict(summarize(scores))
    assert figures["pass_rate"] == pytest.approx(2 / 6)
    assert type(figures["total"]) is int and type(figures["avg_latency"]) is float
    assert "scope" not in figures
    assert list(figures["categories"]) == ["count", "aggregation", "out_of_scope"]
    assert figures["categories"]["aggregation"]["execution_accuracy"] is None
    assert figures["categories"]["count"]["total"] == 3
    json.dumps(figures, allow_nan=False)  # NaN became None everywhere


def test_no_answers_gives_an_overall_row_of_zeros_and_nans(scores: pd.DataFrame) -> None:
    summary = summarize(scores.iloc[0:0])
    assert list(summary["scope"]) == ["overall"]
    assert summary.loc[0, "total"] == 0
    assert math.isnan(summary.loc[0, "pass_rate"]) and math.isnan(summary.loc[0, "p95_latency"])


RATES = ("pass_rate", "correct_rate", "avg_retrieval_accuracy", "avg_generation_fidelity", "execution_accuracy",
         "test_suite_accuracy", "pass_hat_n", "judge_agreement")


def test_every_rate_has_its_interval_right_after_it(scores: pd.DataFrame) -> None:
    summary = summarize(scores)
    columns = list(summary.columns)
    for rate in RATES:
        at = columns.index(rate)
        assert columns[at + 1:at + 3] == [f"{rate}_low", f"{rate}_high"], rate
        known = summary[rate].notna()
        assert (summary.loc[known, f"{rate}_low"] <= summary.loc[known, rate]).all()
        assert (summary.loc[known, rate] <= summary.loc[known, f"{rate}_high"]).all()
        assert summary.loc[~known, [f"{rate}_low", f"{rate}_high"]].isna().all().all(), f"NaN where {rate} is"
    overall = summary.iloc[0]
    # 2 of 6 passed. Wilson: 1 + z²/6 = 1.6402432; centre = (1/3 + 0.3201216) / 1.6402432 = 0.398389;
    # half = 1.194922 * sqrt(0.0370370 + 0.0266768) = 1.194922 * 0.2524159 = 0.301617.
    assert (overall["pass_rate_low"], overall["pass_rate_high"]) == (
        pytest.approx(0.096772, abs=2e-6), pytest.approx(0.700006, abs=2e-6))
    # Execution accuracy over the two answers with gold SQL only: 1 of 2.
    assert (overall["execution_accuracy_low"], overall["execution_accuracy_high"]) == pytest.approx(
        (0.094531, 0.905469), abs=2e-6)
    assert summary.set_index("scope").loc["aggregation", ["execution_accuracy_low", "execution_accuracy_high"]].isna().all()


def test_with_repeats_the_interval_is_clustered_by_case() -> None:
    # 5 cases x 4 repeats, each case's repeats agreeing, 4 cases right: as wide as 4 of 5.
    rows = []
    for case in range(5):
        for repeat in range(4):
            row = scores_row("count", passed=case < 4, latency=1.0)
            rows.append({**row, "case_id": f"c{case}", "repeat": repeat})
    overall = summarize(pd.DataFrame(rows)).iloc[0]
    assert overall["correct_rate"] == pytest.approx(0.8)
    assert (overall["correct_rate_low"], overall["correct_rate_high"]) == pytest.approx(
        (0.375535, 0.963776), abs=2e-6)  # Wilson 4/5, not 16/20 (0.583983, 0.919342)
    assert overall["pass_hat_n"] == pytest.approx(0.8)
    assert (overall["pass_hat_n_low"], overall["pass_hat_n_high"]) == pytest.approx((0.375535, 0.963776), abs=2e-6)


def test_the_pinned_evaluation_summarizes_as_it_did(tmp_path) -> None:
    # Every column, dtype and value of evaluation_summary as the code made it before it was made fast.
    from nabahan_pipeline_tests.evaluation.scoring import pinned

    expected = json.loads(pinned.PINNED.read_text(encoding="utf-8"))["evaluation_summary"]
    now = json.loads(json.dumps(pinned.scored(tmp_path)["evaluation_summary"], ensure_ascii=False))
    assert now == expected
