"""The period an insight says its figures cover, read by day against the SQL's window of dates."""

from __future__ import annotations

from datetime import date

from nabahan_pipeline.evaluation.claims.folding import Folded
from nabahan_pipeline.evaluation.claims.windows import SqlDates, sql_dates, window_contradictions

Q3_SQL = "SELECT COUNT(*) FROM t WHERE publish_date >= '2024-07-01' AND publish_date < '2024-10-01'"


def said(insight: str, sql: str) -> list[str]:
    return [text for _, _, text, _ in window_contradictions(Folded.of(insight), sql)]


def test_the_sqls_window_is_read_by_day_with_its_exclusive_end() -> None:
    assert sql_dates(Q3_SQL) == SqlDates((date(2024, 7, 1), date(2024, 9, 30)), ((2024, 7), (2024, 8), (2024, 9)))
    assert sql_dates("SELECT 1 FROM t WHERE d BETWEEN '2023-02-01' AND '2023-02-28'").window == (
        date(2023, 2, 1), date(2023, 2, 28))
    assert sql_dates("SELECT 1 FROM t WHERE d >= '2023-02-01'") == SqlDates()  # open-ended: no window


def test_the_sqls_months_are_read_from_the_same_dates() -> None:
    # a month of strftime('%Y-%m'), its exclusive end, and a strftime year and month
    months = "SELECT 1 FROM t WHERE strftime('%Y-%m', d) >= '2025-01' AND strftime('%Y-%m', d) < '2025-03'"
    assert sql_dates(months) == SqlDates((date(2025, 1, 1), date(2025, 2, 28)), ((2025, 1), (2025, 2)))
    assert sql_dates("SELECT 1 FROM t WHERE d > '2025-01-31' AND d <= '2025-02-28'").months == ((2025, 2),)
    apart = "SELECT 1 FROM t WHERE strftime('%Y', d) = '2025' AND strftime('%m', d) = '11'"
    assert sql_dates(apart) == SqlDates(None, ((2025, 11),))
    # dates in an IN list span months but close no window; two years and more name no month
    listed = sql_dates("SELECT 1 FROM t WHERE d IN ('2024-01-05', '2024-03-07')")
    assert listed == SqlDates(None, ((2024, 1), (2024, 2), (2024, 3)))
    assert sql_dates("SELECT 1 FROM t WHERE d >= '2022-01-01' AND d < '2024-06-01'").months == ()


def test_a_range_of_months_must_start_and_end_where_the_window_does() -> None:
    assert said("طُرحت 1,210 منافسات من يوليو حتى سبتمبر 2024.", Q3_SQL) == []
    assert said("خلال الفترة من 1 يوليو إلى 30 سبتمبر 2024 بلغ العدد 1,210.", Q3_SQL) == []
    # a month inside the window is not where it starts
    assert said("من أغسطس إلى سبتمبر 2024 طُرحت 1,210 منافسات.", Q3_SQL) == ["أغسطس إلى سبتمبر 2024"]
    assert said("من 1 يوليو إلى 15 سبتمبر 2024: 1,210.", Q3_SQL) == ["1 يوليو إلى 15 سبتمبر 2024"]


def test_a_hijri_month_named_as_the_period_must_cover_the_window() -> None:
    ramadan_1445 = "SELECT COUNT(*) FROM t WHERE publish_date >= '2024-03-11' AND publish_date < '2024-04-10'"
    assert said("نُشرت 290 منافسة خلال شهر رمضان 1445هـ.", ramadan_1445) == []
    assert said("نُشرت 290 منافسة خلال شهر شوال 1445هـ.", ramadan_1445) == ["شوال 1445هـ"]


def test_a_week_of_a_month_is_its_seven_days() -> None:
    first_week = "SELECT COUNT(*) FROM t WHERE publish_date >= '2025-03-01' AND publish_date < '2025-03-08'"
    assert said("في الأسبوع الأول من مارس 2025 طُرحت 61 منافسة.", first_week) == []
    assert said("في الأسبوع الثاني من مارس 2025 طُرحت 61 منافسة.", first_week) == ["مارس 2025"]
