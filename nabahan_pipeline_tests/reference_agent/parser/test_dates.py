"""Dates in a question: the span arithmetic and each kind of date phrase read into a DateSpan."""

from __future__ import annotations

import re
from datetime import date

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.dates import DateSpan, add_months, month_span, read_dates, year_span

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
    left, spans = read_dates(text, AS_OF)
    assert spans == [span]
    assert len(left) == len(text), "blanking keeps every offset"
    assert not any(ch.isdigit() for ch in left)


def test_text_without_dates_is_left_as_it_is() -> None:
    text = normalize_arabic("كم مناقصة نشطة في الرياض")
    assert read_dates(text, AS_OF) == (text, [])


@pytest.mark.parametrize(
    "phrase",
    [
        "2024 مناقصة",  # a count of tenders, not a year
        "بقيمة 2030 ريال",  # an amount
        "اب",  # August, or an ordinary word: a month only with "شهر" or a year
    ],
)
def test_numbers_and_words_that_are_no_dates(phrase: str) -> None:
    assert read_dates(normalize_arabic(phrase), AS_OF)[1] == []


def test_several_dates_are_read_in_order() -> None:
    left, spans = read_dates(normalize_arabic("في الربع الأول من 2024 وفي شهر مارس"), AS_OF)
    assert [s.label for s in spans] == ["الربع الأول من عام 2024", "شهر مارس"]
    assert left.split() == ["في", "وفي"]


@pytest.mark.parametrize("phrase", ["حتى 2023", "حتى عام 2023", "إلى 2023", "لغاية 2023"])
def test_up_to_a_year_is_up_to_its_end(phrase: str) -> None:
    # "حتى" / "إلى" are folded by normalization ("حتي" / "الي"): the patterns must be folded too.
    left, spans = read_dates(normalize_arabic(phrase), AS_OF)
    assert spans == [DateSpan(None, "2024-01-01", "حتى نهاية عام 2023")]
    assert left.strip() == ""


@pytest.mark.parametrize(
    "phrase", ["أكثر من 2024 ريال", "اكثر من 2024 ريال", "بين 2000 و 2500 ريال", "من 2024 ريال"]
)
def test_a_year_like_amount_is_no_year(phrase: str) -> None:
    assert read_dates(normalize_arabic(phrase), AS_OF)[1] == []


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
    left, spans = read_dates(normalize_arabic(phrase), AS_OF)
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
    left, spans = read_dates(normalize_arabic(phrase), LATE_AS_OF)
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
    left, spans = read_dates(normalize_arabic(phrase), LATE_AS_OF)
    assert [(s.start, s.end) for s in spans] == [(start, end)]
    assert not re.search(r"\d", left)


def test_a_day_that_does_not_exist_is_no_day() -> None:
    # Read as the month only, its "31" left over for the parser to refuse.
    left, spans = read_dates(normalize_arabic("يوم 31 فبراير 2025"), LATE_AS_OF)
    assert [(s.start, s.end) for s in spans] == [("2025-02-01", "2025-03-01")]
    assert "31" in left.split()


def test_two_months_named_are_a_span_only_when_they_follow_each_other() -> None:
    text, spans = read_dates(normalize_arabic("في شهري ابريل ومايو 2024"), AS_OF)
    assert [(s.start, s.end) for s in spans] == [("2024-04-01", "2024-06-01")]
    text, spans = read_dates(normalize_arabic("في شهري ابريل ويونيو 2024"), AS_OF)
    assert not any(s.start == "2024-04-01" and s.end == "2024-07-01" for s in spans)
    text, spans = read_dates(normalize_arabic("بين ابريل ويونيو 2024"), AS_OF)
    assert [(s.start, s.end) for s in spans] == [("2024-04-01", "2024-07-01")]


def test_the_end_of_the_year_is_no_rolling_year() -> None:
    # "آخر السنة" is the year's end, which no reader places; "آخر سنة" is the last twelve months.
    assert read_dates(normalize_arabic("اخر السنه"), AS_OF)[1] == []
    assert [(s.start, s.end) for s in read_dates(normalize_arabic("اخر سنه"), AS_OF)[1]] == [("2024-06-15", "2025-06-16")]


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
    assert [(s.start, s.end) for s in read_dates(normalize_arabic(phrase), AS_OF)[1]] == [span]


@pytest.mark.parametrize("phrase", ["قيمتها من 2000 الى 2040", "بقيمه بين 2010 و 2030", "قيمتها 2020 و2030"])
def test_a_value_word_before_makes_figures_of_what_look_like_years(phrase: str) -> None:
    spans = read_dates(normalize_arabic(phrase), AS_OF)[1]
    assert not any(s.start == "2000-01-01" or s.years for s in spans)
    assert not any(s.end in ("2031-01-01", "2041-01-01") for s in spans)


def test_the_next_quarter() -> None:
    # As of 2025-06-15 (second quarter): the third.
    assert [(s.start, s.end, s.label) for s in read_dates(normalize_arabic("الربع القادم"), AS_OF)[1]] == [
        ("2025-07-01", "2025-10-01", "الربع القادم")
    ]
