"""The numbers a question implies without stating them: the first and last day (and the month
numbers) of a quarter or month it names, the Hijri years of a Gregorian year, and how long each
period is ("من 1 يناير إلى 31 مارس 2024", "أي عامي 1445-1446 هـ", "بمعدل 307 منافسة شهرياً")."""

from __future__ import annotations

import calendar
import functools
import re
from datetime import date

from nabahan_pipeline.arabic import hijri_calendar
from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.evaluation.claims.folding import fold
from nabahan_pipeline.evaluation.claims.words import GREGORIAN_MONTHS

_QUARTERS = {"الاول": 1, "الثاني": 2, "الثالث": 3, "الرابع": 4, "الاخير": 4}
_QUARTER = re.compile(r"(?:الربع|ربع)\s+(الاول|الثاني|الثالث|الرابع|الاخير)|\bq([1-4])\b")
_HALVES = re.compile(r"(?:النصف)\s+(الاول|الثاني)|\bh([12])\b")
_MONTH_WORDS = {name: month for month, names in GREGORIAN_MONTHS.items() for name in names if len(name) > 2}
_MONTH_ALTERNATIVES = "|".join(sorted(map(re.escape, _MONTH_WORDS), key=len, reverse=True))
_MONTH = re.compile(r"(?<!\w)(?:[وفبل]?)(" + _MONTH_ALTERNATIVES + r")(?!\w)")


def _named(question: str) -> tuple[list[int], list[range], list[int]]:
    """The years ``question`` names, the months of each quarter or half it names, and the months
    it names by name."""
    folded = fold(question)
    years = sorted({int(m.value) for m in find_numbers(question) if m.value.is_integer() and 1990 <= m.value <= 2100})
    periods = []
    for match in _QUARTER.finditer(folded):
        quarter = _QUARTERS[match.group(1)] if match.group(1) else int(match.group(2))
        periods.append(range(3 * quarter - 2, 3 * quarter + 1))
    for match in _HALVES.finditer(folded):
        half = 1 if (match.group(1) or "") == "الاول" or match.group(2) == "1" else 2
        periods.append(range(6 * half - 5, 6 * half + 1))
    return years, periods, [_MONTH_WORDS[match.group(1)] for match in _MONTH.finditer(folded)]


@functools.lru_cache(maxsize=4_096)  # the questions seen last (a case's repeats): a pure function
def implied_numbers(question: str) -> tuple[float, ...]:
    """The numbers ``question`` implies (see the module docstring); none when it names no period."""
    years, periods, named_months = _named(question)
    months = {month for period in periods for month in period} | set(named_months)
    numbers: list[float] = list(period_lengths(question))
    for year in years:
        numbers += _hijri_years(date(year, 1, 1), date(year, 12, 31))
    for month in sorted(months):
        numbers += [1, month]
        for year in years or [2023]:  # no year: February's last day as in a common year
            last = calendar.monthrange(year, month)[1]
            numbers.append(last)
            numbers += _hijri_years(date(year, month, 1), date(year, month, last))
    return tuple(numbers)


@functools.lru_cache(maxsize=4_096)  # as implied_numbers
def period_lengths(question: str) -> tuple[float, ...]:
    """How long the periods ``question`` names are, in months, quarters, weeks and days: a
    figure over such a period is often given per month or per day ("أي بمعدل 307 شهرياً")."""
    years, periods, named_months = _named(question)
    lengths: list[float] = []
    for year in years:
        lengths += [12, 4, 52, 366 if calendar.isleap(year) else 365]
    for year in years or [2023]:
        for period in periods:
            lengths += [len(period), sum(calendar.monthrange(year, month)[1] for month in period)]
        lengths += [calendar.monthrange(year, month)[1] for month in named_months]
    return tuple(lengths)


def _hijri_years(first: date, last: date) -> list[float]:
    """The Hijri years a span of days falls in (none outside the calendar)."""
    days = [date.fromordinal(day) for day in range(first.toordinal(), last.toordinal(), 27)] + [last]
    years = [hijri_calendar.hijri_date(day) for day in days]
    return sorted({float(found[0]) for found in years if found is not None})
