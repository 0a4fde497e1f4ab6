"""Tests for nabahan_pipeline.evaluation.synthetic: the synthetic tables have the real tables' shape,
and their scores are the ones the real scorer gives the answers they describe."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from nabahan_pipeline.evaluation.cases import CATEGORIES, OUT_OF_SCOPE
from nabahan_pipeline.evaluation.scoring import CASE_SCORE_COLUMNS, REPEAT_COLUMNS, score_answer
from nabahan_pipeline.evaluation.summary import SUMMARY_COLUMNS, summarize
from nabahan_pipeline.evaluation.synthetic import all_passed_scores, fixed_summary, make_history, make_scores
from nabahan_pipeline.orchestration.history import TREND_FIGURES

SEED_COLUMNS = ("sql_valid", "table_match", "has_rows", "retrieval_points", "retrieval_accuracy", "status_match",
                "arabic_text", "numbers_present", "no_hallucination", "fidelity_points", "generation_fidelity",
                "latency_tier", "latency_score", "hallucination_markers", "false_refusal", "false_answer",
                "overall_passed", "unsafe_sql")


def test_scores_have_every_case_scores_column_and_summarize_takes_them():
    scores = make_scores(400, seed=5, repeats=2)
    assert list(scores.columns) == [*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS]
    assert len(scores) == 800 and scores["case_id"].nunique() == 400
    summary = summarize(scores)
    assert list(summary.columns) == list(SUMMARY_COLUMNS)
    assert list(summary["scope"]) == ["overall", *CATEGORIES]
    overall = summary.iloc[0]
    assert overall["total"] == 800 and overall["cases"] == 400 and overall["repeats"] == 2
    assert 0 < overall["errors"] and 0 < overall["false_refusals"] and 0 < overall["false_answers"]
    assert 0 < overall["execution_cases"] < 800 and 0.5 < overall["test_suite_accuracy"] <= 1


@pytest.mark.parametrize("seed", [1, 2])
def test_seed_scores_are_the_real_scorers(seed):
    """Each row's seed checks and verdict are what metrics.score_answer gives the answer it describes."""
    scores = make_scores(120, seed=seed, fail_share=0.3, error_share=0.05)
    for row in scores.to_dict("records"):
        case = {"question": row["question"], "category": row["category"],
                "expected_table": row["expected_table"], "expected_sql": None}
        answer = {"status": row["status"], "sql": row["sql"], "insights": row["insights"],
                  "error": row["error"], "columns": ["n"], "rows": [[120]] * row["data_rows"],
                  "data_rows": row["data_rows"]}
        real = score_answer(case, answer, row["latency_s"])
        assert {c: real[c] for c in SEED_COLUMNS} == {c: row[c] for c in SEED_COLUMNS}, row["query_num"]


def test_verdicts_and_shares():
    scores = make_scores(4000, seed=3, fail_share=0.2, error_share=0.02)
    is_error = scores["status"] == "error"
    assert abs(is_error.mean() - 0.02) < 0.01
    assert abs((~scores["overall_passed"] & ~is_error).mean() - 0.2) < 0.03
    # Without wrong results Correct is the seed's verdict; with them, fewer of its passes.
    assert (scores["correct"] == scores["overall_passed"]).all()
    assert (scores["correct"] == (scores["not_correct_because"] == "")).all()
    wrong = make_scores(4000, seed=3, fail_share=0.2, error_share=0.02, wrong_share=0.3)
    assert (wrong["overall_passed"] == scores["overall_passed"]).all()
    assert not (wrong["correct"] & ~wrong["overall_passed"]).any()
    assert wrong["correct"].sum() < wrong["overall_passed"].sum()
    assert set(wrong.loc[wrong["overall_passed"] & ~wrong["correct"], "not_correct_because"]) == {"wrong result"}
    # Out of scope: refused when it passes, answered when it fails.
    oos = scores[scores["category"] == OUT_OF_SCOPE]
    assert (oos["overall_passed"] == (oos["status"] == OUT_OF_SCOPE)).all()


def test_no_cases_and_all_passed():
    empty = make_scores(0)
    assert list(empty.columns) == [*CASE_SCORE_COLUMNS, *REPEAT_COLUMNS] and empty.empty
    assert summarize(empty).iloc[0]["total"] == 0
    passed = all_passed_scores(20)
    assert passed["overall_passed"].all() and passed["correct"].all()
    assert passed["latency_s"].max() < 2 and set(passed["latency_tier"]) == {"Excellent"}


def test_history_rows_look_like_summary_history():
    history = make_history(5)
    assert list(history.columns) == ["run_label", "timestamp", *TREND_FIGURES]
    assert all(re.fullmatch(r"\d\d-\d\d \d\d:\d\d .+", label) for label in history["run_label"])
    assert all(pd.Timestamp(t).tzname() == "UTC" for t in history["timestamp"])
    assert (history["correct_rate"] <= history["pass_rate"]).all()
    assert make_history(3, correct=False)["correct_rate"].isna().all()
    assert make_history(3, exec_nan=True)["execution_accuracy"].isna().all()


def test_fixed_summary_has_the_summarys_columns_and_types():
    fixed = fixed_summary()
    real = summarize(make_scores(30))
    assert list(fixed.columns) == list(SUMMARY_COLUMNS)
    assert dict(fixed.dtypes) == dict(real.dtypes)
    overall = fixed.iloc[0]
    assert overall["passed"] / overall["total"] == overall["pass_rate"]
    assert overall["correct"] / overall["total"] == overall["correct_rate"]
    assert np.array_equal(fixed["passed"] + fixed["failed"], fixed["total"])
