"""All the date readers together: the order they run in (a Hijri month before the Hijri year, a
part of a period before the month), a negation before the one date phrase, and what no reader
could place."""

from __future__ import annotations

import pytest
from datetime import date

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser import Condition, QueryFrame, QuestionParser, Refusal
from nabahan_pipeline.reference_agent.parser.date_reading import DateReading, read_all_dates
from nabahan_pipeline.reference_agent.sql_builder import build_sql, unanswerable


AS_OF = date(2025, 6, 15)


def _read(phrase: str) -> DateReading:
    return read_all_dates(normalize_arabic(phrase), AS_OF)


@pytest.mark.parametrize(
    ("phrase", "span"),
    [
        ("في جمادى الأولى 1446", ("2024-11-03", "2024-12-02")),  # not the whole year 1446
        ("الأسبوع الثاني من يناير 2024", ("2024-01-08", "2024-01-15")),  # not the whole month
        ("بعد 2022 وقبل 2024", ("2023-01-01", "2024-01-01")),  # bounds said together
    ],
)
def test_each_phrase_is_read_whole_by_the_reader_that_knows_it(phrase: str, span: tuple) -> None:
    reading = _read(phrase)
    assert [(s.start, s.end) for s in reading.spans] == [span]
    assert not reading.text.strip() or reading.text.strip() in ("في",)


@pytest.mark.parametrize(
    ("phrase", "span", "label"),
    [
        ("في غير 2023", ("2023-01-01", "2024-01-01"), "في غير عام 2023"),
        ("ما عدا شهر مارس 2024", ("2024-03-01", "2024-04-01"), "في غير شهر مارس 2024"),
        ("باستثناء شوال 1445", ("2024-04-10", "2024-05-09"), "في غير شهر شوال 1445هـ"),
    ],
)
def test_a_negated_date_is_every_other_day(phrase: str, span: tuple, label: str) -> None:
    reading = _read(phrase)
    assert [(s.start, s.end, s.negated, s.label) for s in reading.spans] == [(*span, True, label)]
    assert not reading.text.strip()


def test_a_negation_beside_two_dates_is_left_unread() -> None:
    reading = _read("في 2024 ما عدا مارس 2024")
    assert "عدا" in reading.text and not any(s.negated for s in reading.spans)


def test_what_no_reader_places_is_reported() -> None:
    assert _read("في رمضان").unplaced == ("في رمضان",)
    assert _read("في كل يوم").ungrouped == ("في كل يوم",)


# --- date columns ---------------------------------------------------------------------------------
# Questions about a tender's other dates: the deadline, the last day for enquiries and the day
# offers are opened, in a named period, passed or not by the as-of date, or asked for themselves.


def _frame(parser: QuestionParser, question: str) -> QueryFrame:
    frame = parser.parse(question)
    assert isinstance(frame, QueryFrame), (question, frame)
    return frame


def _on(frame: QueryFrame, field: str) -> list[Condition]:
    return [c for c in frame.conditions if c.field == field]


@pytest.mark.parametrize(
    ("question", "field", "span"),
    [
        ("كم مناقصة تنتهي فترة الاستفسارات فيها في مارس 2025؟", "enquiry", ("2025-03-01", "2025-04-01")),
        ("عدد المنافسات اللي آخر موعد للاستفسارات فيها خلال 2024", "enquiry", ("2024-01-01", "2025-01-01")),
        ("كم منافسة يوم فتح مظاريفها في أبريل 2025", "opening", ("2025-04-01", "2025-05-01")),
        ("كم مناقصة تفتح عروضها في الربع الأول من 2025؟", "opening", ("2025-01-01", "2025-04-01")),
        ("كم مناقصة انتهت مهلة تقديم العروض فيها في مايو 2025؟", "deadline", ("2025-05-01", "2025-06-01")),
    ],
)
def test_the_dates_of_the_question_are_on_the_column_it_names(
    parser: QuestionParser, question: str, field: str, span: tuple[str, str]
) -> None:
    frame = _frame(parser, question)
    assert [c.values for c in _on(frame, field)] == [span]
    assert not _on(frame, "date")
    assert not _on(frame, "status")  # "انتهت" here is the column's verb, not the closed status


