"""Awards as a noun are the awarded tenders; dated awards are read on the publish date, and the
answer's wording of the date says so (the data holds no award date)."""

from __future__ import annotations

import pytest

from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser


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
