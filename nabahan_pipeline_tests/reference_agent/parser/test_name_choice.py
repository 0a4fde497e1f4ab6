"""Agency names matched as whole names (issue 30): a name that is a proper part of another
agency's name selects only the agency whose full name it is, unless the question asks for every
agency that holds it; a phrase several names share and none is whole is refused with the
candidates named; an answer over several agencies names each of them."""

from __future__ import annotations

import sqlite3

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent

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
