"""Numeric grounding: which numbers an insight states that the retrieved rows or the question do
not support.

A number is grounded when it agrees, at its stated precision, with one of these:

- a cell: a numeric cell, or a number inside a text cell (the year of '2024-03-05', the 12 of a
  name); the number of rows; per column, the count of non-empty cells and how many rows share each
  value; per numeric column, its sum, average, minimum and maximum;
- a number in the question;
- an integer 1..min(rows, 20), the numbering of a listed answer ("1) ... 2) ...");
- for a percentage only (a '%' sign, or بالمئة / في المئة after the number): a cell's share of
  its column total, a value's share of the rows, a cell in 0..1 written as a percentage, and (for
  results of at most 20 rows) the relative change between two cells of a column;
- for results of at most 20 rows, the difference and the ratio of two cells of one column (the
  "ahead by 200" and "twice as many" of a ranking).

Differences and ratios stop at 20 rows because their number grows with the square of the rows:
past that, nearly any number would find a pair, and a made-up figure would pass.

Precision: a number matches a candidate within half a unit of its last stated digit, at its
scale: "25%" covers 24.5..25.5, "1,234" covers 1233.5..1234.5, "1.5 مليون" covers
1,450,000..1,550,000. Word numbers without digits ("مليونين"، "عشرة آلاف") are read at the unit
of their scale word, or of their own magnitude when smaller ("نصف مليون": 100,000). Signs are
ignored: candidates and mentions are compared as magnitudes.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from nabahan_pipeline.domain.normalize import NumberMention, find_numbers, normalize_arabic

PAIRWISE_MAX_ROWS = 20
ENUMERATION_MAX = 20
# Percent words as they read after normalize_arabic (ة -> ه, ئ -> ي).
_PERCENT_WORDS = ("بالميه", "بالمايه", "في الميه", "في المايه")
_SCALE_MAGNITUDES = (
    (re.compile("مليار|بليون"), 1e9),
    (re.compile("مليون|ملايين|ملاين"), 1e6),
    (re.compile("الف|الاف"), 1e3),
)
_DIGIT = re.compile(r"\d")


def ungrounded_numbers(insight: str, rows: Sequence[Mapping[str, Any]], question: str) -> list[str]:
    """The numbers stated in ``insight`` (as written, each once, in order) that no value derived
    from ``rows`` or stated in ``question`` supports; see the module docstring for the rules."""
    mentions = find_numbers(insight or "")
    if not mentions:
        return []
    evidence = _Evidence(rows, question or "")
    ungrounded: list[str] = []
    for mention, (written, percent_word) in zip(mentions, _written_forms(insight, mentions)):
        if not evidence.supports(mention, percent=mention.percent or percent_word) and written not in ungrounded:
            ungrounded.append(written)
    return ungrounded


def tolerance(mention: NumberMention) -> float:
    """Half a unit of the mention's last stated digit, at its scale (see the module docstring)."""
    if not mention.scaled:
        unit = 10.0 ** -mention.decimals
    else:
        scale = next((size for pattern, size in _SCALE_MAGNITUDES if pattern.search(mention.text)), 1.0)
        if _DIGIT.search(mention.text):
            unit = scale * 10.0 ** -mention.decimals
        else:
            magnitude = 10.0 ** math.floor(math.log10(mention.value)) if mention.value > 0 else scale
            unit = min(scale, magnitude)
    return unit / 2


class _Evidence:
    """The candidate values one answer's rows and question support, kept sorted for range look-ups."""

    def __init__(self, rows: Sequence[Mapping[str, Any]], question: str):
        self.enumeration_max = min(len(rows), ENUMERATION_MAX)
        plain: list[float] = [len(rows)]
        plain += (mention.value for mention in find_numbers(question))
        percent_only: list[float] = []
        non_percent: list[float] = []
        text_numbers: dict[str, list[float]] = {}
        rows = [row if isinstance(row, Mapping) else dict(enumerate(_as_sequence(row))) for row in rows]
        names = list(dict.fromkeys(name for row in rows for name in row))
        for name in names:
            cells = [row.get(name) for row in rows]
            numbers = [float(cell) for cell in cells if _is_number(cell)]
            for cell in cells:
                if isinstance(cell, str):
                    if cell not in text_numbers:
                        text_numbers[cell] = [mention.value for mention in find_numbers(cell)]
                    plain += text_numbers[cell]
            plain += numbers
            present = [cell for cell in cells if cell is not None and not _is_nan(cell)]
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
                percent_only += changes
        self.plain = _sorted_magnitudes(plain)
        self.percent_only = _sorted_magnitudes(percent_only)
        self.non_percent = _sorted_magnitudes(non_percent)

    def supports(self, mention: NumberMention, *, percent: bool) -> bool:
        value = mention.value
        if (
            not (percent or mention.scaled or mention.decimals)
            and value == int(value)
            and 1 <= value <= self.enumeration_max
        ):
            return True
        margin = tolerance(mention) + 1e-9 * max(1.0, value)
        extra = self.percent_only if percent else self.non_percent
        return _any_within(self.plain, value, margin) or _any_within(extra, value, margin)


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


def _any_within(candidates: list[float], value: float, margin: float) -> bool:
    i = bisect.bisect_left(candidates, value - margin)
    return i < len(candidates) and candidates[i] <= value + margin


def _sorted_magnitudes(values: Iterable[float]) -> list[float]:
    return sorted(abs(value) for value in values if math.isfinite(value))


def _as_sequence(row: Any) -> Sequence[Any]:
    # A row that is not a column -> value mapping: its values by position.
    return row if isinstance(row, (list, tuple)) else [row]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _hashable(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, bytes)) else repr(value)


# --- the numbers as written ---------------------------------------------------------------------


def _written_forms(insight: str, mentions: list[NumberMention]) -> list[tuple[str, bool]]:
    """For each mention, in order: its text as written in ``insight`` (find_numbers reports it
    normalized, e.g. with Western digits) and whether a percent word follows it."""
    forms: list[tuple[str, bool]] = []
    cursor = 0
    for mention in mentions:
        span = _locate(insight, mention.text, cursor)
        if span is None:
            forms.append((mention.text, False))
            continue
        start, end = span
        cursor = end
        after = normalize_arabic(insight[end : end + 16])
        forms.append((insight[start:end].strip(), after.startswith(_PERCENT_WORDS)))
    return forms


def _locate(text: str, target: str, cursor: int) -> tuple[int, int] | None:
    """The first span of ``text`` from ``cursor`` on that normalizes to ``target``."""
    for start in range(cursor, len(text)):
        if normalize_arabic(text[start]) != target[0]:
            continue
        if target[0].isdigit() and start > 0 and normalize_arabic(text[start - 1])[-1:].isdigit():
            continue  # inside a longer digit run
        for end in range(start + 1, len(text) + 1):
            normalized = normalize_arabic(text[start:end])
            if normalized == target:
                return start, end
            # Normalization only shortens a text by a separator at a time, so once the prefix
            # reads longer than the target it cannot come back to it.
            if len(normalized) > len(target) + 1:
                break
    return None
