"""Dates in a question: the span arithmetic and each kind of date phrase read into a DateSpan."""

from __future__ import annotations

import pytest
import re
from datetime import date

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser import QueryFrame, QuestionParser, Refusal
from nabahan_pipeline.reference_agent.parser.dates import (
    DAY_BOUNDS, GREGORIAN_DATES, HIJRI_DATES, PERIOD_PARTS, DateSpan, add_months, month_span, read_dates,
    unread_hijri, year_span,
)
from nabahan_pipeline.reference_agent.parser.dates import anchor_relative_years


AS_OF = date(2025, 6, 15)


def test_year_and_month_spans_are_half_open() -> None:
    assert year_span(2024) == ("2024-01-01", "2025-01-01")
    assert month_span(2024, 2) == ("2024-02-01", "2024-03-01")
    assert month_span(2024, 12) == ("2024-12-01", "2025-01-01")


@pytest.mark.parametrize(
    ("day", "months", "expected"),
    [
        (date(2025, 6, 15), -3, date(2025, 3, 15)),
        (date(2025, 1, 15), -1, date(2024, 12, 15)),
        (date(2025, 11, 30), 2, date(2026, 1, 30)),
        (date(2025, 3, 31), -1, date(2025, 2, 28)),  # clipped to the month's last day
        (date(2024, 3, 31), -1, date(2024, 2, 29)),  # a leap year
        (date(2025, 6, 15), -24, date(2023, 6, 15)),
    ],
)
def test_add_months(day: date, months: int, expected: date) -> None:
    assert add_months(day, months) == expected


@pytest.mark.parametrize(
    ("phrase", "span"),
    [
        ("في 2024", DateSpan("2024-01-01", "2025-01-01", "عام 2024")),
        ("في عام 2024م", DateSpan("2024-01-01", "2025-01-01", "عام 2024")),
        ("عام 1446هـ", DateSpan("2024-07-07", "2025-06-26", "عام 1446هـ")),
        ("سنة 1445", DateSpan("2023-07-19", "2024-07-07", "عام 1445هـ")),
        ("من 2022 إلى 2024", DateSpan("2022-01-01", "2025-01-01", "من عام 2022 إلى عام 2024")),
        ("بين 2024 و2022", DateSpan("2022-01-01", "2025-01-01", "من عام 2022 إلى عام 2024")),
        ("بعد 2023", DateSpan("2024-01-01", None, "بعد عام 2023")),
        ("قبل 2024", DateSpan(None, "2024-01-01", "قبل عام 2024")),
        ("منذ 2022", DateSpan("2022-01-01", None, "منذ عام 2022")),
        ("في مارس 2024", DateSpan("2024-03-01", "2024-04-01", "شهر مارس 2024")),
        ("في 2024/03", DateSpan("2024-03-01", "2024-04-01", "شهر مارس 2024")),
        ("شهر 12 2023", DateSpan("2023-12-01", "2024-01-01", "شهر ديسمبر 2023")),
        ("في شهر مارس", DateSpan(None, None, "شهر مارس", (3,))),
        ("الربع الأول من 2024", DateSpan("2024-01-01", "2024-04-01", "الربع الأول من عام 2024")),
        ("Q3 2024", DateSpan("2024-07-01", "2024-10-01", "الربع الثالث من عام 2024")),
        ("الربع الثاني", DateSpan(None, None, "الربع الثاني", (4, 5, 6))),
        # Relative to as_of, 2025-06-15.
        ("هذا العام", DateSpan("2025-01-01", "2026-01-01", "هذا العام")),
        ("العام الماضي", DateSpan("2024-01-01", "2025-01-01", "العام الماضي")),
        ("السنة القادمة", DateSpan("2026-01-01", "2027-01-01", "العام القادم")),
        ("الشهر الماضي", DateSpan("2025-05-01", "2025-06-01", "الشهر الماضي")),
        ("الشهر قبل الماضي", DateSpan("2025-04-01", "2025-05-01", "الشهر قبل الماضي")),
        # Rolling periods end with as_of itself.
        ("آخر 3 أشهر", DateSpan("2025-03-15", "2025-06-16", "خلال آخر 3 اشهر")),
        # A rolling window has exactly that many days, the as-of date (2025-06-15) the last.
        ("آخر 10 أيام", DateSpan("2025-06-06", "2025-06-16", "خلال آخر 10 ايام حتى آخر تاريخ")),
        ("آخر أسبوعين", DateSpan("2025-06-02", "2025-06-16", "خلال آخر اسبوعين حتى آخر تاريخ")),
        # Calendar words mean the calendar: weeks run Sunday to Saturday (2025-06-15 is a Sunday).
        ("الأسبوع الماضي", DateSpan("2025-06-08", "2025-06-15", "الأسبوع الماضي (من الأحد إلى السبت)")),
        ("هذا الأسبوع", DateSpan("2025-06-15", "2025-06-22", "هذا الأسبوع (من الأحد إلى السبت)")),
        ("آخر شهر", DateSpan("2025-06-01", "2025-07-01", "آخر شهر (شهر يونيو كاملاً)")),
        ("خلال آخر سنة", DateSpan("2024-06-15", "2025-06-16", "خلال آخر سنة")),
    ],
)
def test_each_date_phrase_is_read_and_blanked(phrase: str, span: DateSpan) -> None:
    text = normalize_arabic(phrase)
    left, spans = read_dates(text, AS_OF, GREGORIAN_DATES)
    assert spans == [span]
    assert len(left) == len(text), "blanking keeps every offset"
    assert not any(ch.isdigit() for ch in left)


