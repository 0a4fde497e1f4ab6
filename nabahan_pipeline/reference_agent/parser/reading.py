"""The working state of one parse: the question with every phrase already understood blanked out,
and what the passes have read from it so far."""

from __future__ import annotations

from dataclasses import dataclass, field

from nabahan_pipeline.reference_agent.parser.dates import DateSpan
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import blank
from nabahan_pipeline.reference_agent.parser.values import Comparison


@dataclass
class Reading:
    """One question being read."""

    text: str  # normalized question, with understood phrases blanked out
    original: str  # normalized question
    conditions: list[Condition] = field(default_factory=list)
    dates: list[DateSpan] = field(default_factory=list)
    values: list[Comparison] = field(default_factory=list)
    top_n: int | None = None
    rank: tuple[int, int] | None = None  # an ordinal rank asked for: (first rank, how many)
    rank_words: tuple[str, ...] = ()
    strong: bool = False  # names, statuses or types: procurement words
    weak: bool = False  # places, dates, values: could be about anything
    unplaced_dates: list[str] = field(default_factory=list)  # Hijri dates outside the calendar
    ungrouped_periods: list[str] = field(default_factory=list)  # "كل يوم": a figure per day, not read
    date_field: str | None = None  # the date column the dates are on, when not the publish date
    date_extreme: tuple[str, str, bool] | None = None  # (soonest | min | max, date column, rows) asked for
    question: str = ""  # as asked, before normalization (the case of Latin letters)
    # Groups of agencies asked about outside the data ("كم عدد الجامعات في السعودية").
    general: tuple[str, ...] = ()
    # Names that could be several agencies: (the phrase, the candidates' names).
    ambiguous: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def add(self, conditions: list[Condition], *, strong: bool) -> None:
        """Take the ``conditions`` a pass read: any makes the question ``strong`` or else ``weak``."""
        self.conditions += conditions
        if conditions:
            self.strong |= strong
            self.weak |= not strong

    def blank(self, start: int, end: int) -> None:
        """Blank out ``[start, end)`` of the working text: that phrase is understood."""
        self.text = blank(self.text, start, end)
