"""Every word of a question accounted for: the words each pass of the parser consumed (names,
dates, values, places, statuses and types), the words of what is asked (table, measure, column,
grouping, order) and the fillers, and the content words left over, which the parser did not
understand and which make the agent refuse rather than answer a different question."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.frame import QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import (
    AVG, AWARD, BIDS, BOOKLET, COMPARE, COUNT, DEADLINE, DIMENSION_KEYS, DIMENSIONS, DURATION, ESTIMATED,
    FILLERS, GROUP_CUE, LIST_WORDS, OLDEST, PROJECT, PROJECT_ADJ, QUESTION_FORM, RECENT, SHARE, SOONEST,
    SPREAD_CUE, SUM, SUPERLATIVE, TENDER, TOP_WORDS, UNITS, VALUE, WHICH, blank,
)

# The words left after the filter passes, read by what is asked (``intent``), part by part.
INTENT_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("column:deadline", DEADLINE), ("unit", UNITS), ("grouping:dimension", DIMENSIONS),
    ("table", PROJECT), ("table", TENDER), ("table", PROJECT_ADJ),
    ("column:booklet", BOOKLET), ("column:bids", BIDS), ("column:awarded", AWARD),
    ("column:duration", DURATION), ("column:value", ESTIMATED), ("column:any", VALUE),
    ("grouping", GROUP_CUE), ("grouping", SPREAD_CUE), ("grouping", COMPARE),
    ("measure:share", SHARE), ("measure", AVG), ("measure", SUM), ("measure", COUNT),
    ("order", SUPERLATIVE), ("order", TOP_WORDS), ("order", RECENT), ("order", OLDEST), ("order", SOONEST),
    ("question", WHICH), ("question", QUESTION_FORM), ("question", LIST_WORDS),
    ("filler", FILLERS),
)
_WORD = re.compile(r"\S+")
_CONTENT = re.compile(r"[^\W_]{2,}|\d")


def consumed_words(before: str, after: str) -> tuple[str, ...]:
    """The words of ``before`` that a pass blanked out (wholly or in part) in ``after``."""
    return tuple(m.group(0) for m in _WORD.finditer(before) if after[m.start() : m.end()] != m.group(0))


# "ما" past the question's first word negates ("المنافسات اللي ما لها منطقة", "ما طرحتها"):
# no filler then, a word the parser does not understand.
_MID_NEGATION = re.compile(r"(?<=\S)(\s+)ما(?=\s)(?!\s(?:هي|هو|عدا)(?!\w))")
_FIRST_WORD = re.compile(r"\s*\S+")
# A comparator the values pass left, so with no figure after it ("بقيمة أعلى من قيمتها التقديرية"):
# a comparison the parser cannot read.
_DANGLING_COMPARATOR = re.compile(r"(?<!\w)(?:ب)?(?:اكثر|اعلي|اقل|ادني|اكبر|اصغر|ازيد)(?=\s(?:من|عن)\s)")


def account_intent(text: str) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, ...]]:
    """The words of ``text`` (the question with its filters blanked) each part of what is asked
    explains, and the content words none explains: the leftover."""
    consumed: list[tuple[str, tuple[str, ...]]] = []
    first = _FIRST_WORD.match(text)
    negations: list[tuple[int, str]] = []  # and other words left unexplained on purpose
    for m in _MID_NEGATION.finditer(text, first.end() if first else 0):
        negations.append((m.end(1), "ما"))
        text = blank(text, m.end(1), m.end())
    for m in _DANGLING_COMPARATOR.finditer(text):
        negations.append((m.start(), m.group(0)))
        text = blank(text, m.start(), m.end())
    for part, pattern in INTENT_PARTS:
        found = [m for m in pattern.finditer(text) if m.group(0).strip()]
        if not found:
            continue
        consumed.append((part, tuple(m.group(0).strip() for m in found)))
        for m in found:
            text = blank(text, m.start(), m.end())
    left = [(m.start(), m.group(0)) for m in _WORD.finditer(text) if _CONTENT.search(m.group(0))]
    return consumed, tuple(word for _, word in sorted(left + negations))


def ignored_words(frame: QueryFrame, consumed: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, ...]:
    """Words a part of the reading consumed that ``frame`` does not use: a share that became a
    count, a superlative with nothing ranked, a column word (booklet, bids, award, duration) that
    neither a condition, the measure nor the grouping is about ("التقديرية" beside a sum of awards),
    a dimension noun ("المناطق") with nothing grouped or counted by it."""
    parts: dict[str, tuple[str, ...]] = {}
    for part, words in consumed:
        parts[part] = parts.get(part, ()) + words
    ignored: list[str] = []
    rows = frame.measure == "rows" and not frame.ranked  # the rows show every column
    if not (rows or frame.group_by or frame.distinct_of or frame.entity not in ("tenders", "projects")):
        # A dimension noun beside a condition on it ("في نشاط الاتصالات") names that condition.
        filtered = {c.field for c in frame.conditions + frame.share_of}
        filtered |= {c.field for side in frame.sides for c in side.conditions}
        for word in parts.get("grouping:dimension", ()):
            m = DIMENSIONS.fullmatch(word)
            if not (m and DIMENSION_KEYS[m.lastgroup] in filtered):  # type: ignore[index]
                ignored.append(word)
    if frame.measure != "share" and not frame.relative:
        ignored += parts.get("measure:share", ())
    if not (frame.ranked or frame.group_by or frame.measure in ("max", "min") or frame.order):
        ignored += parts.get("order", ())
    used_columns = {c.field for c in frame.conditions + frame.share_of} | set(frame.group_by)
    if frame.measure in ("sum", "avg", "max", "min") or frame.ranked or (frame.measure == "share" and frame.column):
        used_columns.add(frame.column or "value")
    if rows:
        used_columns |= {"booklet", "bids", "awarded", "duration", "value"}
    for side in frame.sides:
        used_columns.add(side.column or frame.column or "value")
        used_columns |= {c.field for c in side.conditions}
    for column in ("booklet", "bids", "awarded", "duration", "value"):
        if column not in used_columns:
            ignored += parts.get(f"column:{column}", ())
    columns_named = any(part.startswith("column:") and part != "column:deadline" for part in parts)
    if frame.measure in ("avg", "sum") and not columns_named:
        # "متوسط عدد المنافسات شهرياً": an average of counts, which no frame holds; not an
        # average of the values nobody named.
        ignored += tuple(w for w in parts.get("measure", ()) if w in ("عدد", "كم عدد", "تعداد"))
    return tuple(ignored)


# "كم مناقصة ومشروع", "المشاريع أو المنافسات": two tables joined; one frame reads one table.
_TENDER_NOUN = r"(?:[بل]?ال|[بل]|لل)?(?:مناقص|منافس|عطاء)\w*"
_PROJECT_NOUN = r"(?:[بل]?ال|[بل]|لل)?(?:مشروع|مشاريع)\w*"
_TWO_TABLES = re.compile(
    rf"(?<!\w){_TENDER_NOUN}(?: \w+)? (?:و|او |ولا ){_PROJECT_NOUN}(?!\w)"
    rf"|(?<!\w){_PROJECT_NOUN}(?: \w+)? (?:و|او |ولا ){_TENDER_NOUN}(?!\w)"
)


def two_tables(question: str) -> tuple[str, ...]:
    """The words of ``question`` (normalized) that join tenders and future projects ("و", "أو"): a
    frame answers for one table, so the other would be a word read and left unused."""
    m = _TWO_TABLES.search(question)
    return tuple(m.group(0).split()) if m else ()

