"""Each answer scored once, as it arrives: the scores ScoringOnArrival gives are the ones
score_responses would give, and case_scores assembled from them scores nothing again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from nabahan_pipeline.agents.contract import result_table
from nabahan_pipeline.evaluation.scoring import case_scores
from nabahan_pipeline.evaluation.scoring.case_scores import ROW_SCORE_COLUMNS, score_responses
from nabahan_pipeline.evaluation.scoring.on_arrival import ScoringOnArrival
from nabahan_pipeline_tests.evaluation.scoring.answers import REFUSAL
from nabahan_pipeline_tests.evaluation.scoring.test_case_scores import cases_frame, db, queries_run, response  # noqa: F401

GOLD = "SELECT COUNT(*) FROM tenders_full_details WHERE region_id = 1"
TIMESTAMP = "2026-01-01T02:00:00+03:00"


def answers() -> list[dict[str, Any]]:
    return [
        response("a"),
        response("a", 1, sql="SELECT COUNT(*) AS n FROM tenders_full_details", data=[{"n": 3}],
                 insights="بلغ عدد المناقصات في منطقة الرياض 3 مناقصات حسب البيانات."),
        response("b", status="out_of_scope", sql=None, data=[], insights=REFUSAL),
        response("c", latency_s=6.0, data=[{"n": 7}]),  # false rows: its SQL returns 2
    ]


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The case ids score_answer scores, in order."""
    scored: list[str] = []
    real = case_scores.score_answer

    def score_answer(case: Mapping[str, Any], *args: Any, **kwargs: Any) -> dict[str, Any]:
        scored.append(case["case_id"])
        return real(case, *args, **kwargs)

    monkeypatch.setattr(case_scores, "score_answer", score_answer)
    return scored


def test_scores_on_arrival_are_the_case_scores_and_nothing_is_scored_twice(
    db: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    cases, responses = cases_frame(a=GOLD, c=GOLD), pd.DataFrame(answers())
    expected = score_responses(cases, responses, db, suite=[db], timestamp=TIMESTAMP)
    scored = counted(monkeypatch)
    told: list[tuple[str, Mapping[str, Any] | None]] = []
    with ScoringOnArrival(cases, db, [db], on_scored=lambda row, scores: told.append((row["case_id"], scores))) as on:
        for row in answers():
            on.submit(row)
        held = on.results()
    assert scored == ["a", "a", "b", "c"], "each answer scored once, as it arrived"
    assert set(held) == {("a", 0), ("a", 1), ("b", 0), ("c", 0)}
    assert all(len(values) == len(ROW_SCORE_COLUMNS) for values in held.values())
    assembled = score_responses(cases, responses, db, suite=[db], timestamp=TIMESTAMP, scored=held)
    assert scored == ["a", "a", "b", "c"], "case_scores assembles, it scores nothing again"
    pd.testing.assert_frame_equal(assembled, expected)
    # the console's line shows the case's own score: c's reported rows are not what its SQL returns
    assert [case_id for case_id, _ in told] == ["a", "a", "b", "c"]
    by_case = {case_id: scores for case_id, scores in told if case_id != "a"}
    assert by_case["c"]["rows_verified"] is False and by_case["c"]["correct"] is False
    assert bool(expected.loc[expected["case_id"] == "c", "correct"].item()) is False


def test_a_result_handed_with_its_row_is_scored_as_it_is_not_parsed_again(db: Path) -> None:  # noqa: F811
    cases = cases_frame(a=GOLD, c=GOLD)
    with ScoringOnArrival(cases, db, [db]) as on:
        for row in answers():
            on.submit(row)
        from_text = on.results()
    told: list[Mapping[str, Any]] = []
    with ScoringOnArrival(cases, db, [db], on_scored=lambda row, scores: told.append(row)) as on:
        for row in answers():
            # the row's own text is not JSON: parsing it would fail the scoring (and leave it out)
            on.submit({**row, "data": "not JSON"}, result_table({"data": json.loads(row["data"])}))
        from_result = on.results()
    assert from_result == from_text and len(from_result) == 4
    assert [row["data"] for row in told] == ["not JSON"] * 4, "the row is told as it was submitted"


def test_an_answer_missing_from_the_scores_held_is_scored_in_case_scores(
    db: Path, monkeypatch: pytest.MonkeyPatch  # noqa: F811
) -> None:
    cases, responses = cases_frame(a=GOLD), pd.DataFrame(answers())
    with ScoringOnArrival(cases, db) as on:
        for row in answers()[:2]:
            on.submit(row)
        held = on.results()
    scored = counted(monkeypatch)
    assembled = score_responses(cases, responses, db, timestamp=TIMESTAMP, scored=held)
    assert scored == ["b", "c"]
    pd.testing.assert_frame_equal(assembled, score_responses(cases, responses, db, timestamp=TIMESTAMP))


def test_an_answer_whose_scoring_fails_is_told_without_scores_and_case_scores_raises(db: Path) -> None:  # noqa: F811
    cases = cases_frame(c="SELECT COUNT(*) FROM no_such_table")
    told: list[Mapping[str, Any] | None] = []
    with ScoringOnArrival(cases, db, on_scored=lambda row, scores: told.append(scores)) as on:
        on.submit(response("c"))
        held = on.results()
    assert held == {} and told == [None]
    with pytest.raises(ValueError, match="case c: expected_sql fails.*no such table"):
        score_responses(cases, pd.DataFrame([response("c")]), db, scored=held)


def test_an_agent_query_answered_again_runs_once_per_database(db: Path, queries_run: list[str]) -> None:  # noqa: F811
    ran = queries_run
    with ScoringOnArrival(cases_frame(), db, [db]) as on:
        for row in (response("a"), response("a", 1), response("c")):
            on.submit(row)
        assert len(on.results()) == 3
    assert ran == [response("a")["sql"]] * 2


def test_leaving_after_a_failure_drops_the_answers_not_scored_yet(db: Path) -> None:  # noqa: F811
    told: list[str] = []
    with pytest.raises(KeyboardInterrupt), ScoringOnArrival(cases_frame(), db,
                                                            on_scored=lambda row, _: told.append(row["case_id"])) as on:
        for _ in range(200):
            on.submit(response("a"))
        raise KeyboardInterrupt
    assert len(told) < 200