def test_text_without_dates_is_left_as_it_is() -> None:
    text = normalize_arabic("كم مناقصة نشطة في الرياض")
    assert read_dates(text, AS_OF, GREGORIAN_DATES) == (text, [])


@pytest.mark.parametrize(
    "phrase",
    [
        "2024 مناقصة",  # a count of tenders, not a year
        "بقيمة 2030 ريال",  # an amount
        "اب",  # August, or an ordinary word: a month only with "شهر" or a year
    ],
)
def test_numbers_and_words_that_are_no_dates(phrase: str) -> None:
    assert read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)[1] == []


def test_several_dates_are_read_in_order() -> None:
    left, spans = read_dates(normalize_arabic("في الربع الأول من 2024 وفي شهر مارس"), AS_OF, GREGORIAN_DATES)
    assert [s.label for s in spans] == ["الربع الأول من عام 2024", "شهر مارس"]
    assert left.split() == ["في", "وفي"]


@pytest.mark.parametrize("phrase", ["حتى 2023", "حتى عام 2023", "إلى 2023", "لغاية 2023"])
def test_up_to_a_year_is_up_to_its_end(phrase: str) -> None:
    # "حتى" / "إلى" are folded by normalization ("حتي" / "الي"): the patterns must be folded too.
    left, spans = read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)
    assert spans == [DateSpan(None, "2024-01-01", "حتى نهاية عام 2023")]
    assert left.strip() == ""


@pytest.mark.parametrize(
    "phrase", ["أكثر من 2024 ريال", "اكثر من 2024 ريال", "بين 2000 و 2500 ريال", "من 2024 ريال"]
)
def test_a_year_like_amount_is_no_year(phrase: str) -> None:
    assert read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)[1] == []


@pytest.mark.parametrize(
    ("phrase", "years"),
    [
        ("في 2023 و2024", (2023, 2024)),
        ("في 2022 و2024 و2026", (2022, 2024, 2026)),
        ("خلال الأعوام 2023 و 2024 و 2025", (2023, 2024, 2025)),
        ("سنتي 2023 و2025", (2023, 2025)),
        ("في 2024 أو 2023", (2023, 2024)),
    ],
)
def test_several_years_mean_any_of_them(phrase: str, years: tuple[int, ...]) -> None:
    left, spans = read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)
    assert [s.years for s in spans] == [years]
    assert not re.search(r"\d", left)


