"""Words read and left unused by the frame refuse the question (issue 15): a count under an
average, the deadline beside a measure of another column, a threshold on a number of rows."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.agent import ReferenceAgent
from nabahan_pipeline.reference_agent.parser import QueryFrame
from nabahan_pipeline.reference_agent.parser.unused_words import unused_words


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("متوسط عدد المنافسات لكل جهة", ("عدد",)),
        ("كم منافسة في المتوسط كل شهر", ("كم",)),
        ("كم يوم في المتوسط بين النشر وآخر موعد للعروض", ("واخر موعد",)),
        ("كم جهة طرحت أكثر من 100 منافسة", ("اكثر", "من", "100", "منافسه")),
        ("أعلى وأقل منطقة في عدد المنافسات", ("اعلي", "واقل")),
        ("عدد المنافسات حسب المنطقة والحالة", ("والحاله",)),
        ("مجموع القيم حسب المنطقة والنوع", ("والنوع",)),
        ("اعرض منافسات جدة من الأحدث للأقدم", ("من", "الاحدث", "للاقدم")),
        ("رتب منافسات الرياض حسب القيمة من الأقل", ("من", "الاقل")),
        ("كم نسبة منافسات جدة من منافسات مكة", ("مكه",)),
    ],
)
def test_words_the_frame_leaves_unused_refuse(agent: ReferenceAgent, question: str, words: tuple[str, ...]) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "out_of_scope", answer["sql"]
    for word in words:
        assert f"«{word}»" in answer["insights"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("متوسط عدد العروض لكل نوع", "AVG(bids_count)"),
        ("كم متوسط قيمة المنافسات في الرياض", "AVG(estimated_value)"),
        ("أكبر 10 مناقصات", "LIMIT 10"),
        ("كم منافسة آخر موعد لتقديم عروضها في نوفمبر 2026", "last_offer_date >= '2026-11-01'"),
        ("كم منافسة قيمتها أكثر من 100 ألف", "estimated_value > 100000"),
        ("كم منافسة من يناير 2026 الى اليوم", "publish_date >= '2026-01-01'"),
        ("كم منافسة من 2023 إلى الآن", "publish_date >= '2023-01-01'"),  # to the data's end
        ("كم منافسة نشطة الآن", "status_id = 1"),
        ("أكثر منطقة فيها منافسات ملغاة", "LIMIT 1"),
        ("توزيع المنافسات حسب المنطقة والحالة", "GROUP BY region_id, status_id"),
        ("رتب منافسات الرياض حسب القيمة من الأكثر للأقل", "ORDER BY estimated_value DESC"),
        ("أحدث منافسة في جدة", "ORDER BY publish_date DESC LIMIT 1"),
        ("كم منافسة في جدة ومكة", "region_id = 2"),  # both of region 2: its tenders
        ("قارن بين الرياض وجدة في عدد المنافسات", "region_id IN (1, 2)"),
        ("عدد المنافسات حسب المنطقة في نشاط الاتصالات", "activity_id = 18"),
        ("عدد المنافسات حسب المنطقة من الأعلى إلى الأقل", "ORDER BY tender_count DESC"),
    ],
)
def test_words_the_frame_uses_are_answered(agent: ReferenceAgent, question: str, sql: str) -> None:
    answer = agent.ask(question)
    assert answer["status"] == "success", answer["insights"]
    assert sql in answer["sql"]


def test_the_function_on_a_frame() -> None:
    consumed = (("measure", ("متوسط", "عدد")), ("table", ("المنافسات",)))
    avg = QueryFrame("tenders", "avg", column="value")
    assert unused_words(avg, consumed, "متوسط عدد المنافسات") == ("عدد",)
    with_column = consumed + (("column:any", ("قيمه",)),)
    assert unused_words(avg, with_column, "متوسط عدد المنافسات") == ()
    assert unused_words(QueryFrame("tenders", "count"), consumed, "عدد المنافسات") == ()
