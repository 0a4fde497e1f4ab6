"""Words that change nothing a question asks (issue 30): each word of the lexicon, asked with and
without, gets the same SQL; next to a number, a negation or a comparator, or as a word of a name,
it is not passed over and the question is refused naming it, as any word not understood."""

from __future__ import annotations

import re

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser.patterns import PASSED_OVER

# (question with the word, the same question without it); one or more per lexicon entry.
SAME_QUESTION = [
    ("كم منافسة متوفرة في منطقة القصيم؟", "كم منافسة في منطقة القصيم؟"),
    ("كم عدد المنافسات المتواجدة في منطقة تبوك", "كم عدد المنافسات في منطقة تبوك"),
    ("كم منافسة مسجلة باسم جامعة حائل؟", "كم منافسة باسم جامعة حائل؟"),
    ("كم منافسة ملغاة موجودة في منطقة الباحة", "كم منافسة ملغاة في منطقة الباحة"),
    ("كم منافسة مدرجة في نشاط أنشطة التدريب؟", "كم منافسة في نشاط أنشطة التدريب؟"),
    ("كم منافسة تندرج في نشاط أنشطة التعليم", "كم منافسة في نشاط أنشطة التعليم"),
    ("كم منافسة عامة ضمن منطقة حائل", "كم منافسة عامة في منطقة حائل"),
    ("كم منافسة واردة من وزارة الرياضة", "كم منافسة من وزارة الرياضة"),
    ("كم عدد المنافسات المطروحة لجامعة جازان", "كم عدد المنافسات لجامعة جازان"),
    ("كم منافسة تعود لجامعة نجران", "كم منافسة لجامعة نجران"),
    ("كم منافسة يعود أمرها لجامعة الباحة", None),  # "أمرها" is still not understood
    ("كم منافسة عائدة لجامعة تبوك", "كم منافسة لجامعة تبوك"),
    ("كم منافسة تخص جامعة الجوف", "كم منافسة جامعة الجوف"),
    ("كم منافسة خاصة بجامعة طيبة في 2024", "كم منافسة بجامعة طيبة في 2024"),
    ("كم منافسة طرحت من قبل جامعة الملك خالد", "كم منافسة طرحت جامعة الملك خالد"),
    ("كم منافسة ذات حالة ملغاة في الرياض", "كم منافسة حالة ملغاة في الرياض"),
    ("كم عملية شراء مباشر لوزارة الثقافة", "كم شراء مباشر لوزارة الثقافة"),
    ("كم منافسة يتم طرحها في منطقة الجوف", "كم منافسة طرحها في منطقة الجوف"),
    ("كم منافسة قامت بطرحها جامعة جازان", "كم منافسة طرحتها جامعة جازان"),
    ("كم منافسة قام بطرحها حرس الحدود", "كم منافسة طرحها حرس الحدود"),
    ("كم منافسة نشرتها جامعة حائل", "كم منافسة طرحتها جامعة حائل"),
    ("كم منافسة أعلنتها وزارة الرياضة", "كم منافسة طرحتها وزارة الرياضة"),
    ("كم مشروع مستقبلي يندرج في نشاط تقنية المعلومات", "كم مشروع مستقبلي في نشاط تقنية المعلومات"),
    ("كم مشروع مستقبلي يخص وزارة المالية", "كم مشروع مستقبلي وزارة المالية"),
    ("كم عملية شراء مباشر في منطقة جازان", "كم شراء مباشر في منطقة جازان"),
    ("عدد عمليات الشراء المباشر لوزارة العدل", "عدد الشراء المباشر لوزارة العدل"),
    ("كم منافسة نشرها حرس الحدود", "كم منافسة طرحها حرس الحدود"),
    ("كم منافسة أعلنها حرس الحدود", "كم منافسة طرحها حرس الحدود"),
]


def test_every_lexicon_entry_has_a_question_that_shows_it_safe() -> None:
    """Each regex of the lexicon is exercised by at least one question above."""
    shown = normalize_arabic(" ".join(q for q, _ in SAME_QUESTION))
    for terms in lx.PASSED_OVER_TERMS.values():
        for term in terms:
            assert re.search(rf"(?<!\w)(?:[وفبل]|ال|بال|لل)?{term}(?!\w)", shown), term


@pytest.mark.parametrize(("question", "without"), [c for c in SAME_QUESTION if c[1]], ids=lambda v: v or "")
def test_a_word_that_changes_nothing_is_passed_over(agent: ReferenceAgent, question: str, without: str) -> None:
    answer, plain = agent.ask(question), agent.ask(without)
    assert plain["status"] == "success", plain["insights"]
    assert answer["status"] == "success", answer["insights"]
    assert answer["sql"] == plain["sql"]


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("كم منافسة مسجلة غير ملغاة ضمن 5 مناطق", "ضمن"),  # next to a number
        ("كم منافسة غير مسجلة في منطقة حائل", "مسجله"),  # next to a negation
        ("كم منافسة مدرجة أكثر من مرة في منطقة حائل", "مدرجه"),  # next to a comparator
    ],
)
def test_a_word_next_to_a_number_negation_or_comparator_is_not_passed_over(
    agent: ReferenceAgent, question: str, word: str
) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope"
    assert f"«{word}»" in answer["insights"]


def test_a_word_of_a_name_is_not_passed_over(agent: ReferenceAgent) -> None:
    """"الخاصة" stays a word of any agency or activity name that holds it, for the name pass."""
    names = agent.parser.catalog.names.postings
    held = [w for w in ("خاصه", "الخاصه", "مطروحه", "ضمن") if w in names]
    assert not held  # none of these is a name's word in the default database...
    # ...while a word that is one ("الصحيه") is never in the lexicon.
    assert not PASSED_OVER.fullmatch("الصحيه") and "الصحيه" in names
