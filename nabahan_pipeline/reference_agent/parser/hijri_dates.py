"""Hijri dates in a question read into DateSpans of Gregorian days by the Umm al-Qura calendar
(``arabic.hijri_calendar``): months and days ("رمضان 1446هـ", "محرم ١٤٤٨", "15 شوال 1445",
"1446/09/15"), ranges and pairs of months ("من محرم إلى جمادى الآخرة 1446", "رمضان وشوال 1446"),
bounds ("قبل رمضان 1446", "منذ بداية 1447هـ"), ranges, halves and relative Hijri years, and a month
counted from the as-of date ("رمضان الماضي"). Read before the Hijri years of ``dates``, which would
take the year alone. What the calendar cannot place (a year outside it, a month with no year) is
reported by ``unread_hijri`` and refused by name, never answered for other dates."""

from __future__ import annotations

import re
from datetime import date, timedelta

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.reference_agent.parser.dates import DateSpan
from nabahan_pipeline.reference_agent.parser.patterns import read_each

# Month names as normalize_arabic leaves them, each with its common spellings.
_MONTH_FORMS: dict[int, str] = {
    1: r"(?:ال)?محرم(?: (?:ال)?حرام)?",
    2: r"صفر(?: (?:ال)?خير)?",
    3: r"ربيع (?:ال)?اول",
    4: r"ربيع (?:ال)?(?:ثاني|اخر|اخر)",
    5: r"جماد(?:ي|ا)? (?:ال)?اول(?:ي)?",
    6: r"جماد(?:ي|ا)? (?:ال)?(?:اخر(?:ه)?|ثاني(?:ه)?)",
    7: r"رجب",
    8: r"شعبان(?: (?:ال)?معظم)?",
    9: r"رمضان(?: (?:ال)?مبارك| (?:ال)?كريم)?",
    10: r"شوال",
    11: r"(?:ذو|ذي|ذا) (?:ال)?قعده",
    12: r"(?:ذو|ذي|ذا) (?:ال)?حجه",
}
_MONTH = "|".join(f"(?P<h{n}{{k}}>{form})" for n, form in _MONTH_FORMS.items())
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
_DAY = r"(?P<d{k}>[12]\d|30|0?[1-9])\s(?:من\s)?"
# "رمضان الماضي", "رمضان هذا العام", "شوال القادم": a month counted from the as-of date.
_RELATIVE = (
    r"\s(?:(?P<last{k}>(?:ال)?(?:ماضي|سابق|فايت|منصرم)|اللي فات)"
    r"|(?P<next{k}>(?:ال)?(?:قادم|مقبل|جاي)|اللي جاي)"
    r"|(?P<this{k}>(?:ال)?(?:حالي|جاري)|(?:من )?(?:هذا (?:ال)?عام|هذه (?:ال)?سنه|هذي (?:ال)?سنه|ه(?:ال)?سنه|العام (?:ال)?حالي|السنه (?:ال)?حاليه)))"
)


def _one(k: str, day: str = "", year_required: bool = True) -> str:
    """One Hijri month phrase (with a day before it when ``day`` is "required" or "optional"),
    its named groups suffixed by ``k``."""
    day_part = {"required": _DAY.format(k=k), "optional": f"(?:{_DAY.format(k=k)})?", "": ""}[day]
    year = f"(?:{_YEAR.format(k=k)})"
    return day_part + _MONTH_WORD + f"(?:{_MONTH.format(k=k)})" + (year if year_required else year + "?")