LATE_AS_OF = date(2026, 10, 20)


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في النصف الأول من 2025", "2025-01-01", "2025-07-01"),
        ("خلال النصف الثاني لعام 2023", "2023-07-01", "2024-01-01"),
        ("في النصف الأول من السنة الحالية", "2026-01-01", "2026-07-01"),
        ("بين فبراير ومايو 2024", "2024-02-01", "2024-06-01"),
        ("من أكتوبر 2025 إلى يناير 2026", "2025-10-01", "2026-02-01"),
        ("في شهري نوفمبر وديسمبر 2025", "2025-11-01", "2026-01-01"),
        ("من بداية شهر أغسطس 2026 حتى الآن", "2026-08-01", None),
        ("من مارس 2026 لين اليوم", "2026-03-01", None),
        ("منذ بداية العام الحالي", "2026-01-01", None),
        ("في الربع الماضي", "2026-07-01", "2026-10-01"),
        ("في العام الهجري 1446", "2024-07-07", "2025-06-26"),
        ("في السنة الهجرية الحالية", "2026-06-16", "2027-06-06"),
    ],
)
def test_halves_month_ranges_since_and_hijri(phrase: str, start: str, end: str | None) -> None:
    left, spans = read_dates(normalize_arabic(phrase), LATE_AS_OF, GREGORIAN_DATES)
    assert [(s.start, s.end) for s in spans] == [(start, end)]
    assert left.split() in ([], ["في"], ["خلال"])


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("يوم 15 مارس 2025", "2025-03-15", "2025-03-16"),
        ("بتاريخ 2026/10/31", "2026-10-31", "2026-11-01"),
        ("بتاريخ 31/10/2026", "2026-10-31", "2026-11-01"),
        ("في الفترة من 1 يونيو إلى 15 يوليو 2024", "2024-06-01", "2024-07-16"),
    ],
)
def test_days_and_ranges_of_days(phrase: str, start: str, end: str) -> None:
    left, spans = read_dates(normalize_arabic(phrase), LATE_AS_OF, GREGORIAN_DATES)
    assert [(s.start, s.end) for s in spans] == [(start, end)]
    assert not re.search(r"\d", left)


def test_a_day_that_does_not_exist_is_no_day() -> None:
    # Read as the month only, its "31" left over for the parser to refuse.
    left, spans = read_dates(normalize_arabic("يوم 31 فبراير 2025"), LATE_AS_OF, GREGORIAN_DATES)
    assert [(s.start, s.end) for s in spans] == [("2025-02-01", "2025-03-01")]
    assert "31" in left.split()


def test_two_months_named_are_a_span_only_when_they_follow_each_other() -> None:
    text, spans = read_dates(normalize_arabic("في شهري ابريل ومايو 2024"), AS_OF, GREGORIAN_DATES)
    assert [(s.start, s.end) for s in spans] == [("2024-04-01", "2024-06-01")]
    text, spans = read_dates(normalize_arabic("في شهري ابريل ويونيو 2024"), AS_OF, GREGORIAN_DATES)
    assert not any(s.start == "2024-04-01" and s.end == "2024-07-01" for s in spans)
    text, spans = read_dates(normalize_arabic("بين ابريل ويونيو 2024"), AS_OF, GREGORIAN_DATES)
    assert [(s.start, s.end) for s in spans] == [("2024-04-01", "2024-07-01")]


def test_the_end_of_the_year_is_no_rolling_year() -> None:
    # "آخر السنة" is the year's end, which no reader places; "آخر سنة" is the last twelve months.
    assert read_dates(normalize_arabic("اخر السنه"), AS_OF, GREGORIAN_DATES)[1] == []
    spans = read_dates(normalize_arabic("اخر سنه"), AS_OF, GREGORIAN_DATES)[1]
    assert [(s.start, s.end) for s in spans] == [("2024-06-15", "2025-06-16")]


@pytest.mark.parametrize(
    ("phrase", "span"),
    [
        ("من عام 2022 وحتى 2024", ("2022-01-01", "2025-01-01")),
        ("في السنوات من 2023 الى 2025", ("2023-01-01", "2026-01-01")),
        ("في الفترة 2022-2023", ("2022-01-01", "2024-01-01")),
        ("بين عامي 2023 و 2025", ("2023-01-01", "2026-01-01")),  # between: the span, not the two years
        ("خلال السنتين الماضيتين", ("2023-06-15", "2025-06-16")),
    ],
)
def test_more_ranges_of_years(phrase: str, span: tuple) -> None:
    spans = read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)[1]
    assert [(s.start, s.end) for s in spans] == [span]


