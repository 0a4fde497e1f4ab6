"""A comparison with no figure said ("أقل من قيمتها التقديرية", "فوق المتوسط", "أكثر من سنتين")
against the comparison the SQL's filter makes."""

from __future__ import annotations

from nabahan_pipeline.evaluation.claims.comparisons import comparison_contradictions, sql_directions
from nabahan_pipeline.evaluation.claims.folding import Folded

BELOW_ESTIMATE = "SELECT COUNT(*) FROM t WHERE status_id = 4 AND awarded_value < 0.9 * estimated_value"
ABOVE_AVERAGE = "SELECT COUNT(*) FROM t WHERE bids_count > (SELECT AVG(bids_count) FROM t) AND region_id IS NOT NULL"


def said(insight: str, sql: str) -> list[str]:
    return [text for _, _, text, _ in comparison_contradictions(Folded.of(insight), sql)]


def test_the_sql_says_which_side_of_a_quantity_the_rows_are_on() -> None:
    assert sql_directions(BELOW_ESTIMATE) == {"estimated": {False}, "awarded": {True}}
    assert sql_directions(ABOVE_AVERAGE) == {"average": {True}}
    assert sql_directions("SELECT CASE WHEN awarded_value < estimated_value THEN 1 END FROM t") == {}


def test_a_comparison_told_the_other_way_round_is_contradicted() -> None:
    assert said("رُسّيت 412 منافسة بأقل من قيمتها التقديرية بعشرة في المئة.", BELOW_ESTIMATE) == []
    assert said("رُسّيت 412 منافسة بقيمة تزيد عن قيمتها التقديرية.", BELOW_ESTIMATE) == ["تزيد عن قيمتها التقديرية"]
    assert said("عدد العروض فيها فوق المتوسط: 1,930 منافسة.", ABOVE_AVERAGE) == []
    assert said("عدد العروض فيها دون المتوسط: 1,930 منافسة.", ABOVE_AVERAGE) == ["دون المتوسط"]
    # a negation turns it back
    assert said("لا تقل عروضها عن المتوسط: 1,930 منافسة.", ABOVE_AVERAGE) == []


def test_a_duration_in_words_reads_the_sqls_months() -> None:
    sql = "SELECT COUNT(*) FROM future_projects WHERE duration_months > 36"
    assert said("هناك 120 مشروعاً مدتها أكثر من 3 سنوات.", sql) == []
    assert said("هناك 120 مشروعاً مدتها أقل من 3 سنوات.", sql) == ["أقل من 3 سنوات"]
    assert said("120 مشروعاً لا تتجاوز مدتها سنتين.", "SELECT COUNT(*) FROM p WHERE duration_months >= 24") == []
