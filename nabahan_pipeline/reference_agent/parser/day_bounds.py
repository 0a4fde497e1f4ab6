"""Days and months as bounds and ranges of a period: "قبل 15 مارس 2025", "بعد 2026/09/01", "منذ
بداية يونيو 2026", "بعد نهاية يونيو 2026", "حتى 31 مارس 2024", "من 2025/03/01 إلى 2025/04/15",
"بين 2024-01-15 و 2024-02-15", "من 1 إلى 15 مارس 2025". Read before the other date readers,
which would take the month or the year alone and leave the bound word unread."""

from __future__ import annotations

import re
from datetime import date, timedelta

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.dates import MONTH_LABELS, DateSpan, month_span
from nabahan_pipeline.reference_agent.parser.patterns import alternation, blank

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
_RANGE = re.compile(
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


def _days(m: re.Match[str], k: str, year: int | None) -> tuple[date, date, str] | None:
    """The first day and the day after the last of point ``k``, and its wording; None when it
    names no day (no year, or no such day)."""
    try:
        if m.group(f"iy{k}"):
            day = date(int(m.group(f"iy{k}")), int(m.group(f"im{k}")), int(m.group(f"id{k}")))
        elif m.group(f"dd{k}"):
            day = date(int(m.group(f"dy{k}")), int(m.group(f"dm{k}")), int(m.group(f"dd{k}")))
        elif m.group(f"nd{k}"):
            named_year = int(m.group(f"ny{k}")) if m.group(f"ny{k}") else year
            if named_year is None:
                return None
            day = date(named_year, lx.MONTHS[m.group(f"nm{k}")], int(m.group(f"nd{k}")))
            # Worded as the question wrote it: "1 سبتمبر 2026" (its ISO form states a "09" it did not).
            return day, day + timedelta(days=1), f"{day.day} {MONTH_LABELS[day.month]} {day.year}"
        elif m.group(f"yy{k}"):
            year_of_edge = int(m.group(f"yy{k}"))
            if m.group(f"ye{k}") in ("نهايه", "ختام"):
                return date(year_of_edge, 12, 31), date(year_of_edge + 1, 1, 1), f"نهاية عام {year_of_edge}"
            return date(year_of_edge, 1, 1), date(year_of_edge, 1, 2), f"بداية عام {year_of_edge}"
        else:
            month, month_year = lx.MONTHS[m.group(f"mm{k}")], int(m.group(f"my{k}"))
            first, after = (date.fromisoformat(d) for d in month_span(month_year, month))
            edge = m.group(f"edge{k}")
            name = f"{MONTH_LABELS[month]} {month_year}"
            if edge in ("بدايه", "مطلع", "اول"):
                return first, first + timedelta(days=1), f"بداية {name}"
            if edge in ("نهايه", "اخر", "ختام"):
                return after - timedelta(days=1), after, f"نهاية {name}"
            return first, after, name
    except ValueError:
        return None  # no such day: "31 فبراير"
    return day, day + timedelta(days=1), day.isoformat()


def _year_of(m: re.Match[str], k: str) -> int | None:
    text = m.group(f"iy{k}") or m.group(f"dy{k}") or m.group(f"ny{k}") or m.group(f"my{k}") or m.group(f"yy{k}")
    return int(text) if text else None


def read_day_bounds(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """The bounds and ranges of days and months in ``text`` (normalized): the text with them
    blanked out, and their spans."""
    spans: list[DateSpan] = []
    for m in list(_DAYS_OF_MONTH.finditer(text)):
        year, month = int(m.group("y")), lx.MONTHS[m.group("m")]
        try:
            first, last = date(year, month, int(m.group("d1"))), date(year, month, int(m.group("d2")))
        except ValueError:
            continue
        if last < first:
            continue
        label = f"من {first.day} إلى {last.day} {MONTH_LABELS[month]} {year}"
        spans.append(DateSpan(first.isoformat(), (last + timedelta(days=1)).isoformat(), label))
        text = blank(text, m.start(), m.end())
    for m in list(_RANGE.finditer(text)):
        if not any(m.group(g) for g in ("iya", "dda", "iyb", "ddb")):
            continue  # named days and months: the day and month range readers' (same reading)
        last_year = _year_of(m, "b")
        first = _days(m, "a", last_year)
        last = _days(m, "b", _year_of(m, "a"))
        if first is None or last is None or last[1] <= first[0]:
            continue
        spans.append(DateSpan(first[0].isoformat(), last[1].isoformat(), f"من {first[2]} إلى {last[2]}"))
        text = blank(text, m.start(), m.end())
    for m in list(_YEAR_ONWARD.finditer(text)):
        year = int(m.group("y"))
        if m.group("on"):
            spans.append(DateSpan(f"{year}-01-01", None, f"منذ عام {year}"))
        else:
            spans.append(DateSpan(None, f"{year + 1}-01-01", f"حتى نهاية عام {year}"))
        text = blank(text, m.start(), m.end())
    for m in list(_BOUND.finditer(text)):
        point = _days(m, "a", None)
        if point is None:
            continue
        first, after, name = point
        word = m.group("w")
        edge = m.group("edgea") or m.group("yea") or ""
        if word == "قبل" and edge in ("نهايه", "اخر", "ختام"):
            word = "حتي"  # "قبل نهاية 2026": by its end, its last day included
        elif word in ("بعد", "من بعد") and edge in ("بدايه", "مطلع", "اول"):
            word = "منذ"  # "بعد بداية 2024": from its start on
        if word == "قبل":
            span = DateSpan(None, first.isoformat(), f"قبل {name}")
        elif word in ("بعد", "من بعد"):
            span = DateSpan(after.isoformat(), None, f"بعد {name}")
        elif word in ("حتي", "لغايه", "لحد"):
            span = DateSpan(None, after.isoformat(), f"حتى {name}")
        else:
            span = DateSpan(first.isoformat(), None, f"منذ {name}")
        spans.append(span)
        text = blank(text, m.start(), m.end())
    return text, spans


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