@pytest.mark.parametrize("phrase", ["قيمتها من 2000 الى 2040", "بقيمه بين 2010 و 2030", "قيمتها 2020 و2030"])
def test_a_value_word_before_makes_figures_of_what_look_like_years(phrase: str) -> None:
    spans = read_dates(normalize_arabic(phrase), AS_OF, GREGORIAN_DATES)[1]
    assert not any(s.start == "2000-01-01" or s.years for s in spans)
    assert not any(s.end in ("2031-01-01", "2041-01-01") for s in spans)


def test_the_next_quarter() -> None:
    # As of 2025-06-15 (second quarter): the third.
    spans = read_dates(normalize_arabic("الربع القادم"), AS_OF, GREGORIAN_DATES)[1]
    assert [(s.start, s.end, s.label) for s in spans] == [
        ("2025-07-01", "2025-10-01", "الربع القادم")
    ]


# --- hijri dates ----------------------------------------------------------------------------------
# Hijri months, days and ranges of months read into Gregorian spans by the Umm al-Qura table, months
# named with no year counted from the as-of date, and Hijri dates outside the table refused by name.

AS_OF = date(2025, 6, 15)  # 19 Dhu al-Hijjah 1446


def _read(phrase: str) -> tuple[str, list[tuple[str | None, str | None]]]:
    text, spans = read_dates(normalize_arabic(phrase), AS_OF, HIJRI_DATES)
    return text, [(s.start, s.end) for s in spans]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("خلال شهر رمضان المبارك لعام 1444 هـ", "2023-03-23", "2023-04-21"),
        ("بشهر شعبان 1445", "2024-02-11", "2024-03-11"),
        ("في جمادى الأولى من عام 1446", "2024-11-03", "2024-12-02"),
        ("في جمادى الآخرة 1446هـ", "2024-12-02", "2025-01-01"),
        ("في ربيع الثاني ١٤٤٧", "2025-09-23", "2025-10-23"),
        ("في ربيع الآخر 1447", "2025-09-23", "2025-10-23"),
        ("في ذو القعدة 1445", "2024-05-09", "2024-06-07"),
        ("في شهر صفر سنة 1448 هجري", "2026-07-15", "2026-08-14"),
        ("في المحرم 1449", "2027-06-06", "2027-07-05"),
        ("برجب 1447", "2025-12-21", "2026-01-20"),
    ],
)
def test_a_month_and_its_year(phrase: str, start: str, end: str) -> None:
    text, spans = _read(phrase)
    assert spans == [(start, end)]
    assert not text.strip() or text.strip() in ("في", "خلال")


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("يوم 27 رمضان 1445", "2024-04-06", "2024-04-07"),
        ("بتاريخ 1 محرم 1447", "2025-06-26", "2025-06-27"),
        ("من رجب إلى رمضان 1446", "2025-01-01", "2025-03-30"),
        ("بين ذي الحجة 1445 و صفر 1446", "2024-06-07", "2024-09-04"),
        ("من ذي القعدة حتى محرم 1447", "2025-04-29", "2025-07-26"),  # across the new year
        ("من 10 شعبان إلى 5 رمضان 1446", "2025-02-09", "2025-03-06"),
    ],
)
def test_days_and_ranges(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في رمضان الماضي", "2025-03-01", "2025-03-30"),  # 1446: the last one before Dhu al-Hijjah 1446
        ("في شوال الجاي", "2026-03-20", "2026-04-18"),  # 1447
        ("في شعبان هذا العام", "2025-01-31", "2025-03-01"),  # 1446
        ("في ذي الحجة الماضي", "2024-06-07", "2024-07-07"),  # as-of is in Dhu al-Hijjah: the one before
    ],
)
def test_a_month_with_no_year_counts_from_the_as_of_date(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


def test_no_such_day_or_month_is_not_read() -> None:
    assert _read("يوم 30 رمضان 1446")[1] == []  # Ramadan 1446 had 29 days
    assert _read("في رمضان 1510")[1] == []  # past the Umm al-Qura calendar (1500)
    assert _read("صفر عروض")[1] == []


@pytest.mark.parametrize(
    "phrase",
    ["في رمضان 1510", "في رمضان", "خلال شهر شوال", "عام 1437هـ", "في سنة 1460 هجري"],
)
def test_unplaced_hijri_dates_are_named(phrase: str) -> None:
    text, _ = read_dates(normalize_arabic(phrase), AS_OF, HIJRI_DATES)
    assert unread_hijri(text)


def test_a_hijri_month_filters_the_publish_date(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة ملغاة نزلت في شهر شعبان 1445؟")
    assert isinstance(frame, QueryFrame) and frame.measure == "count"
    dates = [c for c in frame.conditions if c.field == "date"]
    assert [c.values for c in dates] == [("2024-02-11", "2024-03-11")]
    assert dates[0].label == "شهر شعبان 1445هـ"  # the answer states only the numbers the question did
    assert {c.field for c in frame.conditions} == {"date", "status"}


@pytest.mark.parametrize(
    "question",
    [
        "كم مناقصة طرحت في رمضان 1510؟",
        "كم منافسة في شهر رجب؟",
        "عدد المناقصات عام 1505هـ",
        "كم مناقصة في رجب ورمضان 1446",
        "كم مناقصة في شهر صفر؟",
    ],
)
def test_a_hijri_date_outside_the_calendar_is_refused(parser: QuestionParser, question: str) -> None:
    refusal = parser.parse(question)
    assert isinstance(refusal, Refusal) and refusal.reason == "unplaced_date"
    assert refusal.words


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في شعبان من السنة الهجرية 1446", "2025-01-31", "2025-03-01"),
        ("في الشهر 10 من عام 1445", "2024-04-10", "2024-05-09"),
        ("في شهري ذي القعدة وذي الحجة 1445", "2024-05-09", "2024-07-07"),
        ("في النصف الثاني من عام 1446 هجري", "2025-01-01", "2025-06-26"),
        ("من 1444 إلى 1445هـ", "2022-07-30", "2024-07-07"),
        ("في السنوات الهجرية 1446 و 1447", "2024-07-07", "2026-06-16"),
        ("في السنة الهجرية الماضية", "2023-07-19", "2024-07-07"),  # as-of 1446: the past one is 1445
    ],
)
def test_more_hijri_periods(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("قبل شهر رجب 1446", None, "2025-01-01"),
        ("بعد نهاية رمضان 1445", "2024-04-10", None),
        ("منذ بداية محرم 1446", "2024-07-07", None),
        ("حتى نهاية 1444هـ", None, "2023-07-19"),
        ("ابتداء من عام 1447", "2025-06-26", None),
    ],
)
def test_hijri_bounds(phrase: str, start: str | None, end: str | None) -> None:
    assert _read(phrase)[1] == [(start, end)]


