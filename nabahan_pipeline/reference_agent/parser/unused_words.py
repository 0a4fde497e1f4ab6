"""Words of a question read and then left unused by its frame, beyond ``accounting.ignored_words``:
a count averaged or totalled ("متوسط عدد المنافسات لكل جهة": an average of counts, not of values),
the deadline beside a measure of another column, both ends of a ranking ("أعلى وأقل منطقة"), a
second dimension beside a grouping by another, "from the ..." under a one-row pick ("من الأحدث
للأقدم": every row newest first, not the oldest one), two places of one region set against each
other ("نسبة منافسات جدة من منافسات مكة": the data holds regions, not cities), and a threshold on
the number of rows ("كم جهة طرحت أكثر من 100"; ``having`` reads those that name their groups
first). One SELECT of the frame holds none of them, so the agent names the words and refuses
rather than answer another question."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.frame import QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import COUNT, DIMENSION_KEYS, DIMENSIONS, REGION_KEYS, REGIONS, SUPERLATIVE

# The column words a measure may be of; with none, an average or a total is of the value.
_COLUMN_PARTS = ("column:any", "column:value", "column:awarded", "column:bids", "column:booklet", "column:duration")
# A figure compared and followed by the rows' noun: a number of rows, not a value.
# ("أكبر 10 مناقصات", with no "من", is a top-N.)
_ROW_COUNT_THRESHOLD = re.compile(
    r"(?<!\w)(?:[وب]?(?:اكثر|اقل|ازيد|اكبر|اصغر|يزيد|تزيد|يقل|تقل)\s(?:من|عن|علي)"
    r"|(?:فوق|تحت|دون|يتجاوز|تتجاوز|تجاوزت|تتعدي))"
    r"\s(?:\d+(?:[.,]\d+)?)\s(?:[بل]?ال)?(?:منافس|مناقص|مشروع|مشاريع|عطاء|عطاءات)\w*(?!\w)"
)


# "من الأقل", "من الأحدث للأقدم": an order of rows, never the one row at an end.
_FROM_END = re.compile(r"(?<!\w)من (?:ال)?(?:اقل|اكثر|اعلي|ادني|احدث|اقدم|اكبر|اصغر|اجدد)(?:\s(?:لل|الي ال|ل)\w+)?")


def unused_words(frame: QueryFrame, consumed: tuple[tuple[str, tuple[str, ...]], ...], question: str) -> tuple[str, ...]:
    """The words of ``question`` (normalized) that the parts in ``consumed`` read and ``frame``
    leaves unused, as above; () when it uses them all."""
    parts: dict[str, tuple[str, ...]] = {}
    for part, words in consumed:
        parts[part] = parts.get(part, ()) + words
    unused: list[str] = []
    if frame.measure in ("avg", "sum", "max", "min") and not frame.sides and not any(parts.get(p) for p in _COLUMN_PARTS):
        # "متوسط عدد المنافسات", "كم منافسة في المتوسط": the count is what is averaged.
        unused += [w for w in parts.get("measure", ()) if COUNT.fullmatch(w)]
    deadline_used = frame.measure == "rows" or frame.column == "deadline" or any(
        c.field == "deadline" for c in frame.conditions
    )
    if not deadline_used:
        unused += parts.get("column:deadline", ())
    if frame.group_by and frame.entity in ("tenders", "projects"):
        # "حسب المنطقة والحالة" grouped by the region alone; a noun beside a condition on it
        # ("في نشاط الاتصالات") names that condition.
        held = set(frame.group_by) | {c.field for c in frame.conditions}
        for word in parts.get("grouping:dimension", ()):
            m = DIMENSIONS.fullmatch(word)
            if m and DIMENSION_KEYS[m.lastgroup] not in held:  # type: ignore[index]
                unused.append(word)
    superlatives = [(w, SUPERLATIVE.fullmatch(w)) for w in parts.get("order", ())]
    directions = {lx.SUPERLATIVE_TERMS[m.group("w")] for _, m in superlatives if m}
    if frame.ranked and len(directions) > 1:
        # "أعلى وأقل منطقة في عدد المنافسات": the ranking answers one end.
        unused += [w for w, m in superlatives if m]
    from_end = _FROM_END.search(question)
    if from_end and frame.ranked and frame.limit == 1:
        unused += from_end.group(0).split()
    if frame.measure == "share" or frame.sides or "region" in frame.group_by:
        seen: dict[object, str] = {}
        for m in REGIONS.finditer(question):
            region = REGION_KEYS[m.lastgroup]  # type: ignore[index]
            place = m.group(0).strip()
            if region in seen and seen[region] != place:
                unused.append(place)
            seen.setdefault(region, place)
    for m in _ROW_COUNT_THRESHOLD.finditer(question):
        unused += m.group(0).split()
    return tuple(unused)
