"""Dates in a question: years (Gregorian and Hijri), ranges and open bounds of years, months,
quarters, relative periods ("العام الماضي") and rolling ones ("آخر 3 أشهر"), each read into a
DateSpan: a half-open range of ISO dates, or months of any year when no year is given."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.patterns import SMALL_NUMBER, alternation, blank, read_each
from nabahan_pipeline.reference_agent.parser.values import comparator_before

# --- the phrases -----------------------------------------------------------------------------------

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
# Rolling period units; a trailing 2 is the dual ("شهرين": two months).
_UNITS = {"يوم": "day", "ايام": "day", "يومين": "day2", "اسبوع": "week", "اسابيع": "week", "اسبوعين": "week2",
          "شهر": "month", "اشهر": "month", "شهور": "month", "شهرين": "month2", "سنه": "year", "سنوات": "year",
          "سنين": "year", "سنتين": "year2", "عام": "year", "اعوام": "year", "عامين": "year2"}
_ROLLING = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?P<last>اخر|ال)\s?(?P<n>\d+|{alternation(lx.SMALL_NUMBERS)})?\s?(?:ال)?(?P<u>{alternation(_UNITS)})"
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


# The Arabic name of each month, as answers write it (the other date readers' too).
MONTH_LABELS = {
    1: "يناير", 2: "فبراير", 3: "مارس", 4: "أبريل", 5: "مايو", 6: "يونيو",
    7: "يوليو", 8: "أغسطس", 9: "سبتمبر", 10: "أكتوبر", 11: "نوفمبر", 12: "ديسمبر",
}
_QUARTER_LABELS = {1: "الربع الأول", 2: "الربع الثاني", 3: "الربع الثالث", 4: "الربع الرابع"}


def read_dates(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """The date phrases of ``text`` (normalized): the text with them blanked out, and their spans
    in the order read. ``as_of`` anchors relative and rolling periods."""
    spans: list[DateSpan] = []
    for pattern, read in (
        (_HIJRI_YEAR, _hijri_years),
        (_DAYS, _days),
        (_MONTH_RANGE, _month_ranges),
        (_HALF, _halves),
        (_SINCE_MONTH, _since_month),
        (_RELATIVE_QUARTER, _relative_quarters),
        (_YEAR_RANGE, _year_ranges),
        (_SEVERAL_YEARS, _several_years),
        (_QUARTER, _quarters),
        (_MONTH, _months),
        (_RELATIVE, _relative),
        (_ROLLING, _rolling),
        (_YEAR_BOUND, _year_bounds),
    ):
        text, found = read_each(pattern, text, lambda m, text: read(m, text, as_of))
        spans += found
    return _plain_years(text, spans), spans


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
    if _AMOUNT_AFTER.match(text, m.end()) or _VALUE_BEFORE.search(text, 0, m.start()):
        return None  # "بين 2000 و 2500 ريال", "قيمتها من 2000 إلى 2040": a range of amounts
    a, b = sorted((int(m.group("a")), int(m.group("b"))))
    return DateSpan(year_span(a)[0], year_span(b)[1], f"من عام {a} إلى عام {b}")


_SEVERAL_YEARS = re.compile(
    r"(?<!\w)(?:(?:[وفبل]?ال)?(?:اعوام|سنوات|سنين|سنتي|سنتين|عامي|عامين)\s)?(?:(?:[وفبل]?ال|[لب])?(?:عام|سنه)\s?)?"
    r"(?P<years>20[0-4]\d(?:\s?(?:,|و|او)\s?(?:(?:عام|سنه)\s?)?20[0-4]\d)+)(?!\d)"
)


def _several_years(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Several years, each whole: "في 2023 و2024", "سنتي 2023 و2025": any of them, not all at once."""
    if _AMOUNT_AFTER.match(text, m.end()) or _VALUE_BEFORE.search(text, 0, m.start()):
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
    try:
        if m.group("d1"):
            last_year = int(m.group("y2"))
            first_year = int(m.group("y1") or last_year)
            first = date(first_year, lx.MONTHS[m.group("m1")], int(m.group("d1")))
            last = date(last_year, lx.MONTHS[m.group("m2")], int(m.group("d2")))
        elif m.group("d3"):
            first = last = date(int(m.group("y3")), lx.MONTHS[m.group("m3")], int(m.group("d3")))
        elif m.group("d4"):
            first = last = date(int(m.group("y4")), int(m.group("mn4")), int(m.group("d4")))
        else:
            first = last = date(int(m.group("y5")), int(m.group("mn5")), int(m.group("d5")))
    except ValueError:
        return None  # no such day: "31 فبراير"
    if last < first:
        return None
    if first == last:
        label = f"يوم {first.day} {MONTH_LABELS[first.month]} {first.year}"
    else:
        label = (
            f"من {first.day} {MONTH_LABELS[first.month]} {first.year}"
            f" إلى {last.day} {MONTH_LABELS[last.month]} {last.year}"
        )
    return DateSpan(first.isoformat(), (last + timedelta(days=1)).isoformat(), label)


