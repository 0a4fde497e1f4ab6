"""What the asset checks test of the scores: each value outside the case_scores schema, and whether a
run regressed (a significant drop by McNemar, or a must_pass case not right)."""

from __future__ import annotations

import json
import math

import pandas as pd

from nabahan_pipeline.evaluation.score_checks import out_of_range, regression
from nabahan_pipeline.evaluation.scoring.case_scores import score_responses


def scores() -> pd.DataFrame:
    """Two cases, each answered right (no database: nothing re-run)."""
    case_ids = ("stable", "flaky")
    cases = pd.DataFrame([{"case_id": case_id, "question": "كم عدد المناقصات؟", "category": "count",
                           "expected_table": "tenders_full_details", "expected_sql": None} for case_id in case_ids])
    responses = pd.DataFrame([
        {"case_id": case_id, "repeat": 0, "status": "success", "sql": "SELECT COUNT(*) FROM tenders_full_details",
         "data": json.dumps([{"n": 5}]), "insights": "بلغ عدد المناقصات المطابقة 5 مناقصات في البيانات المتاحة حالياً.",
         "error": None, "latency_s": 0.1}
        for case_id in case_ids
    ])
    return score_responses(cases, responses, None)


def test_scores_in_range_have_no_problem():
    assert out_of_range(scores()) == []


def test_each_value_out_of_range_is_reported_by_column_with_a_case():
    wrong = scores()
    wrong.loc[1, "sql_valid"] = 2
    wrong.loc[0, "latency_s"] = math.nan
    wrong["fidelity_points"] = 5
    wrong.loc[1, "latency_score"] = 0.9
    wrong.loc[0, "execution_match"] = 0.5
    wrong.loc[1, "overall_passed"] = False  # Correct reads no seed heuristic: Correct and not passed is in range
    assert out_of_range(wrong) == [  # in the schema's column order
        "latency_s: 1 rows (e.g. case stable = np.float64(nan))",
        "sql_valid: 1 rows (e.g. case flaky = np.int64(2))",
        "fidelity_points: 2 rows (e.g. case stable = np.int64(5))",
        "latency_score: 1 rows (e.g. case flaky = np.float64(0.9))",
        "execution_match: 1 rows (e.g. case stable = np.float64(0.5))",
    ]


def outcomes(verdicts: dict[str, bool]) -> pd.DataFrame:
    return pd.DataFrame([{"case_id": case, "repeat": 0, "correct": right, "overall_passed": right}
                         for case, right in verdicts.items()])


def test_a_few_cases_that_flipped_are_noise_not_a_regression():
    before = outcomes({f"c{i}": True for i in range(10)})
    now = outcomes({f"c{i}": i >= 2 for i in range(10)})  # two flipped: p = 0.5
    result = regression(before, now)
    assert result.paired.worsened == ("c0", "c1") and result.paired.p_value == 0.5
    assert result.passed and not result.must_pass_failed


def test_a_significant_drop_is_a_regression():
    before = outcomes({f"c{i}": True for i in range(10)})
    now = outcomes({f"c{i}": i >= 6 or i == 0 for i in range(10)} | {"new": False})  # five down: p = 0.0625
    assert regression(before, now).passed
    now.loc[now["case_id"] == "c0", ["correct", "overall_passed"]] = False  # six down: p = 0.03125
    result = regression(before, now)
    assert result.paired.worsened == tuple(f"c{i}" for i in range(6)) and result.paired.cases == 10
    assert result.paired.significant_drop and not result.passed


def test_a_must_pass_case_not_right_fails_with_or_without_a_baseline():
    before = outcomes({"a": True, "b": True})
    now = outcomes({"a": True, "b": False})
    assert regression(before, now, must_pass=["a"]).passed
    assert regression(before, now, must_pass=["b"]).must_pass_failed == ("b",)
    assert not regression(None, now, must_pass=["b"]).passed, "no baseline: must_pass still holds"
    assert regression(None, now).paired is None and regression(None, now).passed


def test_the_gate_verdict_and_a_run_from_before_correct():
    before = outcomes({"a": True}).drop(columns="correct")  # read by overall_passed
    now = outcomes({"a": True}).assign(correct=False)
    assert regression(before, now).paired.worsened == ("a",)
    assert regression(before, now, verdict="overall_passed").paired.worsened == ()
    assert not regression(before, now, must_pass=["a"]).passed
    assert regression(before, now, must_pass=["a"], verdict="overall_passed").passed
