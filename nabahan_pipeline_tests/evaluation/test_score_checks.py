"""What the asset checks test of the scores: each value outside the case_scores schema, and cases
that regressed."""

from __future__ import annotations

import json
import math

import pandas as pd

from nabahan_pipeline.evaluation.score_checks import out_of_range, regressions
from nabahan_pipeline.evaluation.scoring import score_responses


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
    wrong.loc[1, "overall_passed"] = False
    assert out_of_range(wrong) == [  # in the schema's column order
        "latency_s: 1 rows (e.g. case stable = np.float64(nan))",
        "sql_valid: 1 rows (e.g. case flaky = np.int64(2))",
        "fidelity_points: 2 rows (e.g. case stable = np.int64(5))",
        "latency_score: 1 rows (e.g. case flaky = np.float64(0.9))",
        "execution_match: 1 rows (e.g. case stable = np.float64(0.5))",
        "correct_needs_overall_passed: 1 rows (e.g. case flaky)",
    ]


def test_regressions_are_the_cases_that_passed_before_and_fail_now():
    before = scores()
    now = before.assign(correct=[True, False])
    assert regressions(before, now)["case_id"].tolist() == ["flaky"]
    assert regressions(before.drop(columns="correct"), now)["case_id"].tolist() == ["flaky"]
