"""Parts of a period in a question: the first or last N days, weeks or months of a month or a year
("أول ثلاثة أشهر من 2022", "الأشهر الثلاثة الأولى من 2022", "آخر 10 أيام من مارس 2025") and
the Nth week of one ("الأسبوع الأول من سبتمبر 2026", "ثاني أسبوع من الشهر الماضي"). The period is a
named month or year, or one counted from the as-of date. Read before the other date phrases, which
would take the month or the year alone (or "آخر 3 أشهر" as the months up to the as-of date)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.dates import MONTH_LABELS, DateSpan, add_months, month_span, year_span
from nabahan_pipeline.reference_agent.parser.patterns import alternation, blank

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
    spans: list[DateSpan] = []
    for m in list(_PARTS.finditer(text)):
        span = _part(m, as_of)
        if span is not None:
            spans.append(span)
            text = blank(text, m.start(), m.end())
    return text, spans


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
    elif m.group("this_month") or m.group("last_month"):
        first = add_months(as_of.replace(day=1), -1 if m.group("last_month") else 0)
        start, end = month_span(first.year, first.month)
        label = "الشهر الماضي" if m.group("last_month") else "هذا الشهر"
    else:
        year = as_of.year - (1 if m.group("last_year") else 0)
        start, end = year_span(year)
        label = "العام الماضي" if m.group("last_year") else "هذا العام"
    return date.fromisoformat(start), date.fromisoformat(end), label


def _shift(day: date, unit: str, count: int) -> date:
    if unit == "day":
        return day + timedelta(days=count)
    if unit == "week":
        return day + timedelta(days=7 * count)
    return add_months(day, count)


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
    if week_word:
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
            start, end = first, _shift(first, unit, count)
        else:
            start, end = _shift(after, unit, -count), after
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
