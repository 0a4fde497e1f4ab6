"""Hand-built cases and answers the scorers' tests share: a count case, an out-of-scope case, a
good answer and a refusal, and ``score`` (score_answer with defaults)."""

from __future__ import annotations

from typing import Any

from nabahan_pipeline.evaluation.scoring.case_scores import score_answer

COUNT_CASE = {
    "case_id": "riyadh-count",
    "question": "كم عدد المناقصات في منطقة الرياض؟",
    "category": "count",
    "expected_table": "tenders_full_details",
    "expected_sql": None,
}
OUT_OF_SCOPE_CASE = {
    "case_id": "weather",
    "question": "ما حالة الطقس في جدة اليوم؟",
    "category": "out_of_scope",
    "expected_table": None,
    "expected_sql": None,
}
GOOD_SQL = "SELECT COUNT(*) AS n FROM tenders_full_details WHERE region_id = 1"
GOOD_INSIGHT = "بلغ عدد المناقصات في منطقة الرياض 523 مناقصة وفق بيانات منصة اعتماد."
REFUSAL = "عذراً، هذا السؤال خارج نطاق بيانات المنافسات الحكومية."


def answer(**changes: Any) -> dict[str, Any]:
    base = {"status": "success", "sql": GOOD_SQL, "data": [{"n": 523}], "insights": GOOD_INSIGHT, "error": None}
    return {**base, **changes}


def refusal(**changes: Any) -> dict[str, Any]:
    return {**{"status": "out_of_scope", "sql": None, "data": [], "insights": REFUSAL, "error": None}, **changes}


def score(case=COUNT_CASE, reply=None, latency: float = 0.5, gold=None) -> dict[str, Any]:
    return score_answer(case, reply if reply is not None else answer(), latency, gold)
