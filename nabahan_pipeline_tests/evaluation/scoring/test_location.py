"""error_location filled end to end by score_responses: the clause of wrong SQL, the insight of a
right result, nothing for a Correct answer, a refusal or a case without gold SQL."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline_tests.evaluation.scoring.test_case_scores import cases_frame, db, response  # noqa: F401

GOLD = "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"


def test_each_answer_gets_the_location_of_its_error(db: Path) -> None:  # noqa: F811
    cases = cases_frame(a=GOLD, c=GOLD)
    responses = pd.DataFrame([
        response("a", 0),  # right
        response("a", 1, sql="SELECT COUNT(*) AS n FROM tenders_full_details WHERE region_id = 2", data=[{"n": 1}],
                 insights="بلغ عدد المناقصات في منطقة الرياض 1 مناقصة حسب البيانات."),
        response("a", 2, insights="بلغ عدد المناقصات في منطقة الرياض 7 مناقصات حسب البيانات."),
        response("a", 3, status="out_of_scope", sql=None, data=[], insights="عذراً، لا أستطيع الإجابة."),
        response("b", 0, sql="SELECT COUNT(*) FROM tenders_full_details"),
        response("c", 0, sql="SELECT COUNT(*) AS n FROM tenders_full_details", data=[{"n": 3}],
                 insights="بلغ عدد المناقصات 3 مناقصات حسب البيانات."),
    ])
    scores = score_responses(cases, responses, db, timestamp="2026-01-01T02:00:00+03:00")
    located = dict(zip(zip(scores["case_id"], scores["repeat"]), scores["error_location"]))
    assert located[("a", 0)] == ""
    assert located[("a", 1)] == "literal: region_id = 2 where the gold has region_id = 1"
    assert located[("a", 2)].startswith("insight: "), "the SQL is right, the figure is not"
    assert "7" in located[("a", 2)]
    assert located[("a", 3)] == "", "a refusal has no clause to blame"
    assert located[("b", 0)] == "", "out of scope"
    assert located[("c", 0)] == "where: missing condition region_id = 1"
    assert not scores.loc[scores["error_location"] != "", "correct"].any()
