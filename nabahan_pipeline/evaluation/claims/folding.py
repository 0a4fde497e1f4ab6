"""An insight folded as normalize_arabic folds it, with where each folded character came from, so
that the words and labels found in the folded text and the numbers ``find_numbers`` reads in the
original speak of the same places; and whole-word search for phrases with their proclitics."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from nabahan_pipeline.arabic.normalize import normalize_arabic

# Proclitics a word may carry: و، ف and ب، ل، ك; "لل" stands for ل + ال.
PROCLITICS = r"(?:[وف]?[بلك]?)"


@dataclass(frozen=True)
class Folded:
    """``text`` folded; ``origin[i]`` is the index in the original of folded character ``i``."""

    text: str
    origin: tuple[int, ...]
    original: str

    @classmethod
    def of(cls, original: str) -> Folded:
        parts = [_fold_char(ch) for ch in original]
        origin: list[int] = []
        for i, part in enumerate(parts):
            origin.extend([i] * len(part))
        return cls("".join(parts), tuple(origin), original)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span in the original of the folded span ``start``..``end``."""
        if start >= len(self.origin):
            return len(self.original), len(self.original)
        return self.origin[start], (self.origin[end - 1] + 1 if end > start else self.origin[start])

    def find(self, pattern: re.Pattern[str]) -> Iterator[tuple[int, int, re.Match[str]]]:
        """Each match of ``pattern`` with its span in the original."""
        for match in pattern.finditer(self.text):
            yield (*self.original_span(match.start(), match.end()), match)


@functools.lru_cache(maxsize=4096)  # characters only: a bounded set
def _fold_char(ch: str) -> str:
    return " " if ch.isspace() else normalize_arabic(ch)


def fold(text: str) -> str:
    """A phrase folded for matching: normalize_arabic."""
    return normalize_arabic(text)


def phrase_pattern(phrases: Iterable[str], proclitics: bool = True) -> re.Pattern[str]:
    """One pattern matching any of ``phrases`` (folded, longest first) as whole words; with
    ``proclitics``, a prefix و/ف/ب/ل/ك is allowed, and ل + ال written لل."""
    forms: set[str] = set()
    for phrase in phrases:
        folded = fold(phrase)
        if folded:
            forms.add(re.escape(folded))
            if proclitics and folded.startswith("ال"):
                forms.add(re.escape("لل" + folded[2:]))
    alternatives = "|".join(sorted(forms, key=len, reverse=True))
    prefix = PROCLITICS if proclitics else ""
    return re.compile(rf"(?<![\w]){prefix}(?:{alternatives})(?![\w])")
