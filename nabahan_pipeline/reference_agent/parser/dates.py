"""Dates in a question, each read into a DateSpan (a half-open range of ISO dates, or months of any
year when no year is given): Gregorian and Hijri years, months and days, bounds and ranges, parts
of periods, and periods relative to the as-of date ("العام الماضي", "آخر 3 أشهر")."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from dateutil.relativedelta import relativedelta

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.patterns import SMALL_NUMBER, alternation, blank, read_each
from nabahan_pipeline.reference_agent.parser.values import comparator_before


# --- the phrases ----------------------------------------------------------------------------------

_YEAR_WORD = r"(?:(?:[وفبل]?ال|[لب])?(?:عام|سنه)\s?)"
_GREG = r"(?P<{n}>20[0-4]\d)(?:\s?(?:م|ميلادي(?:ه)?)(?!\w))?"
_HIJRI_YEAR = re.compile(
    rf"(?<!\w){_YEAR_WORD}?(?P<y>14\d\d)\s?(?:ه|هـ|هجري(?:ه)?|للهجره|هجريه)(?!\w)"
    rf"|(?<!\w){_YEAR_WORD}(?P<y2>14[0-9]\d)(?!\w)"
    rf"|(?<!\w){_YEAR_WORD}(?:ال)?هجري(?:ه)?\s(?P<y3>14\d\d)(?!\w)"
    rf"|(?<!\w)(?P<now>(?:[وفبل]?ال)?(?:عام|سنه) (?:ال)?هجري(?:ه)? (?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?))(?!\w)"
)
_YEAR_RANGE = re.compile(
    rf"(?<!\w)(?:(?:(?:[وفبل]?ال)?(?:سنوات|اعوام|سنين)\s|(?:[وفبل]?ال)?فتره\s)?(?:ما\s)?(?:بين|من|[بم]ن)\s?"
    rf"|(?:[وفبل]?ال)?فتره\s(?=20[0-4]\d\s?-))"
    rf"(?:(?:ال)?(?:عامي|سنتي)\s)?{_YEAR_WORD}?{_GREG.format(n='a')}\s?(?:و|الى|الي|حتي|لين|لغايه|ل|-|لحد|وحتي|والي|ولغايه)\s?"
    rf"{_YEAR_WORD}?{_GREG.format(n='b')}(?!\d)"
)
_YEAR_BOUND = re.compile(
    rf"(?<!\w)و?(?P<w>بعد|منذ بدايه|منذ مطلع|منذ|من بدايه|من مطلع|ابتداء من|اعتبارا من|من|قبل|حتي|لغايه|الي|لين)\s{_YEAR_WORD}?{_GREG.format(n='y')}(?!\d)"
)
_MONTH_NAMES = alternation(lx.MONTHS)
_MONTH = re.compile(
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهر\s)?(?:[وفب]?(?:ال)?)?(?P<m>{_MONTH_NAMES})(?:\s(?:من\s)?{_YEAR_WORD}?{_GREG.format(n='y')})?(?!\w)"
    rf"|(?<!\w)(?:[وفب]?ال|[بل])?شهر\s(?P<mn>1[0-2]|0?[1-9])(?:\s?(?:/|-|من|سنه|عام)?\s?{_YEAR_WORD}?{_GREG.format(n='y2')})?(?!\d)"
    rf"|(?<![\w/])(?P<mn2>1[0-2]|0?[1-9])\s?[/-]\s?(?P<y3>20[0-4]\d)(?!\d)"
    rf"|(?<![\w/])(?P<y4>20[0-4]\d)\s?[/-]\s?(?P<mn3>1[0-2]|0[1-9])(?![\d/-])"
)
_ORDINAL_NAMES = alternation(lx.ORDINALS)
_YEAR_OF = rf"(?:\s?(?:من|لل|ل)?\s?(?:ال)?(?:عام|سنه)?\s?{_GREG.format(n='{n}')})"
_MONTH_RANGE = re.compile(
    rf"(?<!\w)(?:(?:في|خلال) )?(?:ال)?(?:فتره )?(?:(?:ما )?(?:بين|من) (?:بدايه )?(?:شهر |شهري )?|(?:[وفب]?ال)?شهري )(?P<m1>{_MONTH_NAMES})"
    rf"{_YEAR_OF.format(n='y1')}?\s?(?:و|الي|حتي|لين|لغايه|ل|-)\s?(?:نهايه )?(?:شهر )?(?P<m2>{_MONTH_NAMES})"
    rf"{_YEAR_OF.format(n='y2')}(?!\d)"
)
_SINCE_MONTH = re.compile(
    rf"(?<!\w)(?:من|منذ) (?:بدايه )?(?:شهر )?(?P<m>{_MONTH_NAMES}){_YEAR_OF.format(n='y')}"
    rf"\s(?:حتي|لين|الي|لغايه|لحد) (?:ال)?(?:ان|يوم|حين|لحين|وقت ال?حالي)(?!\w)"
    rf"|(?<!\w)(?:من|منذ) (?:بدايه )?(?P<this>(?:ال)?(?:عام|سنه) (?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?)|هذا ال?عام|هذه ال?سنه)(?!\w)"
)
_HALF = re.compile(
    rf"(?<!\w)(?:ال)?نصف (?:ال)?(?P<h>اول|ثاني)(?:\s?(?:من|لل|ل)\s?(?:ال)?(?:عام|سنه)?\s?(?:{_GREG.format(n='y')}|(?P<this>(?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?))))(?!\w)"
)
_RELATIVE_QUARTER = re.compile(
    r"(?<!\w)(?:(?:ال)?ربع (?:ال)?(?P<w>ماضي|سابق|فايت|حالي|جاري|قادم|جاي|مقبل)|(?P<this>هذا ال?ربع|هال?ربع))(?!\w)"
)
_QUARTER = re.compile(
    rf"(?<!\w)(?:[وفب]?ال|[بل])?ربع\s(?:ال)?(?P<q>{_ORDINAL_NAMES}|[1-4])(?:\s(?:من\s)?(?:ال)?(?:سنه|عام)?\s?(?:{_GREG.format(n='y')})?)?(?!\w)"
    rf"|(?<![a-z])q(?P<q2>[1-4])\s?(?:{_GREG.format(n='y2')})?(?!\w)"
)
_THIS = alternation(lx.THIS_TERMS)
_LAST = alternation(lx.LAST_TERMS)
_NEXT = alternation(lx.NEXT_TERMS)
_RELATIVE = re.compile(
    rf"(?<!\w)(?:(?P<this1>{_THIS})\s?(?:ال)?(?P<u1>عام|سنه|شهر|اسبوع)|(?:[وفب]?ال)?(?P<u2>عام|سنه|شهر|اسبوع)\s(?:ال)?(?:(?P<this2>حالي(?:ه)?|جاري(?:ه)?|دي|هذا|هذه|هذي)"
    rf"|(?P<before>قبل (?:ال)?(?:ماضي|ماضيه|فايت|فايته|اللي فات))|(?P<last>{_LAST})|(?P<next>{_NEXT})))(?!\w)"
)
_WORDING = lx.package_data("wording.json")
# Unit words -> (unit, the count the word itself says: 1, 2 for the dual "شهرين", 0 for a plural).
UNIT_WORDS: dict[str, tuple[str, int]] = {word: tuple(unit) for word, unit in _WORDING["DATE_UNITS"].items()}
_UNITS = alternation(word for word in UNIT_WORDS if word != "شهرا")  # "شهرا" after a count: the days to come
_ROLLING = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?P<last>اخر|ال)\s?(?P<n>\d+|{alternation(lx.SMALL_NUMBERS)})?\s?(?:ال)?(?P<u>{_UNITS})"
    rf"(?:\s(?:ال)?(?:{alternation(lx.SMALL_NUMBERS)}))?(?:\s(?:ال)?(?:ماضيتين|ماضيين|اخيرتين|اخيرين|ماضيه|الماضيه|اخيره|الاخيره|فايته|الفايته|ماضي|السابقه))?(?!\w)"
    # "آخر يوم لتقديم العروض" names the deadline, no rolling day.
    r"(?!\s(?:ل|لل)?(?:ال)?(?:تقديم|استقبال|فتح|استفسار))"
)

# A value word right before a range makes it a range of amounts ("قيمتها من 2000 إلى 2040").
_VALUE_BEFORE = re.compile(
    r"(?<!\w)(?:[وفب]?ال|[وفب])?(?:قيم\w*|سعر\w*|اسعار\w*|مبلغ\w*|مبالغ\w*|تكلف\w*|ميزاني\w*|عروض\w*|كراس\w*|مد(?:ه|ته|تها))"
    r"(?:\s(?:ال)?تقديري\w*)?\s(?:(?:من|بين|ما|الي|حتي|و|\d[\d.,]*)\s){0,3}و?$"
)
# A unit after a number makes it an amount, not a year.
_AMOUNT_AFTER = re.compile(r"\s*(?:ريال|ر\.?س|الف|مليون|مليار|عرض|عروض)(?!\w)")


def _amounts(m: re.Match[str], text: str) -> bool:
    """Whether the years ``m`` found in ``text`` are figures: "بين 2000 و 2500 ريال", "قيمتها من 2000"."""
    return bool(_AMOUNT_AFTER.match(text, m.end()) or _VALUE_BEFORE.search(text, 0, m.start()))


@dataclass(frozen=True)
class DateSpan:
    """The dates a phrase names, with its Arabic wording."""

    start: str | None  # inclusive ISO date
    end: str | None  # exclusive ISO date
    label: str
    month_of_year: tuple[int, ...] = ()  # months in any year (no year given)
    years: tuple[int, ...] = ()  # any of these whole years ("في 2023 و2024")
    negated: bool = False  # every day but these ("في غير 2024")


def year_span(year: int) -> tuple[str, str]:
    """The ISO dates that bound ``year``: its first day and the next year's first day."""
    return f"{year:04d}-01-01", f"{year + 1:04d}-01-01"


