"""Awards as a noun ("عدد الترسيات", "كم ترسية تمت", "عمليات الترسية"): the awarded tenders; and
when awards are dated ("تمت ترسيتها خلال 2025", "الترسيات في النصف الأول من 2024"), the date read
as the publish date of the awarded tenders, said in the answer: the data holds no award date."""

from __future__ import annotations

import re
from dataclasses import replace

from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.reading import Reading

AWARDED_STATUS = 4  # تمت الترسية (tender_statuses)

# The noun counted: plural awards, "عمليات الترسية", or "ترسية" right after "كم"; and the verb
# that says they happened ("كم ترسية صارت").
_AWARDS = re.compile(
    r"(?<!\w)(?:[وف]?(?:ال|لل|بال)?ترسيات|(?:[وفب]?ال)?عمليات (?:ال)?ترسيه|(?<=كم )ترسيه"
    r"|(?:[وفب]?ال)?(?:تاريخ|موعد|وقت) (?:ال)?ترسي(?:ه|تها|ته))"  # "تاريخ ترسيتها في 2025": read on the publish date
    r"(?:\s(?:تمت|تم|صارت|صار|حصلت|جرت|اللي (?:تمت|صارت)))?(?!\w)"
)
# A verb of publishing: the question dates the tenders by their publish date itself.
_PUBLISHED = re.compile(r"(?<!\w)[وف]?(?:تم )?(?:طرح|انطرح|نشر|انشر|نزل|اعلن)(?:ت|ها|تها|ته)?(?!\w)")
_VALUE_BEFORE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:قيم(?:ه)?|مبالغ|مبلغ)\s$")
_DATE_NOTE = " (بتاريخ الطرح، إذ لا تحوي البيانات تاريخ الترسية)"


def read_awards(r: Reading, status_label: str) -> None:
    """Read the awards noun as the awarded status (worded ``status_label``), and word the dates
    of a question about awarded tenders that does not say they are publish dates."""
    found = list(_AWARDS.finditer(r.text))
    for m in found:
        if not _VALUE_BEFORE.search(r.text, 0, m.start()):
            r.blank(m.start(), m.end())  # "قيمة الترسيات" is left: it names the awarded value
    awarded = any(c.field == "status" and c.op == "in" and c.values == (AWARDED_STATUS,) for c in r.conditions)
    if found and not awarded:
        r.add([Condition("status", "in", (AWARDED_STATUS,), status_label)], strong=True)
        awarded = True
    if awarded and r.dates and not _PUBLISHED.search(r.original):
        r.dates = [replace(span, label=span.label + _DATE_NOTE) for span in r.dates]