@pytest.mark.parametrize("phrase", ["بين 1400 و 1500 ريال", "قبل 1446 ريال"])
def test_not_one_hijri_span(phrase: str) -> None:
    assert _read(phrase)[1] == []


def test_safar_alone_is_zero(parser: QuestionParser) -> None:
    frame = parser.parse("كم مناقصة سعر كراستها بصفر ريال؟")
    assert isinstance(frame, QueryFrame)
    assert [(c.field, c.op, c.values) for c in frame.conditions] == [("booklet", "=", (0.0,))]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("بتاريخ 1445/10/01", "2024-04-10", "2024-04-11"),  # Eid al-Fitr 1445
        ("يوم 10/12/1445هـ", "2024-06-16", "2024-06-17"),  # Eid al-Adha 1445
        ("في 1447-01", "2025-06-26", "2025-07-26"),
    ],
)
def test_hijri_dates_in_figures(phrase: str, start: str, end: str) -> None:
    assert _read(phrase)[1] == [(start, end)]


def test_a_hijri_day_a_month_does_not_have_is_not_read() -> None:
    assert _read("بتاريخ 1446/09/30")[1] == []  # Ramadan 1446 had 29 days


# --- day bounds -----------------------------------------------------------------------------------
# Days and months as open bounds and ranges: before, after, since and until a day or a month (its
# start or end), ranges of ISO or day/month/year dates, and ranges of days within one month.