def month_span(year: int, month: int) -> tuple[str, str]:
    """The ISO dates that bound one month: its first day and the next month's first day."""
    end = (year + 1, 1) if month == 12 else (year, month + 1)
    return f"{year:04d}-{month:02d}-01", f"{end[0]:04d}-{end[1]:02d}-01"


def add_months(day: date, months: int) -> date:
    """``day`` moved by ``months`` (negative: back), its day of month clipped to the month's last."""
    return day + relativedelta(months=months)


def week_start(day: date) -> date:
    """The Sunday that starts ``day``'s calendar week (the Saudi week: Sunday to Saturday)."""
    return day - timedelta(days=(day.weekday() + 1) % 7)


def shift(day: date, unit: str, count: int) -> date:
    """``day`` moved by ``count`` days, weeks, months or years (``unit``; negative: back)."""
    if unit in ("day", "week"):
        return day + timedelta(days=count * (7 if unit == "week" else 1))
    return add_months(day, count * (12 if unit == "year" else 1))


# The Arabic name of each month, as answers write it.
MONTH_LABELS: dict[int, str] = dict(enumerate(_WORDING["GREGORIAN_MONTHS"], 1))
_HALVES = {"اول": "النصف الأول", "ثاني": "النصف الثاني"}
_QUARTER_LABELS = {1: "الربع الأول", 2: "الربع الثاني", 3: "الربع الثالث", 4: "الربع الرابع"}


@dataclass(frozen=True)
class Calendar:
    """What a reader needs of a calendar: its month names as answers write them, the mark after a
    year ("هـ"), and the Gregorian days of its years, months and days (None where it cannot place
    them: a Hijri date outside the Umm al-Qura table, "31 فبراير")."""

    names: dict[int, str]
    era: str
    year_range: Callable[[int], tuple[date, date] | None]
    month_range: Callable[[int, int], tuple[date, date] | None]
    day_of: Callable[[int, int, int], date | None]


def _gregorian_day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None  # no such day: "31 فبراير"


GREGORIAN = Calendar(
    MONTH_LABELS, "", lambda y: (date(y, 1, 1), date(y + 1, 1, 1)),
    lambda y, m: (date(y, m, 1), add_months(date(y, m, 1), 1)), _gregorian_day,
)
HIJRI = Calendar(hc.MONTH_NAMES, "هـ", hc.year_range, hc.month_range, hc.day_of)


def _span(first: date, end: date, label: str) -> DateSpan:
    return DateSpan(first.isoformat(), end.isoformat(), label)


def _label(calendar: Calendar, year: int, month: int, day: int | None = None, stated: bool = True) -> str:
    """A month (or day) in words, its year only when the question stated it."""
    return (f"{day} " if day else "") + calendar.names[month] + (f" {year}{calendar.era}" if stated else "")


def _month_span(calendar: Calendar, year: int, month: int | None) -> DateSpan | None:
    """The days of one month ("شهر رمضان 1446هـ"); None when the calendar cannot place it."""
    span = calendar.month_range(year, month) if month else None
    return _span(*span, f"شهر {_label(calendar, year, month)}") if span and month else None


def _days_of(calendar: Calendar, year: int, month: int, day: int | None = None) -> tuple[date, date] | None:
    """The first day of one day, or of a whole month when ``day`` is None, and the day after it."""
    if day is None:
        return calendar.month_range(year, month)
    found = calendar.day_of(year, month, day)
    return (found, found + timedelta(days=1)) if found else None


def _day_span(calendar: Calendar, year: int, month: int | None, day: int) -> DateSpan | None:
    """One day ("يوم 15 رمضان 1446هـ"); None when the calendar cannot place it."""
    span = _days_of(calendar, year, month, day) if month else None
    return _span(*span, f"يوم {_label(calendar, year, month, day)}") if span and month else None


Point = tuple[int, int, int | None]  # (year, month, day or None for the whole month)


def _between(calendar: Calendar, first: Point, last: Point, stated: bool = True) -> DateSpan | None:
    """From a month or day to another, both included ("من 1 يونيو 2024 إلى 15 يوليو 2024"); the
    first year worded only when ``stated``. None when either is not placed or the last is first."""
    a, b = _days_of(calendar, *first), _days_of(calendar, *last)
    if a is None or b is None or a[0] >= b[1]:
        return None
    return _span(a[0], b[1], f"من {_label(calendar, *first, stated)} إلى {_label(calendar, *last)}")


def _months_span(calendar: Calendar, year: int, first: int, last: int, label: str) -> DateSpan | None:
    """The months ``first`` to ``last`` of ``year`` (a half, a quarter, two months in a row)."""
    a, b = calendar.month_range(year, first), calendar.month_range(year, last)
    return _span(a[0], b[1], label) if a and b else None


def _years_span(calendar: Calendar, low: int, high: int) -> DateSpan | None:
    """The years ``low`` to ``high``, both whole: "من عام 2023 إلى عام 2025"."""
    first, last = calendar.year_range(low), calendar.year_range(high)
    if first is None or last is None:
        return None
    return _span(first[0], last[1], f"من عام {low}{calendar.era} إلى عام {high}{calendar.era}")


def _bounded(word: str, first: date, end: date, name: str, until: str = "حتى نهاية") -> DateSpan:
    """A bound before, after, since or until (worded ``until``) the days ``[first, end)``."""
    if word == "قبل":
        return DateSpan(None, first.isoformat(), f"قبل {name}")
    if word.startswith("بعد") or word == "من بعد":
        return DateSpan(end.isoformat(), None, f"بعد {name}")
    if word.startswith(("حتي", "الي", "لين")) or word in ("لغايه", "لحد"):
        return DateSpan(None, end.isoformat(), f"{until} {name}")
    return DateSpan(first.isoformat(), None, f"منذ {name}")


