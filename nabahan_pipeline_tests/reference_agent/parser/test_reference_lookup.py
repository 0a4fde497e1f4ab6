"""Questions about the reference tables: English and Arabic names, ids, where an agency is, the
agencies of a region, the names that contain a word; and lookups the tables cannot answer refused."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("وش الاسم بالإنجليزي لمنطقة تبوك", "SELECT name_en FROM regions WHERE region_id = 7"),
        ("اعطني الاسم الانجليزي لنشاط تقنية المعلومات", "SELECT name_en FROM activities WHERE activity_id = 4"),
        ("ما هو الاسم العربي لحالة Cancelled", "SELECT name_ar FROM tender_statuses WHERE name_en = 'Cancelled'"),
        ("ما رقم منطقة جازان في البيانات؟", "SELECT region_id FROM regions WHERE name_ar = 'منطقة جازان'"),
        ("وين تقع جامعة القصيم؟", "SELECT r.name_ar FROM government_agencies g JOIN regions r USING (region_id) WHERE g.agency_id = 98"),
        ("الأسماء الإنجليزية لأنواع المنافسات", "SELECT name_en FROM tender_types"),
    ],
)
def test_a_lookup_answers_with_the_cell_asked_for(agent: ReferenceAgent, db: sqlite3.Connection, question: str, sql: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    expected = sorted(str(row[0]) for row in db.execute(sql))
    assert expected
    # Some column of the answer holds exactly the cells asked for.
    columns = list(zip(*answer["rows"]))
    assert any(sorted(str(v) for v in column) == expected for column in columns), (answer["rows"], expected)
    # ... and the answer says them.
    assert all(value in answer["insights"] for value in expected)


def test_the_agencies_of_a_region_and_their_count(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    expected = db.execute("SELECT COUNT(*) FROM government_agencies WHERE region_id = 5").fetchone()[0]
    answer = agent.ask("كم جهة مقرها المنطقة الشرقية؟")
    assert answer["status"] == "success" and answer["rows"] == [[expected]]
    listed = agent.ask("ما الجهات التابعة للمنطقة الشرقية؟")
    assert listed["status"] == "success" and len(listed["rows"]) == expected


def test_the_names_that_contain_a_word(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    expected = db.execute("SELECT COUNT(*) FROM government_agencies WHERE name_ar LIKE '%مستشفى%'").fetchone()[0]
    answer = agent.ask("كم جهة يحتوي اسمها على كلمة مستشفى؟")
    assert answer["status"] == "success" and answer["rows"] == [[expected]]


@pytest.mark.parametrize(
    "question",
    [
        # Tenders have no English name.
        "ما الاسم الإنجليزي للمنافسات في الرياض؟",
        # A region's name has no year.
        "ما الاسم الانجليزي لمنطقة الرياض في 2024؟",
        # Two tables at once.
        "ما الاسم الانجليزي لحالة ملغاة ونوع الشراء المباشر؟",
    ],
)
def test_a_lookup_the_tables_cannot_answer_is_refused(agent: ReferenceAgent, question: str) -> None:
    assert agent.ask(question)["status"] == "out_of_scope"


def test_of_an_agency_said_of_tenders_is_no_lookup(agent: ReferenceAgent) -> None:
    # "التابعة لـ" / "تقع" of tenders: the tenders of the agency, where they are.
    frame = agent.parser.parse("كم منافسة تابعة لوزارة الصحة؟")
    assert isinstance(frame, QueryFrame) and frame.entity == "tenders" and frame.measure == "count"
    where = agent.parser.parse("في أي منطقة تقع منافسات وزارة الصحة؟")
    assert isinstance(where, QueryFrame) and where.entity == "tenders" and where.group_by == ("region",)
