"""Periods named relative to the data's as-of date (never the clock) that the other date readers do
not reach: a month, quarter or half of a relative year ("الربع الأول من العام الماضي", "سبتمبر
الماضي", "شهر 9 من السنة الحالية"), the start of this month or year up to now ("منذ بداية الشهر"),
the same month last year, the N days, weeks, months or years to come ("الأشهر الستة القادمة"), and
today or yesterday ("طرحت اليوم", "أمس").

A relative year after a part of a year is written over with the year it means, space-padded to
the same length, so that the readers of "الربع الأول من 2025" read it and every other offset stays;
the words written over are accounted as read by the date pass, and the answer words the period as
the question did (``reword_anchored``)."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.dates import MONTH_LABELS, DateSpan, month_span, shift, year_span
from nabahan_pipeline.reference_agent.parser.patterns import alternation, blank, read_each
from nabahan_pipeline.reference_agent.parser.period_parts import COUNT_WORDS

_MONTHS = alternation(lx.MONTHS)
_ORDINALS = alternation(lx.ORDINALS)
_LAST = r"(?:ال)?(?:ماضي(?:ه)?|سابق(?:ه)?|فايت(?:ه)?|منصرم(?:ه)?)|اللي فات(?:ت)?"
_THIS = r"(?:ال)?(?:حالي(?:ه)?|جاري(?:ه)?)"
_NEXT = r"(?:ال)?(?:قادم(?:ه)?|مقبل(?:ه)?|جاي(?:ه)?)|اللي جاي"
# A part of a year before its relative year.
_YEAR_PART = (
    rf"(?:{_MONTHS}|شهر \d{{1,2}}|(?:ال)?ربع (?:ال)?(?:{_ORDINALS})|(?:ال)?نصف (?:ال)?(?:اول|ثاني)"
    rf"|(?:ال)?(?:اشهر|شهور|ايام|اسابيع) (?:ال)?\S+ (?:ال)?(?:اولي|اخيره))"
)
_RELATIVE_YEAR = re.compile(
    rf"(?<!\w)(?:{_YEAR_PART})\s(?P<rel>(?:من|في|ل|لل|خلال)\s?(?:"
    rf"(?:ال)?(?:عام|سنه) (?:(?P<last>{_LAST})|(?P<this>{_THIS})|(?P<next>{_NEXT}))"
    rf"|(?P<this2>هذا (?:ال)?عام|هذه (?:ال)?سنه|هذي (?:ال)?سنه|ه(?:ال)?سنه)))(?!\w)"
)
# "سبتمبر الماضي", "شهر مارس الجاي": the last one before the as-of month, or the next one after it.
_MONTH_RELATIVE = re.compile(
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهر\s)?(?:[وفب]?(?:ال)?)?(?P<m>{_MONTHS})\s(?P<rel>(?P<last>{_LAST})|(?P<next>{_NEXT}))(?!\w)"
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
_DAY = re.compile(r"(?<!\w)(?:(?P<today>[وفب]?اليوم|هذا اليوم|هاليوم)|(?P<yesterday>امس|البارحه|امبارح|يوم امس))(?!\w)")


def anchor_relative_years(text: str, as_of: date) -> tuple[str, list[tuple[str, str]]]:
    """``text`` with each relative year after a part of a year, each month named "الماضي" or
    "القادم", and "حتى اليوم" after a year written over with the year meant (same length); and
    what was written, (words written, the question's wording) for ``reword_anchored``."""
    written: list[tuple[str, str]] = []
    for m in list(_RELATIVE_YEAR.finditer(text)):
        year = as_of.year - 1 if m.group("last") else as_of.year + 1 if m.group("next") else as_of.year
        wording = "العام الماضي" if m.group("last") else "العام القادم" if m.group("next") else "العام الحالي"
        text = _write(text, *m.span("rel"), f"من {year}", written, (f"عام {year}", wording))
    for m in list(_MONTH_RELATIVE.finditer(text)):
        month = lx.MONTHS[m.group("m")]
        if m.group("m") in ("اب", "ماي") and "شهر" not in m.group(0):
            continue  # also ordinary words
        if m.group("last"):
            year = as_of.year if month < as_of.month else as_of.year - 1
        else:
            year = as_of.year if month > as_of.month else as_of.year + 1
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
_FORWARD_UNITS = {
    "يوم": ("day", 0), "ايام": ("day", 0), "يومين": ("day", 2), "اسبوع": ("week", 0), "اسابيع": ("week", 0),
    "اسبوعين": ("week", 2), "شهر": ("month", 0), "اشهر": ("month", 0), "شهور": ("month", 0), "شهرا": ("month", 0),
    "شهرين": ("month", 2), "سنه": ("year", 0), "سنوات": ("year", 0), "عام": ("year", 0), "اعوام": ("year", 0),
    "سنتين": ("year", 2), "عامين": ("year", 2),
}  # fmt: skip
_SMALL = alternation(lx.SMALL_NUMBERS)
_NEXT_WORD = r"(?:ال)?(?:قادم|جاي|مقبل)(?:ه|ين|تين)?"
_FORWARD = re.compile(
    rf"(?<!\w)(?:(?:خلال|في)\s)?(?:ال)?(?:"
    rf"(?P<n>\d{{1,3}}|{_SMALL})\s(?:ال)?(?P<u>{alternation(_FORWARD_UNITS)})"
    rf"|(?P<u2>{alternation(_FORWARD_UNITS)})\s(?:ال)?(?P<n2>\d{{1,3}}|{_SMALL})"
    rf"|(?P<dual>يومين|اسبوعين|شهرين|سنتين|عامين))\s{_NEXT_WORD}(?!\w)"
)


def _forward(m: re.Match[str], as_of: date) -> DateSpan | None:
    unit, said = _FORWARD_UNITS[m.group("u") or m.group("u2") or m.group("dual")]
    count_text = m.group("n") or m.group("n2")
    count = said or (int(count_text) if count_text and count_text.isdigit() else lx.SMALL_NUMBERS.get(count_text or "", 0))
    if not count:
        return None
    last = shift(as_of, unit, count)
    start = as_of + timedelta(days=1)
    return DateSpan(start.isoformat(), (last + timedelta(days=1)).isoformat(), _forward_label(unit, count, count_text))


# How an answer words the days to come: as the question counted them, with no other figure.
_FORWARD_WORDS = {
    "day": ("اليوم القادم", "اليومين القادمين", "الأيام"), "week": ("الأسبوع القادم", "الأسبوعين القادمين", "الأسابيع"),
    "month": ("الشهر القادم", "الشهرين القادمين", "الأشهر"), "year": ("العام القادم", "العامين القادمين", "السنوات"),
}  # fmt: skip


_ACCUSATIVE = {"day": "يوماً", "week": "أسبوعاً", "month": "شهراً", "year": "عاماً"}


def _forward_label(unit: str, count: int, count_text: str | None) -> str:
    one, two, plural = _FORWARD_WORDS[unit]
    if count_text and count_text.isdigit():
        counted = plural.removeprefix("ال") if count <= 10 else _ACCUSATIVE[unit]
        return f"خلال {count_text} {counted} قادمة"
    if count in (1, 2):
        return f"خلال {one if count == 1 else two}"
    word = COUNT_WORDS.get(count, "")
    if unit == "year" and word.endswith("ة"):
        word = word[:-1]  # "السنوات الخمس": the number agrees with a feminine noun
    return f"خلال {plural} ال{word} القادمة" if word else f"خلال {plural} القادمة"


def read_relative_periods(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """Since the start of this month or year, the same month last year, and the N days, weeks,
    months or years to come: the text with them blanked out, and their spans."""
    text, spans = read_each(_FORWARD, text, lambda m, _: _forward(m, as_of))
    this_month = DateSpan(month_span(as_of.year, as_of.month)[0], None, "منذ بداية الشهر الحالي")
    this_year = DateSpan(year_span(as_of.year)[0], None, "منذ بداية العام الحالي")
    text, since = read_each(_SINCE_START, text, lambda m, _: this_month if m["u"] == "شهر" else this_year)
    same_month = DateSpan(*month_span(as_of.year - 1, as_of.month), "في الشهر نفسه من العام الماضي")
    text, same = read_each(_SAME_MONTH, text, lambda m, _: same_month)
    return text, spans + since + same


# "اليوم" dates an event only beside a verb or noun of one: published, closing, opened.
_DATED_EVENT = re.compile(
    r"(?<!\w)[وف]?(?:ال)?(?:طرح|انطرح|نشر|انشر|نزل|اعلن|مطروح|منشور|معلن|تنتهي|ينتهي|تقفل|يقفل|تغلق|يغلق|تفتح|يفتح|فتحت|انتهت|رست|ترست)\w*"
)


def read_relative_days(text: str, as_of: date) -> tuple[str, list[DateSpan]]:
    """Today and yesterday, read after the other date phrases (which take "حتى اليوم")."""
    spans: list[DateSpan] = []
    for m in list(_DAY.finditer(text)):
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
