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
import re
from datetime import date, timedelta

from nabahan_pipeline.arabic import hijri_calendar
from nabahan_pipeline.evaluation.claims.folding import Folded, fold
from nabahan_pipeline.evaluation.claims.labels import MonthMention, find_months

_SQL_DATE = re.compile(r"(<=|>=|<|>|=|\bbetween\b|\band\b)?\s*'(\d{4})-(\d{2})-(\d{2})", re.IGNORECASE)
# Words that join the two ends of a range, and those that open it.
_RANGE_JOINS = re.compile(r"\s*(?:الي|حتي|لغايه|وحتي|والي|-|–|to|until)\s*(?:نهايه\s+)?(?:شهر\s+)?")
_RANGE_OPENS = re.compile(r"(?<!\w)(?:من|منذ|بين|from)(?:\s+بدايه)?(?:\s+شهر)?\s*$")
_PERIOD_BEFORE = re.compile(r"(?<!\w)(?:في|خلال|طوال)(?:\s+شهر)?\s*$")
# "الأسبوع الثالث من شهر سبتمبر 2026": a week of a month, 0 the last.
_WEEK = re.compile(r"(?<!\w)الاسبوع\s+(الاول|الثاني|الثالث|الرابع|الاخير)\s+من(?:\s+شهر)?\s*$")
_WEEK_PLACES = {"الاول": 1, "الثاني": 2, "الثالث": 3, "الرابع": 4, "الاخير": 0}
# Days a Hijri month may be off by where the SQL's dates were worked out another way (a sighting).
HIJRI_SLACK = 2
# A comparison with a date -> (days to add for the window's start, for its end); None: not that end.
_WINDOW_ENDS = {">=": (0, None), "between": (0, None), ">": (1, None), "<": (None, -1), "<=": (None, 0),
                "and": (None, 0), "=": (0, 0)}


def sql_window(sql: str | None) -> tuple[date, date] | None:
    """The first and last day (inclusive) the SQL's date filter keeps, from its literal dates
    (>=, >, <, <=, =, BETWEEN ... AND ...), or None when it has no closed window."""
    starts, ends = [], []
    for match in _SQL_DATE.finditer(sql or ""):
        try:
            day = date(int(match.group(2)), int(match.group(3)), int(match.group(4)))
        except ValueError:
            return None
        relation = (match.group(1) or "").lower()
        if relation not in _WINDOW_ENDS:
            return None  # a date in an IN list or a CASE: no single window
        to_start, to_end = _WINDOW_ENDS[relation]
        starts += [day + timedelta(days=to_start)] if to_start is not None else []
        ends += [day + timedelta(days=to_end)] if to_end is not None else []
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        return None
    return starts[0], ends[0]


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
    window = sql_window(sql)
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