def _month_ranges(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Ranges of months: "بين فبراير ومايو 2024", "من أكتوبر 2025 إلى يناير 2026"."""
    first, last = lx.MONTHS[m.group("m1")], lx.MONTHS[m.group("m2")]
    if re.search(r"شهري", m.group(0)) and not re.search(r"(?<!\w)(?:بين|من)\s", m.group(0)) and last != first % 12 + 1:
        return None  # "شهري يناير ومارس": the two months, not the span from one to the other
    last_year = int(m.group("y2"))
    first_year = int(m.group("y1")) if m.group("y1") else last_year - (first > last)
    start, end = month_span(first_year, first)[0], month_span(last_year, last)[1]
    if start >= end:
        return None
    label = f"من {MONTH_LABELS[first]} {first_year} إلى {MONTH_LABELS[last]} {last_year}"
    return DateSpan(start, end, label)


def _since_month(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """From a month until now, or since the start of this year: "من مارس 2026 لين اليوم"."""
    if m.group("this"):
        return DateSpan(year_span(as_of.year)[0], None, "منذ بداية العام الحالي")
    month, year = lx.MONTHS[m.group("m")], int(m.group("y"))
    return DateSpan(month_span(year, month)[0], None, f"منذ {MONTH_LABELS[month]} {year}")


def _halves(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Halves of a year: "النصف الأول من 2025", "النصف الثاني لعام 2023", "النصف الأول من السنة الحالية"."""
    year = as_of.year if m.group("this") else int(m.group("y"))
    half = 1 if m.group("h") == "اول" else 2
    first = 1 if half == 1 else 7
    start, end = month_span(year, first)[0], month_span(year, first + 5)[1]
    # "من السنة الحالية" stays as the question said it: the answer states no year it did not.
    of_year = "من العام الحالي" if m.group("this") else f"من عام {year}"
    return DateSpan(start, end, f"{'النصف الأول' if half == 1 else 'النصف الثاني'} {of_year}")


def _relative_quarters(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """This quarter, the last one and the next, counted from ``as_of``: "الربع الماضي", "هذا الربع"."""
    shift = -1 if m.group("w") in ("ماضي", "سابق", "فايت") else 1 if m.group("w") in ("قادم", "جاي", "مقبل") else 0
    first = add_months(as_of.replace(day=1), -((as_of.month - 1) % 3) + 3 * shift)
    start = month_span(first.year, first.month)[0]
    last = add_months(first, 2)
    end = month_span(last.year, last.month)[1]
    return DateSpan(start, end, {-1: "الربع الماضي", 0: "الربع الحالي", 1: "الربع القادم"}[shift])


def _quarters(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Quarters: "الربع الأول من 2024", "Q3"; without a year, those months of any year."""
    q_text = m.group("q") or m.group("q2")
    quarter = int(q_text) if q_text.isdigit() else lx.ORDINALS.get(q_text, lx.ORDINALS.get("ال" + q_text, 1))
    year_text = m.group("y") or m.group("y2")
    months = tuple(range(3 * quarter - 2, 3 * quarter + 1))
    if year_text:
        year = int(year_text)
        start = month_span(year, months[0])[0]
        end = month_span(year, months[-1])[1]
        return DateSpan(start, end, f"{_QUARTER_LABELS[quarter]} من عام {year}")
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
        start, end = month_span(int(year_text), month)
        return DateSpan(start, end, f"شهر {MONTH_LABELS[month]} {year_text}")
    return DateSpan(None, None, f"شهر {MONTH_LABELS[month]}", (month,))


def _relative(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """This, last, next or the one before last year or month: "العام الماضي", "هذا الشهر"."""
    unit = m.group("u1") or m.group("u2") or "عام"
    if m.group("this1") or m.group("this2"):
        shift, label = 0, {"شهر": "هذا الشهر"}.get(unit, "هذا العام")
    elif m.group("before"):
        shift, label = -2, {"شهر": "الشهر قبل الماضي"}.get(unit, "العام قبل الماضي")
    elif m.group("last"):
        shift, label = -1, {"شهر": "الشهر الماضي"}.get(unit, "العام الماضي")
    else:
        shift, label = 1, {"شهر": "الشهر القادم"}.get(unit, "العام القادم")
    if unit == "اسبوع":
        # A calendar week, Sunday to Saturday as the Saudi week runs, never a rolling seven days.
        first = week_start(as_of) + timedelta(days=7 * shift)
        label = {0: "هذا الأسبوع", -1: "الأسبوع الماضي", -2: "الأسبوع قبل الماضي"}.get(shift, "الأسبوع القادم")
        return DateSpan(first.isoformat(), (first + timedelta(days=7)).isoformat(), f"{label} (من الأحد إلى السبت)")
    if unit == "شهر":
        first = add_months(as_of.replace(day=1), shift)
        start, end = month_span(first.year, first.month)
    else:
        start, end = year_span(as_of.year + shift)
    return DateSpan(start, end, label)


def _rolling(m: re.Match[str], text: str, as_of: date) -> DateSpan | None:
    """Rolling periods up to ``as_of``: "آخر 3 أشهر", "خلال السنتين الماضيتين"."""
    unit = _UNITS[m.group("u")]
    count_text = m.group("n")
    if m.group("last") == "ال" and not re.search(r"(ماضي|اخير|فايت|سابق)", m.group(0)):
        return None
    if not count_text and re.search(r"اخر ال", m.group(0)) and not re.search(r"(ماضي|اخير|فايت|سابق)", m.group(0)):
        return None  # "آخر السنة" is the end of the year, not the last twelve months
    count = 1
    if count_text:
        count = int(count_text) if count_text.isdigit() else lx.SMALL_NUMBERS.get(count_text, 1)
    elif unit.endswith("2"):
        count = 2
    else:
        trailing = SMALL_NUMBER.search(m.group(0)[m.end("u") - m.start() :])
        if trailing:
            count = lx.SMALL_NUMBERS[trailing.group("w")]
    unit = unit.rstrip("2")
    end_day = as_of + timedelta(days=1)
    calendar = not count_text and not m.group("u").endswith("ين") and unit in ("week", "month")
    if calendar:
        # "الأسبوع الماضي", "آخر شهر في البيانات": a whole calendar period, never a rolling window.
        # "الماضي" is the one before the as-of date's; "آخر" alone, the as-of date's own.
        past = bool(re.search(r"(ماضي|فايت|سابق)", m.group(0)))
        if unit == "week":
            first = week_start(as_of) - timedelta(days=7 * past)
            label = "الأسبوع الماضي" if past else "آخر أسبوع"
            return DateSpan(first.isoformat(), (first + timedelta(days=7)).isoformat(), f"{label} (من الأحد إلى السبت)")
        first = add_months(as_of.replace(day=1), -past)
        label = "الشهر الماضي" if past else f"آخر شهر (شهر {MONTH_LABELS[first.month]} كاملاً)"
        return DateSpan(*month_span(first.year, first.month), label)
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
    if _VALUE_BEFORE.search(text, 0, m.start()):
        return None  # "قيمتها من 2000": a figure
    if _AMOUNT_AFTER.match(text, m.end()) or comparator_before(text[: m.start("w") + len(m.group("w")) + 1]):
        return None  # "أكثر من 2024 ريال" is an amount, not a year
    year = int(m.group("y"))
    word = m.group("w")
    if word == "بعد":
        span = DateSpan(year_span(year + 1)[0], None, f"بعد عام {year}")
    elif word in ("قبل",):
        span = DateSpan(None, year_span(year)[0], f"قبل عام {year}")
    elif word in ("حتي", "لغايه", "الي", "لين"):
        span = DateSpan(None, year_span(year)[1], f"حتى نهاية عام {year}")
    else:
        # "من 2024" alone is the year 2024 unless the sentence goes on to another bound.
        span = DateSpan(year_span(year)[0], None, f"منذ عام {year}")
        if word == "من":
            span = DateSpan(*year_span(year), f"عام {year}")
    return span


def _plain_years(text: str, spans: list[DateSpan]) -> str:
    """Plain years: a number 2000-2049 that no comparator or unit claims as an amount."""
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
    return text
