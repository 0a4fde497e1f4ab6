"""The bag of values a result derives (claims.bag.Evidence): the same whether rows are lists or
tuples, and read a column at a time."""

from __future__ import annotations

import tracemalloc

from nabahan_pipeline.evaluation.claims.bag import Evidence


def figures(evidence: Evidence) -> tuple[list[float], list[float], list[float], int]:
    return evidence.plain, evidence.percent_only, evidence.non_percent, evidence.enumeration_max


def test_rows_of_values_derive_the_same_as_lists_or_tuples():
    rows = [["الرياض", 12, 3.5], ["جدة", 7, None], ["الدمام"], ["مكة", 12, 1.5, "عدد 40"]]  # ragged too
    question = "كم عدد المناقصات في 3 مدن؟"
    assert figures(Evidence([tuple(row) for row in rows], question)) == figures(Evidence(rows, question))
    assert 40.0 in Evidence(rows, question).plain and 31.0 in Evidence(rows, question).plain


def test_a_huge_result_of_rows_is_not_copied_into_an_object_per_row():
    rows = [["قيمة نصية من عشرين حرفا"] * 12 for _ in range(20_000)]
    Evidence(rows[:5], "كم عدد القيم؟")  # what a first reading compiles and caches, apart
    tracemalloc.start()
    try:
        Evidence(rows, "كم عدد القيم؟")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 15_000_000, peak  # 10 MB; with a dict per row, 23 MB
