"""Execution match against the gold result; NaN without gold SQL."""

from __future__ import annotations

import math

import pytest

from nabahan_pipeline.etimad_db.sql_safety import QueryResult
from nabahan_pipeline_tests.evaluation.scoring.answers import COUNT_CASE, answer, refusal, score


GOLD_SQL = "SELECT region_id, COUNT(*) FROM tenders_full_details GROUP BY region_id ORDER BY region_id"
GOLD = QueryResult(columns=["region_id", "COUNT(*)"], rows=[(1, 523), (2, 300)])
GOLD_CASE = {**COUNT_CASE, "expected_sql": GOLD_SQL}
GOLD_ROWS = [{"count": 523, "region": 1}, {"count": 300, "region": 2}]
GOLD_INSIGHT = "في منطقة الرياض 523 مناقصة، وفي منطقة مكة المكرمة 300 مناقصة حسب البيانات."


def test_execution_match_nan_without_gold_sql() -> None:
    assert math.isnan(score(COUNT_CASE, answer())["execution_match"])


def test_execution_match_rules() -> None:
    assert score(GOLD_CASE, answer(data=GOLD_ROWS, insights=GOLD_INSIGHT), gold=GOLD)["execution_match"] == 1.0
    # The gold orders its rows, so the reverse order does not match.
    assert score(GOLD_CASE, answer(data=GOLD_ROWS[::-1], insights=GOLD_INSIGHT), gold=GOLD)["execution_match"] == 0.0
    # Right rows, but the status is not success.
    assert score(GOLD_CASE, answer(status="error", data=GOLD_ROWS), gold=GOLD)["execution_match"] == 0.0
    assert score(GOLD_CASE, refusal(), gold=GOLD)["execution_match"] == 0.0


def test_execution_match_needs_the_gold_result() -> None:
    with pytest.raises(ValueError, match="no gold result"):
        score(GOLD_CASE, answer())
