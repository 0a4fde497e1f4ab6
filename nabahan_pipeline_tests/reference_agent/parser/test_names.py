"""English names and agencies' initials read as the conditions their Arabic names make; initials
two agencies share name neither."""

from __future__ import annotations

import pytest
import sqlite3
from datetime import date

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, NameIndex
from nabahan_pipeline.reference_agent.parser import QueryFrame
from nabahan_pipeline.reference_agent.parser.names import EnglishNames, initials


def test_initials_are_of_the_capitalized_words() -> None:
    assert initials("King Saud University") == "ksu"
    assert initials("Princess Nourah bint Abdulrahman University") == "pnau"
    assert initials("Ministry of Culture") == "mc"
    # The usual initials skip the father's name after bin/bint.
    assert initials("Princess Nourah bint Abdulrahman University", patronyms=False) == "pnu"
    assert initials("Imam Abdulrahman Bin Faisal University", patronyms=False) == "iau"


def test_initials_two_agencies_share_are_not_read() -> None:
    catalog = Catalog(
        regions={}, statuses={}, types={}, activities={}, agencies={1: "أ", 2: "ب", 3: "ج"},
        latest_publish=date(2026, 1, 1), names=NameIndex(),
        english={"agency": {1: "King Saud University", 2: "King Salman University", 3: "Saudi Water Authority"}},
    )
    names = EnglishNames(catalog)
    text, conditions = names.read("كم منافسه ل ksu و swa", "كم منافسة لـ KSU و SWA")
    assert [(c.field, c.values) for c in conditions] == [("agency", (3,))]
    assert "ksu" in text and "swa" not in text


def test_initials_count_only_in_capitals(agent: ReferenceAgent) -> None:
    # "hmm" (Holy Makkah Municipality's initials) is a word in lower case.
    frame = agent.parser.parse("hmm كم منافسة في جدة")
    assert not isinstance(frame, QueryFrame) or all(c.field != "agency" for c in frame.conditions)
    frame = agent.parser.parse("كم منافسة لـ HMM")
    assert isinstance(frame, QueryFrame) and [c.values for c in frame.conditions] == [(56,)]


@pytest.mark.parametrize(
    ("question", "field", "ids"),
    [
        ("كم منافسة لـ KAU في الرياض؟", "agency", (94,)),
        ("كم منافسة طرحتها PNU", "agency", (92,)),
        ("عدد المنافسات من نوع Direct purchase", "type", (2,)),
        ("كم منافسة في Eastern Province", "region", (5,)),
        ("إجمالي قيمة منافسات King Faisal University", "agency", (100,)),
    ],
)
def test_an_english_name_is_a_condition(agent: ReferenceAgent, question: str, field: str, ids: tuple) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert any(c.field == field and c.values == ids for c in frame.conditions), frame.conditions


# --- agency groups --------------------------------------------------------------------------------
# Groups of agencies named by a plural, their members derived from the agencies' names, and what is
# asked of a group (a count, a total, a ranking among its members, a distribution).

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


# --- name choice ----------------------------------------------------------------------------------
# Agency names matched as whole names (issue 30): a name that is a proper part of another agency's
# name selects only the agency whose full name it is, unless the question asks for every agency that
# holds it; a phrase several names share and none is whole is refused with the candidates named; an
# answer over several agencies names each of them.

T = "tenders_full_details"


def _ids(db: sqlite3.Connection, where: str) -> set[int]:
    return {r[0] for r in db.execute(f"SELECT agency_id FROM government_agencies WHERE {where}")}


@pytest.mark.parametrize(
    ("question", "name", "longer"),
    [
        ("وش مجموع قيم الترسية لوزارة الحرس الوطني في 2025", "وزارة الحرس الوطني", "%بوزارة الحرس الوطني"),
        ("كم منافسة منتهية طرحتها جامعة الملك سعود", "جامعة الملك سعود", "جامعة الملك سعود بن%"),
    ],
)
def test_a_whole_name_inside_a_longer_one_is_that_agency_alone(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str, name: str, longer: str
) -> None:
    (exact,) = _ids(db, f"name_ar = '{name}'")
    assert _ids(db, f"name_ar LIKE '{longer}'")  # the longer name exists and holds it
    answer = agent.ask(question)
    assert answer["status"] == "success"
    assert f"agency_id = {exact}" in answer["sql"] and "agency_id IN" not in answer["sql"]


@pytest.mark.parametrize(
    "question",
    ["كم منافسة ملغاة لجميع جهات الحرس الوطني", "كم منافسة لجهات الحرس الوطني كلها في 2023"],
)
def test_asked_as_a_group_every_agency_that_holds_it_counts_and_is_named(
    agent: ReferenceAgent, db: sqlite3.Connection, question: str
) -> None:
    holding = _ids(db, "name_ar LIKE '%الحرس الوطني%'")
    answer = agent.ask(question)
    assert answer["status"] == "success"
    assert f"agency_id IN ({', '.join(map(str, sorted(holding)))})" in answer["sql"]
    assert "وزارة الحرس الوطني" in answer["insights"] and "الشؤون الصحية" in answer["insights"]


def test_a_shared_short_name_none_holds_whole_is_refused_naming_the_candidates(agent: ReferenceAgent) -> None:
    answer = agent.ask("إجمالي القيمة التقديرية لمنافسات الحرس الوطني")
    assert answer["status"] == "out_of_scope"
    assert "«وزارة الحرس الوطني»" in answer["insights"]


def test_a_family_of_names_summed_names_each_agency(agent: ReferenceAgent, db: sqlite3.Connection) -> None:
    # Every name begins with the phrase: read together, as before, but never one figure unsaid.
    names = [r[0] for r in db.execute("SELECT name_ar FROM government_agencies WHERE name_ar LIKE 'مستشفى القوات المسلحة%'")]
    assert len(names) == 2
    answer = agent.ask("كم منافسة نشطة لمستشفى القوات المسلحة")
    assert answer["status"] == "success"
    assert all(name in answer["insights"] for name in names)


# --- reference lookup -----------------------------------------------------------------------------
# Questions about the reference tables: English and Arabic names, ids, where an agency is, the
# agencies of a region, the names that contain a word; and lookups the tables cannot answer refused.

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
