"""A distribution over the values of a column with few distinct values: "كم منافسة لكل سعر من
أسعار كراسات الشروط", "توزيع المنافسات حسب عدد العروض", "المشاريع حسب المدة": grouped by the
booklet price, the number of bids or a project's duration itself."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.ordering import SORT_VERB
from nabahan_pipeline.reference_agent.parser.reading import Reading

_CUE = r"(?:لكل|حسب|بحسب|علي حسب|علي)"
_GROUPS = (
    (
        "booklet",
        re.compile(
            rf"(?<!\w){_CUE}\s(?:(?:ال)?(?:سعر|قيمه|فيه)\s)?(?:(?:من\s)?(?:ال)?اسعار\s)?"
            r"(?:[وفبل]?ال)?كراس(?:ه|ات|تها|ته)(?:\s(?:ال)?شروط)?(?:\s(?:وال)?مواصفات)?(?!\w)"
        ),
    ),
    ("bids", re.compile(rf"(?<!\w){_CUE}\s(?:ال)?عدد\s(?:ال)?(?:عروض|متقدمين)(?:\s(?:ال)?مقدمه)?(?!\w)")),
    ("duration", re.compile(rf"(?<!\w){_CUE}\s(?:ال)?مد(?:ه|تها|ته)(?:\s(?:ال)?تنفيذ)?(?:\s(?:بال)?(?:اشهر|شهور))?(?!\w)")),
)


def read_value_group(r: Reading) -> str | None:
    """The column whose values the question groups by ("booklet", "bids", "duration"), the phrase blanked
    out, or None."""
    if SORT_VERB.search(r.original):
        return None  # "رتب المشاريع حسب المدة": the rows sorted, not grouped
    found = None
    for column, pattern in _GROUPS:
        for m in list(pattern.finditer(r.text)):
            found = found or column
            r.blank(m.start(), m.end())
    return found
