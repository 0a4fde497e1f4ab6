"""The embedded Umm al-Qura table: known month starts, months of 29 or 30 days end to end, the
same new years as the other Hijri tables of the project, and nothing guessed outside it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.reference_agent import lexicon as lx


@pytest.mark.parametrize(
    "year, month, expected",
    [
        # Published Umm al-Qura dates (Saudi official announcements of Ramadan, the Eids, the new year).
        (1445, 9, date(2024, 3, 11)),  # 1 Ramadan 1445
        (1446, 1, date(2024, 7, 7)),  # 1 Muharram 1446
        (1444, 10, date(2023, 4, 21)),  # Eid al-Fitr 1444
        (1445, 10, date(2024, 4, 10)),  # Eid al-Fitr 1445
        (1444, 9, date(2023, 3, 23)),  # 1 Ramadan 1444
        (1445, 12, date(2024, 6, 7)),  # 1 Dhu al-Hijjah 1445 (Arafah on the 15th of June)
        (1446, 9, date(2025, 3, 1)),  # 1 Ramadan 1446
    ],
)
def test_known_month_starts(year: int, month: int, expected: date) -> None:
    assert hc.month_start(year, month) == expected


def test_months_follow_each_other_with_29_or_30_days() -> None:
    for year in range(hc.FIRST_YEAR, hc.LAST_YEAR + 1):
        for month in range(1, 13):
            span = hc.month_range(year, month)
            assert span is not None
            assert (span[1] - span[0]).days in (29, 30), (year, month)
            following = hc.month_start(year + (month == 12), month % 12 + 1)
            if following is not None:
                assert following == span[1]


def test_years_agree_with_the_other_hijri_tables() -> None:
    for year, new_year in lx.HIJRI_NEW_YEAR.items():
        span = hc.year_range(year)
        if span is not None:
            assert span[0].isoformat() == new_year


def test_days_and_back() -> None:
    assert hc.day_of(1445, 9, 1) == date(2024, 3, 11)
    assert hc.day_of(1445, 9, 15) == date(2024, 3, 25)
    assert hc.day_of(1446, 9, 30) is None  # Ramadan 1446 had 29 days
    assert hc.day_of(1446, 9, 0) is None
    day = date(2022, 1, 1)
    while day < date(2029, 1, 1):
        found = hc.hijri_date(day)
        assert found is not None and hc.day_of(*found) == day
        day += timedelta(days=37)


def test_outside_the_table_is_unknown() -> None:
    assert hc.month_start(1440, 9) is None
    assert hc.month_range(1460, 1) is None
    assert hc.year_range(1441) is None
    assert hc.day_of(1455, 1, 1) is None
    assert hc.hijri_date(date(2019, 1, 1)) is None
    assert hc.hijri_date(date(2031, 1, 1)) is None
    assert hc.month_start(1445, 13) is None
