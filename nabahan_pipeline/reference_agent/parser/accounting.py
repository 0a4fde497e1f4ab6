"""Every word of a question accounted for: the words each pass of the parser consumed (names,
dates, values, places, statuses and types), the words of what is asked (table, measure, column,
grouping, order) and the fillers, and the content words left over, which the parser did not
understand and which make the agent refuse rather than answer a different question."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.patterns import (
    AVG,
    AWARD,
    BIDS,
    BOOKLET,
    COMPARE,
    COUNT,
    DEADLINE,
    DIMENSIONS,
    DURATION,
    FILLERS,
    GROUP_CUE,
    LIST_WORDS,
    OLDEST,
    PROJECT,
    PROJECT_ADJ,
    QUESTION_FORM,
    RECENT,
    SHARE,
    SOONEST,
    SPREAD_CUE,
    SUM,
    SUPERLATIVE,
    TENDER,
    TOP_WORDS,
    VALUE,
    WHICH,
    blank,
)

# The words left after the filter passes, read by what is asked (``intent``), part by part.
INTENT_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("column", DEADLINE),
    ("grouping", DIMENSIONS),
    ("table", PROJECT),
    ("table", TENDER),
    ("table", PROJECT_ADJ),
    ("column", BOOKLET),
    ("column", BIDS),
    ("column", AWARD),
    ("column", DURATION),
    ("column", VALUE),
    ("grouping", GROUP_CUE),
    ("grouping", SPREAD_CUE),
    ("grouping", COMPARE),
    ("measure", SHARE),
    ("measure", AVG),
    ("measure", SUM),
    ("measure", COUNT),
    ("order", SUPERLATIVE),
    ("order", TOP_WORDS),
    ("order", RECENT),
    ("order", OLDEST),
    ("order", SOONEST),
    ("question", WHICH),
    ("question", QUESTION_FORM),
    ("question", LIST_WORDS),
    ("filler", FILLERS),
)
_WORD = re.compile(r"\S+")
_CONTENT = re.compile(r"[^\W_]{2,}|\d")


def consumed_words(before: str, after: str) -> tuple[str, ...]:
    """The words of ``before`` that a pass blanked out (wholly or in part) in ``after``."""
    return tuple(
        m.group(0) for m in _WORD.finditer(before) if after[m.start() : m.end()] != m.group(0)
    )


def account_intent(text: str) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, ...]]:
    """The words of ``text`` (the question with its filters blanked) each part of what is asked
    explains, and the content words none explains: the leftover."""
    consumed: list[tuple[str, tuple[str, ...]]] = []
    for part, pattern in INTENT_PARTS:
        found = [m for m in pattern.finditer(text) if m.group(0).strip()]
        if not found:
            continue
        consumed.append((part, tuple(m.group(0).strip() for m in found)))
        for m in found:
            text = blank(text, m.start(), m.end())
    leftover = tuple(w for w in text.split() if _CONTENT.search(w))
    return consumed, leftover
