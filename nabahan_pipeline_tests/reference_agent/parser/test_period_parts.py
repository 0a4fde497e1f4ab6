"""Parts of a period: the first or last N days, weeks or months of a named or relative month or
year, and the Nth week of one, each read into a half-open span; a part longer than its period is
not read."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.period_parts import read_period_parts

AS_OF = date(2025, 6, 15)


def _spans(phrase: str) -> list[tuple[str | None, str | None]]:
    return [(s.start, s.end) for s in read_period_parts(normalize_arabic(phrase), AS_OF)[1]]


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
    assert _spans(phrase) == [(start, end)]


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
    assert _spans(phrase) == [(start, end)]


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
    assert _spans(phrase) == [(start, end)]


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
    assert _spans(phrase) == []


def test_the_label_names_the_part_and_its_days() -> None:
    _, spans = read_period_parts(normalize_arabic("أول شهرين من 2023"), AS_OF)
    assert spans[0].label == "أول شهرين من عام 2023"
    _, spans = read_period_parts(normalize_arabic("الأيام السبعة الأولى من مارس 2024"), AS_OF)
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
    assert _spans(phrase) == [(start, end)]
