"""The claims scorer: the insight's claims checked against the rows the agent's SQL returns (the
re-run's when there is one), Correct not given to an insight the rows contradict, and the reason
and the results CSV naming the contradiction. The seed's Overall Passed does not read them."""

from __future__ import annotations

import json

import pandas as pd

from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline.evaluation.agent_sql import SQLRun
from nabahan_pipeline.evaluation.reports import results_table
from nabahan_pipeline.evaluation.scoring.case_scores import score_answer
from nabahan_pipeline.evaluation.scoring.claims import contradictions, readable, unsupported
from nabahan_pipeline_tests.evaluation.scoring.answers import COUNT_CASE, answer

BY_REGION_CASE = {**COUNT_CASE, "question": "كم منافسة في كل منطقة؟", "category": "distribution"}
BY_REGION_SQL = ("SELECT region_name, COUNT(*) AS n FROM tenders_full_details GROUP BY region_id "
                 "ORDER BY n DESC")
ROWS = [{"region_name": "منطقة الرياض", "n": 523}, {"region_name": "منطقة جازان", "n": 141}]
RIGHT = "تتصدر منطقة الرياض بـ 523 منافسة، تليها جازان بـ 141 منافسة، أي 21.2% من الإجمالي البالغ 664."
WRONG = "تتصدر منطقة الرياض بـ 141 منافسة، تليها جازان بـ 523 منافسة."


def scored(insight: str, **changes) -> dict:
    return score_answer(BY_REGION_CASE, answer(sql=BY_REGION_SQL, data=ROWS, insights=insight, **changes), 0.5)


def test_a_right_insight_is_correct_with_every_claim_supported() -> None:
    scores = scored(RIGHT)
    assert scores["correct"] and scores["claims_contradicted"] == 0 and scores["claims_checked"] == 5
    assert all(item["verdict"] == "supported" for item in json.loads(scores["claim_details"]))


def test_a_figure_on_the_wrong_row_is_not_correct_and_the_reason_names_it() -> None:
    scores = scored(WRONG)
    assert not scores["correct"] and scores["claims_contradicted"] == 2
    assert scores["not_correct_because"] == "insight contradicts the rows: منطقة الرياض 141: row says 523"
    assert scores["overall_passed"]  # the seed's verdict reads no claim


def test_an_unattached_number_nothing_supports_is_the_unverified_reason_in_its_context() -> None:
    scores = scored("بلغ مجموع المنافسات 7,777 منافسة في المنطقتين.")
    assert not scores["correct"]
    assert scores["not_correct_because"] == "unverified: بلغ مجموع المنافسات 7,777 منافسة في المنطقتين."
    assert unsupported(scores["claim_details"]) == ["بلغ مجموع المنافسات 7,777 منافسة في المنطقتين."]
    assert json.loads(scores["ungrounded_numbers"]) == ["7,777"], "the seed's grounding reads it the same way"


def test_a_number_the_old_bag_flagged_but_a_row_derives_is_correct() -> None:
    # 523 / 664 = 78.8 %: the bag knew it; 141 / 523 = 27 %, within one row's cells only in the
    # claims' widening (the two cells of the row below).
    rows = [{"awarded": 141, "tenders": 523}]
    reply = answer(sql="SELECT 141 AS awarded, 523 AS tenders", data=rows, insights="رُسّي 141 من 523 منافسة، أي 27%.")
    scores = score_answer(COUNT_CASE, reply, 0.5)
    assert scores["correct"], scores["not_correct_because"]


def test_the_rows_checked_are_those_the_sql_returns_when_it_was_run() -> None:
    # The agent reported 141 for Riyadh; its SQL, re-run, says 523: the claim is read against the re-run.
    reported = [{"region_name": "منطقة الرياض", "n": 141}, {"region_name": "منطقة جازان", "n": 523}]
    replay = SQLRun(QueryResult(["region_name", "n"], [("منطقة الرياض", 523), ("منطقة جازان", 141)]))
    scores = score_answer(BY_REGION_CASE, answer(sql=BY_REGION_SQL, data=reported, insights=WRONG), 0.5, replay=replay)
    assert contradictions(scores["claim_details"]) == ["منطقة الرياض 141: row says 523", "جازان 523: row says 141"]


def test_the_results_csv_has_the_claims_counted_and_listed() -> None:
    scores = pd.DataFrame([{**scored(WRONG), "query_num": 1}])
    table = results_table(scores)
    assert table.loc[0, "Claims Checked"] == 3 and table.loc[0, "Claims Contradicted"] == 2
    assert "✗ منطقة الرياض 141: row says 523" in table.loc[0, "Claims"]
    assert readable("[]") == ""


def test_each_answer_says_its_coverage_read_verified_contradicted_unverified() -> None:
    from nabahan_pipeline.evaluation.scoring.claims import coverage

    scores = scored("تتصدر منطقة الرياض بـ 141 منافسة، تليها جازان بـ 523 منافسة. والمجموع كله 912 منافسة.")
    assert (scores["claims_checked"], scores["claims_verified"], scores["claims_contradicted"]) == (4, 1, 2)
    assert json.loads(scores["claims_unverified"]) == ["… منافسة. والمجموع كله 912 منافسة."]
    assert coverage(scores) == "claims: 4 read, 1 verified, 2 contradicted, 1 unverified"
    assert coverage({"claims_checked": 0}) == "" and coverage({}) == ""


def test_the_not_correct_views_say_where_the_llm_judge_and_the_checker_disagree() -> None:
    from nabahan_pipeline.evaluation.scoring.claims import judge_disagreement

    faulted = {"claims_checked": 2, "claims_contradicted": 1, "claims_unverified": "[]"}
    clean = {"claims_checked": 2, "claims_contradicted": 0, "claims_unverified": "[]"}
    assert "judge finds the insight supported" in judge_disagreement({**faulted, "judge_verdict": "supported"})
    assert "judge finds the insight unsupported" in judge_disagreement({**clean, "judge_verdict": "unsupported"})
    assert judge_disagreement({**faulted, "judge_verdict": "unsupported"}) == ""
    assert judge_disagreement({**clean, "judge_verdict": None}) == "", "the judge off: nothing to say"
