"""The dates of a question: every date reader run (``dates.READERS``), the spans put together (bounds
said together as one span, a negated span marked) and what no reader could place; and the tender
date a question is about."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.comparison import compared_years
from nabahan_pipeline.reference_agent.parser.dates import (
    COUNT_WORDS, UNIT_WORDS, DateSpan, anchor_relative_years, intersect_bounds, per_day_phrases, read_dates,
    reword_anchored, unit_wording, unread_hijri,
)
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import DEADLINE, ENQUIRY, OPENING, alternation, blank
from nabahan_pipeline.reference_agent.parser.reading import Reading


# A negation right before a date phrase: "في غير 2024", "ما عدا عام 2023", "باستثناء رمضان 1446".
_NEGATION = re.compile(r"(?<!\w)(?:في غير|بغير|غير|ما عدا|عدا|باستثناء|سوي|ليس في|ليست في|مو في|خارج)\s")


@dataclass
class DateReading:
    """The date phrases of a question read: the text with them blanked out, their spans, and the
    phrases that name dates no span can hold (refused)."""

    text: str
    spans: list[DateSpan] = field(default_factory=list)
    unplaced: tuple[str, ...] = ()  # Hijri dates outside the calendar, or a Hijri month with no year
    ungrouped: tuple[str, ...] = ()  # "كل يوم": a figure per day or week


def read_all_dates(text: str, as_of: date) -> DateReading:
    """The date phrases of ``text`` (normalized), relative ones counted from ``as_of``."""
    before = text
    text, anchored = anchor_relative_years(compared_years(text), as_of)
    text, spans = read_dates(text, as_of)
    spans = reword_anchored(spans, anchored)
    text, spans = _negated(before, text, spans)
    spans = intersect_bounds(spans)
    return DateReading(text, spans, unread_hijri(text), per_day_phrases(text))


def _negated(before: str, after: str, spans: list[DateSpan]) -> tuple[str, list[DateSpan]]:
    """The one span of a question a negation stands right before, marked negated ("في غير 2024":
    every day but that year's), its negation blanked. With several spans the negation is left
    unread (the question is refused rather than guess which span it negates)."""
    negations = [
        m for m in _NEGATION.finditer(after) if m.end() < len(before) and before[m.end()] != " " and after[m.end()] == " "
    ]
    if len(negations) != 1 or len(spans) != 1 or spans[0].years or spans[0].month_of_year:
        return after, spans
    m = negations[0]
    span = spans[0]
    return blank(after, m.start(), m.end()), [replace(span, label=f"في غير {_bare(span.label)}", negated=True)]


def _bare(label: str) -> str:
    """A span's label without its leading "في " ("في غير شهر رمضان 1446هـ", not "في غير في ...")."""
    return label[3:] if label.startswith("في ") else label


# --- date columns ---------------------------------------------------------------------------------
# Which date of a tender a question is about when not the publish date (deadline, enquiries, opening)
# and what it says of it: in a period, passed or not by the as-of date, or the date itself asked for
# ("أقرب موعد نهائي لتقديم العروض": the soonest still to come).

_PASSED = alternation(lx.DATE_PASSED_VERBS)
_PENDING = alternation(lx.DATE_PENDING_VERBS)
_ON = alternation(lx.DATE_ON_VERBS)
_VERB = rf"(?:[وف])?(?:(?P<pending>{_PENDING})|(?P<passed>{_PASSED})|(?P<on>{_ON}))"
_VERB_BEFORE = re.compile(rf"(?<!\w){_VERB}\s(?:(?:فيها|لها|عليها|بها)\s)?$")
_VERB_AFTER = re.compile(rf"\s(?:(?:فيها|لها|عليها)\s)?{_VERB}(?!\w)")
# The superlative, then maybe how many and which rows: "أقرب 5 منافسات ينتهي موعد تقديم عروضها".
_EXTREME_BEFORE = re.compile(
    rf"(?<!\w)(?:ال)?(?P<x>{alternation(lx.DATE_EXTREME_TERMS)})"
    rf"(?P<rows>\s(?:\d{{1,3}}|{alternation(lx.SMALL_NUMBERS)}))?(?P<noun>\s(?:ال)?(?:منافس|مناقص)(?:ات|ه))?"
    r"(?:\s(?:اللي|التي))?\s$"
)
# A closing verb alone before a date ("تنتهي بعد 15 نوفمبر", "تقفل الشهر الجاي"): the deadline.
_CLOSING = re.compile(
    r"(?<!\w)(?:[وف])?(?:تنتهي|ينتهي|تقفل|يقفل|تغلق|يغلق|تسكر|يسكر)"
    r"(?:\s(?:عروضها|(?:ال)?تقديم (?:عليها|فيها)|باب (?:ال)?تقديم(?: (?:عليها|فيها))?))?(?!\w)"
)
# A window from the as-of date on, for dates still to come: "خلال 7 أيام", "في غضون أسبوعين",
# "الأسبوع القادم".
_DAY_UNITS = [word for word, (unit, _) in UNIT_WORDS.items() if unit in ("day", "week")]
_FORWARD = re.compile(
    rf"(?<!\w)(?:(?:خلال|في غضون|في ظرف)\s(?:ال)?(?:(?P<n>\d{{1,3}}|{alternation(lx.SMALL_NUMBERS)})\s)?(?:ال)?(?P<u>{alternation(_DAY_UNITS)})"
    r"(?:\s(?:ال)?(?:قادم|جاي|مقبل)(?:ه)?)?|(?:ال)?(?P<week>اسبوع) (?:ال)?(?:قادم|جاي|مقبل))(?!\w)"
)
# "أقرب موعد نهائي": with no column named, a final date is the deadline for offers.
_BARE_DEADLINE = re.compile(r"(?<!\w)(?:ال)?(?:اقرب|ابكر|اقدم|ابعد) (?:ال)?موعد(?: (?:ال)?نهايي| (?:ال)?اغلاق)?(?!\w)")
# A verb of publishing: the question's dates are then on the publish date.
_PUBLISHED = re.compile(r"(?<!\w)[وف]?(?:تم )?(?:طرحت|انطرحت|نشرت|انشرت|نزلت|اعلنت|طرحها|نشرها|طرحتها|نشرتها)(?!\w)")

# Each column in words: (passed, not passed yet).
_STATES: dict[str, list[str]] = lx.package_data("wording.json")["DATE_STATES"]
_PAST_OPENING = re.compile(r"(?:[وف])?(?:فتحت|انفتحت)\s")
_STILL = re.compile(r"(?:\s(?:فيها|لها|عليها))?\s(?:بعد|للحين|لحد الان|حتي الان)(?!\w)")


def _names_a_column(text: str) -> bool:
    """Whether ``text`` names the enquiry, opening or deadline date."""
    return any(pattern.search(text) for pattern in (ENQUIRY, OPENING, DEADLINE))


def read_date_columns(r: Reading, as_of: date) -> None:
    """Read, and blank out, the date column phrases of ``r`` (after its dates are read): the
    column the dates are on (``r.date_field``), a passed or pending condition at ``as_of``, or the
    date asked for (``r.date_extreme``). A phrase the reading cannot use is left for the accounting
    to refuse."""
    found: list[tuple[str, int, int, re.Match[str] | None, re.Match[str] | None]] = []
    if not r.dates:
        _forward_window(r, as_of)
    if r.dates and not _names_a_column(r.text):
        closing = _CLOSING.search(r.text)
        if closing and not _PUBLISHED.search(r.original):
            r.date_field = "deadline"
            r.blank(closing.start(), closing.end())
            r.strong = True
            return
    for pattern, field_name in ((ENQUIRY, "enquiry"), (OPENING, "opening"), (DEADLINE, "deadline")):
        for m in pattern.finditer(r.text):
            if not m.group(0).strip() or any(s < m.end() and m.start() < e for _, s, e, *_ in found):
                continue  # "آخر موعد للاستفسارات" is the enquiry date, not the deadline's "آخر موعد"
            verb = _VERB_BEFORE.search(r.text, 0, m.start()) or _VERB_AFTER.match(r.text, m.end())
            extreme = _EXTREME_BEFORE.search(r.text, 0, m.start())
            found.append((field_name, m.start(), m.end(), verb, extreme))
    if not found:
        bare = _BARE_DEADLINE.search(r.text)
        if bare:
            word = bare.group(0).split()[0].removeprefix("ال")
            r.date_extreme = (lx.DATE_EXTREME_TERMS[word], "deadline", False)
            r.blank(bare.start(), bare.end())
            r.strong = True
        return
    fields = {f for f, *_ in found}
    if len(fields) > 1:
        return  # two date columns in one question: left unread, refused
    field_name = found[0][0]
    published = bool(_PUBLISHED.search(r.original)) and bool(r.dates)
    for _, start, end, verb, extreme in found:
        kind = None
        if verb:
            kind = "pending" if verb.group("pending") else "passed" if verb.group("passed") else "on"
        elif _PAST_OPENING.match(r.text, start):
            kind = "passed"  # "فتحت عروضها": the verb is the column's own
        if field_name == "deadline" and not (verb or extreme):
            continue  # the deadline named alone: the intent reads it (dates on the deadline)
        if extreme:
            rows = bool(extreme.group("rows") or (extreme.group("noun") and extreme.group("noun").strip().endswith("ات")))
            r.date_extreme = (lx.DATE_EXTREME_TERMS[extreme.group("x")], field_name, rows)
            r.blank(extreme.start(), extreme.end("x"))  # how many and which rows are read by the others
        elif kind in ("passed", "pending") and (published or not r.dates):
            op = "<" if kind == "passed" else ">="
            state = _STATES[field_name][0 if kind == "passed" else 1]
            label = f"التي {state} (حتى تاريخ آخر البيانات)"
            r.conditions.append(Condition(field_name, op, (as_of.isoformat(),), label))
            still = _STILL.match(r.text, max(end, verb.end()) if verb else end)
            end = still.end() if still and kind == "pending" else end
        elif not r.dates or published:
            continue  # "تنتهي مهلة الاستفسارات" with no date, or beside a publish date: not read
        else:
            r.date_field = field_name
        if verb:
            start, end = min(start, verb.start()), max(end, verb.end())
        r.blank(start, end)
        r.strong = True


def apply_date_extreme(frame: QueryFrame | Refusal, r: Reading, as_of: date) -> QueryFrame | Refusal:
    """The frame of a question asking for a date itself ("أقرب موعد نهائي لتقديم العروض"): that
    date's minimum or maximum over the rows the conditions keep; the soonest one is the earliest
    not before ``as_of`` unless the question names its own period."""
    if r.date_extreme is None or not isinstance(frame, QueryFrame):
        return frame
    kind, field_name, rows = r.date_extreme
    if frame.entity != "tenders" or frame.group_by or frame.measure not in ("rows", "count"):
        return Refusal("not_understood", (kind,))
    conditions = frame.conditions
    if kind == "soonest" and not any(c.field == field_name for c in conditions):
        label = f"التي {_STATES[field_name][1]} (حتى تاريخ آخر البيانات)"
        conditions += (Condition(field_name, ">=", (as_of.isoformat(),), label),)
    order = "desc" if kind == "max" else "asc"
    if rows and frame.measure == "rows":
        # "أقرب 5 منافسات ينتهي موعد تقديم عروضها": the tenders themselves, in that date's order.
        limit = r.top_n or lx.DEFAULT_TOP_N
        return replace(frame, column=field_name, conditions=conditions, order=order, limit=limit, ranked=True)
    measure = "max" if kind == "max" else "min"
    return replace(frame, measure=measure, column=field_name, conditions=conditions, order=None, limit=None, ranked=False)


def _forward_window(r: Reading, as_of: date) -> None:
    """A window of days from ``as_of`` on, read only beside a date column (the dates still to come
    of a deadline): ``r.dates`` gets it."""
    if not (_names_a_column(r.text) or _CLOSING.search(r.text)):
        return
    m = _FORWARD.search(r.text)
    if m is None:
        return
    count_text = m.group("n")
    if m.group("week"):
        days, label = 7, "خلال الأسبوع القادم"
    else:
        count = int(count_text) if count_text and count_text.isdigit() else lx.SMALL_NUMBERS.get(count_text or "", 1)
        unit, said = UNIT_WORDS[m.group("u")]
        days = count * max(said, 1) * (7 if unit == "week" else 1)
        # The window as the question worded it, so that the answer states no other figure.
        words = unit_wording(m.group("u"))
        label = "خلال " + (f"{count_text} " if count_text and count_text.isdigit() else "") + words
        if count_text and not count_text.isdigit() and count in COUNT_WORDS:
            label = f"خلال {COUNT_WORDS[count]} {words}"
    label += " من تاريخ آخر البيانات"
    end = as_of + timedelta(days=days)
    r.dates.append(DateSpan(as_of.isoformat(), end.isoformat(), label))
    r.blank(m.start(), m.end())
