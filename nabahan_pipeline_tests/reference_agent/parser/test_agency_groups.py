"""Groups of agencies named by a plural, their members derived from the agencies' names, and what
is asked of a group (a count, a total, a ranking among its members, a distribution)."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame


@pytest.mark.parametrize(
    ("group", "like"),
    [
        ("universities", "%جامعة%"),
        ("health_clusters", "تجمع%الصحي%"),
        ("municipalities", "أمانة%"),
        ("hospitals", "%مستشف%"),
        ("ministries", "وزارة%"),
    ],
)
def test_a_group_is_the_agencies_whose_names_make_it(
    agent: ReferenceAgent, db: sqlite3.Connection, group: str, like: str
) -> None:
    expected = tuple(r[0] for r in db.execute("SELECT agency_id FROM government_agencies WHERE name_ar LIKE ? ORDER BY agency_id", (like,)))
    assert expected
    assert agent.parser.agency_groups.members[group] == expected


@pytest.mark.parametrize(
    ("question", "where"),
    [
        ("ما إجمالي قيمة منافسات الوزارات في 2025؟", "name_ar LIKE 'وزارة%'"),
        ("وش عدد منافسات الجامعات الملغاة", "name_ar LIKE '%جامعة%'"),
        ("كم منافسة للأمانات في المنطقة الشرقية", "name_ar LIKE 'أمانة%'"),
    ],
)
def test_a_group_is_one_condition_beside_the_others(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str, where: str
) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    ids = {r[0] for r in db.execute(f"SELECT agency_id FROM government_agencies WHERE {where}")}
    (agency,) = [c for c in frame.conditions if c.field == "agency"]
    assert set(agency.values) == ids
    assert len(frame.conditions) == 2  # and the year, status or place


def test_a_ranking_among_a_group_ranks_its_members(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    answer = agent.ask("أعلى 3 مستشفيات في عدد المنافسات")
    assert answer["status"] == "success", answer["insights"]
    expected = db.execute(
        "SELECT agency_id, COUNT(*) AS n FROM tenders_full_details WHERE agency_name LIKE '%مستشف%' "
        "GROUP BY agency_id ORDER BY n DESC LIMIT 3"
    ).fetchall()
    assert [(row["agency_id"], row["tender_count"]) for row in answer["data"]] == expected


def test_a_plural_that_begins_an_agency_name_is_that_agency(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("كم منافسة لمستشفيات الهدا والأمير سلطان")
    assert isinstance(frame, QueryFrame)
    assert [c.values for c in frame.conditions] == [(27,)]


def test_a_shared_name_is_picked_by_the_word_before_it_or_refused(agent: ReferenceAgent) -> None:
    authority = agent.parser.parse("منافسات هيئة المياه النشطة كم عددها")
    assert isinstance(authority, QueryFrame)
    assert [c.values for c in authority.conditions if c.field == "agency"] == [(5,)]
    ministry = agent.parser.parse("وزارة المياه كم منافسة طرحت")
    assert isinstance(ministry, QueryFrame)
    assert [c.values for c in ministry.conditions if c.field == "agency"] == [(34,)]
    answer = agent.ask("كم منافسة لجهة المياه؟")
    assert answer["status"] == "out_of_scope"
    assert "الهيئة السعودية للمياه" in answer["insights"] and "وزارة البيئة والمياه والزراعة" in answer["insights"]


def test_a_group_distributed_by_another_dimension_is_not_grouped_by_agency(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("توزيع منافسات الجامعات حسب المنطقة")
    assert isinstance(frame, QueryFrame) and frame.group_by == ("region",)
    share = agent.parser.parse("نسبة منافسات المستشفيات من إجمالي المنافسات")
    assert isinstance(share, QueryFrame) and share.measure == "share"


@pytest.mark.parametrize(
    "question",
    ["كم منافسة لكل جامعة", "توزيع المنافسات على الوزارات", "الوزارات الأكثر طرحا للمنافسات", "إجمالي قيمة المنافسات حسب المستشفى"],
)
def test_a_group_grouped_or_ranked_is_by_agency_among_its_members(agent: ReferenceAgent, question: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.group_by == ("agency",)
    (agency,) = [c for c in frame.conditions if c.field == "agency"]
    assert len(agency.values) > 5  # the group, not one agency


def test_a_singular_elsewhere_is_a_name(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("كم منافسة لجامعة القصيم")
    assert isinstance(frame, QueryFrame) and [c.values for c in frame.conditions] == [(98,)]


def test_a_group_counted_or_asked_of_itself_is_its_agencies(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    universities = db.execute("SELECT COUNT(*) FROM government_agencies WHERE name_ar LIKE '%جامعة%'").fetchone()[0]
    assert agent.ask("كم جامعة في البيانات؟")["rows"] == [[universities]]
    in_makkah = db.execute(
        "SELECT COUNT(*) FROM government_agencies WHERE name_ar LIKE '%جامعة%' AND region_id = 2"
    ).fetchone()[0]
    assert len(agent.ask("الجهات الحكومية من الجامعات في منطقة مكة")["rows"]) == in_makkah
    frame = agent.parser.parse("كم جامعة طرحت منافسات في 2025")
    assert isinstance(frame, QueryFrame) and frame.measure == "count_distinct" and frame.distinct_of == "agency"


@pytest.mark.parametrize("question", ["كم عدد الجامعات في السعودية؟", "كم عدد المستشفيات في الرياض", "ما هي الوزارات"])
def test_a_group_asked_of_outside_the_data_is_refused(agent: ReferenceAgent, question: str) -> None:
    # General knowledge about institutions: the data holds a few agencies of each kind.
    assert agent.ask(question)["status"] == "out_of_scope"


@pytest.mark.parametrize(
    ("question", "members"),
    [
        ("كم منافسة ملغاة لمستشفيات الملك فهد", "name_ar LIKE 'مستشفى الملك فهد%'"),
        ("وش مجموع قيم الترسية لتجمعات الرياض الصحية", "name_ar LIKE 'تجمع الرياض الصحي%'"),
        ("إجمالي القيمة التقديرية لمستشفيات قوى الأمن", "name_ar LIKE 'مستشفى قوى الأمن%'"),
    ],
)
def test_a_plural_with_the_words_its_members_share_is_those_members(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str, members: str
) -> None:
    """Issue 30: "مستشفيات الملك فهد" is the hospitals whose names go on with "الملك فهد", each named."""
    rows = db.execute(f"SELECT agency_id, name_ar FROM government_agencies WHERE {members} ORDER BY agency_id").fetchall()
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert f"agency_id IN ({', '.join(str(i) for i, _ in rows)})" in answer["sql"] or (
        len(rows) == 1 and f"agency_id = {rows[0][0]}" in answer["sql"]
    )
    assert all(name in answer["insights"] for _, name in rows)


def test_the_members_of_a_group_are_listed(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    names = {r[0] for r in db.execute("SELECT name_ar FROM government_agencies WHERE name_ar LIKE 'أمانة%'")}
    answer = agent.ask("ما أسماء الأمانات المسجلة في البيانات؟")
    assert answer["status"] == "success"
    assert {row[1] for row in answer["rows"]} == names


def test_a_plural_with_words_of_one_member_only_is_not_that_member(agent: ReferenceAgent) -> None:
    # "تجمعات جدة الصحية": one cluster's name goes on so; the plural is not read as that one name.
    answer = agent.ask("كم منافسة لتجمعات جدة الصحية")
    assert "agency_id = 73" not in (answer["sql"] or "")
