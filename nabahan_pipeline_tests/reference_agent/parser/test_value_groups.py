"""A distribution over a column's own values: the booklet prices, the numbers of bids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "توزيع المنافسات العامة حسب سعر الكراسة",
            "SELECT booklet_price, COUNT(*) FROM tenders_full_details WHERE tender_type_id = 1 GROUP BY booklet_price",
        ),
        (
            "كم منافسة مرساة لكل عدد عروض",
            "SELECT bids_count, COUNT(*) FROM tenders_full_details WHERE status_id = 4 GROUP BY bids_count",
        ),
        (
            "المشاريع المستقبلية في الرياض حسب مدة التنفيذ",
            "SELECT duration_months, COUNT(*) FROM future_projects WHERE region_id = 1 GROUP BY duration_months",
        ),
        (
            "إجمالي القيمة التقديرية حسب كراسة الشروط",
            "SELECT booklet_price, SUM(estimated_value), COUNT(*) FROM tenders_full_details GROUP BY booklet_price",
        ),
    ],
)
def test_the_rows_are_grouped_by_the_column_values(agent: ReferenceAgent, default_db: Path, question: str, sql: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    with sqlite3.connect(f"file:{default_db}?mode=ro", uri=True) as con:
        expected = sorted(tuple(row) for row in con.execute(sql))
    got = sorted(tuple(row) for row in answer["rows"])
    assert len(got) == len(expected)
    for row, want in zip(got, expected):
        assert row == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("question", ["كم مشروع مستقبلي لكل سعر كراسة", "توزيع المنافسات حسب المدة"])
def test_a_table_without_the_column_is_refused(agent: ReferenceAgent, question: str) -> None:
    # Future projects have no booklet, tenders no duration.
    assert agent.ask(question)["status"] == "out_of_scope"
