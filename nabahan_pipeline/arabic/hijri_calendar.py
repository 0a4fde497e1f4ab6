"""The Umm al-Qura calendar (Saudi Arabia's official Hijri calendar) for the years the data spans:
Hijri months and years as Gregorian date ranges. Python's standard library has no Hijri calendar,
and no month start can be computed from a formula (Umm al-Qura months follow a published table),
so the table is embedded; a month outside it is unknown (None), never guessed."""

from __future__ import annotations

from datetime import date

# First day (Gregorian) of each month of the Hijri years 1442-1451, Muharram to Dhu al-Hijjah.
# Source: the Umm al-Qura month starts as published by King Abdulaziz City for Science and
# Technology, read from the table of the hijridate package (dralshehri/hijridate,
# src/hijridate/ummalqura.py, Reduced Julian Day numbers of each month start).
# The tenders span 2022-01-01 .. 2026-10-31 and the future projects 2026-11-01 .. 2028-12-31
# (../shared/docs/schema.md): Hijri 1443 .. 1450.
_MONTH_STARTS: dict[int, str] = {
    1442: "2020-08-20 2020-09-18 2020-10-18 2020-11-16 2020-12-16 2021-01-14 2021-02-13 2021-03-14 2021-04-13 2021-05-13 2021-06-11 2021-07-11",
    1443: "2021-08-09 2021-09-08 2021-10-07 2021-11-06 2021-12-05 2022-01-04 2022-02-02 2022-03-04 2022-04-02 2022-05-02 2022-05-31 2022-06-30",
    1444: "2022-07-30 2022-08-28 2022-09-27 2022-10-26 2022-11-25 2022-12-25 2023-01-23 2023-02-21 2023-03-23 2023-04-21 2023-05-21 2023-06-19",
    1445: "2023-07-19 2023-08-17 2023-09-16 2023-10-16 2023-11-15 2023-12-14 2024-01-13 2024-02-11 2024-03-11 2024-04-10 2024-05-09 2024-06-07",
    1446: "2024-07-07 2024-08-05 2024-09-04 2024-10-04 2024-11-03 2024-12-02 2025-01-01 2025-01-31 2025-03-01 2025-03-30 2025-04-29 2025-05-28",
    1447: "2025-06-26 2025-07-26 2025-08-24 2025-09-23 2025-10-23 2025-11-22 2025-12-21 2026-01-20 2026-02-18 2026-03-20 2026-04-18 2026-05-18",
    1448: "2026-06-16 2026-07-15 2026-08-14 2026-09-12 2026-10-12 2026-11-11 2026-12-10 2027-01-09 2027-02-08 2027-03-09 2027-04-08 2027-05-07",
    1449: "2027-06-06 2027-07-05 2027-08-03 2027-09-02 2027-10-01 2027-10-31 2027-11-29 2027-12-29 2028-01-28 2028-02-26 2028-03-27 2028-04-26",
    1450: "2028-05-25 2028-06-24 2028-07-23 2028-08-22 2028-09-20 2028-10-19 2028-11-18 2028-12-17 2029-01-16 2029-02-14 2029-03-16 2029-04-15",
    1451: "2029-05-14 2029-06-13 2029-07-13 2029-08-11 2029-09-10 2029-10-09 2029-11-07 2029-12-07 2030-01-05 2030-02-04 2030-03-05 2030-04-04",
}
# 1 Muharram 1452: where Dhu al-Hijjah 1451 ends.
_END = "2030-05-03"

_STARTS: tuple[tuple[int, int, date], ...] = tuple(
    (year, month, date.fromisoformat(day))
    for year, days in _MONTH_STARTS.items()
    for month, day in enumerate(days.split(), start=1)
)
_INDEX = {(year, month): i for i, (year, month, _) in enumerate(_STARTS)}
FIRST_YEAR = min(_MONTH_STARTS)
LAST_YEAR = max(_MONTH_STARTS)

# Month names as written after a preposition or "شهر" (genitive: "ذي الحجة").
MONTH_NAMES: dict[int, str] = {
    1: "محرم", 2: "صفر", 3: "ربيع الأول", 4: "ربيع الآخر", 5: "جمادى الأولى", 6: "جمادى الآخرة",
    7: "رجب", 8: "شعبان", 9: "رمضان", 10: "شوال", 11: "ذي القعدة", 12: "ذي الحجة",
}


def month_start(year: int, month: int) -> date | None:
    """1 ``month`` ``year`` (Hijri) as a Gregorian date, or None outside the table."""
    i = _INDEX.get((year, month))
    return None if i is None else _STARTS[i][2]


def month_range(year: int, month: int) -> tuple[date, date] | None:
    """The Gregorian days of one Hijri month: its first day and the next month's first day
    (half-open), or None outside the table."""
    i = _INDEX.get((year, month))
    if i is None:
        return None
    end = _STARTS[i + 1][2] if i + 1 < len(_STARTS) else date.fromisoformat(_END)
    return _STARTS[i][2], end


def year_range(year: int) -> tuple[date, date] | None:
    """The Gregorian days of one Hijri year: 1 Muharram and the next 1 Muharram (half-open), or None."""
    first, last = month_range(year, 1), month_range(year, 12)
    if first is None or last is None:
        return None
    return first[0], last[1]


def day_of(year: int, month: int, day: int) -> date | None:
    """``day`` ``month`` ``year`` (Hijri) as a Gregorian date, or None when the month is outside
    the table or has no such day (a month has 29 or 30)."""
    span = month_range(year, month)
    if span is None or not 1 <= day <= (span[1] - span[0]).days:
        return None
    return date.fromordinal(span[0].toordinal() + day - 1)


def hijri_date(day: date) -> tuple[int, int, int] | None:
    """The Hijri (year, month, day) of a Gregorian date, or None outside the table."""
    if not _STARTS[0][2] <= day < date.fromisoformat(_END):
        return None
    year, month, start = max((s for s in _STARTS if s[2] <= day), key=lambda s: s[2])
    return year, month, (day - start).days + 1
