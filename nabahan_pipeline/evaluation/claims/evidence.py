"""What a result's rows say, read once for every claim: each row's numbers and what one row derives
(shares, ratios, differences, sums of its cells), what the whole result says (totals, averages, the
row count, the question's numbers and the dates it implies), and a claimed number matched at its
precision. A labelled number comes from its rows (``of_rows``) or the whole result; an unattached
one from the bag (``bag.Evidence``, widened here).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nabahan_pipeline.arabic.numbers import NumberMention, Reading, find_numbers
from nabahan_pipeline.evaluation.claims.implied_dates import implied_numbers, period_lengths
from nabahan_pipeline.evaluation.claims.bag import (
    PAIRWISE_MAX_ROWS, Evidence, any_within, is_number, sorted_magnitudes)

_YEAR_NAME = re.compile(r"year|سنه|عام")
# Rows whose within-row derivations are made: a pair of cells per row, a few cells per row.
DERIVED_ROWS_MAX = 2_000


@dataclass(frozen=True)
class Values:
    """Candidate values as sorted magnitudes, looked up by bisection: ``plain`` for any number,
    ``percent`` for a percentage only."""

    plain: tuple[float, ...]
    percent: tuple[float, ...] = ()

    def supports(self, mention: NumberMention, approximate: bool = False) -> bool:
        """True when any reading of ``mention`` matches a candidate at its precision (the
        precision of its significant digits when ``approximate``)."""
        for reading in widened(mention).readings if approximate else mention.readings:
            margin = reading.unit / 2 + 1e-9 * max(1.0, abs(reading.value))
            pools = (self.plain, self.percent) if mention.percent else (self.plain,)
            if any(any_within(pool, reading.value, margin) for pool in pools):
                return True
        return False


def widened(mention: NumberMention) -> NumberMention:
    """``mention`` read at the precision of its significant digits: "5,000" at a thousand,
    "1,250" at ten, "4,962" at one (an approximation: "قرابة 5,000")."""
    readings = tuple(Reading(r.value, max(r.unit, significant_unit(r.value))) for r in mention.readings)
    return replace(mention, readings=readings)


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
    question: str
    implied: tuple[float, ...]  # the dates the question implies
    question_numbers: frozenset[float]  # what the question states: a threshold, never a value it bounds

    @classmethod
    def of(cls, columns: Sequence[str], rows: Sequence[Sequence[Any]], question: str) -> ResultValues:
        rows = tuple(tuple(row) for row in rows)
        width = max((len(row) for row in rows), default=0)
        names = tuple(columns) + tuple(str(j) for j in range(len(columns), width))
        implied = implied_numbers(question)
        stated = frozenset(r.value for m in find_numbers(question) for r in m.readings)
        whole_plain: list[float] = [len(rows), *implied, *stated]
        numeric = []
        for j in range(width):
            present = [row[j] for row in rows if j < len(row) and row[j] is not None]
            whole_plain.append(len(present))
            numbers = [float(cell) for cell in present if is_number(cell)]
            if numbers:
                numeric.append(j)
                whole_plain += [sum(numbers), sum(numbers) / len(numbers)]
        return cls(names, rows, tuple(numeric), Values(sorted_magnitudes(whole_plain)), question, implied, stated)

    @functools.cached_property
    def cells_and_whole(self) -> Values:
        """Every numeric cell and what the whole result says: where most numbers are found."""
        plain = [float(cell) for row in self.rows for cell in row if is_number(cell)]
        return Values(sorted_magnitudes(plain, self.whole.plain))

    @functools.cached_property
    def near(self) -> Values:
        """What the first DERIVED_ROWS_MAX rows derive each on its own (shares of their column's
        total, ratios and differences of two cells of a row, a figure per month or day of the
        period the question names), with the cells and the whole result."""
        plain, percent = self._within_rows
        lengths = period_lengths(self.question) if len(self.rows) <= PAIRWISE_MAX_ROWS else ()
        per_period = [float(cell) / length for row in self.rows[:DERIVED_ROWS_MAX]
                      for cell in row if is_number(cell) for length in lengths]
        shares = [share for _, j, value in self.cells(range(min(len(self.rows), DERIVED_ROWS_MAX)))
                  for share in self._shares(j, value)]
        return Values(sorted_magnitudes(plain, per_period, self.cells_and_whole.plain),
                      sorted_magnitudes(percent, shares))

    @functools.cached_property
    def _within_rows(self) -> tuple[list[float], list[float]]:
        """What two cells of one row derive (``_within_row``), over the first DERIVED_ROWS_MAX rows."""
        plain: list[float] = []
        percent: list[float] = []
        for row in self.rows[:DERIVED_ROWS_MAX]:
            derived, shares = _within_row(row)
            plain += derived
            percent += shares
        return plain, percent

    @functools.cached_property
    def periods(self) -> dict[int, float]:
        """Rows whose label is a year or a month ("2024", "2025-03"): row -> its order; empty
        unless every row has one."""
        found: dict[int, float] = {}
        for i, row in enumerate(self.rows):
            for j, cell in enumerate(row):
                if isinstance(cell, str) and re.fullmatch(r"(19|20)\d\d(-\d\d)?", cell):
                    found[i] = float(cell.replace("-", "."))
                    break
                if is_number(cell) and _YEAR_NAME.search(self.columns[j].lower()) and 1900 <= float(cell) <= 2100:
                    found[i] = float(cell)
                    break
        return found if len(found) == len(self.rows) else {}

    @functools.cached_property
    def unattached(self) -> Evidence:
        """The bag (every value the rows derive or the question states), widened by the
        derivations within a row and the dates the question implies; a change between periods
        on the earlier one's base only. Built only when asked for."""
        plain, percent = self._within_rows
        changes = self._period_changes() if self.periods else []
        return Evidence(self.rows, self.question, extra_plain=plain + list(self.implied),
                        extra_percent=list(percent) + changes, pairwise_changes=not self.periods)

    def _period_changes(self, indices: Iterable[int] | None = None) -> list[float]:
        """The change between two periods' rows as a percentage of the earlier one's (``indices``:
        of these rows against every other; all pairs when None); small results only."""
        if len(self.rows) > PAIRWISE_MAX_ROWS:
            return []
        periods = self.periods
        chosen = range(len(self.rows)) if indices is None else indices
        changes = []
        for i in chosen:
            for k in range(len(self.rows)):
                if k == i or (indices is None and k < i):
                    continue
                earlier = i if periods[i] < periods[k] else k
                for _, j, _ in self.cells([i]):
                    a, b = self.rows[i][j], self.rows[k][j] if j < len(self.rows[k]) else None
                    base = self.rows[earlier][j] if j < len(self.rows[earlier]) else None
                    if is_number(a) and is_number(b) and is_number(base) and base:
                        changes.append(100.0 * abs(float(a) - float(b)) / abs(float(base)))
        return changes

    def of_rows(self, indices: Iterable[int], own: bool = False) -> Values:
        """What the rows ``indices`` say: their numbers (cells, and numbers in text cells), what
        each derives within itself, their cells' shares of their column's total, and (for results
        of at most PAIRWISE_MAX_ROWS rows, unless ``own``) their differences, ratios and changes
        against the other rows of their column and what the whole result says."""
        key = (tuple(sorted(set(indices))), own)  # asked again for each claim of a row: kept
        if key not in self._rows_said:
            self._rows_said[key] = self._of_rows(*key)
        return self._rows_said[key]

    def _of_rows(self, indices: tuple[int, ...], own: bool) -> Values:
        plain: list[float] = []
        percent: list[float] = []
        for i in indices:
            plain += _row_numbers(self.rows[i])
            derived, shares = _within_row(self.rows[i])
            plain += derived
            percent += shares
            for _, j, cell in self.cells([i]):
                percent += self._shares(j, cell)
                if len(self.rows) <= PAIRWISE_MAX_ROWS and not own:
                    for other in self.numeric_column(j)[0]:
                        plain.append(abs(cell - other))
                        if other and cell:
                            plain.append(max(abs(cell), abs(other)) / min(abs(cell), abs(other)))
                            change = abs(cell - other)
                            if not self.periods:  # between periods: on the earlier's base only
                                percent += [100.0 * change / abs(other), 100.0 * change / abs(cell)]
        if self.periods and not own:
            percent += self._period_changes(list(indices))
        return Values(sorted_magnitudes(plain, () if own else self.whole.plain), sorted_magnitudes(percent))

    def _shares(self, j: int, value: float) -> list[float]:
        """A cell's share of its column's total (when it has one), and as a percentage when it is a fraction."""
        total = self.numeric_column(j)[1]
        shares = [] if total is None else [100.0 * value / total]
        return [*shares, 100.0 * value] if 0 <= value <= 1 else shares

    def numeric_column(self, j: int) -> tuple[list[float], float | None]:
        """Column ``j``'s numbers, and their total when they are none negative and it is above 0."""
        if j not in self._columns:
            column = [float(row[j]) for row in self.rows if j < len(row) and is_number(row[j])]
            total = sum(column)
            self._columns[j] = (column, total if column and total > 0 and min(column) >= 0 else None)
        return self._columns[j]

    @functools.cached_property
    def _columns(self) -> dict[int, tuple[list[float], float | None]]:
        """Each column's numbers and total, by index (``numeric_column``)."""
        return {}

    @functools.cached_property
    def _rows_said(self) -> dict[tuple[tuple[int, ...], bool], Values]:
        """What each set of rows says, by its sorted indices and ``own`` (``of_rows``)."""
        return {}

    def cells(self, indices: Iterable[int], columns: Iterable[int] | None = None) -> list[tuple[int, int, float]]:
        """The numeric cells of rows ``indices`` (in ``columns``, every numeric column if None), as
        (row, column, value)."""
        wanted = self.numeric_columns if columns is None else tuple(columns)
        return [(i, j, float(self.rows[i][j])) for i in sorted(set(indices)) for j in wanted
                if j < len(self.rows[i]) and is_number(self.rows[i][j])]


def _row_numbers(row: Sequence[Any]) -> list[float]:
    numbers: list[float] = []
    for cell in row:
        if is_number(cell):
            numbers.append(float(cell))
        elif isinstance(cell, str):
            numbers += (r.value for m in find_numbers(cell) for r in m.readings)
    return numbers


def _within_row(row: Sequence[Any]) -> tuple[list[float], list[float]]:
    """What two numeric cells of one row derive: ratio both ways, difference, sum (plain), and the
    ratio as a percentage ("1,200 من أصل 9,000، أي 13.3%"; an average from a sum and a count)."""
    numbers = [float(cell) for cell in row if is_number(cell)]
    plain: list[float] = []
    percent: list[float] = []
    for i, a in enumerate(numbers):
        for b in numbers[i + 1 :]:
            plain += [abs(a - b), a + b]
            if a and b:
                plain += [a / b, b / a]
                percent += [100.0 * a / b, 100.0 * b / a, 100.0 * abs(a - b) / abs(a), 100.0 * abs(a - b) / abs(b)]
    return plain, percent


def format_number(value: float) -> str:
    """A value as a row says it in a reason: thousands grouped, at most two decimals."""
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")
