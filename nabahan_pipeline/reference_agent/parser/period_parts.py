"""Parts of a period in a question: the first or last N days, weeks or months of a month or a year
("أول ثلاثة أشهر من 2022", "الأشهر الثلاثة الأولى من 2022", "آخر 10 أيام من مارس 2025"), its Nth
week ("الأسبوع الأول من سبتمبر 2026"), its halves, its first or last ten days ("العشر الأواخر من
رمضان 1446") and its first or last day. The period is a named month (Gregorian or Hijri) or year,
or one counted from the as-of date. Read before the other date phrases, which would take the month
or the year alone (or "آخر 3 أشهر" as the months up to the as-of date)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.dates import (
    MONTH_LABELS, DateSpan, add_months, month_span, shift, year_span,
)
from nabahan_pipeline.reference_agent.parser.hijri_dates import HIJRI_MONTH, hijri_month_number
from nabahan_pipeline.reference_agent.parser.patterns import alternation, read_each

_SMALL = alternation(lx.SMALL_NUMBERS)
# Unit words -> (unit, count the word itself says: the dual "شهرين" is two).
_UNIT_WORDS = {
    "يوم": ("day", 1), "ايام": ("day", 0), "يومين": ("day", 2),
    "اسبوع": ("week", 1), "اسابيع": ("week", 0), "اسبوعين": ("week", 2),
    "شهر": ("month", 1), "اشهر": ("month", 0), "شهور": ("month", 0), "شهرين": ("month", 2),
}  # fmt: skip
_UNIT = alternation(_UNIT_WORDS)
_ORDINAL_WEEKS = {"اول": 1, "ثاني": 2, "ثالث": 3, "رابع": 4, "خامس": 5, "اخير": -1, "اخر": -1}
_FIRST = r"(?:اول|اولي)"
_LAST = r"(?:اخر|اخير|اخيره|اواخر)"

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
    rf"(?P<edge>{_FIRST}|{_LAST})\s(?:{_COUNT}\s)?(?:ال)?(?P<u>{_UNIT})"
    # "الأشهر الثلاثة الأولى من 2022", "الأيام العشرة الأخيرة من مارس 2025"
    rf"|(?P<u2>{_UNIT})\s(?:ال)?(?P<n2>\d{{1,3}}|{_SMALL})\s(?:ال)?(?P<edge2>{_FIRST}|{_LAST})"
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


def read_period_parts(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """The parts of periods in ``text`` (normalized): the text with those read blanked out, and
    their spans. A part longer than its period ("أول 13 شهراً من 2024") is left unread."""
    return read_each(_PARTS, text, lambda m, _: _part(m, as_of))


def _period(m: re.Match[str], as_of: date) -> tuple[date, date, str] | None:
    """The period a part is taken from: its first day, the day after it, its Arabic name."""
    if m.group("m"):
        month, year = lx.MONTHS[m.group("m")], int(m.group("my"))
        start, end = month_span(year, month)
        label = f"شهر {MONTH_LABELS[month]} {year}"
    elif m.group("y"):
        year = int(m.group("y"))
        start, end = year_span(year)
        label = f"عام {year}"
    elif m.group("hm"):
        month, year = hijri_month_number(m.group("hm")), int(m.group("hy"))
        span = hc.month_range(year, month) if month else None
        if span is None or month is None:
            return None
        return span[0], span[1], f"شهر {hc.MONTH_NAMES[month]} {year}هـ"
    elif m.group("this_month") or m.group("last_month"):
        first = add_months(as_of.replace(day=1), -1 if m.group("last_month") else 0)
        start, end = month_span(first.year, first.month)
        label = "الشهر الماضي" if m.group("last_month") else "هذا الشهر"
    else:
        year = as_of.year - (1 if m.group("last_year") else 0)
        start, end = year_span(year)
        label = "العام الماضي" if m.group("last_year") else "هذا العام"
    return date.fromisoformat(start), date.fromisoformat(end), label


def _count(text: str | None, unit_word: str) -> int | None:
    said = _UNIT_WORDS[unit_word][1]
    if text is None:
        return said or None
    value = int(text) if text.isdigit() else lx.SMALL_NUMBERS.get(text)
    return value if value and value > 0 else None


def _part(m: re.Match[str], as_of: date) -> DateSpan | None:
    period = _period(m, as_of)
    if period is None:
        return None
    first, after, period_label = period
    week_word = m.group("k") or m.group("k2")
    if m.group("half"):
        # A year halves at July; a month after its fifteenth day.
        middle = add_months(first, 6) if (after - first).days > 300 else first + timedelta(days=15)
        start, end = (first, middle) if m.group("half") == "اول" else (middle, after)
        label = f"{'النصف الأول' if m.group('half') == 'اول' else 'النصف الثاني'} من {period_label}"
    elif m.group("ten"):
        from_start = m.group("edge3") != "اواخر"
        start, end = (first, first + timedelta(days=10)) if from_start else (after - timedelta(days=10), after)
        label = f"{'الأيام العشرة الأولى' if from_start else 'الأيام العشرة الأخيرة'} من {period_label}"
    elif m.group("kd"):
        start = first if m.group("kd") == "اول" else after - timedelta(days=1)
        end = start + timedelta(days=1)
        label = f"{'اليوم الأول' if m.group('kd') == 'اول' else 'اليوم الأخير'} من {period_label}"
    elif week_word:
        k = _ORDINAL_WEEKS[week_word]
        start = after - timedelta(days=7) if k == -1 else first + timedelta(days=7 * (k - 1))
        end = min(start + timedelta(days=7), after)
        label = f"{_WEEK_LABELS[k]} من {period_label}"
    else:
        unit_word = m.group("u") or m.group("u2")
        unit = _UNIT_WORDS[unit_word][0]
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
            label = f"{edge} {singular if count == 1 else dual} من {period_label}"
        elif count_text and count_text.isdigit():
            label = f"{edge} {count} {plural if count <= 10 else singular} من {period_label}"
        elif count in COUNT_WORDS:
            # The count in words with the article ("الأشهر الثلاثة الأولى"): the answer states no
            # figure the question did not ("الستة" is no number to the grounding check).
            label = f"ال{plural} ال{COUNT_WORDS[count]} {_LAST_WORD[edge]} من {period_label}"
        else:
            return None
    if start < first or end > after or start >= end:
        return None
    return DateSpan(start.isoformat(), end.isoformat(), label)
