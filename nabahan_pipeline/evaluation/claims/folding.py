"""An insight folded as normalize_arabic folds it, with where each folded character came from, so
that the words and labels found in the folded text and the numbers ``find_numbers`` reads in the
original speak of the same places; and whole-word search for phrases with their proclitics."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers

# Proclitics a word may carry: و، ف and ب، ل، ك; "لل" stands for ل + ال.
PROCLITICS = r"(?:[وف]?[بلك]?)"


@dataclass(frozen=True)
class Folded:
    """``text`` folded; ``origin[i]`` is the index in the original of folded character ``i``. Each
    pattern is run over it once (``find``), its numbers read once (``numbers``): an insight's rules
    ask for the same words again."""

    text: str
    origin: tuple[int, ...]
    original: str
    _found: dict[tuple, tuple[re.Pattern[str], list]] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of(cls, original: str) -> Folded:
        parts = [*map(_fold_char, original)]
        # Most texts fold a character to one: each folded character is then where it was.
        same = all(len(part) == 1 for part in parts)
        origin = range(len(parts)) if same else (i for i, part in enumerate(parts) for _ in part)
        return cls("".join(parts), tuple(origin), original)

    @functools.cached_property
    def numbers(self) -> list[NumberMention]:
        """The numbers the original states (``find_numbers``), in order: not to be changed."""
        return find_numbers(self.original)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span in the original of the folded span ``start``..``end``."""
        if start >= len(self.origin):
            return len(self.original), len(self.original)
        return self.origin[start], (self.origin[end - 1] + 1 if end > start else self.origin[start])

    def find(
        self, pattern: re.Pattern[str], start: int = 0, end: int | None = None
    ) -> list[tuple[int, int, re.Match[str]]]:
        """Each match of ``pattern`` with its span in the original; within the original's
        ``start``..``end`` as in that slice folded alone (a lookbehind sees the character before
        ``start``: callers cut where a non-word character ends a sentence)."""
        key = (id(pattern), start, end)  # by id, the pattern kept beside its matches: its hash reads its code
        kept = self._found.get(key)
        if kept is None or kept[0] is not pattern:
            within = [bisect.bisect_left(self.origin, at) for at in (start, len(self.original) if end is None else end)]
            kept = self._found[key] = (pattern, [(*self.original_span(m.start(), m.end()), m)
                                                 for m in pattern.finditer(self.text, *within)])
        return kept[1]


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
