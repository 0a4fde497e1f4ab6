"""The order a question asks its rows in, worded as a phrase rather than a superlative: "من
الأكثر للأقل", "تنازلياً" (the default, highest first), "من الأقل للأكثر", "تصاعدياً"."""

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
