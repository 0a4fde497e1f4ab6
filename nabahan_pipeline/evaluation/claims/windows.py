"""The period an insight says its figures cover, against the SQL's window of dates, by day (a month
read as a month cannot tell "من أغسطس" from "من يوليو" inside a quarter's window, nor a Hijri month
from the next one):

- a range "من M1 إلى M2" (حتى، لغاية، "-"; with or without days, either calendar) must start and
  end where the window does (on its day, or within its month);
- a week of a month ("الأسبوع الثالث من شهر سبتمبر 2026") must be the window's days;
- a Hijri month named as the figures' period ("في شهر شعبان 1446هـ") must cover most of the window.
"""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import dataclass
from datetime import date, timedelta

from nabahan_pipeline.arabic import hijri_calendar
from nabahan_pipeline.evaluation.claims.folding import Folded, fold
from nabahan_pipeline.evaluation.claims.labels import MonthMention, find_months

# Words that join the two ends of a range, and those that open it.
_RANGE_JOINS = re.compile(r"\s*(?:الي|حتي|لغايه|وحتي|والي|-|–|to|until)\s*(?:نهايه\s+)?(?:شهر\s+)?")
_RANGE_OPENS = re.compile(r"(?<!\w)(?:من|منذ|بين|from)(?:\s+بدايه)?(?:\s+شهر)?\s*$")
_PERIOD_BEFORE = re.compile(r"(?<!\w)(?:في|خلال|طوال)(?:\s+شهر)?\s*$")
# "الأسبوع الثالث من شهر سبتمبر 2026": a week of a month, 0 the last.
_WEEK = re.compile(r"(?<!\w)الاسبوع\s+(الاول|الثاني|الثالث|الرابع|الاخير)\s+من(?:\s+شهر)?\s*$")
_WEEK_PLACES = {"الاول": 1, "الثاني": 2, "الثالث": 3, "الرابع": 4, "الاخير": 0}
# Days a Hijri month may be off by where the SQL's dates were worked out another way (a sighting).
HIJRI_SLACK = 2
# A date literal of the SQL and the comparison before it: a day ('2024-07-01', with a time or not)
# or a month alone ('2024-07', of strftime('%Y-%m', ...)).
_SQL_DATE = re.compile(r"(<=|>=|<|>|=|\bbetween\b|\band\b)?\s*'(\d{4})-(\d{2})(?:-(\d{2}))?(?:[ T][\d:.]*)?'",
                       re.IGNORECASE)
_SQL_MONTH = re.compile(r"strftime\s*\(\s*'%m'[^)]*\)\s*=\s*'(\d{1,2})'", re.IGNORECASE)
_SQL_YEAR = re.compile(r"strftime\s*\(\s*'%Y'[^)]*\)\s*=\s*'(\d{4})'", re.IGNORECASE)
# The comparisons before a date that open the window at it, and those that close it.
_OPENS = (">=", ">", "=", "between")
_CLOSES = ("<=", "<", "=", "and")
# Months a filter may span and still be read as months (a longer one names no month).
WINDOW_MONTHS_MAX = 24


@dataclass(frozen=True)
class SqlDates:
    """The SQL's date filter: the first and last day it keeps when it opens and closes once
    (``window``), and the (year, month)s from its first date to its last (``months``)."""

    window: tuple[date, date] | None = None
    months: tuple[tuple[int, int], ...] = ()