_END = r"(?!\w)"
_RANGE = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?:فتره\s)?(?:ما\s)?(?:بين|من)\s(?:بدايه\s)?"
    rf"{_one('a', day='optional', year_required=False)}"
    rf"\s?(?:و|الي|حتي|لين|لغايه|لحد|-)\s?(?:نهايه\s)?"
    rf"{_one('b', day='optional')}{_END}"
)
_DAY_ONE = re.compile(rf"(?<!\w)(?:(?:يوم|بتاريخ|تاريخ)\s)?{_one('c', day='required')}{_END}")
_MONTH_ONE = re.compile(rf"(?<!\w){_one('e')}{_END}")
_MONTH_RELATIVE = re.compile(rf"(?<!\w){_MONTH_WORD}(?:{_MONTH.format(k='r')}){_RELATIVE.format(k='r')}{_END}")


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
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهري?\s)?(?:[وفبل](?=\S))?(?:{_MONTH.format(k='p')})\s?و\s?(?:شهر\s)?{_one('q')}{_END}"
)
# "قبل رمضان 1446", "بعد نهاية شوال 1446", "منذ بداية 1447هـ", "حتى محرم 1448".
_BOUND_WORDS = r"(?P<w>قبل|بعد نهايه|بعد|منذ بدايه|من بدايه|منذ|ابتداء من|اعتبارا من|حتي نهايه|حتي|لغايه)"
_BOUND_MONTH = re.compile(rf"(?<!\w){_BOUND_WORDS}\s{_one('m')}{_END}")
_BOUND_YEAR = re.compile(rf"(?<!\w){_BOUND_WORDS}\s{_HY.format(k='y')}(?!\w)")
# "بين 1445 و 1446 هجري", "من عام 1444 إلى 1446هـ", "الأعوام الهجرية 1445 و1446".
_YEAR_RANGE = re.compile(
    rf"(?<!\w)(?:(?:[وفبل]?ال)?(?:اعوام|سنوات|سنين)\s(?:(?:ال)?هجريه\s)?)?(?:(?:من|بين)\s)?{_HY.format(k='a')}"
    rf"\s?(?P<sep>و|الي|حتي|لين|-)\s?{_HY.format(k='b')}(?!\w)"
)
# "العام الهجري الماضي", "السنة الهجرية القادمة".
_RELATIVE_YEAR = re.compile(
    r"(?<!\w)(?:[وفبل]?ال)?(?:عام|سنه) (?:ال)?هجري(?:ه)? (?:(?P<last>(?:ال)?(?:ماضي|سابق|فايت|منصرم)(?:ه)?)|(?P<next>(?:ال)?(?:قادم|مقبل|جاي)(?:ه)?))(?!\w)"
)
# "النصف الأول من 1446هـ".
_HALF = re.compile(rf"(?<!\w)(?:ال)?نصف (?:ال)?(?P<h>اول|ثاني)\s(?:من|لل|ل)\s?{_HY.format(k='h')}(?!\w)")


# Hijri dates in figures: "1446/09/15", "15/9/1446هـ", "1446-09" (a month).
_NUMERIC = re.compile(
    r"(?<![\w/-])(?:(?:يوم|بتاريخ|تاريخ)\s)?(?:"
    r"(?P<y1>14\d\d)[/-](?P<m1>1[0-2]|0?[1-9])(?:[/-](?P<d1>[12]\d|30|0?[1-9]))?"
    r"|(?:(?P<d2>[12]\d|30|0?[1-9])[/-])?(?P<m2>1[0-2]|0?[1-9])[/-](?P<y2>14\d\d))"
    r"(?:\s?(?:ه|هجري(?:ه)?))?(?![\d/-])"
)


def _numeric(m: re.Match[str], as_of: date) -> DateSpan | None:
    year, month = int(m.group("y1") or m.group("y2")), int(m.group("m1") or m.group("m2"))
    day_text = m.group("d1") or m.group("d2")
    return _hijri_day(year, month, int(day_text)) if day_text else _hijri_month(year, month)


def _marked(m: re.Match[str], k: str) -> bool:
    """Whether a year of ``_HY`` is Hijri in so many words ("هـ", "هجري", "عام")."""
    return bool(m.group(f"hm{k}") or m.group(f"hw{k}"))


