"""What is asked, once the filters are read: a share of a column's total rather than of the rows, and the
lists of lookup tables (an agency's region; conditions a lookup table cannot hold refused)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


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


def test_which_region_of_an_agency_is_its_seat(agent: ReferenceAgent) -> None:
    answer = agent.ask("مستشفى تبوك في أي منطقة؟")
    assert answer["status"] == "success"
    assert [(row["agency_id"], row["region_name"]) for row in answer["data"]] == [(13, "منطقة تبوك")]


@pytest.mark.parametrize("question", ["ما هي الأنشطة في الرياض", "ما هي الحالات في 2024", "اعرض أنواع المنافسات التي قيمتها فوق مليون"])
def test_a_list_of_a_lookup_table_with_a_condition_it_cannot_hold_is_refused(agent: ReferenceAgent, question: str) -> None:
    # Listing every activity would answer another question.
    assert agent.ask(question)["status"] == "out_of_scope"


def test_what_a_part_makes_of_the_whole_is_a_share(agent: ReferenceAgent) -> None:
    # "كم تشكل ... من ...": a share, not the part's own total.
    frame = agent.parser.parse("كم تشكل منافسات تبوك من إجمالي المنافسات؟")
    assert isinstance(frame, QueryFrame) and frame.measure == "share"