def _spans(phrase: str) -> list[tuple[str | None, str | None]]:
    return [(s.start, s.end) for s in read_dates(normalize_arabic(phrase), AS_OF, DAY_BOUNDS)[1]]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("قبل 10 أبريل 2024", None, "2024-04-10"),
        ("قبل تاريخ 2023/07/01", None, "2023-07-01"),
        ("بعد 28 فبراير 2024", "2024-02-29", None),  # a leap year
        ("بعد نهاية شهر مايو 2025", "2025-06-01", None),
        ("من بعد 5/1/2025", "2025-01-06", None),
        ("منذ بداية أبريل 2025", "2025-04-01", None),
        ("اعتبارا من 2024-11-20", "2024-11-20", None),
        ("حتى 15 ديسمبر 2023", None, "2023-12-16"),
        ("لغاية نهاية يناير 2025", None, "2025-02-01"),
        ("قبل شهر أغسطس من عام 2022", None, "2022-08-01"),
    ],
)
def test_open_bounds(phrase: str, start: str | None, end: str | None) -> None:
    assert _spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("من 2024/12/20 إلى 2025/01/10", "2024-12-20", "2025-01-11"),
        ("بين 2023-05-01 و2023-05-31", "2023-05-01", "2023-06-01"),
        ("في الفترة من 1/2/2024 حتى 10/2/2024", "2024-02-01", "2024-02-11"),
        ("من 10 إلى 20 أكتوبر 2024", "2024-10-10", "2024-10-21"),
        ("ما بين 5 و 9 يناير 2025", "2025-01-05", "2025-01-10"),
        ("من 15 مارس إلى 2025/04/01", "2025-03-15", "2025-04-02"),  # the year from the other bound
    ],
)
def test_ranges_of_days(phrase: str, start: str, end: str) -> None:
    assert _spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    "phrase",
    [
        "بعد 31 فبراير 2025",  # no such day
        "من 2025/04/01 إلى 2025/03/01",  # backwards
        "قبل 2024",  # a year: the years reader's
        "من يناير إلى مارس 2024",  # months: the month range reader's
        "بعد 15 مارس",  # no year
    ],
)
def test_not_read_here(phrase: str) -> None:
    assert _spans(phrase) == []


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("قبل نهاية 2024", None, "2025-01-01"),  # by its end: its last day included
        ("قبل نهاية مارس 2025", None, "2025-04-01"),
        ("بعد بداية 2023", "2023-01-01", None),  # from its start on
        ("حتى ختام عام 2022", None, "2023-01-01"),
    ],
)
def test_the_start_and_end_of_a_year_or_month(phrase: str, start: str | None, end: str | None) -> None:
    assert _spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في 2023 وما بعدها", "2023-01-01", None),
        ("من سنة 2024 فصاعدا", "2024-01-01", None),
        ("2023 فما قبل", None, "2024-01-01"),
    ],
)
def test_a_year_and_every_year_after_or_before(phrase: str, start: str | None, end: str | None) -> None:
    assert _spans(phrase) == [(start, end)]


def test_open_bounds_said_together_are_one_span() -> None:
    from nabahan_pipeline.reference_agent.parser.dates import DateSpan
    from nabahan_pipeline.reference_agent.parser.dates import intersect_bounds

    after, before = DateSpan("2023-01-01", None, "بعد عام 2022"), DateSpan(None, "2025-01-01", "قبل عام 2025")
    assert [(s.start, s.end) for s in intersect_bounds([after, before])] == [("2023-01-01", "2025-01-01")]
    year = DateSpan("2024-01-01", "2025-01-01", "عام 2024")
    since = DateSpan("2024-04-01", None, "بعد مارس 2024")
    assert [(s.start, s.end) for s in intersect_bounds([year, since])] == [("2024-04-01", "2025-01-01")]
    # Two closed periods, or bounds that leave no day, stay as they are (and are refused).
    other = DateSpan("2023-01-01", "2024-01-01", "عام 2023")
    assert intersect_bounds([year, other]) == [year, other]
    assert intersect_bounds([DateSpan("2026-01-01", None, "a"), DateSpan(None, "2023-01-01", "b")])[0].start == "2026-01-01"


# --- period parts ---------------------------------------------------------------------------------
# Parts of a period: the first or last N days, weeks or months of a named or relative month or year,
# and the Nth week of one, each read into a half-open span; a part longer than its period is not
# read.


