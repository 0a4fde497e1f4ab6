""""أو" between conditions of different kinds refuses the question rather than answer its "and"
(issue 15); a list of one kind stays one condition and is answered."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.disjunction import blanked_by, or_across_kinds


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("كم منافسة ملغاة او في الرياض", "او"),
        ("كم منافسة عامة أو في 2024", "او"),
        ("كم منافسة عامة أو منشورة في 2024", "او"),
        ("كم منافسة ملغاة أو لوزارة الصحة", "او"),
        ("كم منافسة ملغاة او شراء مباشر", "او"),
        ("كم منافسة منتهية أو قيمتها أكثر من مليون", "او"),
        ("كم منافسة قيمتها أكثر من مليون أو عروضها أقل من 3", "او"),
        ("كم منافسة قيمتها أقل من مليون أو أكثر من 5 ملايين", "او"),
        ("كم منافسة في الرياض ولا ملغاة", "ولا"),
    ],
)
def test_or_between_kinds_refuses(agent: ReferenceAgent, question: str, word: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        ("كم منافسة في الرياض او جدة", "region_id IN (1, 2)"),
        ("كم منافسة في تبوك ولا حائل", "region_id IN (7, 8)"),
        ("كم منافسة ملغاة او منتهية في الرياض", "status_id IN (5, 6)"),
        ("كم منافسة عامة أو محدودة في مكة", "tender_type_id IN (1, 4)"),
        ("كم منافسة لوزارة الصحة او وزارة التعليم", "agency_id IN (41, 42)"),
        ("كم منافسة في 2024 او 2025", "IN ('2024', '2025')"),
        ("كم منافسة قيمتها مليون أو أكثر", "estimated_value >= 1000000"),
    ],
)
def test_a_list_of_one_kind_is_answered(agent: ReferenceAgent, question: str, condition: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert condition in answer["sql"]


def test_the_functions() -> None:
    original = "كم منافسه ملغاه او في الرياض"
    status, region = (original.index("ملغاه"), original.index("ملغاه") + 5), (original.index("الرياض"), len(original))
    text = original[: status[0]] + " " * 5 + original[status[1] : region[0]] + " " * 6
    assert blanked_by(original, text, "status_type") == {i: "status_type" for i in [*range(*status), *range(*region)]}
    owners = {i: "status_type" for i in range(*status)} | {i: "region" for i in range(*region)}
    assert or_across_kinds(text, original, owners) == ("او",)
    owners = {i: "region" for i in [*range(*status), *range(*region)]}
    assert or_across_kinds(text, original, owners) == ()
    assert or_across_kinds(text, original, {}) == ()


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("كم منافسة لأمانة الرياض وجدة", "وجده"),
        ("كم منافسة لجامعة القصيم وحائل", "وحايل"),
        ("كم منافسة لوزارة الصحة والتعليم", "والتعليم"),
    ],
)
def test_a_name_with_its_head_noun_left_out_refuses(agent: ReferenceAgent, question: str, word: str) -> None:
    # Read as the first agency AND a region (or an activity): none of the second agency's tenders.
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        ("كم منافسة لوزارة الصحة ووزارة التعليم", "agency_id IN (41, 42)"),
        ("كم منافسة لوزارة الصحة في الرياض وجدة", "region_id IN (1, 2)"),
        ("كم منافسة لوزارة الصحة في نشاط التعليم", "activity_id = 30"),
    ],
)
def test_a_name_then_other_conditions_is_answered(agent: ReferenceAgent, question: str, condition: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert condition in answer["sql"]


@pytest.mark.parametrize(
    ("question", "word"),
    [("كم منافسة للمستشفيات العسكرية", "العسكريه"), ("كم منافسة للجامعات الطبية", "الطبيه")],
)
def test_an_adjective_after_a_group_read_as_a_name_refuses(agent: ReferenceAgent, question: str, word: str) -> None:
    # Read as the hospitals OR the military industries corporation, the universities AND the
    # medical activities: not the military hospitals, not the medical universities.
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "condition"),
    [
        ("كم منافسة للجامعات ووزارة الصحة", "104, 105, 106, 107, 108, 41)"),
        ("كم منافسة للجامعات ماعدا جامعة الملك سعود", "agency_id <> 91"),
        ("كم منافسة للجامعات في نشاط تقنية المعلومات", "activity_id = 4"),
    ],
)
def test_a_group_then_a_name_joined_or_negated_is_answered(agent: ReferenceAgent, question: str, condition: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert condition in answer["sql"]
