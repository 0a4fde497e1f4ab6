"""Days and months as open bounds and ranges: before, after, since and until a day or a month (its
start or end), ranges of ISO or day/month/year dates, and ranges of days within one month."""

from __future__ import annotations

from datetime import date

import pytest

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent.parser.day_bounds import read_day_bounds

AS_OF = date(2025, 6, 15)


def _spans(phrase: str) -> list[tuple[str | None, str | None]]:
    return [(s.start, s.end) for s in read_day_bounds(normalize_arabic(phrase), AS_OF)[1]]


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
    from nabahan_pipeline.reference_agent.parser.day_bounds import intersect_bounds

    after, before = DateSpan("2023-01-01", None, "بعد عام 2022"), DateSpan(None, "2025-01-01", "قبل عام 2025")
    assert [(s.start, s.end) for s in intersect_bounds([after, before])] == [("2023-01-01", "2025-01-01")]
    year = DateSpan("2024-01-01", "2025-01-01", "عام 2024")
    since = DateSpan("2024-04-01", None, "بعد مارس 2024")
    assert [(s.start, s.end) for s in intersect_bounds([year, since])] == [("2024-04-01", "2025-01-01")]
    # Two closed periods, or bounds that leave no day, stay as they are (and are refused).
    other = DateSpan("2023-01-01", "2024-01-01", "عام 2023")
    assert intersect_bounds([year, other]) == [year, other]
    assert intersect_bounds([DateSpan("2026-01-01", None, "a"), DateSpan(None, "2023-01-01", "b")])[0].start == "2026-01-01"