def _part_spans(phrase: str) -> list[tuple[str | None, str | None]]:
    return [(s.start, s.end) for s in read_dates(normalize_arabic(phrase), AS_OF, PERIOD_PARTS)[1]]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("خلال أول شهرين من سنة 2023", "2023-01-01", "2023-03-01"),
        ("في أول 4 أشهر من عام 2024", "2024-01-01", "2024-05-01"),
        ("الشهور الثلاثة الأخيرة من 2022", "2022-10-01", "2023-01-01"),
        ("في آخر خمسة أيام من فبراير 2024", "2024-02-25", "2024-03-01"),  # a leap year
        ("أول عشرة أيام من شهر يوليو 2025", "2025-07-01", "2025-07-11"),
        ("الأيام السبعة الأولى من أبريل 2023", "2023-04-01", "2023-04-08"),
        ("أول أسبوعين من أغسطس 2024", "2024-08-01", "2024-08-15"),
        ("في أول شهر من 2026", "2026-01-01", "2026-02-01"),
    ],
)
def test_the_first_or_last_units_of_a_named_period(phrase: str, start: str, end: str) -> None:
    assert _part_spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("في الأسبوع الثالث من مايو 2024", "2024-05-15", "2024-05-22"),
        ("ثاني أسبوع من يناير 2023", "2023-01-08", "2023-01-15"),
        ("الأسبوع الأخير من فبراير 2023", "2023-02-22", "2023-03-01"),
        ("الأسبوع الخامس من مارس 2025", "2025-03-29", "2025-04-01"),  # what is left of the month
        ("أول أسبوع من 2024", "2024-01-01", "2024-01-08"),
    ],
)
def test_the_nth_week(phrase: str, start: str, end: str) -> None:
    assert _part_spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("الأسبوع الأول من هذا الشهر", "2025-06-01", "2025-06-08"),
        ("آخر عشرة أيام من الشهر الماضي", "2025-05-22", "2025-06-01"),
        ("أول ثلاثة أشهر من العام الماضي", "2024-01-01", "2024-04-01"),
        ("آخر شهرين من السنة الحالية", "2025-11-01", "2026-01-01"),
    ],
)
def test_a_period_counted_from_the_as_of_date(phrase: str, start: str, end: str) -> None:
    assert _part_spans(phrase) == [(start, end)]


@pytest.mark.parametrize(
    "phrase",
    [
        "أول 13 شهراً من 2024",  # longer than its year
        "آخر 40 يوم من مارس 2025",
        "آخر 3 أشهر",  # up to the as-of date: the rolling reader's
        "الأسبوع الأول",  # of no period
    ],
)
def test_not_a_part_of_a_period(phrase: str) -> None:
    assert _part_spans(phrase) == []


def test_the_label_names_the_part_and_its_days() -> None:
    _, spans = read_dates(normalize_arabic("أول شهرين من 2023"), AS_OF, PERIOD_PARTS)
    assert spans[0].label == "أول شهرين من عام 2023"
    _, spans = read_dates(normalize_arabic("الأيام السبعة الأولى من مارس 2024"), AS_OF, PERIOD_PARTS)
    assert spans[0].label == "الأيام السبعة الأولى من شهر مارس 2024"  # no "7" the question did not write


@pytest.mark.parametrize(
    ("phrase", "start", "end"),
    [
        ("النصف الثاني من نوفمبر 2024", "2024-11-16", "2024-12-01"),
        ("النصف الأول من عام 2023", "2023-01-01", "2023-07-01"),
        ("العشر الأواخر من شهر رمضان 1445", "2024-03-31", "2024-04-10"),  # a 30-day Ramadan
        ("العشر الأوائل من ذي الحجة 1445", "2024-06-07", "2024-06-17"),
        ("أول أسبوع من شعبان 1446", "2025-01-31", "2025-02-07"),
        ("اليوم الأخير من فبراير 2024", "2024-02-29", "2024-03-01"),
        ("في اليوم الأول من 2026", "2026-01-01", "2026-01-02"),
    ],
)
def test_halves_tens_and_single_days_of_a_period(phrase: str, start: str, end: str) -> None:
    assert _part_spans(phrase) == [(start, end)]


# --- relative periods -----------------------------------------------------------------------------
# Periods relative to the as-of date: parts of a relative year, a month named "last" or "next",
# since the start of this month or year, the same month last year, today and yesterday; read by the
# whole parser, since the relative year is resolved before the other date readers run.


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