@pytest.mark.parametrize(
    ("question", "field", "op"),
    [
        ("عدد المنافسات اللي فات موعد تقديم العروض فيها", "deadline", "<"),
        ("كم مناقصة في الشرقية انقضت مهلة الاستفسارات فيها؟", "enquiry", "<"),
        ("المناقصات التي لم تنته مهلة الاستفسارات فيها بعد كم عددها", "enquiry", ">="),
        ("كم منافسة ما خلص آخر موعد لتقديم العروض فيها", "deadline", ">="),
    ],
)
def test_passed_or_not_is_counted_from_the_as_of_date(parser: QuestionParser, question: str, field: str, op: str) -> None:
    frame = _frame(parser, question)
    assert [(c.op, c.values) for c in _on(frame, field)] == [(op, ("2025-06-15",))]
    assert "تاريخ آخر البيانات" in _on(frame, field)[0].label


def test_the_soonest_deadline_is_the_earliest_still_to_come(parser: QuestionParser) -> None:
    frame = _frame(parser, "ما هو أقرب موعد نهائي لتقديم العروض في منطقة القصيم؟")
    assert (frame.measure, frame.column) == ("min", "deadline")
    assert [(c.op, c.values) for c in _on(frame, "deadline")] == [(">=", ("2025-06-15",))]
    assert build_sql(frame).startswith("SELECT MIN(last_offer_date)")


def test_the_earliest_and_latest_opening_day(parser: QuestionParser) -> None:
    earliest = _frame(parser, "ما أبكر موعد لفتح العروض في منافسات 2024؟")
    assert (earliest.measure, earliest.column) == ("min", "opening")
    assert _on(earliest, "date") and not _on(earliest, "opening")
    latest = _frame(parser, "أبعد موعد لفتح العروض للمنافسات النشطة")
    assert (latest.measure, latest.column) == ("max", "opening")
    assert "MAX(offers_opening_date)" in build_sql(latest)


@pytest.mark.parametrize(
    "question",
    [
        "كم مناقصة تنتهي مهلة الاستفسارات فيها؟",  # when? no date, no passed or not
        "كم مناقصة طرحت في 2024 وتفتح عروضها",  # the year is the publish date; the opening day is unsaid
        "أقرب موعد لفتح العروض في كل منطقة",  # an extreme per group: not read
    ],
)
def test_a_date_column_the_question_says_nothing_usable_of_is_refused(parser: QuestionParser, question: str) -> None:
    assert isinstance(parser.parse(question), Refusal)


def test_future_projects_have_no_enquiry_date(parser: QuestionParser) -> None:
    frame = _frame(parser, "كم مشروع مستقبلي انتهت مهلة الاستفسارات فيه؟")
    assert frame.entity == "projects" and [c.field for c in unanswerable(frame)] == ["enquiry"]


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("كم مناقصة تقفل بعد 20 يونيو 2025؟", ("2025-06-21", None)),  # a closing verb alone, before a date
        ("كم مناقصة موعدها النهائي في يوليو 2025", ("2025-07-01", "2025-08-01")),
        ("كم مناقصة آخر يوم لتقديم العروض فيها 2025/07/01", ("2025-07-01", "2025-07-02")),
        ("كم مناقصة نشطة ينتهي موعد تقديمها خلال عشرة أيام", ("2025-06-15", "2025-06-25")),  # from the as-of date on
        ("كم مناقصة تغلق في غضون أسبوعين", ("2025-06-15", "2025-06-29")),
    ],
)
def test_more_deadline_wordings(parser: QuestionParser, question: str, span: tuple) -> None:
    frame = _frame(parser, question)
    assert [c.values for c in _on(frame, "deadline")] == [span]
    assert not _on(frame, "date")


def test_a_window_of_days_without_a_date_column_is_not_read_forward(parser: QuestionParser) -> None:
    assert isinstance(parser.parse("كم مناقصة طرحت خلال عشرة أيام"), Refusal)


def test_the_soonest_tenders_are_rows_in_deadline_order(parser: QuestionParser) -> None:
    frame = _frame(parser, "أقرب 3 مناقصات ينتهي موعد تقديم عروضها في الرياض")
    assert (frame.measure, frame.column, frame.order, frame.limit) == ("rows", "deadline", "asc", 3)
    assert [(c.op, c.values) for c in _on(frame, "deadline")] == [(">=", ("2025-06-15",))]
    assert "ORDER BY last_offer_date ASC LIMIT 3" in build_sql(frame)


def test_offers_opened_is_an_opening_day_passed(parser: QuestionParser) -> None:
    frame = _frame(parser, "كم مناقصة فتحت عروضها في الرياض؟")
    assert [(c.op, c.values) for c in _on(frame, "opening")] == [("<", ("2025-06-15",))]
    dated = _frame(parser, "كم مناقصة فتحت مظاريفها في مايو 2025")
    assert [c.values for c in _on(dated, "opening")] == [("2025-05-01", "2025-06-01")]