@functools.lru_cache(maxsize=1_024)  # a case's SQL is read by several rules: a pure function
def sql_dates(sql: str | None) -> SqlDates:
    """The date filter of ``sql`` from its literal dates (>=, >, <, <=, =, BETWEEN ... AND ...; an
    exclusive "< '2025-02-01'" ends on January 31), or a strftime year and month. No window where
    a date stands in an IN list or a function; no months where it is open-ended ("since")."""
    starts: list[date] = []
    ends: list[date] = []
    loose: list[date] = []
    literals = list(_SQL_DATE.finditer(sql or ""))
    for match in literals:
        relation = (match.group(1) or "").lower()
        year, month = int(match.group(2)), int(match.group(3))
        try:
            first = date(year, month, int(match.group(4) or 1))
            last = first if match.group(4) else date(year, month, calendar.monthrange(year, month)[1])
        except ValueError:
            return SqlDates()
        starts += [last + timedelta(days=1) if relation == ">" else first] if relation in _OPENS else []
        ends += [first - timedelta(days=1) if relation == "<" else last] if relation in _CLOSES else []
        loose += [] if relation in (*_OPENS, *_CLOSES) else [first, last]
    said = starts + ends + loose
    if not said:
        months, years = _SQL_MONTH.findall(sql or ""), _SQL_YEAR.findall(sql or "")
        if len(months) == 1 and len(years) == 1:  # strftime('%Y') = '2025' AND strftime('%m') = '11'
            return SqlDates(months=((int(years[0]), int(months[0])),))
        return SqlDates()
    closed = len(starts) == 1 and len(ends) == 1 and not loose and starts[0] <= ends[0]
    window = (starts[0], ends[0]) if closed else None
    if len(literals) < 2 and literals[0].group(1) != "=":
        return SqlDates(window)  # "since 2025-01-01": open-ended, no months
    first, last = min(said), max(said)
    span = (last.year - first.year) * 12 + last.month - first.month
    if span >= WINDOW_MONTHS_MAX:
        return SqlDates(window)
    return SqlDates(window, tuple((first.year + (first.month - 1 + k) // 12, (first.month - 1 + k) % 12 + 1)
                                 for k in range(span + 1)))


def _month_days(calendar_name: str, year: int, month: int) -> tuple[date, date] | None:
    """The first and last day (inclusive) of a month of either calendar, or None."""
    if calendar_name == "gregorian":
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    found = hijri_calendar.month_range(year, month)
    return None if found is None else (found[0], found[1] - timedelta(days=1))


def _day(calendar_name: str, year: int, month: int, day: int) -> date | None:
    if calendar_name == "gregorian":
        try:
            return date(year, month, day)
        except ValueError:
            return None
    return hijri_calendar.day_of(year, month, day)


def _end_matches(said: MonthMention, year: int, actual: date, first: bool) -> bool | None:
    """Whether one end of a range said (its month, its day if written) is the window's end;
    None when it cannot be told (a date outside the calendar)."""
    days = _month_days(said.calendar, year, said.month)
    if days is None:
        return None
    slack = timedelta(days=0 if said.calendar == "gregorian" else HIJRI_SLACK)
    if said.day is not None:
        day = _day(said.calendar, year, said.month, said.day)
        return None if day is None else abs(day - actual) <= slack + timedelta(days=1)
    edge = days[0] if first else days[1]
    if abs(edge - actual) <= slack:
        return True
    # a month's end may be written as the month only, its start too ("من يناير إلى مارس")
    return days[0] - slack <= actual <= days[1] + slack


def window_contradictions(insight: Folded, sql: str | None) -> list[tuple[int, int, str, str]]:
    """The periods ``insight`` says its figures cover that the SQL's window is not: each as
    (start, end, the words as written, what the SQL's window is)."""
    window = sql_dates(sql).window
    if window is None:
        return []
    months = find_months(insight)
    original = insight.original
    says = f"the SQL's window is {window[0].isoformat()} to {window[1].isoformat()}"
    found: list[tuple[int, int, str, str]] = []
    in_range: set[int] = set()
    for k, (first, last) in enumerate(zip(months, months[1:])):
        if first.calendar != last.calendar or not _RANGE_JOINS.fullmatch(fold(original[first.end : last.start])):
            continue
        if not _RANGE_OPENS.search(fold(original[max(0, first.start - 20) : first.start])):
            continue
        in_range |= {k, k + 1}
        end_year = last.year or first.year
        start_year = first.year or end_year
        if start_year is None or end_year is None:
            continue
        if first.year is None and first.month > last.month:
            start_year -= 1  # "من نوفمبر إلى فبراير 2026": November of 2025
        ends = (_end_matches(first, start_year, window[0], True), _end_matches(last, end_year, window[1], False))
        if False in ends:
            found.append((first.start, last.end, original[first.start : last.end], says))
    for k, month in enumerate(months):
        week = _WEEK.search(fold(original[max(0, month.start - 30) : month.start]))
        if week and month.year is not None and month.calendar == "gregorian" and k not in in_range:
            last = calendar.monthrange(month.year, month.month)[1]
            place = _WEEK_PLACES[week.group(1)]
            first_day = last - 6 if place == 0 else 1 + 7 * (place - 1)
            days = (date(month.year, month.month, first_day), date(month.year, month.month, min(last, first_day + 6)))
            if abs(days[0] - window[0]).days > 1 or abs(days[1] - window[1]).days > 1:
                found.append((month.start, month.end, original[month.start : month.end], says))
            continue
        if k in in_range or month.calendar != "hijri" or month.year is None or month.day is not None:
            continue
        if not _PERIOD_BEFORE.search(fold(original[max(0, month.start - 12) : month.start])):
            continue
        days = _month_days("hijri", month.year, month.month)
        if days is None:
            continue
        overlap = (min(days[1], window[1]) - max(days[0], window[0])).days + 1
        length = (window[1] - window[0]).days + 1
        if overlap * 2 < min(length, (days[1] - days[0]).days + 1):
            found.append((month.start, month.end, month.text, says))
    return found
