"""An order worded as a phrase ("من الأكثر للأقل", "تصاعدياً") orders every group; it never turns
a ranking's highest into its lowest."""

from __future__ import annotations

import pytest
import re
import sqlite3
from pathlib import Path

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser
from nabahan_pipeline.reference_agent.parser.patterns import PASSED_OVER


@pytest.mark.parametrize(
    ("question", "group", "order"),
    [
        ("رتب الأنشطة حسب عدد المنافسات من الأقل للأكثر", ("activity",), "asc"),
        ("رتب لي الجهات حسب مجموع القيمة التقديرية تنازليا", ("agency",), "desc"),
        ("رتب المناطق حسب عدد المشاريع المستقبلية بالترتيب التصاعدي", ("region",), "asc"),
    ],
)
def test_an_order_phrase_orders_every_group(agent: ReferenceAgent, question: str, group: tuple, order: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.group_by == group and frame.order == order and frame.limit is None
    answer = agent.ask(question)
    figures = [row[-1] if frame.measure == "count" else row[-2] for row in answer["rows"]]
    assert figures == sorted(figures, reverse=order == "desc")


def test_an_order_phrase_that_agrees_with_a_ranking_is_read(agent: ReferenceAgent) -> None:
    frame = agent.parser.parse("أكثر 3 مناطق في عدد المنافسات من الأكثر للأقل")
    assert isinstance(frame, QueryFrame) and frame.ranked and frame.order == "desc" and frame.limit == 3


@pytest.mark.parametrize(
    ("question", "column", "order"),
    [
        ("رتب المنافسات النشطة حسب القيمة التقديرية", "value", "desc"),
        ("رتب المشاريع القادمة حسب المدة من الأقل للأكثر", "duration", "asc"),
        ("اعرض منافسات تبوك مرتبة حسب عدد العروض", "bids", "desc"),
    ],
)
def test_rows_sorted_by_a_column(agent: ReferenceAgent, question: str, column: str, order: str) -> None:
    frame = agent.parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert frame.measure == "rows" and frame.column == column and frame.order == order and frame.limit is None


def test_rows_sorted_by_a_column_their_table_lacks_are_refused(agent: ReferenceAgent) -> None:
    # Future projects have no bids: sorted by date instead would be another question.
    assert agent.ask("رتب المشاريع حسب عدد العروض")["status"] == "out_of_scope"


# --- value groups ---------------------------------------------------------------------------------
# A distribution over a column's own values: the booklet prices, the numbers of bids.

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


# --- awards ---------------------------------------------------------------------------------------
# Awards as a noun are the awarded tenders; dated awards are read on the publish date, and the
# answer's wording of the date says so (the data holds no award date).

def _frame(parser: QuestionParser, question: str) -> QueryFrame:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), (question, frame)
    return frame


@pytest.mark.parametrize(
    ("question", "measure", "column"),
    [
        ("كم عدد الترسيات في منطقة تبوك؟", "count", "value"),
        ("كم ترسية صارت في الربع الثاني من 2024", "count", "value"),
        ("عمليات الترسية في 2023 كم عددها", "count", "value"),
        ("إجمالي مبالغ الترسيات في مكة", "sum", "awarded"),
    ],
)
def test_awards_as_a_noun_are_the_awarded_tenders(parser: QuestionParser, question: str, measure: str, column: str) -> None:
    frame = _frame(parser, question)
    assert frame.entity == "tenders" and frame.measure == measure
    assert [c.values for c in frame.conditions if c.field == "status"] == [(4,)]
    if measure == "sum":
        assert frame.column == column


@pytest.mark.parametrize(
    ("question", "noted"),
    [
        ("كم منافسة رست خلال 2024؟", True),
        ("عدد الترسيات في شهر مارس 2025", True),
        ("كم منافسة مرساة نشرت في 2024", False),  # the question dates the tenders by publishing
        ("كم منافسة ملغاة في 2024", False),  # no award
    ],
)
def test_dated_awards_say_the_date_is_the_publish_date(parser: QuestionParser, question: str, noted: bool) -> None:
    frame = _frame(parser, question)
    dates = [c for c in frame.conditions if c.field == "date"]
    assert len(dates) == 1
    assert ("لا تحوي البيانات تاريخ الترسية" in dates[0].label) is noted


def test_an_award_date_asked_for_is_read_on_the_publish_date_and_said_so(parser: QuestionParser) -> None:
    frame = _frame(parser, "كم مناقصة كان تاريخ ترسيتها في 2023؟")
    assert [c.values for c in frame.conditions if c.field == "status"] == [(4,)]
    dates = [c for c in frame.conditions if c.field == "date"]
    assert [c.values for c in dates] == [("2023-01-01", "2024-01-01")]
    assert "لا تحوي البيانات تاريخ الترسية" in dates[0].label


# --- passed over ----------------------------------------------------------------------------------
# Words that change nothing a question asks (issue 30): each word of the lexicon, asked with and
# without, gets the same SQL; next to a number, a negation or a comparator, or as a word of a name,
# it is not passed over and the question is refused naming it, as any word not understood.

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
