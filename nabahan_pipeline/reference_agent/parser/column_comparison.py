"""A tender's awarded value compared with its own estimated value: "رُسّيت بقيمة أعلى من قيمتها
التقديرية", "قيمة ترسيتها أقل من التقديرية", "نزلت قيمة ترسيتها عن التقديرية بأكثر من 20%";
and a tender with none ("انتهت بدون ترسية").

Read as one condition on the awarded column against the estimated column of the same row
(op ``column>`` / ``column<``, values: the other field and the factor that scales it), before the
figures pass, which would otherwise take the comparator for one before a number."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import blank

_PREFIX = r"(?:[وف]?(?:[بل]?ال|[بل]))?"
_AWARD = rf"{_PREFIX}(?:ترسي(?:ه|تها|ته)|مرسي|مرساه)"
_ESTIMATED = rf"{_PREFIX}تقديري(?:ه|ا)?"
_VALUE = rf"{_PREFIX}(?:قيم(?:ه|ت|تها|ته)?|مبلغ(?:ها)?)"
_MORE = r"اعلي|اكثر|اكبر|ازيد|يزيد|تزيد|زادت|زاد|تجاوزت|تتجاوز|يتجاوز|تفوق|فاقت|يفوق|تخطت|تتخطي|ارتفعت|فوق"
_LESS = r"اقل|ادني|اصغر|تقل|يقل|قلت|نزلت|تنزل|انخفضت|تنخفض|نقصت|تنقص|دون|تحت"
_SUBJECT = rf"(?:(?:{_VALUE}\s)?(?P<s_aw>{_AWARD})|{_VALUE}\s(?P<s_est>{_ESTIMATED})|(?P<s_bare>{_VALUE}))"
_COMPARATOR = rf"(?:(?P<more>{_MORE})|(?P<less>{_LESS}))"
# Transitive verbs and prepositions take the other value with no "من"/"عن" ("فاقت التقديرية", "دون القيمة").
_DIRECT = frozenset({"تجاوزت", "تتجاوز", "يتجاوز", "تفوق", "فاقت", "يفوق", "تخطت", "تتخطي", "دون", "تحت", "فوق"})
_OBJECT = rf"(?:(?P<prep>من|عن|علي)\s)?(?:{_VALUE}\s)?(?:(?P<o_est>{_ESTIMATED})|(?P<o_aw>{_AWARD}))"
# "بأكثر من 20%", "بنسبة تزيد عن 20 %": how far apart the two values are at least (a bare
# "بـ 20%" could mean exactly that much: not read).
_MARGIN = r"(?:\s(?:ب(?:اكثر|ازيد) من|بنسبه (?:اكثر من|تزيد عن|تتجاوز))\s?(?P<pct>\d+(?:\.\d+)?)\s?%)?"
# The subject first ("قيمة ترسيتها أقل من"), or the verb first ("نزلت قيمة ترسيتها عن"), or
# none after an award verb ("رست بأقل من قيمتها التقديرية": the awarded value).
_COLUMN_COMPARISONS = (
    re.compile(rf"(?<!\w){_SUBJECT}\s{_COMPARATOR}\s{_OBJECT}{_MARGIN}(?!\w)"),
    re.compile(rf"(?<!\w){_COMPARATOR}\s{_SUBJECT}\s{_OBJECT}{_MARGIN}(?!\w)"),
    re.compile(rf"(?<!\w)(?P<s_aw>ب){_COMPARATOR}\s{_OBJECT}{_MARGIN}(?!\w)"),
)
_AWARD_VERB = re.compile(r"(?<!\w)(?:رست|رسيت|ترست|اترست|مرساه|مرسيه)\s$")
_WORDS = {">": "أعلى من", "<": "أقل من"}


# "انتهت بدون ترسية", "الملغاة من غير ترسية": no awarded value.
_NO_AWARD = re.compile(r"(?<!\w)(?:بدون|بلا|من غير|دون) (?:ال)?ترسي(?:ه|تها)?(?!\w)")


def read_column_comparisons(text: str) -> tuple[str, list[Condition]]:
    """The awarded-against-estimated comparisons of ``text`` (normalized): the text with them
    blanked out, and each as a condition on the awarded column. A comparison of the estimated
    value with the awarded one is turned around; one with a margin is read only when the awarded
    value is its subject (the margin is a share of the estimated value)."""
    conditions: list[Condition] = []
    matches = [(form, m) for form, pattern in enumerate(_COLUMN_COMPARISONS) for m in pattern.finditer(text)]
    for form, m in matches:
        verb_first = form == 1
        if form == 2 and not _AWARD_VERB.search(text[: m.start()]):
            continue
        if not text[m.start() : m.end()].strip() or text[m.start() : m.end()] != m.group(0):
            continue  # a phrase the other word order read already
        if not m.group("prep") and (m.group("more") or m.group("less")) not in _DIRECT:
            continue  # "أعلى قيمة تقديرية": a superlative before a noun, no comparison
        if verb_first and m.group("s_bare") and not m.group("prep"):
            continue  # "تتجاوز قيمتها التقديرية مليون": one value, compared with a figure
        subject = "awarded" if m.group("s_aw") else "value" if m.group("s_est") else None
        target = "value" if m.group("o_est") else "awarded"
        subject = subject or ("awarded" if target == "value" else "value")
        if subject == target:
            continue
        op = ">" if m.group("more") else "<"
        factor = 1.0
        if m.group("pct"):
            if subject != "awarded":
                continue
            share = float(m.group("pct")) / 100.0
            factor = round(1.0 + share if op == ">" else 1.0 - share, 10)
            if factor <= 0:
                continue
        if subject == "value":
            op = "<" if op == ">" else ">"
        label = f"بقيمة ترسية {_WORDS[op]} قيمتها التقديرية"
        if factor != 1.0:
            label += f" بأكثر من {m.group('pct')}%"
        conditions.append(Condition("awarded", "column" + op, ("value", factor), label))
        text = blank(text, m.start(), m.end())
    for m in list(_NO_AWARD.finditer(text)):
        conditions.append(Condition("awarded", "is_null", (), "بدون ترسية"))
        text = blank(text, m.start(), m.end())
    return text, conditions
