"""Negations between a subject and its predicate ("ما هي شراء مباشر", "مب ملغاة", "مو في جدة")
read as negations, "ما هي" still read as a question where it asks, and such a negation no pass
reads refused rather than answered with its positive (issue 15)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.dialect_negation import dialect_negation, unread_negations


def _where(agent: ReferenceAgent, question: str) -> str:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    return answer["sql"].split(" WHERE ", 1)[1]


@pytest.mark.parametrize(
    ("question", "negated", "kept"),
    [
        ("كم منافسة في جازان ما هي شراء مباشر؟", "tender_type_id <> 2", "region_id = 10"),
        ("كم منافسة بتبوك ماهو شراء مباشر", "tender_type_id <> 2", "region_id = 7"),
        ("وش عدد المنافسات بالرياض اللي مب ملغاة", "status_id IN (1, 2, 3, 4, 6)", "region_id = 1"),
        ("كم منافسة في حائل حالتها ما هي قيد الفحص", "status_id IN (1, 3, 4, 5, 6)", "region_id = 8"),
        ("كم منافسة ملغاة ما هي في الرياض", "region_id <> 1", "status_id = 5"),
        ("كم منافسة منتهية مو في جدة", "region_id <> 2", "status_id = 6"),
        ("كم منافسة ملغاة ليست في منطقة عسير", "region_id <> 6", "status_id = 5"),
        ("كم منافسة في الرياض ماهي من وزارة الصحة", "agency_id <> 41", "region_id = 1"),
        ("كم منافسة في نجران ماهي منتهية ولا ملغاة", "status_id IN (1, 2, 3, 4)", "region_id = 11"),
        ("كم منافسة في جدة مهوب ملغاة", "status_id IN (1, 2, 3, 4, 6)", "region_id = 2"),
        ("كم منافسة في تبوك وما هي شراء مباشر", "tender_type_id <> 2", "region_id = 7"),
        ("كم منافسة في تبوك اللي ماهي الملغاة", "status_id IN (1, 2, 3, 4, 6)", "region_id = 7"),
        ("كم منافسة ما هي ملغاة ولا في الرياض", "region_id <> 1", "status_id IN (1, 2, 3, 4, 6)"),
        ("كم منافسة ملغاة ماهيب في الرياض", "region_id <> 1", "status_id = 5"),
        ("كم منافسة ملغاة لغير وزارة الصحة", "agency_id <> 41", "status_id = 5"),
        ("كم منافسة منتهية بغير الرياض", "region_id <> 1", "status_id = 6"),
    ],
)
def test_a_negation_between_subject_and_predicate_negates(
    agent: ReferenceAgent, question: str, negated: str, kept: str
) -> None:
    where = _where(agent, question)
    assert negated in where, where
    assert kept in where


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        ("ما هي المنافسات الملغاة في الرياض", "status_id = 5"),
        ("ابي اعرف ما هي الملغاة من منافسات جدة", "status_id = 5"),
        ("ما هو عدد المنافسات النشطة في جدة", "status_id = 1"),
    ],
)
def test_ma_hiya_that_asks_is_no_negation(agent: ReferenceAgent, question: str, condition: str) -> None:
    assert condition in _where(agent, question)


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("كم منافسة ما هي في 2024", ("ما هي",)),
        ("كم منافسة قيمتها ما هي أكثر من مليون", ("ما هي",)),
        ("كم منافسة ما هي من الجامعات في الرياض", ("ما هي",)),
        ("كم منطقة ما هي فيها منافسات ملغاة", ("ما هي",)),
        ("كم منافسة ماهي الرياض وجدة والدمام", ("ماهي",)),
        ("كم منافسة ماهي الشراء المباشر والمنافسة العامة", ("ماهي",)),
        ("توزيع المنافسات على المناطق ما هي الملغاة والمنتهية", ("ما هي",)),
    ],
)
def test_a_negation_no_pass_reads_refuses(agent: ReferenceAgent, question: str, words: tuple[str, ...]) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope"
    assert answer["sql"] is None
    for word in words:
        assert f"«{word}»" in answer["insights"]


def test_the_functions_on_the_working_text() -> None:
    original = normalize_arabic("كم منافسة في جازان ما هي شراء مباشر")
    text = original.replace("في جازان", " " * len("في جازان"))
    start = text.index("شراء")
    m = dialect_negation(text, original, start)
    assert m is not None and m.group("neg") == "ما هي"
    # At the question's head "ما هي" asks.
    head = normalize_arabic("ما هي شراء مباشر")
    assert dialect_negation(head, head, head.index("شراء")) is None
    working = "كم منافسه ما هي        "
    assert unread_negations(working, "كم منافسه ما هي في 2024") == ("ما هي",)
    # After "كم" even "ما هي" before the article is no second question: refused, not dropped.
    assert unread_negations(working, "كم منافسه ما هي الملغاه") == ("ما هي",)
    listing = "اعرض المنافسات ما هي        "
    assert unread_negations(listing, "اعرض المنافسات ما هي الملغاه") == ()


@pytest.mark.parametrize(
    ("question", "negated"),
    [
        ("كم منافسة ما عدا الملغاة والمنتهية", "status_id IN (1, 2, 3, 4)"),
        ("كم منافسة غير ملغاة او منتهية", "status_id IN (1, 2, 3, 4)"),
        ("كم منافسة باستثناء الشراء المباشر والمنافسة العامة", "tender_type_id NOT IN (2, 1)"),
        ("كم منافسة غير ملغاة وغير منتهية", "status_id IN (1, 2, 3, 4)"),
        ("كم منافسة خارج الرياض وجدة", "region_id NOT IN (1, 2)"),
        ("كم منافسة ملغاة باستثناء الرياض والشرقية", "region_id NOT IN (1, 5)"),
        ("كم منافسة ما عدا وزارة الصحة ووزارة التعليم", "agency_id <> 41 AND agency_id <> 42"),
        ("كم منافسة في غير نشاط الاتصالات وتقنية المعلومات", "activity_id <> 18 AND activity_id <> 4"),
    ],
)
def test_a_negation_carries_over_its_list(agent: ReferenceAgent, question: str, negated: str) -> None:
    where = _where(agent, question)
    assert negated in where
    assert " = " not in where.replace("status_id = 5", "")  # no member read as its positive


@pytest.mark.parametrize(
    ("question", "kept"),
    [
        ("كم منافسة غير ملغاة في الرياض وجدة", "region_id IN (1, 2)"),
        ("كم منافسة ملغاة في الرياض او جدة", "region_id IN (1, 2)"),
    ],
)
def test_a_list_after_a_negation_of_another_kind_stays_positive(agent: ReferenceAgent, question: str, kept: str) -> None:
    assert kept in _where(agent, question)


@pytest.mark.parametrize(
    ("question", "negated"),
    [
        ("كم منافسة إلا الملغاة", "status_id IN (1, 2, 3, 4, 6)"),
        ("كل المنافسات إلا اللي في جدة كم عددها", "region_id <> 2"),
        ("كم منافسة للوزارات الا وزارة الصحة", "agency_id <> 41"),
    ],
)
def test_except_negates(agent: ReferenceAgent, question: str, negated: str) -> None:
    assert negated in _where(agent, question)


@pytest.mark.parametrize(
    "question",
    ["كم منافسة إلا في 2024", "كم منافسة ما طرحت إلا في الرياض"],  # a date; "only" after a negation
)
def test_except_no_pass_reads_refuses(agent: ReferenceAgent, question: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope"
    assert "«الا»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("كم منافسة بقيمة ما يزيد عن مليون", ("ما", "يزيد")),
        ("كم منافسة بما يقل عن 500 ألف", ("بما", "يقل")),
    ],
)
def test_a_relative_ma_before_a_comparator_refuses(agent: ReferenceAgent, question: str, words: tuple[str, ...]) -> None:
    # Written Arabic: "with a value of what exceeds": more than, not "not more than".
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    for word in words:
        assert f"«{word}»" in answer["insights"]


def test_a_negation_after_bima_stays_read(agent: ReferenceAgent) -> None:
    assert "estimated_value <= 300000" in _where(agent, "كم منافسة بما لا يتجاوز 300 ألف")
    assert "estimated_value <= 1000000" in _where(agent, "كم منافسة قيمتها ما تتجاوز مليون")


_BASES = (("كم منافسة في تبوك", "region_id = 7"), ("كم منافسة في 2024", "strftime('%Y', publish_date) = '2024'"), ("كم منافسة محدودة", "tender_type_id = 4"))
_NEGATIONS = ("ما هي", "ماهي", "وما هي", "اللي ما هي", "مو", "ومو", "مب", "ليست", "وليست", "غير", "وغير", "ما عدا", "الا", "مهوب")
_FILTERS = (("ملغاة", "status_id = 5"), ("شراء مباشر", "tender_type_id = 2"), ("في جدة", "region_id = 2"), ("من وزارة الصحة", "agency_id = 41"))


@pytest.mark.parametrize("negation", _NEGATIONS)
def test_every_negation_before_every_filter_is_read_or_refused(agent: ReferenceAgent, default_db: Path, negation: str) -> None:
    # The oracle: base AND NOT filter (regions: <>, the rows without a region left out as SQL leaves them).
    con = sqlite3.connect(f"file:{default_db}?mode=ro", uri=True)
    answered = 0
    try:
        for (base, base_where), (phrase, where) in [(b, f) for b in _BASES for f in _FILTERS if b[1].split()[0] != f[1].split()[0]]:
            answer = agent.ask(f"{base} {negation} {phrase}")
            if answer["status"] != "success":
                continue
            answered += 1
            negated = where.replace("=", "<>") if where.startswith("region") else f"NOT ({where})"
            (want,) = con.execute(f"SELECT COUNT(*) FROM tenders_full_details WHERE {base_where} AND {negated}").fetchone()
            assert answer["rows"] == [[want]], (base, negation, phrase, answer["sql"])
    finally:
        con.close()
    assert answered >= 3, "the negation is read, not only refused"
