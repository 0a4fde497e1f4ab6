"""The order a question asks its rows in, worded as a phrase rather than a superlative: "من
الأكثر للأقل", "تنازلياً" (the default, highest first), "من الأقل للأكثر", "تصاعدياً"; and the
column rows are sorted by ("رتب المنافسات حسب القيمة")."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.reading import Reading

_DESCENDING = re.compile(
    r"(?<!\w)(?:من (?:ال)?(?:اكثر|اعلي|اكبر) (?:لل|الي (?:ال)?|ل)(?:اقل|ادني|اصغر)|(?:[بو]?ال|ب)?(?:ترتيب )?(?:ال)?تنازلي(?:ا)?)(?!\w)"
)
_ASCENDING = re.compile(
    r"(?<!\w)(?:من (?:ال)?(?:اقل|ادني|اصغر) (?:لل|الي (?:ال)?|ل)(?:اكثر|اعلي|اكبر)|(?:[بو]?ال|ب)?(?:ترتيب )?(?:ال)?تصاعدي(?:ا)?)(?!\w)"
)


def read_order(r: Reading) -> str | None:
    """"desc" or "asc" when the question words the order of its rows (the phrase blanked out, so
    that its "الأكثر" is not read as a superlative), else None."""
    order = None
    for pattern, direction in ((_DESCENDING, "desc"), (_ASCENDING, "asc")):
        for m in list(pattern.finditer(r.text)):
            order = order or direction
            r.blank(m.start(), m.end())
    return order


# "رتب", "مرتبة", "ترتيب": a sort asked for.
SORT_VERB = re.compile(r"(?<!\w)(?:[وف])?(?:رتب(?:ها|هم|لي)?|ترتيب|مرتب(?:ه)?)(?!\w)")
_SORT_COLUMNS = (
    ("awarded", r"(?:(?:ال)?قيم\w* )?(?:ال)?ترسي\w*"),
    ("value", r"(?:ال)?قيم\w*(?: (?:ال)?تقديري\w*)?|(?:ال)?تقديري\w*"),
    ("duration", r"(?:ال)?مد(?:ه|ته|تها)(?: (?:ال)?تنفيذ)?"),
    ("bids", r"(?:ال)?عدد (?:ال)?عروض|(?:ال)?عروض"),
    ("booklet", r"(?:ال)?سعر (?:ال)?كراس\w*|(?:ال)?كراس\w*"),
    ("date", r"(?:ال)?تاريخ(?: (?:ال)?(?:نشر|طرح))?"),
)
_SORT_BY = re.compile(
    r"(?<!\w)(?:حسب|بحسب|علي حسب|وفق)\s(?:" + "|".join(f"(?P<{name}>{p})" for name, p in _SORT_COLUMNS) + r")(?!\w)"
)


def sort_column(question: str) -> tuple[str, tuple[str, ...]] | None:
    """The column ``question`` (normalized) asks its rows sorted by and the words that name it
    ("رتب المنافسات حسب القيمة": "value", ("حسب", "القيمه")), or None when it asks for no sort."""
    if not SORT_VERB.search(question):
        return None
    m = _SORT_BY.search(question)
    return (str(m.lastgroup), tuple(m.group(0).split())) if m else None
