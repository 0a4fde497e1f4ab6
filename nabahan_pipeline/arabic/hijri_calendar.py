"""The Umm al-Qura calendar (Saudi Arabia's official Hijri calendar), read through ``hijridate``:
Hijri months and years as Gregorian date ranges, and back. Umm al-Qura months follow a published
table, not a formula; hijridate carries it for 1343-1500 AH (1924-08-01 .. 2077-11-16). A date
outside it is unknown (None), never guessed."""

from __future__ import annotations

from datetime import date, timedelta

from hijridate import Gregorian, Hijri
from hijridate.ummalqura import HIJRI_RANGE

FIRST_YEAR: int = HIJRI_RANGE[0][0]
LAST_YEAR: int = HIJRI_RANGE[1][0]

# Month names as written after a preposition or "شهر" (genitive: "ذي الحجة").
MONTH_NAMES: dict[int, str] = {
    1: "محرم", 2: "صفر", 3: "ربيع الأول", 4: "ربيع الآخر", 5: "جمادى الأولى", 6: "جمادى الآخرة",
    7: "رجب", 8: "شعبان", 9: "رمضان", 10: "شوال", 11: "ذي القعدة", 12: "ذي الحجة",
}


def _hijri(year: int, month: int, day: int) -> Hijri | None:
    # hijridate refuses a date outside its table (OverflowError) or no such day (ValueError).
    try:
        return Hijri(year, month, day)
    except (OverflowError, ValueError):
        return None


def _gregorian(day: Hijri) -> date:
    return date.fromordinal(day.to_gregorian().toordinal())  # a plain date, not hijridate's subclass


def month_start(year: int, month: int) -> date | None:
    """1 ``month`` ``year`` (Hijri) as a Gregorian date, or None outside the calendar."""
    return day_of(year, month, 1)


def month_range(year: int, month: int) -> tuple[date, date] | None:
    """The Gregorian days of one Hijri month: its first day and the next month's first day
    (half-open), or None outside the calendar."""
    first = _hijri(year, month, 1)
    if first is None:
        return None
    start = _gregorian(first)
    return start, start + timedelta(days=first.month_length())


def year_range(year: int) -> tuple[date, date] | None:
    """The Gregorian days of one Hijri year: 1 Muharram and the next 1 Muharram (half-open), or None."""
    first, last = month_range(year, 1), month_range(year, 12)
    if first is None or last is None:
        return None
    return first[0], last[1]


def day_of(year: int, month: int, day: int) -> date | None:
    """``day`` ``month`` ``year`` (Hijri) as a Gregorian date, or None when the month is outside
    the calendar or has no such day (a month has 29 or 30)."""
    found = _hijri(year, month, day)
    return None if found is None else _gregorian(found)


def hijri_date(day: date) -> tuple[int, int, int] | None:
    """The Hijri (year, month, day) of a Gregorian date, or None outside the calendar."""
    try:
        return Gregorian.fromdate(day).to_hijri().datetuple()
    except OverflowError:
        return None
