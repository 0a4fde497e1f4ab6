"""What a result's rows say, as the claims are checked against it: each row's numbers and what one
row derives (share of its column's total, ratio, difference, sum of two of its cells), what the
whole result says (column totals and averages, the row count, the question's numbers and the
dates it implies), and a claimed number matched at its precision.

A labelled number must come from its label's rows (``RowValues.of_rows``) or from the whole
result; an unattached number from anything the rows derive (``grounding.Evidence``, widened here).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nabahan_pipeline.arabic.numbers import NumberMention, Reading, find_numbers
from nabahan_pipeline.evaluation.claims.implied_dates import implied_numbers
from nabahan_pipeline.evaluation.grounding import PAIRWISE_MAX_ROWS, Evidence

# Rows whose within-row derivations are made: a pair of cells per row, a few cells per row.
DERIVED_ROWS_MAX = 2_000


@dataclass(frozen=True)
class Values:
    """Candidate values: ``plain`` for any number, ``percent`` for a percentage only."""

    plain: tuple[float, ...]
    percent: tuple[float, ...] = ()

    def supports(self, mention: NumberMention, approximate: bool = False) -> bool:
        """True when any reading of ``mention`` matches a candidate at its precision (the
        precision of its significant digits when ``approximate``)."""
        for reading in widened(mention).readings if approximate else mention.readings:
            margin = reading.unit / 2 + 1e-9 * max(1.0, abs(reading.value))
            pool = (*self.plain, *self.percent) if mention.percent else self.plain
            if any(abs(abs(value) - reading.value) <= margin for value in pool):
                return True
        return False


def widened(mention: NumberMention) -> NumberMention:
    """``mention`` read at the precision of its significant digits: "5,000" at a thousand,
    "1,250" at ten, "4,962" at one (an approximation: "قرابة 5,000")."""
    return replace(mention, readings=tuple(Reading(r.value, max(r.unit, significant_unit(r.value))) for r in mention.readings))


def significant_unit(value: float) -> float:
    """The place value of the last non-zero digit of a whole number (0 for a fraction: its
    stated digits are its precision)."""
    if not value or not float(value).is_integer():
        return 0.0
    unit, number = 1.0, int(abs(value))
    while number and number % 10 == 0:
        number //= 10
        unit *= 10
    return unit


@dataclass(frozen=True)
class ResultValues:
    """One result (the rows the agent's SQL returned) and its question, read once for every claim."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    numeric_columns: tuple[int, ...]
    whole: Values  # what the whole result says, no row's own cell
    unattached: Evidence  # grounding's bag, widened by within-row derivations and implied dates
    question_numbers: frozenset[float]  # what the question states: a threshold, never a value it bounds

    @classmethod
    def of(cls, columns: Sequence[str], rows: Sequence[Sequence[Any]], question: str) -> ResultValues:
        rows = tuple(tuple(row) for row in rows)
        width = max((len(row) for row in rows), default=0)
        names = tuple(columns) + tuple(str(j) for j in range(len(columns), width))
        numeric = tuple(j for j in range(width) if any(_is_number(row[j]) for row in rows if j < len(row)))
        implied = implied_numbers(question)
        stated = frozenset(r.value for m in find_numbers(question) for r in m.readings)
        whole_plain: list[float] = [len(rows), *implied, *stated]
        for j in range(width):
            present = [row[j] for row in rows if j < len(row) and row[j] is not None]
            whole_plain.append(len(present))
            numbers = [float(cell) for cell in present if _is_number(cell)]
            if numbers:
                whole_plain += [sum(numbers), sum(numbers) / len(numbers)]
        derived_plain: list[float] = []
        derived_percent: list[float] = []
        for row in rows[:DERIVED_ROWS_MAX]:
            plain, percent = _within_row(row)
            derived_plain += plain
            derived_percent += percent
        records = [dict(zip(names, row)) for row in rows]
        unattached = Evidence(records, question, extra_plain=derived_plain + implied, extra_percent=derived_percent)
        return cls(names, rows, numeric, Values(tuple(whole_plain)), unattached, stated)

    def of_rows(self, indices: Iterable[int], own: bool = False) -> Values:
        """What the rows ``indices`` say: their numbers (cells, and numbers in text cells), what
        each derives within itself, their cells' shares of their column's total, and (for results
        of at most PAIRWISE_MAX_ROWS rows, unless ``own``) their differences, ratios and changes
        against the other rows of their column and what the whole result says."""
        chosen = sorted(set(indices))
        plain: list[float] = []
        percent: list[float] = []
        for i in chosen:
            row = self.rows[i]
            plain += _row_numbers(row)
            derived, shares = _within_row(row)
            plain += derived
            percent += shares
            for j in self.numeric_columns:
                cell = row[j] if j < len(row) else None
                if not _is_number(cell):
                    continue
                column = [float(other[j]) for other in self.rows if j < len(other) and _is_number(other[j])]
                total = sum(column)
                if total > 0 and min(column) >= 0:
                    percent.append(100.0 * float(cell) / total)
                if 0 <= float(cell) <= 1:
                    percent.append(100.0 * float(cell))
                if len(self.rows) <= PAIRWISE_MAX_ROWS and not own:
                    for other in column:
                        plain.append(abs(float(cell) - other))
                        if other and cell:
                            plain.append(max(abs(float(cell)), abs(other)) / min(abs(float(cell)), abs(other)))
                            percent += [100.0 * abs(float(cell) - other) / abs(other), 100.0 * abs(float(cell) - other) / abs(float(cell))]
        return Values(tuple(plain) + (() if own else self.whole.plain), tuple(percent))

    def cells(self, indices: Iterable[int], columns: Iterable[int] | None = None) -> list[tuple[int, int, float]]:
        """The numeric cells of rows ``indices`` (in ``columns``, every numeric column if None), as
        (row, column, value)."""
        wanted = self.numeric_columns if columns is None else tuple(columns)
        return [
            (i, j, float(self.rows[i][j]))
            for i in sorted(set(indices))
            for j in wanted
            if j < len(self.rows[i]) and _is_number(self.rows[i][j])
        ]


def _row_numbers(row: Sequence[Any]) -> list[float]:
    numbers: list[float] = []
    for cell in row:
        if _is_number(cell):
            numbers.append(float(cell))
        elif isinstance(cell, str):
            numbers += (r.value for m in find_numbers(cell) for r in m.readings)
    return numbers


def _within_row(row: Sequence[Any]) -> tuple[list[float], list[float]]:
    """What two numeric cells of one row derive: ratio both ways, difference, sum (plain), and the
    ratio as a percentage ("1,200 من أصل 9,000، أي 13.3%"; an average from a sum and a count)."""
    numbers = [float(cell) for cell in row if _is_number(cell)]
    plain: list[float] = []
    percent: list[float] = []
    for i, a in enumerate(numbers):
        for b in numbers[i + 1 :]:
            plain += [abs(a - b), a + b]
            if a and b:
                plain += [a / b, b / a]
                percent += [100.0 * a / b, 100.0 * b / a, 100.0 * abs(a - b) / abs(a), 100.0 * abs(a - b) / abs(b)]
    return plain, percent


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def format_number(value: float) -> str:
    """A value as a row says it in a reason: thousands grouped, at most two decimals."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")
