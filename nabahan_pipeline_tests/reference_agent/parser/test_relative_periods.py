"""Periods relative to the as-of date: parts of a relative year, a month named "last" or "next",
since the start of this month or year, the same month last year, today and yesterday; read by the
whole parser, since the relative year is resolved before the other date readers run."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser
from nabahan_pipeline.reference_agent.parser.relative_periods import anchor_relative_years

AS_OF = date(2025, 6, 15)


def _dates(parser: QuestionParser, question: str) -> list[tuple]:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), (question, frame)
    return [c.values for c in frame.conditions if c.field == "date"]


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("كم مناقصة نزلت في الربع الثالث من السنة الفايتة؟", ("2024-07-01", "2024-10-01")),
        ("عدد المناقصات في النصف الأول للعام الماضي", ("2024-01-01", "2024-07-01")),
        ("كم مناقصة في شهر 2 من هذه السنة", ("2025-02-01", "2025-03-01")),
        ("كم مناقصة في مايو من العام الحالي", ("2025-05-01", "2025-06-01")),
        ("كم مناقصة طرحت في الأشهر الثلاثة الأولى من السنة الماضية", ("2024-01-01", "2024-04-01")),
    ],
)
def test_a_part_of_a_relative_year(parser: QuestionParser, question: str, span: tuple) -> None:
    assert _dates(parser, question) == [span]


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("كم مناقصة طرحت في مارس الماضي؟", ("2025-03-01", "2025-04-01")),  # before June 2025
        ("كم مناقصة طرحت في أغسطس الماضي؟", ("2024-08-01", "2024-09-01")),  # August 2025 is to come
        ("كم مناقصة في يونيو الفائت", ("2024-06-01", "2024-07-01")),  # the as-of month itself is not past
        ("كم مشروع متوقع في شهر يناير القادم", ("2026-01-01", "2026-02-01")),
    ],
)
def test_a_month_named_last_or_next(parser: QuestionParser, question: str, span: tuple) -> None:
    assert _dates(parser, question) == [span]


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("كم مناقصة من أول الشهر؟", ("2025-06-01", None)),
        ("كم مناقصة منذ مطلع هذا العام حتى الآن", ("2025-01-01", None)),
        ("كم مناقصة في نفس الشهر من السنة الماضية", ("2024-06-01", "2024-07-01")),
        ("كم مناقصة نزلت البارحة؟", ("2025-06-14", "2025-06-15")),
        ("المناقصات المطروحة اليوم كم عددها", ("2025-06-15", "2025-06-16")),
        ("كم مناقصة منذ 2023 لين الحين", ("2023-01-01", None)),
        ("كم مناقصة من 2024 حتى اليوم", ("2024-01-01", "2026-01-01")),
    ],
)
def test_up_to_now_and_single_days(parser: QuestionParser, question: str, span: tuple) -> None:
    assert _dates(parser, question) == [span]


def test_the_year_is_written_over_in_place() -> None:
    text = "كم مناقصه في الربع الاول من السنه الماضيه"
    anchored, written = anchor_relative_years(text, AS_OF)
    assert len(anchored) == len(text)
    assert "من 2024" in anchored and "الماضيه" not in anchored
    assert written == [("عام 2024", "العام الماضي")]
    # "العام الماضي" alone is the relative reader's: left as it is.
    assert anchor_relative_years("كم مناقصه في العام الماضي", AS_OF) == ("كم مناقصه في العام الماضي", [])


def test_an_anchored_year_is_worded_back_as_the_question_said_it(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة في الربع الثالث من السنة الماضية")
    assert isinstance(frame, QueryFrame)
    labels = [c.label for c in frame.conditions if c.field == "date"]
    assert labels == ["الربع الثالث من العام الماضي"]


def test_since_the_start_of_a_named_month_is_that_month(parser: QuestionParser) -> None:
    assert _dates(parser, "كم مناقصة من بداية شهر فبراير 2025 حتى الآن") == [("2025-02-01", None)]
    assert _dates(parser, "كم مناقصة منذ بداية سنة 2024") == [("2024-01-01", None)]


@pytest.mark.parametrize("question", ["كم مناقصة تنزل في كل يوم؟", "عدد المناقصات لكل أسبوع", "متوسط عدد المناقصات شهرياً"])
def test_a_figure_per_day_or_an_average_of_counts_is_refused(parser: QuestionParser, question: str) -> None:
    # Neither is a frame the agent builds; answered, each would be one total or an average of values.
    assert not isinstance(parser.parse(question), QueryFrame)


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("كم مشروع مستقبلي خلال الأشهر الثلاثة القادمة", ("2025-06-16", "2025-09-16")),
        ("كم مشروع مستقبلي في الـ 2 سنة الجاية", ("2025-06-16", "2027-06-16")),
        ("كم مشروع مستقبلي خلال الأسبوعين القادمين", ("2025-06-16", "2025-06-30")),
    ],
)
def test_the_days_to_come(parser: QuestionParser, question: str, span: tuple) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame) and frame.entity == "projects"
    assert [c.values for c in frame.conditions if c.field == "date"] == [span]


@pytest.mark.parametrize(
    ("question", "dates"),
    [
        ("ما المناقصات المتاحة اليوم", []),  # open now: the status, no publish day
        ("كم مناقصة نشطة اليوم", []),
        ("كم مناقصة طرحت حتى اليوم", []),  # up to the as-of date: all the data holds
        ("كم مناقصة تغلق اليوم", [("2025-06-15", "2025-06-16")]),
    ],
)
def test_today_dates_an_event_only(parser: QuestionParser, question: str, dates: list) -> None:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), frame
    assert [c.values for c in frame.conditions if c.field in ("date", "deadline")] == dates