def read_hijri_dates(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """The Hijri month and day phrases of ``text`` (normalized): the text with those read blanked
    out, and their spans. ``as_of`` anchors "رمضان الماضي"."""
    spans: list[DateSpan] = []
    for pattern, read in (
        (_NUMERIC, _numeric),
        (_RANGE, _range),
        (_BOUND_MONTH, _bound_month),
        (_BOUND_YEAR, _bound_year),
        (_YEAR_RANGE, _year_range),
        (_PAIR, _pair),
        (_HALF, _half),
        (_MONTH_NUMBER, _month_number),
        (_DAY_ONE, _day),
        (_MONTH_ONE, _month),
        (_MONTH_RELATIVE, _relative),
        (_RELATIVE_YEAR, _relative_year),
    ):
        text, found = read_each(pattern, text, lambda m, _: read(m, as_of))
        spans += found
    return text, spans


def _month_of(m: re.Match[str], k: str) -> int | None:
    return next((n for n in _MONTH_FORMS if m.group(f"h{n}{k}")), None)


def _label(month: int, year: int, day: int | None = None, stated: bool = True) -> str:
    """A Hijri month (or day) in words, its year only when the question stated it."""
    return (f"{day} " if day else "") + hc.MONTH_NAMES[month] + (f" {year}هـ" if stated else "")


def _hijri_month(year: int, month: int | None) -> DateSpan | None:
    """The days of a Hijri month ("شهر رمضان 1446هـ"); None when the calendar cannot place it."""
    span = hc.month_range(year, month) if month else None
    return _span(*span, f"شهر {_label(month, year)}") if span and month else None


def _hijri_day(year: int, month: int | None, day: int) -> DateSpan | None:
    """One Hijri day ("يوم 15 رمضان 1446هـ"); None when the calendar cannot place it."""
    found = hc.day_of(year, month, day) if month else None
    if found is None or month is None:
        return None
    return _span(found, found + timedelta(days=1), f"يوم {_label(month, year, day)}")


def _month(m: re.Match[str], as_of: date) -> DateSpan | None:
    if re.search(r"\d\s(?:من\s)?$", m.string[: m.start()]):
        return None  # a day the day reader did not take ("30 رمضان" of a 29-day month): no month
    return _hijri_month(int(m.group("ye")), _month_of(m, "e"))


def _day(m: re.Match[str], as_of: date) -> DateSpan | None:
    return _hijri_day(int(m.group("yc")), _month_of(m, "c"), int(m.group("dc")))


def _range(m: re.Match[str], as_of: date) -> DateSpan | None:
    first_month, last_month = _month_of(m, "a"), _month_of(m, "b")
    if first_month is None or last_month is None:
        return None
    last_year = int(m.group("yb"))
    first_year = int(m.group("ya")) if m.group("ya") else last_year - (first_month > last_month)
    first_day, last_day = m.group("da"), m.group("db")
    if first_day:
        first = hc.day_of(first_year, first_month, int(first_day))
    else:
        first = hc.month_start(first_year, first_month)
    if last_day:
        last = hc.day_of(last_year, last_month, int(last_day))
        end = last + timedelta(days=1) if last else None
    else:
        last_span = hc.month_range(last_year, last_month)
        end = last_span[1] if last_span else None
    if first is None or end is None or first >= end:
        return None
    label = (
        f"من {_label(first_month, first_year, int(first_day) if first_day else None, stated=bool(m.group('ya')))}"
        f" إلى {_label(last_month, last_year, int(last_day) if last_day else None)}"
    )
    return DateSpan(first.isoformat(), end.isoformat(), label)


def _relative(m: re.Match[str], as_of: date) -> DateSpan | None:
    """A month named with no year, counted from ``as_of``: the last one that began before this
    month, the next one after it, or the one of this Hijri year."""
    month = _month_of(m, "r")
    today = hc.hijri_date(as_of)
    if month is None or today is None:
        return None
    year, current, _ = today
    if m.group("lastr"):
        year -= month >= current
        word = "الماضي"
    elif m.group("nextr"):
        year += month <= current
        word = "القادم"
    else:
        word = "من العام الهجري الحالي"
    span = hc.month_range(year, month)
    if span is None:
        return None
    return _span(*span, f"شهر {hc.MONTH_NAMES[month]} {word}")


# What is left of Hijri dates once every reader has run: a month named after "في"/"شهر" or with
# a year, or a year marked Hijri. The calendar could not place them (a year outside the table, a
# month with no year): the agent says so rather than answer for other dates.
_UNREAD = re.compile(
    rf"(?<!\w)(?:(?:(?:في|خلال|من|الي|حتي|منذ|قبل|بعد)\s)(?:(?:[وفب]?ال|[بل])?شهر\s)?|(?:[وفب]?ال|[بل])?شهر\s|[بل])"
    rf"(?:{_MONTH.format(k='u')})(?:\s(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?\d{{4}}(?:\s?ه)?)?(?!\w)"
    rf"|(?<!\w)(?:{_MONTH.format(k='v')})\s(?:(?:[لب]?ال|[لب])?(?:عام|سنه)\s?)?\d{{4}}(?:\s?ه)?(?!\w)"
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


def _span(first: date, end: date, label: str) -> DateSpan:
    return DateSpan(first.isoformat(), end.isoformat(), label)


def _month_number(m: re.Match[str], as_of: date) -> DateSpan | None:
    return _hijri_month(int(m.group("hyn")), int(m.group("n")))


def _pair(m: re.Match[str], as_of: date) -> DateSpan | None:
    first, second, year = _month_of(m, "p"), _month_of(m, "q"), int(m.group("yq"))
    if first is None or second is None or second != first + 1:
        return None  # two months apart: no one span
    a, b = hc.month_range(year, first), hc.month_range(year, second)
    if a is None or b is None:
        return None
    return _span(a[0], b[1], f"شهري {hc.MONTH_NAMES[first]} و{hc.MONTH_NAMES[second]} {year}هـ")


def _bounded(word: str, first: date, end: date, name: str) -> DateSpan:
    """A bound before, after, since or until a Hijri month or year of days ``[first, end)``."""
    if word == "قبل":
        return DateSpan(None, first.isoformat(), f"قبل {name}")
    if word.startswith("بعد"):
        return DateSpan(end.isoformat(), None, f"بعد {name}")
    if word.startswith("حتي") or word == "لغايه":
        return DateSpan(None, end.isoformat(), f"حتى نهاية {name}")
    return DateSpan(first.isoformat(), None, f"منذ {name}")


def _bound_month(m: re.Match[str], as_of: date) -> DateSpan | None:
    month, year = _month_of(m, "m"), int(m.group("ym"))
    span = hc.month_range(year, month) if month else None
    if span is None or month is None:
        return None
    return _bounded(m.group("w"), *span, f"شهر {_label(month, year)}")


def _bound_year(m: re.Match[str], as_of: date) -> DateSpan | None:
    year = int(m.group("hyy"))
    span = hc.year_range(year)
    if span is None or not _marked(m, "y"):
        return None
    return _bounded(m.group("w"), *span, f"عام {year}هـ")


def _year_range(m: re.Match[str], as_of: date) -> DateSpan | None:
    first_year, last_year = int(m.group("hya")), int(m.group("hyb"))
    if not (_marked(m, "a") or _marked(m, "b") or "هجري" in m.group(0)):
        return None
    if m.group("sep") == "و" and last_year != first_year + 1 and not re.match(r"(?:من|بين)", m.group(0).split()[0]):
        return None  # "1444 و1446": two years apart, no one span
    first, last = hc.year_range(min(first_year, last_year)), hc.year_range(max(first_year, last_year))
    if first is None or last is None:
        return None
    low, high = sorted((first_year, last_year))
    return _span(first[0], last[1], f"من عام {low}هـ إلى عام {high}هـ")


def _relative_year(m: re.Match[str], as_of: date) -> DateSpan | None:
    today = hc.hijri_date(as_of)
    if today is None:
        return None
    year = today[0] + (1 if m.group("next") else -1)
    span = hc.year_range(year)
    word = "القادم" if m.group("next") else "الماضي"
    return _span(*span, f"في العام الهجري {word}") if span else None


def _half(m: re.Match[str], as_of: date) -> DateSpan | None:
    year = int(m.group("hyh"))
    first_month = 1 if m.group("h") == "اول" else 7
    a, b = hc.month_range(year, first_month), hc.month_range(year, first_month + 5)
    if a is None or b is None or not _marked(m, "h"):
        return None
    return _span(a[0], b[1], f"{'النصف الأول' if first_month == 1 else 'النصف الثاني'} من عام {year}هـ")
