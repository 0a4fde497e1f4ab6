"""Every date reader of the parser, in the order they must run: the relative years written over
first, then parts of periods (of Hijri months too), Hijri dates, relative periods, bounds of days
and months, the Gregorian readers (``dates``), today and yesterday; then the spans put together
(bounds said together are one span, a negated span is marked) and what no reader could place."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date

from nabahan_pipeline.reference_agent.parser.dates import DateSpan, read_dates
from nabahan_pipeline.reference_agent.parser.day_bounds import intersect_bounds, read_day_bounds
from nabahan_pipeline.reference_agent.parser.hijri_dates import read_hijri_dates, unread_hijri
from nabahan_pipeline.reference_agent.parser.patterns import blank
from nabahan_pipeline.reference_agent.parser.per_value import compared_years
from nabahan_pipeline.reference_agent.parser.period_parts import read_period_parts
from nabahan_pipeline.reference_agent.parser.relative_periods import (
    anchor_relative_years, per_day_phrases, read_relative_days, read_relative_periods, reword_anchored,
)

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
    spans: list[DateSpan] = []
    for read in (
        read_period_parts, read_hijri_dates, read_relative_periods, read_day_bounds, read_dates,
        read_relative_days,
    ):
        text, found = read(text, as_of)
        spans += found
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
