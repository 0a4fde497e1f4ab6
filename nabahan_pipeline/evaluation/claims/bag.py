"""The bag of numbers: every value a result's rows derive or its question states, no row or reading
named; the claims checker's last resort for a number tied to no row, measure or comparator.

A number is in the bag when it agrees, at its stated precision, with: a cell (or a number inside a
text cell); the row count; per column, its non-empty cells and how many rows share each value; per
numeric column, its sum, average, minimum and maximum; a number of the question; the numbering of a
listed answer (1..min(rows, 20)); for a percentage only, a cell's share of its column total, a
value's share of the rows, a cell in 0..1 written as a percentage. The differences, ratios and
relative changes of two cells of a column count for results of at most 20 rows: their number grows
with the square of the rows, and past that nearly any made-up figure would find a pair.

Precision: within half a unit of the last stated digit, at its scale ("25%" covers 24.5..25.5,
"1.5 مليون" 1,450,000..1,550,000); magnitudes compared, signs ignored; a written form with several
readings ("20.000", "1,234") is in the bag when any reading is, each at its own precision.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from nabahan_pipeline.arabic.numbers import NumberMention, Reading, find_numbers

PAIRWISE_MAX_ROWS = 20
ENUMERATION_MAX = 20


class Evidence:
    """The candidate values one answer's rows and question support, kept sorted for range look-ups;
    ``extra_plain`` and ``extra_percent`` add values of the caller's (the claims' derivations within
    a row, the dates a question implies); without ``pairwise_changes`` the relative changes of two
    cells are left to the caller (between periods, only on the earlier one's base)."""

    def __init__(
        self,
        rows: Sequence[Sequence[Any]],
        question: str,
        extra_plain: Iterable[float] = (),
        extra_percent: Iterable[float] = (),
        pairwise_changes: bool = True,
    ):
        self.enumeration_max = min(len(rows), ENUMERATION_MAX)
        plain: list[float] = [len(rows), *extra_plain]
        plain += (reading.value for mention in find_numbers(question) for reading in mention.readings)
        percent_only: list[float] = list(extra_percent)
        non_percent: list[float] = []
        text_numbers: dict[str, list[float]] = {}
        for cells in _columns(rows):
            numbers = [float(cell) for cell in cells if is_number(cell)]
            for cell in cells:
                if isinstance(cell, str):
                    if cell not in text_numbers:
                        text_numbers[cell] = [r.value for mention in find_numbers(cell) for r in mention.readings]
                    plain += text_numbers[cell]
            plain += numbers
            present = [cell for cell in cells
                       if cell is not None and not (isinstance(cell, float) and math.isnan(cell))]
            frequencies = Counter(_hashable(cell) for cell in present).values()
            plain += [len(present), *frequencies]
            percent_only += (100.0 * count / len(rows) for count in frequencies)
            if numbers:
                total = sum(numbers)
                plain += [total, total / len(numbers), min(numbers), max(numbers)]
                percent_only += _shares(numbers, total)
            if numbers and len(rows) <= PAIRWISE_MAX_ROWS:
                differences, ratios, changes = _pairwise(numbers)
                non_percent += differences + ratios
                percent_only += changes if pairwise_changes else []
        self.plain = sorted_magnitudes(plain)
        self.percent_only = sorted_magnitudes(percent_only)
        self.non_percent = sorted_magnitudes(non_percent)

    def supports(self, mention: NumberMention) -> bool:
        """True when any reading of ``mention`` is supported."""
        return any(self._supports(reading, mention) for reading in mention.readings)

    def _supports(self, reading: Reading, mention: NumberMention) -> bool:
        value = reading.value
        numbering = not (mention.percent or mention.scaled) and reading.unit == 1 and value == int(value)
        if numbering and 1 <= value <= self.enumeration_max:
            return True
        margin = reading.unit / 2 + 1e-9 * max(1.0, value)
        extra = self.percent_only if mention.percent else self.non_percent
        return any_within(self.plain, value, margin) or any_within(extra, value, margin)


def _shares(numbers: list[float], total: float) -> list[float]:
    shares = [100.0 * number / total for number in numbers] if total > 0 and min(numbers) >= 0 else []
    # A fraction in the data (0.246) written as a percentage (24.6%).
    return shares + [100.0 * number for number in numbers if 0 <= number <= 1]


def _pairwise(numbers: list[float]) -> tuple[list[float], list[float], list[float]]:
    """Differences, ratios (larger over smaller) and relative changes (in %) of every two cells."""
    differences, ratios, changes = [], [], []
    for i, a in enumerate(numbers):
        for b in numbers[i + 1 :]:
            difference = abs(a - b)
            differences.append(difference)
            if a and b:
                ratios.append(max(abs(a), abs(b)) / min(abs(a), abs(b)))
                changes += [100.0 * difference / abs(a), 100.0 * difference / abs(b)]
    return differences, ratios, changes


def any_within(candidates: Sequence[float], value: float, margin: float) -> bool:
    """Any of the sorted ``candidates`` within ``margin`` of ``value``."""
    i = bisect.bisect_left(candidates, value - margin)
    return i < len(candidates) and candidates[i] <= value + margin


def sorted_magnitudes(*pools: Iterable[float]) -> tuple[float, ...]:
    """The finite values of ``pools`` as magnitudes, sorted for ``any_within``."""
    return tuple(sorted(abs(value) for pool in pools for value in pool if math.isfinite(value)))


def _columns(rows: Sequence[Sequence[Any]]) -> Iterator[list[Any]]:
    """Each column's cells (None where a row lacks it), one column at a time: rows read by
    position, not copied into a mapping each (a 30 MiB result would be tens of MiB of dicts)."""
    for j in range(max((len(row) for row in rows), default=0)):
        yield [row[j] if j < len(row) else None for row in rows]


def is_number(value: Any) -> bool:
    """A finite int or float, not a bool: a cell that holds a figure."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _hashable(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, bytes)) else repr(value)
