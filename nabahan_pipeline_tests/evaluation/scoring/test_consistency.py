"""Repeats: per-case consistency over N answers, pass^N, and token totals in the summary."""

from __future__ import annotations

import hashlib
import json
import math
import tracemalloc

import pandas as pd

from nabahan_pipeline.evaluation.scoring.case_scores import score_responses
from nabahan_pipeline.evaluation.scoring.consistency import result_digest
from nabahan_pipeline.evaluation.summary import summarize

INSIGHT = "بلغ عدد المناقصات المطابقة {n} مناقصة في البيانات المتاحة حالياً."


def cases() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"case_id": case_id, "question": "كم عدد المناقصات؟", "category": "count",
             "expected_table": "tenders_full_details", "expected_response": None, "description": None,
             "filters": None, "expected_sql": None, "tags": "[]"}
            for case_id in ("stable", "flaky")
        ]
    )


def answer(case_id: str, repeat: int, n: int, sql: str, status: str = "success", tokens: float = math.nan) -> dict:
    return {
        "case_id": case_id, "repeat": repeat, "status": status, "sql": sql,
        "data": json.dumps([{"n": n}]), "data_rows": 1, "insights": INSIGHT.format(n=n),
        "error": None, "latency_s": 0.1, "cached": False,
        "prompt_tokens": tokens, "completion_tokens": tokens,
    }


def test_consistency_columns_and_pass_hat_n():
    count = "SELECT COUNT(*) FROM tenders_full_details"
    responses = pd.DataFrame(
        [
            answer("stable", 0, 5, count), answer("stable", 1, 5, count), answer("stable", 2, 5, count),
            answer("flaky", 0, 5, count), answer("flaky", 1, 6, count + " WHERE 1"),
            answer("flaky", 2, 0, None, status="error"),
        ]
    )
    scores = score_responses(cases(), responses, None)
    per_case = scores.groupby("case_id").first()
    assert per_case.loc["stable", "repeat_pass_share"] == 1.0
    assert per_case.loc["stable", ["distinct_sql", "distinct_results"]].tolist() == [1, 1]
    assert per_case.loc["flaky", "repeat_pass_share"] == 2 / 3
    assert per_case.loc["flaky", "distinct_sql"] == 3
    assert per_case.loc["flaky", "distinct_results"] == 3
    overall = summarize(scores).iloc[0]
    assert overall["repeats"] == 3
    assert overall["pass_hat_n"] == 0.5, "one of two cases passed all three repeats"
    assert overall["pass_rate"] == 5 / 6
    assert math.isnan(overall["total_tokens"])


def test_single_runs_have_no_pass_hat_n_and_tokens_are_summed():
    count = "SELECT COUNT(*) FROM tenders_full_details"
    responses = pd.DataFrame([answer("stable", 0, 5, count, tokens=10), answer("flaky", 0, 5, count, tokens=3)])
    overall = summarize(score_responses(cases(), responses, None)).iloc[0]
    assert overall["repeats"] == 1 and math.isnan(overall["pass_hat_n"])
    assert overall["total_tokens"] == 26


def test_a_result_digest_is_blind_to_row_order_and_hashes_rows_without_joining_them() -> None:
    rows = [["ن" * 20, number, None, 2.5] for number in range(20_000)]
    canonical = sorted(json.dumps(row, ensure_ascii=False, sort_keys=True) for row in rows)
    expected = hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()[:16]  # the digest as it always was
    tracemalloc.start()
    try:
        digest = result_digest(rows[::-1])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert digest == expected == result_digest(rows)
    assert result_digest([["a"], ["😀"]]) == result_digest([["😀"], ["a"]]) != result_digest([["a"]])
    utf8 = sum(len(line.encode("utf-8")) for line in canonical)
    assert peak < 3 * utf8, (peak, utf8)  # the rows' UTF-8 lines (1.7x); joined and encoded again: 6x
