"""A question asked of each of several values rather than of all of them together: "في كل من
الرياض وجدة", "كم منافسة في كل من 2023 و2024", "قارن عدد المنافسات بين 2023 و2024". Its answer
is one figure per value (grouped by that field), not one total over them."""

from __future__ import annotations

import re
from dataclasses import replace

from nabahan_pipeline.reference_agent.parser.frame import QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import COMPARE

# "في كل من", "لكل من", "كلا من": each of the values named after it.
_EACH_OF = re.compile(r"(?<!\w)(?:في |ل)?(?:كل|كلا|كلتا) من(?!\w)")
# "بين 2023 و2024" beside a comparison word: the two years, not the range between them.
_BETWEEN_YEARS = re.compile(
    r"(?<!\w)بين(?=\s(?:(?:عام|سنه|عامي|سنتي)\s)?20[0-4]\d\s?و\s?(?:(?:عام|سنه)\s)?20[0-4]\d(?!\d))"
)
# The conditions a group can stand for: a field with several values named.
_GROUPABLE = {"region": "region", "type": "type", "status": "status", "activity": "activity", "agency": "agency"}


# "كل من 2023 و2024": the "من" is no start of a range of years.
_EACH_OF_YEARS = re.compile(r"(?<=كل )من(?=\s(?:(?:عام|سنه)\s)?20[0-4]\d\s?(?:و|او)\s?(?:(?:عام|سنه)\s)?20[0-4]\d(?!\d))")


def compared_years(text: str) -> str:
    """``text`` (normalized, before the date readers) with "بين" before two years written as "في"
    when the question compares, and the "من" of "كل من" before years blanked: the date readers
    then read the years themselves, not the span from one to the other."""
    text = _EACH_OF_YEARS.sub("  ", text)
    if not COMPARE.search(text):
        return text
    return _BETWEEN_YEARS.sub("في ", text)


def group_each(frame: QueryFrame | Refusal, original: str) -> QueryFrame | Refusal:
    """``frame`` grouped by the field whose several values the question asks about each of (or
    compares, for years), when it is a single count, sum or average."""
    if not isinstance(frame, QueryFrame) or frame.group_by or frame.measure not in ("count", "sum", "avg"):
        return frame
    each = bool(_EACH_OF.search(original))
    compare = bool(COMPARE.search(original))
    for c in frame.conditions:
        if c.op == "year_in" and c.field == "date" and len(c.values) > 1 and (each or compare):
            return replace(frame, group_by=("year",), order="desc")
        if each and c.op == "in" and len(c.values) > 1 and c.field in _GROUPABLE:
            return replace(frame, group_by=(_GROUPABLE[c.field],), order="desc")
    return frame
