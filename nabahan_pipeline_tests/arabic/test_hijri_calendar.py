"""The Umm al-Qura calendar through hijridate: known month starts, months end to end over its
whole range (1343-1500 AH), the reference agent's new years from it, Hijri dates answered on a
database of 2019 tenders, and nothing guessed outside it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import date, timedelta
from pathlib import Path

import pytest

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.etimad_db.generator import build_database
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.agent import ReferenceAgent


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
        (1440, 1, date(2018, 9, 11)),  # 1 Muharram 1440: outside the table embedded before hijridate
        (1440, 9, date(2019, 5, 6)),  # 1 Ramadan 1440
        (1441, 1, date(2019, 8, 31)),  # 1 Muharram 1441
    ],
)
def test_known_month_starts(year: int, month: int, expected: date) -> None:
    assert hc.month_start(year, month) == expected
    assert type(hc.month_start(year, month)) is date  # a plain date, not hijridate's subclass


def test_months_follow_each_other_over_the_whole_calendar() -> None:
    for year in range(hc.FIRST_YEAR, hc.LAST_YEAR + 1):
        for month in range(1, 13):
            span = hc.month_range(year, month)
            assert span is not None
            # The official table's first decades hold a few months of 28 and 31 days, as published.
            assert (span[1] - span[0]).days in ((29, 30) if year >= 1365 else (28, 29, 30, 31)), (year, month)
            following = hc.month_start(year + (month == 12), month % 12 + 1)
            if following is not None:
                assert following == span[1]
    assert (hc.FIRST_YEAR, hc.LAST_YEAR) == (1343, 1500)


def test_the_reference_agents_new_years_are_the_calendars() -> None:
    assert set(lx.HIJRI_NEW_YEAR) == set(range(hc.FIRST_YEAR, hc.LAST_YEAR + 1))
    for year, new_year in lx.HIJRI_NEW_YEAR.items():
        span = hc.year_range(year)
        assert span is not None and span[0].isoformat() == new_year
    assert lx.HIJRI_NEW_YEAR[1446] == "2024-07-07"


def test_days_and_back() -> None:
    assert hc.day_of(1445, 9, 1) == date(2024, 3, 11)
    assert hc.day_of(1445, 9, 15) == date(2024, 3, 25)
    assert hc.day_of(1446, 9, 30) is None  # Ramadan 1446 had 29 days
    assert hc.day_of(1446, 9, 0) is None
    assert hc.hijri_date(date(2019, 1, 1)) == (1440, 4, 25)
    assert hc.year_range(1440) == (date(2018, 9, 11), date(2019, 8, 31))
    day = date(1924, 8, 1)
    while day <= date(2077, 11, 16):
        found = hc.hijri_date(day)
        assert found is not None and hc.day_of(*found) == day
        day += timedelta(days=37)


def test_outside_the_calendar_is_unknown() -> None:
    assert hc.month_start(1342, 12) is None
    assert hc.month_range(1501, 1) is None
    assert hc.year_range(1342) is None
    assert hc.day_of(1501, 1, 1) is None
    assert hc.hijri_date(date(1924, 7, 31)) is None
    assert hc.hijri_date(date(2077, 11, 17)) is None
    assert hc.month_start(1445, 13) is None
    assert hc.month_start(1445, 0) is None


@pytest.fixture(scope="module")
def tenders_of_2019(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's database of older tenders: the generator's, every date moved five years back
    (published 2017-2021)."""
    path = build_database(tmp_path_factory.mktemp("db") / "older.sqlite", tenders=1_000)
    dates = ("publish_date", "last_enquiry_date", "last_offer_date", "offers_opening_date")
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE tenders_full_details SET "
                           + ", ".join(f"{column} = date({column}, '-5 years')" for column in dates))
    return path


@pytest.mark.parametrize(
    ("question", "first", "end", "said"),
    [
        ("كم عدد المناقصات المطروحة في عام 1440هـ؟", "2018-09-11", "2019-08-31", "عام 1440هـ"),
        ("كم مناقصة طرحت في رمضان 1440هـ؟", "2019-05-06", "2019-06-04", "رمضان 1440هـ"),
    ],
)
def test_the_reference_agent_answers_hijri_dates_on_a_database_of_2019_tenders(
    tenders_of_2019: Path, question: str, first: str, end: str, said: str
) -> None:
    answer = ReferenceAgent(tenders_of_2019).ask(question, None)
    assert answer["status"] == "success", answer["insights"]
    assert f"publish_date >= '{first}' AND publish_date < '{end}'" in answer["sql"]
    with closing(sqlite3.connect(tenders_of_2019)) as connection:
        (count,) = connection.execute("SELECT COUNT(*) FROM tenders_full_details WHERE publish_date >= ? "
                                      "AND publish_date < ?", (first, end)).fetchone()
    assert answer["rows"] == [[count]] and count > 0
    assert said in answer["insights"]
