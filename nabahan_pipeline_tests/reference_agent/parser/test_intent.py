"""What is asked, once the filters are read: here, a share of a column's total rather than of the rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


@pytest.fixture(scope="module")
def agent(default_db: Path) -> ReferenceAgent:
    return ReferenceAgent()


@pytest.mark.parametrize(
    ("question", "part", "base"),
    [
        ("ما نسبة منافسات جدة من إجمالي القيمة التقديرية؟", "region_id = 2", "1 = 1"),
        ("ما حصة الشراء المباشر من مجموع قيم المنافسات في 2023", "tender_type_id = 2", "strftime('%Y', publish_date) = '2023'"),
    ],
)
def test_a_share_of_the_total_value(agent: ReferenceAgent, default_db: Path, question: str, part: str, base: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame) and frame.measure == "share" and frame.column == "value", frame
    answer = agent.ask(question)
    with sqlite3.connect(f"file:{default_db}?mode=ro", uri=True) as con:
        expected = con.execute(
            f"SELECT 100.0 * SUM(CASE WHEN {part} THEN estimated_value ELSE 0 END) / SUM(estimated_value) "
            f"FROM tenders_full_details WHERE {base}"
        ).fetchone()[0]
    assert answer["data"][0]["share_pct"] == pytest.approx(expected, rel=1e-12)
    assert f"{expected:.1f}%" in answer["insights"]


def test_a_share_with_no_value_word_is_of_the_rows(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("ما نسبة المنافسات الملغاة في تبوك")
    assert isinstance(frame, QueryFrame) and frame.measure == "share" and frame.column is None