def _hijri_years(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Hijri years: "عام 1446هـ", "سنة 1445"."""
    if m.group("now"):
        year = max((y for y, start in lx.HIJRI_NEW_YEAR.items() if start <= as_of.isoformat()), default=0)
    else:
        year = int(m.group("y") or m.group("y2") or m.group("y3"))
    start = lx.HIJRI_NEW_YEAR.get(year)
    end = lx.HIJRI_NEW_YEAR.get(year + 1)
    if start and end:
        # "السنة الهجرية الحالية" stays as said: the answer states no year the question did not.
        return DateSpan(start, end, "في العام الهجري الحالي" if m.group("now") else f"عام {year}هـ")
    return None


def _year_ranges(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Ranges of years: "من 2023 إلى 2025"."""
    if _amounts(m, text):
        return None
    return _years_span(GREGORIAN, *sorted((int(m.group("a")), int(m.group("b")))))


_SEVERAL_YEARS = re.compile(
    r"(?<!\w)(?:(?:[وفبل]?ال)?(?:اعوام|سنوات|سنين|سنتي|سنتين|عامي|عامين)\s)?(?:(?:[وفبل]?ال|[لب])?(?:عام|سنه)\s?)?"
    r"(?P<years>20[0-4]\d(?:\s?(?:,|و|او)\s?(?:(?:عام|سنه)\s?)?20[0-4]\d)+)(?!\d)"
)


def _several_years(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Several years, each whole: "في 2023 و2024", "سنتي 2023 و2025": any of them, not all at once."""
    if _amounts(m, text):
        return None
    years = tuple(sorted({int(y) for y in re.findall(r"20[0-4]\d", m.group("years"))}))
    if len(years) < 2:
        return None
    label = "في الأعوام " + " و".join(str(y) for y in years)
    return DateSpan(year_span(years[0])[0], year_span(years[-1])[1], label, years=years)


_DAY = rf"(?P<d{{n}}>[12]\d|3[01]|0?[1-9])\s(?P<m{{n}}>{_MONTH_NAMES})"
_DAYS = re.compile(
    rf"(?<!\w)(?:(?:في )?(?:ال)?فتره )?(?:(?:ما )?(?:بين|من) )(?:يوم )?{_DAY.format(n=1)}(?:\s(?P<y1>20[0-4]\d))?"
    rf"\s?(?:و|الي|حتي|لين|لغايه|-)\s?(?:يوم )?{_DAY.format(n=2)}\s(?P<y2>20[0-4]\d)(?!\d)"
    rf"|(?<!\w)(?:(?:يوم|بتاريخ|تاريخ) )?{_DAY.format(n=3)}\s(?P<y3>20[0-4]\d)(?!\d)"
    rf"|(?<![\w/])(?:(?:يوم|بتاريخ|تاريخ) )?(?P<y4>20[0-4]\d)[/-](?P<mn4>1[0-2]|0?[1-9])[/-](?P<d4>[12]\d|3[01]|0?[1-9])(?![\d/])"
    rf"|(?<![\w/])(?:(?:يوم|بتاريخ|تاريخ) )?(?P<d5>[12]\d|3[01]|0?[1-9])[/-](?P<mn5>1[0-2]|0?[1-9])[/-](?P<y5>20[0-4]\d)(?![\d/])"
)


def _days(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Single days and ranges of days: "يوم 15 مارس 2025", "بتاريخ 2026/10/31",
    "من 1 يونيو إلى 15 يوليو 2024"."""
    if m.group("d1"):
        last = (int(m.group("y2")), lx.MONTHS[m.group("m2")], int(m.group("d2")))
        first = (int(m.group("y1") or last[0]), lx.MONTHS[m.group("m1")], int(m.group("d1")))
        return _day_span(GREGORIAN, *first) if first == last else _between(GREGORIAN, first, last)
    if m.group("d3"):
        return _day_span(GREGORIAN, int(m.group("y3")), lx.MONTHS[m.group("m3")], int(m.group("d3")))
    if m.group("d4"):
        return _day_span(GREGORIAN, int(m.group("y4")), int(m.group("mn4")), int(m.group("d4")))
    return _day_span(GREGORIAN, int(m.group("y5")), int(m.group("mn5")), int(m.group("d5")))


def _month_ranges(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Ranges of months: "بين فبراير ومايو 2024", "من أكتوبر 2025 إلى يناير 2026"."""
    first, last = lx.MONTHS[m.group("m1")], lx.MONTHS[m.group("m2")]
    if re.search(r"شهري", m.group(0)) and not re.search(r"(?<!\w)(?:بين|من)\s", m.group(0)) and last != first % 12 + 1:
        return None  # "شهري يناير ومارس": the two months, not the span from one to the other
    last_year = int(m.group("y2"))
    first_year = int(m.group("y1")) if m.group("y1") else last_year - (first > last)
    return _between(GREGORIAN, (first_year, first, None), (last_year, last, None))


def _since_month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """From a month until now, or since the start of this year: "من مارس 2026 لين اليوم"."""
    if m.group("this"):
        return DateSpan(year_span(as_of.year)[0], None, "منذ بداية العام الحالي")
    month, year = lx.MONTHS[m.group("m")], int(m.group("y"))
    return DateSpan(month_span(year, month)[0], None, f"منذ {MONTH_LABELS[month]} {year}")


def _halves(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Halves of a year: "النصف الأول من 2025", "النصف الثاني لعام 2023", "النصف الأول من السنة الحالية"."""
    year = as_of.year if m.group("this") else int(m.group("y"))
    first = 1 if m.group("h") == "اول" else 7
    # "من السنة الحالية" stays as the question said it: the answer states no year it did not.
    of_year = "من العام الحالي" if m.group("this") else f"من عام {year}"
    return _months_span(GREGORIAN, year, first, first + 5, f"{_HALVES[m.group('h')]} {of_year}")


def _relative_quarters(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """This quarter, the last one and the next, counted from ``as_of``: "الربع الماضي", "هذا الربع"."""
    shift = -1 if m.group("w") in ("ماضي", "سابق", "فايت") else 1 if m.group("w") in ("قادم", "جاي", "مقبل") else 0
    first = add_months(as_of.replace(day=1), -((as_of.month - 1) % 3) + 3 * shift)
    label = {-1: "الربع الماضي", 0: "الربع الحالي", 1: "الربع القادم"}[shift]
    return DateSpan(first.isoformat(), add_months(first, 3).isoformat(), label)


def _quarters(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Quarters: "الربع الأول من 2024", "Q3"; without a year, those months of any year."""
    q_text = m.group("q") or m.group("q2")
    quarter = int(q_text) if q_text.isdigit() else lx.ORDINALS.get(q_text, lx.ORDINALS.get("ال" + q_text, 1))
    year_text = m.group("y") or m.group("y2")
    months = tuple(range(3 * quarter - 2, 3 * quarter + 1))
    if year_text:
        label = f"{_QUARTER_LABELS[quarter]} من عام {year_text}"
        return _months_span(GREGORIAN, int(year_text), months[0], months[-1], label)
    return DateSpan(None, None, _QUARTER_LABELS[quarter], months)


def _months(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Months by name or number: "مارس 2024", "شهر 3", "2024/03"; without a year, that month of any year."""
    if m.group("m"):
        month = lx.MONTHS[m.group("m")]
        year_text = m.group("y")
    else:
        month = int(m.group("mn") or m.group("mn2") or m.group("mn3"))
        year_text = m.group("y2") or m.group("y3") or m.group("y4")
    # "اب" (August) and "ماي" are also ordinary words: only with "شهر" or a year.
    if m.group("m") in ("اب", "ماي") and not year_text and "شهر" not in m.group(0):
        return None
    if year_text:
        return _month_span(GREGORIAN, int(year_text), month)
    return DateSpan(None, None, f"شهر {MONTH_LABELS[month]}", (month,))


# This, last, the one before last and next year, month and week in words.
_RELATIVE_LABELS = {int(shift): tuple(labels) for shift, labels in _WORDING["RELATIVE_LABELS"].items()}


def _relative(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """This, last, next or the one before last year or month: "العام الماضي", "هذا الشهر"."""
    unit = m.group("u1") or m.group("u2") or "عام"
    shift = 0 if m.group("this1") or m.group("this2") else -2 if m.group("before") else -1 if m.group("last") else 1
    year_label, month_label, week_label = _RELATIVE_LABELS[shift]
    if unit == "اسبوع":
        return _calendar_period("week", shift, as_of, week_label)
    if unit == "شهر":
        return _calendar_period("month", shift, as_of, month_label)
    return DateSpan(*year_span(as_of.year + shift), year_label)


def _calendar_period(unit: str, shift: int, as_of: date, label: str) -> DateSpan:
    """The calendar week or month ``shift`` from ``as_of``'s, never a rolling window: a week runs
    Sunday to Saturday, as the Saudi week does."""
    if unit == "week":
        first = week_start(as_of) + timedelta(days=7 * shift)
        return _span(first, first + timedelta(days=7), f"{label} (من الأحد إلى السبت)")
    first = add_months(as_of.replace(day=1), shift)
    return DateSpan(*month_span(first.year, first.month), label)


def _rolling(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Rolling periods up to ``as_of``: "آخر 3 أشهر", "خلال السنتين الماضيتين"."""
    unit, said = UNIT_WORDS[m.group("u")]
    count_text = m.group("n")
    if m.group("last") == "ال" and not re.search(r"(ماضي|اخير|فايت|سابق)", m.group(0)):
        return None
    if not count_text and re.search(r"اخر ال", m.group(0)) and not re.search(r"(ماضي|اخير|فايت|سابق)", m.group(0)):
        return None  # "آخر السنة" is the end of the year, not the last twelve months
    count = 1
    if count_text:
        count = int(count_text) if count_text.isdigit() else lx.SMALL_NUMBERS.get(count_text, 1)
    elif said == 2:
        count = 2
    else:
        trailing = SMALL_NUMBER.search(m.group(0)[m.end("u") - m.start() :])
        if trailing:
            count = lx.SMALL_NUMBERS[trailing.group("w")]
    end_day = as_of + timedelta(days=1)
    calendar = not count_text and not m.group("u").endswith("ين") and unit in ("week", "month")
    if calendar:
        # "الأسبوع الماضي", "آخر شهر في البيانات": a whole calendar period, never a rolling window.
        # "الماضي" is the one before the as-of date's; "آخر" alone, the as-of date's own.
        past = bool(re.search(r"(ماضي|فايت|سابق)", m.group(0)))
        if unit == "week":
            return _calendar_period(unit, -past, as_of, "الأسبوع الماضي" if past else "آخر أسبوع")
        label = "الشهر الماضي" if past else f"آخر شهر (شهر {MONTH_LABELS[as_of.month]} كاملاً)"
        return _calendar_period(unit, -past, as_of, label)
    if unit in ("day", "week"):
        # "آخر 30 يوم": exactly that many days, the as-of date the last of them.
        start_day = as_of - timedelta(days=count * (7 if unit == "week" else 1) - 1)
    else:
        start_day = shift(as_of, unit, -count)
    unit_label = {"day": "يوم", "week": "أسبوع", "month": "شهر", "year": "سنة"}[unit]
    label = f"خلال آخر {count_text} {m.group('u')}" if count_text and count_text.isdigit() else f"خلال آخر {m.group('u')}"
    if not count_text and not m.group("u").endswith("ين"):
        label = f"خلال آخر {unit_label}"
    if unit in ("day", "week"):
        label += " حتى آخر تاريخ"
    return DateSpan(start_day.isoformat(), end_day.isoformat(), label)


def _year_bounds(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Open bounds: "بعد 2023", "قبل 2024", "منذ 2022" ("من 2024" alone is that year)."""
    if _amounts(m, text) or comparator_before(text[: m.start("w") + len(m.group("w")) + 1]):
        return None  # "أكثر من 2024 ريال" is an amount, not a year
    year, word = int(m.group("y")), m.group("w")
    if word == "من":
        return DateSpan(*year_span(year), f"عام {year}")  # "من 2024" alone is that year
    return _bounded(word, *GREGORIAN.year_range(year), f"عام {year}")


def _plain_years(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """Plain years: a number 2000-2049 that no comparator or unit claims as an amount."""
    spans: list[DateSpan] = []
    for mention in find_numbers(text):
        start, end = mention.start, mention.end
        if mention.scaled or mention.percent or mention.decimals or "," in mention.text:
            continue
        if not 2000 <= mention.value <= 2049:
            continue
        before = text[max(0, start - 25) : start]
        after = text[end : end + 12]
        if comparator_before(before) and not re.search(r"(عام|سنه)\s*$", before):
            continue
        if _VALUE_BEFORE.search(text, 0, start):
            continue  # "قيمتها من 2000 إلى 2040": figures
        if re.match(r"\s*(?:ريال|ر\.?س|عرض|عروض|مناقص|منافس|مشروع|مشاريع|جهه|شهر|يوم)", after):
            continue
        if re.match(r"\s*(?:و|الي|حتي|لين|-)\s*\d[\d.,]*" + _AMOUNT_AFTER.pattern, text[end : end + 40]):
            continue  # the first bound of a range of amounts: "بين 2000 و 2500 ريال"
        year = int(mention.value)
        spans.append(DateSpan(*year_span(year), f"عام {year}"))
        # Blank the year word that came with it too.
        word = re.search(rf"{_YEAR_WORD}\s*$", before)
        era = re.match(r"\s?(?:م|ميلادي(?:ه)?)(?!\w)", text[end:])  # "سنة 2024 ميلادي"
        text = blank(text, start - (len(word.group(0)) if word else 0), end + (era.end() if era else 0))
    return text, spans


# --- hijri dates ----------------------------------------------------------------------------------
# Hijri dates read into DateSpans of Gregorian days by the Umm al-Qura calendar; read before the Hijri
# years of the Gregorian readers, which would take the year alone. What the calendar cannot place is
# reported by ``unread_hijri`` and refused by name, never answered for other dates.

# Month names as normalize_arabic leaves them, each with its common spellings.
_MONTH_FORMS = lx.HIJRI_MONTHS
_HIJRI_MONTH = "|".join(f"(?P<h{n}{{k}}>{form})" for n, form in _MONTH_FORMS.items())
# Any Hijri month name, for the other readers ("أول أسبوعين من رمضان 1446").
HIJRI_MONTH = "|".join(f"(?:{form})" for form in _MONTH_FORMS.values())


def hijri_month_number(name: str) -> int | None:
    """The number (1-12) of a Hijri month name as ``HIJRI_MONTH`` matched it."""
    return next((n for n, form in _MONTH_FORMS.items() if re.fullmatch(form, name)), None)
# "شهر", with the clitics a question glues to it, or a clitic on the name itself ("برمضان").
_MONTH_WORD = r"(?:(?:[وفب]?ال|[بل])?شهر\s)?(?:[وفبل](?=\S))?"
# The year after a month: "1446", "1446هـ", "من عام 1446 هجري", "لعام 1445".
_YEAR = (
    r"(?:\s(?:من\s|في\s)?(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?(?:(?:ال)?هجري(?:ه)?\s)?)?)?\s?"
    r"(?P<y{k}>14\d\d)(?:\s?(?:ه|هجري(?:ه)?|للهجره))?"
)
_HIJRI_DAY = r"(?P<d{k}>[12]\d|30|0?[1-9])\s(?:من\s)?"
# "رمضان الماضي", "رمضان هذا العام", "شوال القادم": a month counted from the as-of date.
_HIJRI_RELATIVE = (
    r"\s(?:(?P<last{k}>(?:ال)?(?:ماضي|سابق|فايت|منصرم)|اللي فات)"
    r"|(?P<next{k}>(?:ال)?(?:قادم|مقبل|جاي)|اللي جاي)"
    r"|(?P<this{k}>(?:ال)?(?:حالي|جاري)|(?:من )?(?:هذا (?:ال)?عام|هذه (?:ال)?سنه|هذي (?:ال)?سنه|ه(?:ال)?سنه|العام (?:ال)?حالي|السنه (?:ال)?حاليه)))"
)


def _one(k: str, day: str = "", year_required: bool = True) -> str:
    """One Hijri month phrase (with a day before it when ``day`` is "required" or "optional"),
    its named groups suffixed by ``k``."""
    day_part = {"required": _HIJRI_DAY.format(k=k), "optional": f"(?:{_HIJRI_DAY.format(k=k)})?", "": ""}[day]
    year = f"(?:{_YEAR.format(k=k)})"
    return day_part + _MONTH_WORD + f"(?:{_HIJRI_MONTH.format(k=k)})" + (year if year_required else year + "?")


_END = r"(?!\w)"
_RANGE = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?:فتره\s)?(?:ما\s)?(?:بين|من)\s(?:بدايه\s)?"
    rf"{_one('a', day='optional', year_required=False)}"
    rf"\s?(?:و|الي|حتي|لين|لغايه|لحد|-)\s?(?:نهايه\s)?"
    rf"{_one('b', day='optional')}{_END}"
)
_DAY_ONE = re.compile(rf"(?<!\w)(?:(?:يوم|بتاريخ|تاريخ)\s)?{_one('c', day='required')}{_END}")
_MONTH_ONE = re.compile(rf"(?<!\w){_one('e')}{_END}")
_MONTH_RELATIVE = re.compile(rf"(?<!\w){_MONTH_WORD}(?:{_HIJRI_MONTH.format(k='r')}){_HIJRI_RELATIVE.format(k='r')}{_END}")


# A Hijri year: "1446هـ", "عام 1446", "العام الهجري 1446"; ``hm`` marks it Hijri in so many words.
_HY = (
    r"(?P<hw{k}>(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?(?:(?:ال)?هجري(?:ه)?\s)?))?(?P<hy{k}>14\d\d)"
    r"(?P<hm{k}>\s?(?:ه|هجري(?:ه)?|للهجره))?(?![\d.,]|\s?(?:ريال|الف|مليون))"
)
# "شهر 9 من 1446 هجري": a Hijri month by its number.
_MONTH_NUMBER = re.compile(
    rf"(?<!\w)(?:[وفب]?ال|[بل])?شهر\s(?P<n>1[0-2]|0?[1-9])\s(?:من\s)?{_HY.format(k='n')}(?!\w)"
)
# "رمضان وشوال 1446", "شهري رجب وشعبان 1447": two months in a row.
_PAIR = re.compile(
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهري?\s)?(?:[وفبل](?=\S))?(?:{_HIJRI_MONTH.format(k='p')})\s?و\s?(?:شهر\s)?{_one('q')}{_END}"
)
# "قبل رمضان 1446", "بعد نهاية شوال 1446", "منذ بداية 1447هـ", "حتى محرم 1448".
_BOUND_WORDS = r"(?P<w>قبل|بعد نهايه|بعد|منذ بدايه|من بدايه|منذ|ابتداء من|اعتبارا من|حتي نهايه|حتي|لغايه)"
_BOUND_MONTH = re.compile(rf"(?<!\w){_BOUND_WORDS}\s{_one('m')}{_END}")
_BOUND_YEAR = re.compile(rf"(?<!\w){_BOUND_WORDS}\s{_HY.format(k='y')}(?!\w)")
# "بين 1445 و 1446 هجري", "من عام 1444 إلى 1446هـ", "الأعوام الهجرية 1445 و1446".
_HIJRI_YEAR_RANGE = re.compile(
    rf"(?<!\w)(?:(?:[وفبل]?ال)?(?:اعوام|سنوات|سنين)\s(?:(?:ال)?هجريه\s)?)?(?:(?:من|بين)\s)?{_HY.format(k='a')}"
    rf"\s?(?P<sep>و|الي|حتي|لين|-)\s?{_HY.format(k='b')}(?!\w)"
)
# "العام الهجري الماضي", "السنة الهجرية القادمة".
_RELATIVE_YEAR = re.compile(
    r"(?<!\w)(?:[وفبل]?ال)?(?:عام|سنه) (?:ال)?هجري(?:ه)? (?:(?P<last>(?:ال)?(?:ماضي|سابق|فايت|منصرم)(?:ه)?)|(?P<next>(?:ال)?(?:قادم|مقبل|جاي)(?:ه)?))(?!\w)"
)
# "النصف الأول من 1446هـ".
_HIJRI_HALF = re.compile(rf"(?<!\w)(?:ال)?نصف (?:ال)?(?P<h>اول|ثاني)\s(?:من|لل|ل)\s?{_HY.format(k='h')}(?!\w)")


# Hijri dates in figures: "1446/09/15", "15/9/1446هـ", "1446-09" (a month).
_NUMERIC = re.compile(
    r"(?<![\w/-])(?:(?:يوم|بتاريخ|تاريخ)\s)?(?:"
    r"(?P<y1>14\d\d)[/-](?P<m1>1[0-2]|0?[1-9])(?:[/-](?P<d1>[12]\d|30|0?[1-9]))?"
    r"|(?:(?P<d2>[12]\d|30|0?[1-9])[/-])?(?P<m2>1[0-2]|0?[1-9])[/-](?P<y2>14\d\d))"
    r"(?:\s?(?:ه|هجري(?:ه)?))?(?![\d/-])"
)


def _numeric(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    year, month = int(m.group("y1") or m.group("y2")), int(m.group("m1") or m.group("m2"))
    day_text = m.group("d1") or m.group("d2")
    return _day_span(HIJRI, year, month, int(day_text)) if day_text else _month_span(HIJRI, year, month)


def _marked(m: re.Match[str], k: str) -> bool:
    """Whether a year of ``_HY`` is Hijri in so many words ("هـ", "هجري", "عام")."""
    return bool(m.group(f"hm{k}") or m.group(f"hw{k}"))


def _month_of(m: re.Match[str], k: str) -> int | None:
    return next((n for n in _MONTH_FORMS if m.group(f"h{n}{k}")), None)


def _month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    if re.search(r"\d\s(?:من\s)?$", m.string[: m.start()]):
        return None  # a day the day reader did not take ("30 رمضان" of a 29-day month): no month
    return _month_span(HIJRI, int(m.group("ye")), _month_of(m, "e"))


def _day(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    return _day_span(HIJRI, int(m.group("yc")), _month_of(m, "c"), int(m.group("dc")))


def _range(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    first_month, last_month = _month_of(m, "a"), _month_of(m, "b")
    if first_month is None or last_month is None:
        return None
    last_year = int(m.group("yb"))
    first_year = int(m.group("ya")) if m.group("ya") else last_year - (first_month > last_month)
    first_day, last_day = (int(day) if day else None for day in (m.group("da"), m.group("db")))
    first, last = (first_year, first_month, first_day), (last_year, last_month, last_day)
    return _between(HIJRI, first, last, stated=bool(m.group("ya")))


def _hijri_relative(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """A month named with no year, counted from ``as_of``: the last one that began before this
    month, the next one after it, or the one of this Hijri year."""
    month = _month_of(m, "r")
    today = hc.hijri_date(as_of)
    if month is None or today is None:
        return None
    year, current, _ = today
    if m.group("lastr") or m.group("nextr"):
        year = _named_month_year(month, year, current, last=bool(m.group("lastr")))
    word = "الماضي" if m.group("lastr") else "القادم" if m.group("nextr") else "من العام الهجري الحالي"
    span = HIJRI.month_range(year, month)
    return _span(*span, f"شهر {hc.MONTH_NAMES[month]} {word}") if span else None


def _named_month_year(month: int, year: int, current: int, last: bool) -> int:
    """The year of the last ``month`` begun before the ``current`` month of ``year`` (``last``),
    or of the next one after it: "سبتمبر الماضي", "رمضان القادم"."""
    return year - (month >= current) if last else year + (month <= current)


# What is left of Hijri dates once every reader has run: a month named after "في"/"شهر" or with
# a year, or a year marked Hijri. The calendar could not place them (a year outside the table, a
# month with no year): the agent says so rather than answer for other dates.
_UNREAD = re.compile(
    rf"(?<!\w)(?:(?:(?:في|خلال|من|الي|حتي|منذ|قبل|بعد)\s)(?:(?:[وفب]?ال|[بل])?شهر\s)?|(?:[وفب]?ال|[بل])?شهر\s|[بل])"
    rf"(?:{_HIJRI_MONTH.format(k='u')})(?:\s(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?\d{{4}}(?:\s?ه)?)?(?!\w)"
    rf"|(?<!\w)(?:{_HIJRI_MONTH.format(k='v')})\s(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?\d{{4}}(?:\s?ه)?(?!\w)"
    r"|(?<!\w)(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?(?:ال)?(?:هجري(?:ه)?\s)?)?1[3-5]\d\d\s?(?:ه|هجري(?:ه)?|للهجره)(?!\w)"
)


def unread_hijri(text: str) -> tuple[str, ...]:
    """The Hijri dates left in ``text`` after the date passes: phrases the calendar cannot place."""
    return tuple(
        m.group(0).strip()
        for m in _UNREAD.finditer(text)
        # "صفر" alone is zero ("بصفر ريال"): the month only after "شهر" or before a year.
        if not (re.search(r"صفر", m.group(0)) and not re.search(r"شهر|\d", m.group(0)))
    )


def _month_number(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    return _month_span(HIJRI, int(m.group("hyn")), int(m.group("n")))


def _pair(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    first, second, year = _month_of(m, "p"), _month_of(m, "q"), int(m.group("yq"))
    if first is None or second is None or second != first + 1:
        return None  # two months apart: no one span
    label = f"شهري {hc.MONTH_NAMES[first]} و{hc.MONTH_NAMES[second]} {year}هـ"
    return _months_span(HIJRI, year, first, second, label)


def _bound_month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    month, year = _month_of(m, "m"), int(m.group("ym"))
    span = hc.month_range(year, month) if month else None
    if span is None or month is None:
        return None
    return _bounded(m.group("w"), *span, f"شهر {_label(HIJRI, year, month)}")


def _bound_year(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    year = int(m.group("hyy"))
    span = hc.year_range(year)
    if span is None or not _marked(m, "y"):
        return None
    return _bounded(m.group("w"), *span, f"عام {year}هـ")


def _year_range(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    first_year, last_year = int(m.group("hya")), int(m.group("hyb"))
    if not (_marked(m, "a") or _marked(m, "b") or "هجري" in m.group(0)):
        return None
    if m.group("sep") == "و" and last_year != first_year + 1 and not re.match(r"(?:من|بين)", m.group(0).split()[0]):
        return None  # "1444 و1446": two years apart, no one span
    return _years_span(HIJRI, *sorted((first_year, last_year)))


def _relative_year(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    today = hc.hijri_date(as_of)
    if today is None:
        return None
    year = today[0] + (1 if m.group("next") else -1)
    span = hc.year_range(year)
    word = "القادم" if m.group("next") else "الماضي"
    return _span(*span, f"في العام الهجري {word}") if span else None


def _half(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    year = int(m.group("hyh"))
    first_month = 1 if m.group("h") == "اول" else 7
    if not _marked(m, "h"):
        return None
    return _months_span(HIJRI, year, first_month, first_month + 5, f"{_HALVES[m.group('h')]} من عام {year}هـ")


# --- day bounds -----------------------------------------------------------------------------------
# Days and months as bounds and ranges of a period: "قبل 15 مارس 2025", "بعد 2026/09/01", "منذ بداية
# يونيو 2026", "بعد نهاية يونيو 2026", "حتى 31 مارس 2024", "من 2025/03/01 إلى 2025/04/15", "بين
# 2024-01-15 و 2024-02-15", "من 1 إلى 15 مارس 2025". Read before the other date readers, which would
# take the month or the year alone and leave the bound word unread.

_MONTHS = alternation(lx.MONTHS)
_YEAR_WORDS = r"(?:(?:من\s)?(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?)"


def _point(k: str) -> str:
    """One day or month, its named groups suffixed by ``k``: an ISO or d/m/y date, a day and a
    month name (the year may come with the other bound), or a month with its year, maybe its start
    or end ("نهاية يونيو 2026")."""
    return (
        rf"(?:(?P<iy{k}>20[0-4]\d)[/-](?P<im{k}>1[0-2]|0?[1-9])[/-](?P<id{k}>[12]\d|3[01]|0?[1-9])"
        rf"|(?P<dd{k}>[12]\d|3[01]|0?[1-9])[/-](?P<dm{k}>1[0-2]|0?[1-9])[/-](?P<dy{k}>20[0-4]\d)"
        rf"|(?P<nd{k}>[12]\d|3[01]|0?[1-9])\s(?:من\s)?(?:شهر\s)?(?P<nm{k}>{_MONTHS})(?:\s{_YEAR_WORDS}(?P<ny{k}>20[0-4]\d))?"
        rf"|(?:(?P<edge{k}>بدايه|مطلع|اول|نهايه|اخر|ختام)\s)?(?:(?:[بل]?ال)?شهر\s)?(?P<mm{k}>{_MONTHS})\s{_YEAR_WORDS}(?P<my{k}>20[0-4]\d)"
        rf"|(?P<ye{k}>بدايه|مطلع|نهايه|ختام)\s(?:(?:ال)?(?:عام|سنه)\s?)?(?P<yy{k}>20[0-4]\d))"
    )


_AFTER = r"(?![\w/-])"
_BOUND = re.compile(
    rf"(?<!\w)و?(?P<w>قبل|بعد|من بعد|منذ|حتي|لغايه|لحد|ابتداء من|اعتبارا من|بدءا من)\s(?:(?:تاريخ|يوم)\s)?{_point('a')}{_AFTER}"
)
_BOUNDS_RANGE = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?:فتره\s)?(?:ما\s)?(?:بين|من)\s(?:(?:تاريخ|يوم)\s)?{_point('a')}"
    rf"\s?(?:و|الي|حتي|لين|لغايه|لحد|-)\s?(?:(?:تاريخ|يوم)\s)?{_point('b')}{_AFTER}"
)
# "من 1 إلى 15 مارس 2025", "بين 10 و 20 يونيو 2024": days of one month.
_DAYS_OF_MONTH = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?:فتره\s)?(?:ما\s)?(?:بين|من)\s(?:يوم\s)?(?P<d1>[12]\d|3[01]|0?[1-9])"
    rf"\s?(?:و|الي|حتي|لين|لغايه|-)\s?(?:يوم\s)?(?P<d2>[12]\d|3[01]|0?[1-9])\s(?:من\s)?(?:شهر\s)?(?P<m>{_MONTHS})\s{_YEAR_WORDS}(?P<y>20[0-4]\d){_AFTER}"
)


# "2024 وما بعدها", "من 2024 فما بعد", "2023 فما قبل": a year and every year after (or before) it.
_YEAR_ONWARD = re.compile(
    r"(?<!\w)(?:(?:من|في|منذ)\s)?(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?(?P<y>20[0-4]\d)\s"
    r"(?:(?P<on>وما بعد(?:ها|ه)?|فما بعد(?:ها|ه)?|وبعدها|فصاعدا|وما يليها)|(?P<back>وما قبل(?:ها|ه)?|فما قبل(?:ها|ه)?|وقبلها))(?!\w)"
)


def _bounds_days(m: re.Match[str], k: str, year: int | None) -> tuple[date, date, str] | None:
    """The first day and the day after the last of point ``k``, and its wording; None when it
    names no day (no year, or no such day)."""
    if m.group(f"iy{k}") or m.group(f"dd{k}"):
        iso = bool(m.group(f"iy{k}"))
        day = (m.group(f"{g}{k}") for g in (("iy", "im", "id") if iso else ("dy", "dm", "dd")))
        span = _days_of(GREGORIAN, *map(int, day))
        return (*span, span[0].isoformat()) if span else None
    if m.group(f"nd{k}"):
        named_year = int(m.group(f"ny{k}")) if m.group(f"ny{k}") else year
        point = (named_year or 0, lx.MONTHS[m.group(f"nm{k}")], int(m.group(f"nd{k}")))
        span = _days_of(GREGORIAN, *point) if named_year else None
        # Worded as the question wrote it: "1 سبتمبر 2026" (its ISO form states a "09" it did not).
        return (*span, _label(GREGORIAN, *point)) if span else None
    if m.group(f"yy{k}"):
        first, after = GREGORIAN.year_range(int(m.group(f"yy{k}")))
        name, edge = f"عام {m.group(f'yy{k}')}", m.group(f"ye{k}")
    else:
        month, month_year = lx.MONTHS[m.group(f"mm{k}")], int(m.group(f"my{k}"))
        first, after = GREGORIAN.month_range(month_year, month)
        name, edge = f"{MONTH_LABELS[month]} {month_year}", m.group(f"edge{k}")
    if edge in ("بدايه", "مطلع", "اول"):
        return first, first + timedelta(days=1), f"بداية {name}"
    if edge in ("نهايه", "اخر", "ختام"):
        return after - timedelta(days=1), after, f"نهاية {name}"
    return first, after, name


def _year_of(m: re.Match[str], k: str) -> int | None:
    text = m.group(f"iy{k}") or m.group(f"dy{k}") or m.group(f"ny{k}") or m.group(f"my{k}") or m.group(f"yy{k}")
    return int(text) if text else None


def _days_of_month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    year, month = int(m.group("y")), lx.MONTHS[m.group("m")]
    try:
        first, last = date(year, month, int(m.group("d1"))), date(year, month, int(m.group("d2")))
    except ValueError:
        return None
    if last < first:
        return None
    label = f"من {first.day} إلى {last.day} {MONTH_LABELS[month]} {year}"
    return DateSpan(first.isoformat(), (last + timedelta(days=1)).isoformat(), label)


def _bounds_range(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    if not any(m.group(g) for g in ("iya", "dda", "iyb", "ddb")):
        return None  # named days and months: the day and month range readers' (same reading)
    first = _bounds_days(m, "a", _year_of(m, "b"))
    last = _bounds_days(m, "b", _year_of(m, "a"))
    if first is None or last is None or last[1] <= first[0]:
        return None
    return DateSpan(first[0].isoformat(), last[1].isoformat(), f"من {first[2]} إلى {last[2]}")


def _year_onward(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    word = "منذ" if m.group("on") else "حتي"
    return _bounded(word, *GREGORIAN.year_range(int(m.group("y"))), f"عام {m.group('y')}")


def _bound(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    point = _bounds_days(m, "a", None)
    if point is None:
        return None
    word = m.group("w")
    edge = m.group("edgea") or m.group("yea") or ""
    if word == "قبل" and edge in ("نهايه", "اخر", "ختام"):
        word = "حتي"  # "قبل نهاية 2026": by its end, its last day included
    elif word in ("بعد", "من بعد") and edge in ("بدايه", "مطلع", "اول"):
        word = "منذ"  # "بعد بداية 2024": from its start on
    return _bounded(word, *point, until="حتى")


def intersect_bounds(spans: list[DateSpan]) -> list[DateSpan]:
    """Open bounds said together ("بعد 2022 وقبل 2025", "منذ مارس 2024 وحتى نهاية 2025") as the one
    span they bound; any other set of spans is returned as it is (two closed periods, ANDed, would
    hold no day: the parser refuses them)."""
    if len(spans) < 2 or any(s.month_of_year or s.years for s in spans):
        return spans
    if sum(1 for s in spans if s.start and s.end) > 1:
        return spans
    starts = [s.start for s in spans if s.start]
    ends = [s.end for s in spans if s.end]
    start, end = (max(starts) if starts else None), (min(ends) if ends else None)
    if start and end and start >= end:
        return spans
    return [DateSpan(start, end, " و".join(s.label for s in spans))]


# --- period parts ---------------------------------------------------------------------------------
# Parts of a period: its first or last N days, weeks or months, its Nth week, halves, first or last ten
# days or day ("أول ثلاثة أشهر من 2022", "العشر الأواخر من رمضان 1446"); read before the other date
# phrases, which would take the month or the year alone.

_SMALL = alternation(lx.SMALL_NUMBERS)
_UNIT = alternation(word for word, (unit, _) in UNIT_WORDS.items() if unit != "year" and word != "شهرا")
_ORDINAL_WEEKS = {"اول": 1, "ثاني": 2, "ثالث": 3, "رابع": 4, "خامس": 5, "اخير": -1, "اخر": -1}
_FIRST = r"(?:اول|اولي)"
_PART_LAST = r"(?:اخر|اخير|اخيره|اواخر)"

# The period: a named month with its year, a year, or one counted from the as-of date.
_PERIOD = (
    rf"\s(?:من|في)\s(?:"
    rf"(?:(?:[بل]?ال)?شهر\s)?(?P<m>{alternation(lx.MONTHS)})\s(?:(?:من\s)?(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?(?P<my>20[0-4]\d)"
    rf"|(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?(?P<y>20[0-4]\d)"
    rf"|(?:(?:[بل]?ال)?شهر\s)?(?P<hm>{HIJRI_MONTH})\s(?:(?:من\s)?(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?(?P<hy>14\d\d)(?:\s?ه(?:جري)?)?"
    rf"|(?P<this_month>هذا (?:ال)?شهر|الشهر (?:ال)?(?:حالي|جاري))|(?P<last_month>الشهر (?:ال)?(?:ماضي|سابق|فايت|اللي فات))"
    rf"|(?P<this_year>هذا (?:ال)?عام|هذه (?:ال)?سنه|العام (?:ال)?(?:حالي|جاري)|السنه (?:ال)?(?:حاليه|جاريه))"
    rf"|(?P<last_year>العام (?:ال)?(?:ماضي|سابق|فايت|اللي فات)|السنه (?:ال)?(?:ماضيه|سابقه|فايته|اللي فاتت))"
    rf")(?:\s?م)?(?!\w)"
)
_COUNT = rf"(?P<n>\d{{1,3}}|{_SMALL})"
_PARTS = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?:"
    # "أول ثلاثة أشهر من 2022", "آخر أسبوعين من مارس 2025", "أول شهر من 2024"
    rf"(?P<edge>{_FIRST}|{_PART_LAST})\s(?:{_COUNT}\s)?(?:ال)?(?P<u>{_UNIT})"
    # "الأشهر الثلاثة الأولى من 2022", "الأيام العشرة الأخيرة من مارس 2025"
    rf"|(?P<u2>{_UNIT})\s(?:ال)?(?P<n2>\d{{1,3}}|{_SMALL})\s(?:ال)?(?P<edge2>{_FIRST}|{_PART_LAST})"
    # "الأسبوع الأول من سبتمبر 2026", "ثاني أسبوع من الشهر الماضي", "آخر أسبوع من 2025"
    rf"|اسبوع\s(?:ال)?(?P<k>{alternation(_ORDINAL_WEEKS)})|(?P<k2>{alternation(_ORDINAL_WEEKS)})\sاسبوع"
    # "النصف الأول من مارس 2025", "العشر الأواخر من رمضان 1446", "اليوم الأخير من 2025"
    rf"|نصف\s(?:ال)?(?P<half>اول|ثاني)|(?P<ten>عشر|عشره)\s(?:ال)?(?P<edge3>اواخر|اوايل|اولي)"
    rf"|يوم\s(?:ال)?(?P<kd>اول|اخير)"
    rf"){_PERIOD}"
)
_EDGE_LABELS = {"first": "أول", "last": "آخر"}
_LAST_WORD = {"أول": "الأولى", "آخر": "الأخيرة"}
# Counts of a masculine noun in words ("ثلاثة أشهر"), as an answer writes them back.
COUNT_WORDS = {3: "ثلاثة", 4: "أربعة", 5: "خمسة", 6: "ستة", 7: "سبعة", 8: "ثمانية", 9: "تسعة", 10: "عشرة"}
_UNIT_LABELS = {"day": ("يوم", "يومين", "أيام"), "week": ("أسبوع", "أسبوعين", "أسابيع"), "month": ("شهر", "شهرين", "أشهر")}

_WEEK_LABELS = {1: "الأسبوع الأول", 2: "الأسبوع الثاني", 3: "الأسبوع الثالث", 4: "الأسبوع الرابع", 5: "الأسبوع الخامس", -1: "الأسبوع الأخير"}


def unit_wording(word: str) -> str:
    """A unit word of a day, week or month as an answer writes it ("ايام": "أيام")."""
    unit, said = UNIT_WORDS[word]
    return _UNIT_LABELS[unit][(2, 0, 1)[said]]


def _period(m: re.Match[str], as_of: date) -> DateSpan | None:
    """The period a part is taken from."""
    if m.group("m"):
        return _month_span(GREGORIAN, int(m.group("my")), lx.MONTHS[m.group("m")])
    if m.group("hm"):
        return _month_span(HIJRI, int(m.group("hy")), hijri_month_number(m.group("hm")))
    if m.group("y"):
        return DateSpan(*year_span(int(m.group("y"))), f"عام {m.group('y')}")
    if m.group("this_month") or m.group("last_month"):
        last = bool(m.group("last_month"))
        return _calendar_period("month", -last, as_of, "الشهر الماضي" if last else "هذا الشهر")
    last = bool(m.group("last_year"))
    return DateSpan(*year_span(as_of.year - last), "العام الماضي" if last else "هذا العام")


def _count(text: str | None, unit_word: str) -> int | None:
    said = UNIT_WORDS[unit_word][1]
    if text is None:
        return said or None
    value = int(text) if text.isdigit() else lx.SMALL_NUMBERS.get(text)
    return value if value and value > 0 else None


def _part(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """A part of a period; None when longer than its period ("أول 13 شهراً من 2024")."""
    period = _period(m, as_of)
    if period is None or period.start is None or period.end is None:
        return None
    first, after = date.fromisoformat(period.start), date.fromisoformat(period.end)
    week_word = m.group("k") or m.group("k2")
    if m.group("half"):
        # A year halves at July; a month after its fifteenth day.
        middle = add_months(first, 6) if (after - first).days > 300 else first + timedelta(days=15)
        start, end = (first, middle) if m.group("half") == "اول" else (middle, after)
        label = f"{_HALVES[m.group('half')]} من {period.label}"
    elif m.group("ten"):
        from_start = m.group("edge3") != "اواخر"
        start, end = (first, first + timedelta(days=10)) if from_start else (after - timedelta(days=10), after)
        label = f"{'الأيام العشرة الأولى' if from_start else 'الأيام العشرة الأخيرة'} من {period.label}"
    elif m.group("kd"):
        start = first if m.group("kd") == "اول" else after - timedelta(days=1)
        end = start + timedelta(days=1)
        label = f"{'اليوم الأول' if m.group('kd') == 'اول' else 'اليوم الأخير'} من {period.label}"
    elif week_word:
        k = _ORDINAL_WEEKS[week_word]
        start = after - timedelta(days=7) if k == -1 else first + timedelta(days=7 * (k - 1))
        end = min(start + timedelta(days=7), after)
        label = f"{_WEEK_LABELS[k]} من {period.label}"
    else:
        unit_word = m.group("u") or m.group("u2")
        unit = UNIT_WORDS[unit_word][0]
        count = _count(m.group("n") or m.group("n2"), unit_word)
        if count is None:
            return None
        from_start = re.fullmatch(_FIRST, m.group("edge") or m.group("edge2")) is not None
        if from_start:
            start, end = first, shift(first, unit, count)
        else:
            start, end = shift(after, unit, -count), after
        singular, dual, plural = _UNIT_LABELS[unit]
        edge = _EDGE_LABELS["first" if from_start else "last"]
        count_text = m.group("n") or m.group("n2")
        if count in (1, 2) and not (count_text and count_text.isdigit()):
            label = f"{edge} {singular if count == 1 else dual} من {period.label}"
        elif count_text and count_text.isdigit():
            label = f"{edge} {count} {plural if count <= 10 else singular} من {period.label}"
        elif count in COUNT_WORDS:
            # The count in words with the article ("الأشهر الثلاثة الأولى"): the answer states no
            # figure the question did not ("الستة" is no number to the grounding check).
            label = f"ال{plural} ال{COUNT_WORDS[count]} {_LAST_WORD[edge]} من {period.label}"
        else:
            return None
    if start < first or end > after or start >= end:
        return None
    return DateSpan(start.isoformat(), end.isoformat(), label)


# --- relative periods -----------------------------------------------------------------------------
# Periods relative to the data's as-of date (never the clock) the other readers do not reach. A relative
# year after a part of a year is written over with the year it means, space-padded to the same length,
# so that every other offset stays; the answer words the period as the question did (``reword_anchored``).

_ORDINALS = alternation(lx.ORDINALS)
_REL_LAST = r"(?:ال)?(?:ماضي(?:ه)?|سابق(?:ه)?|فايت(?:ه)?|منصرم(?:ه)?)|اللي فات(?:ت)?"
_REL_THIS = r"(?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?)"
_REL_NEXT = r"(?:ال)?(?:قادم(?:ه)?|مقبل(?:ه)?|جاي(?:ه)?)|اللي جاي"
# A part of a year before its relative year.
_YEAR_PART = (
    rf"(?:{_MONTHS}|شهر \d{{1,2}}|(?:ال)?ربع (?:ال)?(?:{_ORDINALS})|(?:ال)?نصف (?:ال)?(?:اول|ثاني)"
    rf"|(?:ال)?(?:اشهر|شهور|ايام|اسابيع) (?:ال)?\S+ (?:ال)?(?:اولي|اخيره))"
)
_REL_RELATIVE_YEAR = re.compile(
    rf"(?<!\w)(?:{_YEAR_PART})\s(?P<rel>(?:من|في|ل|لل|خلال)\s?(?:"
    rf"(?:ال)?(?:عام|سنه) (?:(?P<last>{_REL_LAST})|(?P<this>{_REL_THIS})|(?P<next>{_REL_NEXT}))"
    rf"|(?P<this2>هذا (?:ال)?عام|هذه (?:ال)?سنه|هذي (?:ال)?سنه|ه(?:ال)?سنه)))(?!\w)"
)
# "سبتمبر الماضي", "شهر مارس الجاي": the last one before the as-of month, or the next one after it.
_REL_MONTH_RELATIVE = re.compile(
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهر\s)?(?:[وفب]?(?:ال)?)?(?P<m>{_MONTHS})\s(?P<rel>(?P<last>{_REL_LAST})|(?P<next>{_REL_NEXT}))(?!\w)"
)
# "منذ بداية الشهر", "من بداية السنة لين الحين", "من أول هذا الشهر".
_SINCE_START = re.compile(
    r"(?<!\w)(?:من|منذ) (?:بدايه|اول|مطلع) (?:(?:هذا |هذه |هذي )?(?:ال)?(?P<u>شهر|سنه|عام)(?: (?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?))?)"
    rf"(?!\w| (?:{_MONTHS}|\d))"  # "من بداية شهر أغسطس 2026" names its own month
    r"(?: (?:حتي|لين|الي|لغايه|لحد) (?:ال)?(?:ان|يوم|حين|لحين|وقت (?:ال)?حالي))?(?!\w)"
)
# "في مثل هذا الشهر من العام الماضي", "نفس الشهر من السنة الماضية".
_SAME_MONTH = re.compile(
    r"(?<!\w)(?:في )?(?:مثل|نفس) (?:هذا (?:ال)?شهر|الشهر(?: (?:ال)?حالي)?|هذا الشهر) (?:من|في) (?:ال)?(?:عام|سنه) (?:ال)?(?:ماضي(?:ه)?|سابق(?:ه)?|فايت(?:ه)?)(?!\w)"
)
# "من 2024 حتى اليوم": a year up to the as-of date (the data ends there).
_YEAR_TO_NOW = re.compile(
    r"(?<!\w)(?P<w>من|منذ) (?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?(?P<y>20[0-4]\d)\s"
    r"(?P<now>(?:حتي|لين|الي|لغايه|لحد|ل) (?:ال)?(?:ان|يوم|حين|لحين|وقت (?:ال)?حالي))(?!\w)"
)
# Today and yesterday: the as-of day and the one before. "اليوم" after "حتى"/"لين" was read with its
# period already.
_REL_DAY = re.compile(r"(?<!\w)(?:(?P<today>[وفب]?اليوم|هذا اليوم|هاليوم)|(?P<yesterday>امس|البارحه|امبارح|يوم امس))(?!\w)")


def anchor_relative_years(text: str, as_of: date) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with each relative year after a part of a year, each month named "الماضي" or
    "القادم", and "حتى اليوم" after a year written over with the year meant (same length); and
    what was written, (words written, the question's wording) for ``reword_anchored``."""
    written: list[tuple[str, str]] = []
    for m in list(_REL_RELATIVE_YEAR.finditer(text)):
        year = as_of.year - 1 if m.group("last") else as_of.year + 1 if m.group("next") else as_of.year
        wording = "العام الماضي" if m.group("last") else "العام القادم" if m.group("next") else "العام الحالي"
        text = _write(text, *m.span("rel"), f"من {year}", written, (f"عام {year}", wording))
    for m in list(_REL_MONTH_RELATIVE.finditer(text)):
        month = lx.MONTHS[m.group("m")]
        if m.group("m") in ("اب", "ماي") and "شهر" not in m.group(0):
            continue  # also ordinary words
        year = _named_month_year(month, as_of.year, as_of.month, last=bool(m.group("last")))
        wording = "الماضي" if m.group("last") else "القادم"
        text = _write(text, *m.span("rel"), str(year), written, (f"{MONTH_LABELS[month]} {year}", f"{MONTH_LABELS[month]} {wording}"))
    for m in list(_YEAR_TO_NOW.finditer(text)):
        if int(m.group("y")) <= as_of.year:
            # "منذ 2023" is open already; "من 2024" alone would be that year only.
            now = "" if m.group("w") == "منذ" else f"الي {as_of.year}"
            text = _write(text, *m.span("now"), now, written, (f"إلى عام {as_of.year}", "حتى آخر البيانات"))
    return text, written


def reword_anchored(spans: list[DateSpan], written: list[tuple[str, str]]) -> list[DateSpan]:
    """``spans`` with the years ``anchor_relative_years`` wrote worded back as the question said
    them ("الربع الأول من العام الماضي"): an answer states no year the question did not."""
    for words, wording in written:
        spans = [replace(s, label=s.label.replace(words, wording)) if words in s.label else s for s in spans]
    return spans


def _write(
    text: str, start: int, end: int, words: str, written: list[tuple[str, str]], label: tuple[str, str]
) -> str:
    """``text`` with ``[start, end)`` written over by ``words``, space-padded to the same length
    (a phrase shorter than the words is left as it is); ``label`` noted in ``written``."""
    if len(words) > end - start:
        return text  # no room ("جاي"): left for the other readers, or refused
    written.append(label)
    return text[:start] + words.ljust(end - start) + text[end:]


# "الأشهر الستة القادمة", "خلال الـ 12 شهر الجاية", "السنتين القادمتين": the days after the as-of
# date (for future projects and deadlines; tenders published then are none).
_FORWARD_UNITS = alternation(word for word in UNIT_WORDS if word != "سنين")
_NEXT_WORD = r"(?:ال)?(?:قادم|جاي|مقبل)(?:ه|ين|تين)?"
_FORWARD = re.compile(
    rf"(?<!\w)(?:(?:خلال|في)\s)?(?:ال)?(?:"
    rf"(?P<n>\d{{1,3}}|{_SMALL})\s(?:ال)?(?P<u>{_FORWARD_UNITS})"
    rf"|(?P<u2>{_FORWARD_UNITS})\s(?:ال)?(?P<n2>\d{{1,3}}|{_SMALL})"
    rf"|(?P<dual>يومين|اسبوعين|شهرين|سنتين|عامين))\s{_NEXT_WORD}(?!\w)"
)


def _forward(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    unit, said = UNIT_WORDS[m.group("u") or m.group("u2") or m.group("dual")]
    count_text = m.group("n") or m.group("n2")
    count = lx.SMALL_NUMBERS.get(count_text or "", 0)
    count = 2 if said == 2 else int(count_text) if count_text and count_text.isdigit() else count
    if not count:
        return None
    last = shift(as_of, unit, count)
    start = as_of + timedelta(days=1)
    return DateSpan(start.isoformat(), (last + timedelta(days=1)).isoformat(), _forward_label(unit, count, count_text))


# How an answer words the days to come: as the question counted them, with no other figure (one,
# two, several and, after a count over ten, the accusative "شهراً").
_FORWARD_WORDS: dict[str, list[str]] = _WORDING["FORWARD_WORDS"]


def _forward_label(unit: str, count: int, count_text: str | None) -> str:
    one, two, plural, accusative = _FORWARD_WORDS[unit]
    if count_text and count_text.isdigit():
        counted = plural.removeprefix("ال") if count <= 10 else accusative
        return f"خلال {count_text} {counted} قادمة"
    if count in (1, 2):
        return f"خلال {one if count == 1 else two}"
    word = COUNT_WORDS.get(count, "")
    if unit == "year" and word.endswith("ة"):
        word = word[:-1]  # "السنوات الخمس": the number agrees with a feminine noun
    return f"خلال {plural} ال{word} القادمة" if word else f"خلال {plural} القادمة"


def _since_start(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Since the start of this month or year."""
    if m["u"] == "شهر":
        return DateSpan(month_span(as_of.year, as_of.month)[0], None, "منذ بداية الشهر الحالي")
    return DateSpan(year_span(as_of.year)[0], None, "منذ بداية العام الحالي")


def _same_month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    return DateSpan(*month_span(as_of.year - 1, as_of.month), "في الشهر نفسه من العام الماضي")


# "اليوم" dates an event only beside a verb or noun of one: published, closing, opened.
_DATED_EVENT = re.compile(
    r"(?<!\w)[وف]?(?:ال)?(?:طرح|انطرح|نشر|انشر|نزل|اعلن|مطروح|منشور|معلن|تنتهي|ينتهي|تقفل|يقفل|تغلق|يغلق|تفتح|يفتح|فتحت|انتهت|رست|ترست)\w*"
)


def _relative_days(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """Today and yesterday, read after the other date phrases (which take "حتى اليوم")."""
    spans: list[DateSpan] = []
    for m in list(_REL_DAY.finditer(text)):
        if m.group("today") and re.search(r"(?<!\w)(?:حتي|لين|الي|لغايه|لحد)\s$", text[: m.start()]):
            # "طرحت حتى اليوم": every day up to the as-of date, which is all the data holds.
            text = blank(text, m.start() - len(text[: m.start()].split()[-1]) - 1, m.end())
            continue
        if m.group("today") and not _DATED_EVENT.search(text):
            continue  # "المنافسات المتاحة اليوم": open now, not published today ("اليوم" stays a filler)
        day = as_of if m.group("today") else as_of - timedelta(days=1)
        label = "في آخر أيام البيانات (اليوم)" if m.group("today") else "في اليوم السابق لآخر أيام البيانات (أمس)"
        spans.append(DateSpan(day.isoformat(), (day + timedelta(days=1)).isoformat(), label))
        text = blank(text, m.start(), m.end())
    return text, spans


# "في كل يوم", "لكل أسبوع": a figure per day or week, which no frame groups by ("يوم" alone is a
# filler word, so the question would be answered as one total).
_PER_DAY = re.compile(r"(?<!\w)(?:في |ل|ب)?كل (?:يوم|اسبوع|ساعه)(?!\w)")


def per_day_phrases(text: str) -> tuple[str, ...]:
    """The phrases of ``text`` asking for a figure per day or week."""
    return tuple(m.group(0) for m in _PER_DAY.finditer(text))


# --- the readers, in the order they must run ------------------------------------------------------
# Each reader takes the phrases it understands and blanks them out, so that a later one cannot take
# part of them: parts of periods before the periods, Hijri dates before the Hijri years, bounds before
# the months and years they bound, plain years and today last.

Reader = Callable[[str, date], tuple[str, list[DateSpan]]]


def _each(pattern: re.Pattern[str], read: Callable[[re.Match[str], str, date], DateSpan | None]) -> Reader:
    """A reader of each phrase ``pattern`` finds, read by ``read(match, text, as_of)``."""
    return lambda text, as_of: read_each(pattern, text, lambda m, text: read(m, text, as_of))


PERIOD_PARTS: tuple[Reader, ...] = (_each(_PARTS, _part),)
HIJRI_DATES: tuple[Reader, ...] = (
    _each(_NUMERIC, _numeric),
    _each(_RANGE, _range),
    _each(_BOUND_MONTH, _bound_month),
    _each(_BOUND_YEAR, _bound_year),
    _each(_HIJRI_YEAR_RANGE, _year_range),
    _each(_PAIR, _pair),
    _each(_HIJRI_HALF, _half),
    _each(_MONTH_NUMBER, _month_number),
    _each(_DAY_ONE, _day),
    _each(_MONTH_ONE, _month),
    _each(_MONTH_RELATIVE, _hijri_relative),
    _each(_RELATIVE_YEAR, _relative_year),
)
RELATIVE_PERIODS: tuple[Reader, ...] = (
    _each(_FORWARD, _forward),
    _each(_SINCE_START, _since_start),
    _each(_SAME_MONTH, _same_month),
)
DAY_BOUNDS: tuple[Reader, ...] = (
    _each(_DAYS_OF_MONTH, _days_of_month),
    _each(_BOUNDS_RANGE, _bounds_range),
    _each(_YEAR_ONWARD, _year_onward),
    _each(_BOUND, _bound),
)
GREGORIAN_DATES: tuple[Reader, ...] = (
    _each(_HIJRI_YEAR, _hijri_years),
    _each(_DAYS, _days),
    _each(_MONTH_RANGE, _month_ranges),
    _each(_HALF, _halves),
    _each(_SINCE_MONTH, _since_month),
    _each(_RELATIVE_QUARTER, _relative_quarters),
    _each(_YEAR_RANGE, _year_ranges),
    _each(_SEVERAL_YEARS, _several_years),
    _each(_QUARTER, _quarters),
    _each(_MONTH, _months),
    _each(_RELATIVE, _relative),
    _each(_ROLLING, _rolling),
    _each(_YEAR_BOUND, _year_bounds),
    _plain_years,
)
READERS: tuple[Reader, ...] = (
    *PERIOD_PARTS, *HIJRI_DATES, *RELATIVE_PERIODS, *DAY_BOUNDS, *GREGORIAN_DATES, _relative_days,
)


def read_dates(text: str, as_of: date, readers: tuple[Reader, ...] = READERS) -> tuple[str, list[DateSpan]]:
    """The date phrases of ``text`` (normalized) that ``readers`` read, in their order: the text
    with them blanked out, and their spans. ``as_of`` anchors relative and rolling periods."""
    spans: list[DateSpan] = []
    for read in readers:
        text, found = read(text, as_of)
        spans += found
    return text, spans
