"""A future project's duration compared with a span said in years or months: "مدته سنة أو أقل",
"مدتها أكثر من سنتين", "مدة تنفيذه لا تتجاوز 18 شهراً"; read as a condition in months.

Read only right after a duration word (مدة، مدته، مدتها), so that "سنة" elsewhere stays a date."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import alternation, blank

_DURATION_WORD = r"(?:[وفبل]?ال)?مد(?:ه|ته|تها|ت)(?:\s(?:ال)?تنفيذ(?:ه|ها)?)?"
_BEFORE = (
    (r"(?:لا|ما) (?:تتجاوز|يتجاوز|تزيد|يزيد)(?: عن| علي)?", "<="),
    (r"(?:لا|ما) (?:تقل|يقل)(?: عن)?", ">="),
    (r"(?:اكثر|اطول|ازيد) من|تتجاوز|تزيد عن|تزيد علي|فوق", ">"),
    (r"(?:اقل|اقصر) من|تقل عن|دون", "<"),
)
_AFTER = ((r"(?:او|و|ف)\s?(?:اقل|اقصر|ما دون)", "<="), (r"(?:او|و|ف)\s?(?:اكثر|اطول|ما فوق)", ">="))
# The span: its count and its unit in months.
_SPAN = (
    rf"(?P<n>\d+|{alternation(lx.SMALL_NUMBERS)})?\s?"
    r"(?P<unit>سنه|سنتين|سنوات|سنين|عام|عامين|اعوام|شهر|شهرين|اشهر|شهور|شهرا)"
)
# The verb before the duration word: "تزيد مدته عن سنتين", "لا تتجاوز مدتها سنة".
_VERBS = (
    (r"(?:لا|ما) (?:تزيد|يزيد|تتجاوز|يتجاوز)", "<="),
    (r"(?:لا|ما) (?:تقل|يقل)", ">="),
    (r"تزيد|يزيد|تتجاوز|يتجاوز|تفوق|يفوق", ">"),
    (r"تقل|يقل", "<"),
)
_PHRASE = re.compile(
    rf"(?<!\w)(?:(?P<verb>{'|'.join(p for p, _ in _VERBS)})\s)?{_DURATION_WORD}\s"
    rf"(?:(?P<before>{'|'.join(p for p, _ in _BEFORE)})\s|(?:عن|علي)\s)?{_SPAN}"
    rf"(?:\s(?P<after>{'|'.join(p for p, _ in _AFTER)}))?(?!\w)"
)
_MONTHS = {"سنه": 12, "عام": 12, "سنوات": 12, "سنين": 12, "اعوام": 12, "سنتين": 24, "عامين": 24, "شهرين": 2}
# The units as written with their hamza and ta marbuta, for the answer.
_SPELLED = {"سنه": "سنة", "اعوام": "أعوام", "اشهر": "أشهر", "شهرا": "شهراً"}
_WORDS = {"<=": "لا تتجاوز", ">=": "لا تقل عن", ">": "أكثر من", "<": "أقل من", "=": ""}


def read_durations(text: str) -> tuple[str, list[Condition]]:
    """The duration comparisons of ``text`` (normalized) as conditions in months, and the text
    with them blanked out. A bare span ("مدته سنة") is an equality."""
    conditions: list[Condition] = []
    for m in list(_PHRASE.finditer(text)):
        unit = m.group("unit")
        per = _MONTHS.get(unit, 1)
        count = m.group("n")
        if unit in ("سنتين", "عامين", "شهرين"):
            if count:
                continue  # "3 سنتين" says two counts
            n = 1
        elif count:
            n = int(count) if count.isdigit() else lx.SMALL_NUMBERS[count]
        else:
            n = 1
        op = "="
        for pattern, candidate in _BEFORE:
            if m.group("before") and re.fullmatch(pattern, m.group("before")):
                op = candidate
                break
        for pattern, candidate in _VERBS:
            if m.group("verb") and re.fullmatch(pattern, m.group("verb")):
                if m.group("before"):
                    op = ""  # two comparators
                else:
                    op = candidate
                break
        if not op:
            continue
        if m.group("after"):
            if m.group("before") or m.group("verb"):
                continue  # two comparators: not a reading we can trust
            op = next(candidate for pattern, candidate in _AFTER if re.fullmatch(pattern, m.group("after")))
        span = f"{count + ' ' if count else ''}{_SPELLED.get(unit, unit)}"
        label = f"بمدة {_WORDS[op]} {span}".replace("  ", " ")
        conditions.append(Condition("duration", op, (float(n * per),), label))
        text = blank(text, m.start(), m.end())
    return text, conditions
