"""Figures and the conditions on them: amounts compared with a threshold or a range and the column
each is about, reference numbers, the N of a top-N, ordinal ranks, thresholds on groups (HAVING),
an awarded value against its estimate, a project's duration."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import NamedTuple

from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import (
    AWARD, BIDS, BOOKLET, DURATION, SMALL_NUMBER, TOP_WORDS, alternation, blank, read_each,
)


class Comparison(NamedTuple):
    """A figure compared with a column: ``field`` (value, awarded, bids, booklet, duration) ``op``
    (> >= < <= = between) ``values``, worded as ``label``."""

    field: str
    op: str
    values: tuple[float, ...]
    label: str


# The noun a comparator may come before ("تزيد قيمتها التقديرية عن"), then "فيها", the
# comparator's own preposition and "حاجز" ("تتخطى حاجز المليون").
_VALUE_WORDS_TAIL = (
    r"(?:\s+(?:[وفب]?ال)?(?:قيم\w*|تقديري\w*|اجمالي\w*|مبلغ\w*|ترسي\w*|مرسا\w*|عقد|كراس\w*|سعر\w*|تكلف\w*|مد\w*"
    r"|عدد|عروض\w*|ميزاني\w*|شروط))*"
    r"(?:\s+(?:فيها|فيه))?(?:\s+(?:عن|علي|من))?(?:\s+(?:ال)?حاجز)?(?:\s+ال(?=\s))?"
)
# A second comparator glued to "و" ("أكثر من 5 ملايين وأقل من 10 ملايين") bounds the same figure.
_COMPARATOR_TAIL = re.compile(
    r"(?:(?<!\w)[و]?(?:" + "|".join(p for p, _ in lx.COMPARATOR_TERMS) + r")" + _VALUE_WORDS_TAIL + r")\s*$"
)
_COMPARATOR_PARTS = [
    (re.compile(r"(?<!\w)[و]?(?:" + p + r")" + _VALUE_WORDS_TAIL + r"\s*$"), op) for p, op in lx.COMPARATOR_TERMS
]
# "مليون وأقل" is "or less"; "5 ملايين وأقل من 10 ملايين" is a second bound, read with its own figure.
_TRAILING = [
    (re.compile(r"\s*(?:(?:ريال|عرض|عروض|شهر|اشهر|شهور|شهرا)\s*)?(?:" + p + r")(?!\w)(?!\s+(?:من|عن)(?!\w))"), op)
    for p, op in lx.TRAILING_COMPARATORS
]


def comparator_before(before: str) -> str | None:
    """The comparison operator that ends ``before`` (the text just before a number), if any."""
    before = re.sub(r"(?:ال)?(?:ريال|ر\.?س)\s*$", "", before)
    for pattern, op in _COMPARATOR_PARTS:
        if pattern.search(before):
            return op
    return None


# A tender's 12-digit reference number; "بعرض واحد" / "بعرضين": a number of bids said in words.
_REFERENCE_NUMBER = re.compile(
    r"(?:(?<!\w)(?:ذات\s)?(?:[وبل]?ال)?رقم(?:ها)?(?:\s(?:ال)?مرجعي)?\s)?(?<![\d.,])(\d{12})(?![\d.,])"
)
_SINGLE_BID = re.compile(r"(?<!\w)(?:[بل]?(?:عرض|عطاء|متقدم) واحد(?: فقط| بس)?|[بل]?عرضين|[بل]?متقدمين اثنين)(?!\w)")
# No bids at all: "ما وصلها ولا عرض", "لم يتقدم لها أحد", "بدون عروض", "صفر عروض" (bids_count = 0; an
# active tender's count is NULL: not known yet, so not "no bids").
_BID_NOUN = r"(?:عرض|عروض|عطاء|عطاءات|متقدم|متقدمين|احد)"
_NO_BIDS = re.compile(
    r"(?<!\w)(?:"
    r"(?:ما|لم|ولا) ?(?:ي|ت)?(?:وصل|يصل|تصل|جا|جات|جاء|يجي|تجي|تلق|تلقي|تلقت|تستقبل|استقبل|استقبلت|تقدم|يتقدم|قدم|يقدم|دخل|يدخل)"
    r"(?:تها|ته|ها|ه|ت|وا)?(?: (?:لها|عليها|فيها))?(?: (?:ولا|اي|حتي))? " + _BID_NOUN +
    r"|(?:بدون|بلا|من غير|خاليه من|ما فيها|ما عليها|ماعليها|ما لها|مالها|ليس لها|ليس عليها|لا يوجد (?:لها|عليها)|لا توجد (?:لها|عليها))"
    r" (?:(?:اي|ولا) )?(?:ال)?(?:عروض|عرض|متقدمين|عطاءات)"
    r"|(?:ب|فيها )?صفر (?:عرض|عروض)|عدد (?:ال)?عروض(?:ها)? (?:صفر|0)"
    r")(?:\s(?:واحد|واحده|ابدا|نهاييا|بالمره))?(?!\w)"
)

# A free or a paid booklet: its price is 0, or more.
_BOOKLET_FREE = re.compile(r"(?<!\w)(?:مجاني(?:ه)?|مجانا|ببلاش|بدون (?:رسوم|مقابل))(?!\w)")
_BOOKLET_PAID = re.compile(r"(?<!\w)(?:بفلوس|مدفوع(?:ه)?|برسوم|بمقابل|غير مجاني(?:ه)?)(?!\w)")
# A figure right after the booklet's price is that price.
_BOOKLET_PRICE_BEFORE = re.compile(r"(?<!\w)(?:[وفبل]?ال)?(?:سعر\w* )?كراس\w*(?: ال?شروط)?\s*(?:ب|هو\s)?$")

_SPELLINGS = {"الف": "ألف", "الاف": "آلاف", "الفين": "ألفين", "الفي": "ألفي", "نص": "نصف", "ميه": "مئة", "مايه": "مئة"}


def _spelled(text: str) -> str:
    """A number as the question wrote it, with the hamza that normalization folded back on."""
    return " ".join(_SPELLINGS.get(word) or _definite_spelling(word) for word in text.split())


def _definite_spelling(word: str) -> str:
    """A number word with the article ("المئة مليون") spelled as the question wrote it."""
    return "ال" + _SPELLINGS[word[2:]] if word.startswith("ال") and word[2:] in _SPELLINGS else word


_FIELD_LABELS = {
    "value": "بقيمة تقديرية", "awarded": "بقيمة ترسية", "bids": "بعدد عروض", "booklet": "بسعر كراسة", "duration": "بمدة",
}
_OP_LABELS = {">": "أكثر من", ">=": "لا تقل عن", "<": "أقل من", "<=": "لا تتجاوز", "=": "تساوي"}
# The unit written after a compared figure of each field.
_UNITS = {"value": " ريال", "awarded": " ريال", "booklet": " ريال", "duration": " شهراً", "bids": ""}


# The average of the rows asked about, as the figure compared with: "قيمتها أعلى من المتوسط",
# "أقل من المتوسط العام", "فوق متوسط القيم" (its value: AVERAGE, which the SQL builder writes as a
# subquery over the same rows).
AVERAGE = "average"
_VS_AVERAGE = re.compile(
    r"(?<!\w)(?:(?P<gt>(?:اعلي|اكثر|اكبر|ازيد) (?:من|عن)|فوق|يتجاوز|تتجاوز|تتعدي|يتعدي)|(?P<lt>(?:اقل|ادني|اصغر) (?:من|عن)|تحت|دون))"
    r"\s(?:ال)?متوسط(?:\s(?:ال)?(?:عام|العام|كلي|الكلي|قيم|القيم|عروض|العروض|المنافسات|المناقصات))?(?!\w)"
)


def _vs_average(m: re.Match[str], text: str) -> Comparison:
    field_name = value_field(text, m.start(), m.end())
    op = ">" if m.group("gt") else "<"
    label = f"{_FIELD_LABELS[field_name]} {'أعلى من' if op == '>' else 'أقل من'} متوسطها"
    return Comparison(field_name, op, (AVERAGE,), label)


def read_values(text: str) -> tuple[str, list[Condition], list[Comparison]]:
    """The figures of ``text`` (normalized): the text with the phrases read blanked out, the
    reference numbers (as conditions) and the comparisons, in the order read."""
    text, references = read_each(
        _REFERENCE_NUMBER, text, lambda m, _: Condition("reference", "in", (m[1],), f"ذات الرقم المرجعي {m[1]}")
    )
    text, against_average = read_each(_VS_AVERAGE, text, _vs_average)
    two, one = Comparison("bids", "=", (2.0,), "بعرضين"), Comparison("bids", "=", (1.0,), "بعرض واحد")
    text, comparisons = read_each(_SINGLE_BID, text, lambda m, _: two if m[0].strip().endswith("ين") else one)
    none = Comparison("bids", "=", (0.0,), "التي لم يصلها أي عرض")
    text, found = read_each(_NO_BIDS, text, lambda m, _: none)
    comparisons += found + against_average
    if BOOKLET.search(text):
        for pattern, comparison in (
            (_BOOKLET_FREE, Comparison("booklet", "=", (0.0,), "بكراسة شروط مجانية")),
            (_BOOKLET_PAID, Comparison("booklet", ">", (0.0,), "بكراسة شروط مدفوعة")),
        ):
            text, found = read_each(pattern, text, lambda m, _: comparison)
            comparisons += found
    # The numbers are read in ``text`` as it is now; the phrases they belong to are blanked in ``working``.
    working = text
    spans = [(m.start, m.end, m) for m in find_numbers(text) if not m.percent]
    used: set[int] = set()
    # Ranges: "بين مليون و 5 ملايين", "من 100 ألف إلى 500 ألف".
    for i in range(len(spans) - 1):
        (s1, e1, n1), (s2, e2, n2) = spans[i], spans[i + 1]
        between = text[e1:s2]
        before = text[max(0, s1 - 30) : s1]
        opener = re.search(r"(?:^|\s)(?:ما\s)?(?:بين|من|[بم]ن)\s*(?:ال?قيم\w*\s)?$", before)
        if opener and re.fullmatch(r"\s*(?:ريال\s*)?(?:و|الى|الي|لين|لحد|حتي|ل|-)\s*", between):
            first = n1.value
            if n2.scaled and not n1.scaled and first < 1000:
                # "بين 10 و 20 مليون": the scale word serves both numbers.
                first *= n2.scale
            low, high = sorted((first, n2.value))
            field_name = value_field(text, s1, e2)
            # The bounds as the question wrote them, so that the answer repeats its figures.
            texts = (n1.text, n2.text) if n1.value * (first / n1.value if n1.value else 1) <= n2.value else (n2.text, n1.text)
            label = f"{_FIELD_LABELS[field_name]} بين {_spelled(texts[0])} و{_spelled(texts[1])}{_UNITS[field_name]}"
            comparisons.append(Comparison(field_name, "between", (low, high), label))
            used.update((i, i + 1))
            working = blank(working, s1 - len(opener.group(0).lstrip()), e2)
    for i, (start, end, mention) in enumerate(spans):
        if i in used:
            continue
        before = text[max(0, start - 40) : start]
        after = text[end : end + 25]
        op = comparator_before(before)
        trailing = None
        following = spans[i + 1][0] if i + 1 < len(spans) else None
        for pattern, trailing_op in _TRAILING:
            m = pattern.match(after)
            if m and not (following is not None and not text[end + m.end() : following].strip()):
                trailing = (trailing_op, m.end())
                break  # (a comparator right before the next figure is that figure's: "وتحت مليونين")
        if trailing:
            op = trailing[0]
        if not op and _BOOKLET_PRICE_BEFORE.search(before):
            op = "="  # "سعر كراستها 500 ريال"
        if not op:
            continue
        # "اكثر من 5" with no unit and no value word is a count of rows ("أكثر من 5 عروض" has one).
        field_name = value_field(text, start, end)
        value = mention.value
        label = f"{_FIELD_LABELS[field_name]} {_OP_LABELS[op]} {_spelled(mention.text)}{_UNITS[field_name]}"
        comparisons.append(Comparison(field_name, op, (value,), label))
        comparator = _COMPARATOR_TAIL.search(before)
        left = start - (len(comparator.group(0)) if comparator else 0)
        right = end + (trailing[1] if trailing else 0)
        if field_name == "duration":
            unit = _DURATION_UNIT.match(text, right)
            right = unit.end() if unit else right
        working = blank(working, left, right)
    return working, references, comparisons


_DURATION_UNIT = re.compile(r"\s*(?:شهر|اشهر|شهور|شهرا|سنه|سنوات|سنين)(?!\w)")


# "رست بمبلغ أقل من 100 ألف", "ترست بقيمة تتجاوز مليون": a figure the award verb is said at is
# the awarded value, not the estimate.
_AWARDED_AT = re.compile(r"(?<!\w)(?:رست|ترست|اترست|رسيت|ارسيت|رسا|رسي)(?:\s(?:عليها|عليه))?\s(?:ب|بمبلغ|بقيمه)(?!\w)")


def value_field(text: str, start: int, end: int) -> str:
    """Which column a compared number is about, from the words around it."""
    after = text[end : end + 20]
    window = text[max(0, start - 45) : min(len(text), end + 20)]
    if re.match(r"\s*(?:عرض|عروض|متقدم|متنافس|مشارك|عطاء)", after):
        return "bids"
    if re.match(r"\s*(?:شهر|اشهر|شهور|سنه|سنوات)", after):
        return "duration"
    if BOOKLET.search(window):
        return "booklet"
    if AWARD.search(window) and not re.search(r"تمت? ال?ترسيه", window):
        return "awarded"
    if _AWARDED_AT.search(text[max(0, start - 45) : start]):
        return "awarded"
    if BIDS.search(text[max(0, start - 30) : start]) and not re.match(r"\s*(?:ريال|الف|مليون)", after):
        return "bids"
    if DURATION.search(text[max(0, start - 30) : start]):
        return "duration"
    return "value"


def read_top_n(text: str) -> tuple[str, int | None]:
    """The N of a top-N ("أعلى 5 مناقصات", "أكبر خمس جهات"): the text with it blanked out and N,
    or ``text`` and None."""
    for mention in find_numbers(text):
        start, end = mention.start, mention.end
        if mention.scaled or mention.percent or mention.decimals or not 1 <= mention.value <= 1000:
            continue
        before = text[max(0, start - 20) : start]
        after = text[end : end + 30]
        if TOP_WORDS.search(before[-12:]) or re.match(
            r"\s*(?:[وفبل]?ال)?(?:مناقص|منافس|مشاريع|مشروع|جهات|جهه|مناطق|منطق|انشطه|نشاط|وزارات|عطاء|صفق)", after
        ):
            return blank(text, start, end), int(mention.value)
    for m in SMALL_NUMBER.finditer(text):
        before = text[max(0, m.start() - 20) : m.start()]
        after = text[m.end() : m.end() + 30]
        if TOP_WORDS.search(before) or re.match(
            r"\s*(?:[وفبل]?ال)?(?:مناقص|منافس|مشاريع|مشروع|جهات|مناطق|انشطه|وزارات|عطاء|صفق)", after
        ):
            value = lx.SMALL_NUMBERS[m.group("w")]
            # "الأولى" / "عشر سنوات" are not top-N; a small number right before a plural noun is.
            return blank(text, m.start(), m.end()), value
    return text, None


# An ordinal rank ("الرابعة أو الخامسة") beside a group noun or a superlative: "رابع منطقة",
# "المنطقة الرابعة", "ثاني أكثر نوع", "ثالث أعلى منطقة".
_RANK = rf"(?:ال)?(?:{alternation(lx.RANK_ORDINALS)})"
_RANKED_NOUN = r"(?:ال)?(?:منطق|مناطق|جه|جهات|نشاط|انشط|نوع|انواع|حال|وزار|جامع|امان|مستشفي)\w*"
_RANKED_SUPERLATIVE = r"(?:ال)?(?:اكثر|اعلي|اكبر|اقل|ادني|اصغر)"
_ORDINAL = re.compile(
    rf"(?<!\w)(?P<noun>{_RANKED_NOUN}\s)?(?P<first>{_RANK})(?:\s(?:او|و|الي|حتي)\s?(?P<last>{_RANK}))?"
    rf"(?!\w)(?P<after>\s(?:{_RANKED_SUPERLATIVE}|{_RANKED_NOUN})(?!\w))?"
)


def read_ordinal(text: str) -> tuple[str, tuple[int, int] | None, tuple[str, ...]]:
    """The ordinal rank of a ranking ("رابع منطقة", "المنطقة الرابعة أو الخامسة"): ``text`` with
    it written as the superlative it ranks by ("أكثر", unless one is there already), the ranks
    asked for (first, how many), and its words; ``text``, None and () when there is none."""
    for m in _ORDINAL.finditer(text):
        if not (m.group("noun") or m.group("after")):
            continue
        first = lx.RANK_ORDINALS[m.group("first").removeprefix("ال")]
        last = lx.RANK_ORDINALS[m.group("last").removeprefix("ال")] if m.group("last") else first
        if last < first:
            return text, None, ()
        start, end = m.start("first"), m.end("last") if m.group("last") else m.end("first")
        superlative = m.group("after") and re.fullmatch(rf"\s{_RANKED_SUPERLATIVE}", m.group("after"))
        word = "" if superlative else "اكثر"
        text = text[:start] + word + " " * (end - start - len(word)) + text[end:]
        return text, (first, last - first + 1), tuple(m.group(0)[m.start("first") - m.start() : end - m.start()].split())
    return text, None, ()


# --- having ---------------------------------------------------------------------------------------
# A threshold on each group's total or count ("الجهات التي طرحت أكثر من 100 منافسة"): taken out, the rest
# asked of every group, and the groups whose figure passes kept (HAVING).

_HEADS = lx.THRESHOLD_HEADS  # the groups named first
_HEAD = re.compile(
    r"^(?:(?:ما|ماهي|ما هي|وش|ايش|اذكر|اعرض|حدد|هات|ايش هي|وش هي)\s|(?P<which>اي)\s)?(?:ال)?(?P<head>"
    + "|".join(f"(?:{h})" for h in _HEADS)
    # "أي المناطق متوسط ... فيها أكثر من": after "أي" the relative may go unsaid.
    + r")\s(?:(?:التي|اللي|الي|الذي|الذين)\s|(?(which)|(?!)))(?P<rest>.+)$"
)
_COMPARATOR = re.compile(
    r"(?<!\w)(?:(?P<gt>اكثر من|اكبر من|اعلي من|ازيد من|فوق|يتجاوز|تتجاوز|تتعدي|يتعدي|يزيد|تزيد)"
    r"|(?P<lt>اقل من|ادني من|اصغر من|دون|تحت|يقل|تقل))(?!\w)"
)
_SCALES = {
    "الف": 1e3, "الاف": 1e3, "مليون": 1e6, "ملايين": 1e6, "مليار": 1e9, "مليارات": 1e9,
    # The dual: "أكثر من مليوني ريال", "ألفين منافسة".
    "الفين": 2e3, "مليونين": 2e6, "مليوني": 2e6, "مليارين": 2e9, "ملياري": 2e9,
}
# A figure in digits or in words ("خمسة مليارات"), with its scale.
_FIGURE = re.compile(
    rf"(?<!\w)(?:(?:علي|عن|من)\s)?(?:(?P<n>\d+(?:\.\d+)?|{alternation(lx.SMALL_NUMBERS)})\s?)?"
    r"(?P<scale>الفين|الف|الاف|مليونين|مليوني|مليون|ملايين|مليارين|ملياري|مليار|مليارات)?"
    r"(?:\s(?:ريال|ر\.?س))?(?!\w)"
)
# "أعلى من المتوسط العام", "أكثر من متوسط الأنشطة": the groups' average as the threshold.
_AVERAGE = re.compile(r"\s(?:من\s|عن\s)?(?:ال)?متوسط(?:\s(?:ال)?(?:عام|كلي|انشطه|مناطق|جهات|انواع|حالات))?(?!\w)")
_ROWS_NOUN = re.compile(r"^\s(?P<noun>(?:[بل]?ال)?(?:منافس|مناقص|مشروع|مشاريع)\w*)(?!\w)")
_PROJECT = re.compile(r"(?<!\w)(?:[وبل]?ال|[بل])?(?:مشروع|مشاريع)")
_COUNTED = re.compile(r"(?<!\w)(?:عدد|عددها)(?!\w)")
_ROWS = re.compile(r"(?<!\w)(?:[وبل]?ال|[بل])?(?:منافسات|مناقصات|مشاريع|مشروعات)(?!\w)")
_VALUE = re.compile(r"قيم|ترسي|كراس|عروض|مبلغ|سعر|اسعار")
_TOTAL = re.compile(r"(?<!\w)(?:[وبل]?ال)?(?:اجمالي|اجماليه|مجموع|متوسط)(?!\w)")


@dataclass(frozen=True)
class Threshold:
    """A threshold read from a question: the rest of the question asked of every group, the
    grouping dimension, and the condition on each group's figure."""

    question: str
    dimension: str
    counted: bool
    having: Condition


def read_threshold(norm: str) -> Threshold | None:
    """The threshold of ``norm`` (normalized), or None when it asks for none."""
    head = _HEAD.match(norm)
    if not head:
        return None
    dimension, grouping, group_words = next(v for k, v in _HEADS.items() if re.fullmatch(k, head.group("head")))
    rest = head.group("rest")
    comparator = _COMPARATOR.search(rest)
    if not comparator:
        return None
    average = _AVERAGE.match(rest, comparator.end())
    figure = average or next((f for f in _FIGURE.finditer(rest, comparator.end()) if f.group("n") or f.group("scale")), None)
    if not figure:
        return None
    number = "0" if average else figure.group("n") or "1"
    if not number[0].isdigit():
        if not figure.group("scale"):
            return None  # "أكثر من خمس": a small word alone is no threshold
        number = str(lx.SMALL_NUMBERS[number])
    value: float | str = AVERAGE if average else float(number) * _SCALES.get(figure.group("scale") or "", 1.0)
    between = rest[comparator.end() : figure.start()]
    end = figure.end()
    rows_noun = _ROWS_NOUN.match(rest[end:])
    if rows_noun:
        end += rows_noun.end()
    left = rest[: comparator.start()] + between + rest[end:]
    # "... أكثر من 600 منافسة", "عدد منافساتها ...", "لديها منافسات ملغاة أكثر من 50": rows counted.
    counted = bool(rows_noun) or bool(_COUNTED.search(left)) or bool(_ROWS.search(left) and not _VALUE.search(left))
    if not counted and not _TOTAL.search(left):
        # "أنواع المنافسات التي قيمتها فوق مليون": each tender's value, not a group's total.
        return None
    noun = "المشاريع" if _PROJECT.search(rest) else "المنافسات"
    asked = left if not counted or _COUNTED.search(left) else f"عدد {noun} {left}"
    question = " ".join(f"{group_words} {asked} {grouping}".split())
    op = ">" if comparator.group("gt") else "<"
    words = rest[comparator.start() : figure.end()]
    return Threshold(question, dimension, counted, Condition("count" if counted else "total", op, (value,), words))


def with_threshold(frame: QueryFrame, threshold: Threshold) -> QueryFrame | None:
    """``frame`` (the rest of the question, asked of every group) keeping the groups that pass
    ``threshold``; None when the rest was read as something else."""
    if frame.group_by != (threshold.dimension,) or frame.ranked or frame.limit or frame.sides or frame.share_of:
        return None
    if threshold.counted != (frame.measure == "count") or frame.measure not in ("count", "sum", "avg"):
        return None
    return replace(frame, having=threshold.having)


# --- column comparison ----------------------------------------------------------------------------
# A tender's awarded value against its own estimated value ("رُسّيت بقيمة أعلى من قيمتها التقديرية"), or
# none: one condition on two columns, read before the figures (whose comparator it would take).

_PREFIX = r"(?:[وف]?(?:[بل]?ال|[بل]))?"
_AWARD = rf"{_PREFIX}(?:ترسي(?:ه|تها|ته)|مرسي|مرساه)"
_ESTIMATED = rf"{_PREFIX}تقديري(?:ه|ا)?"
_CMP_VALUE = rf"{_PREFIX}(?:قيم(?:ه|ت|تها|ته)?|مبلغ(?:ها)?)"
_MORE = r"اعلي|اكثر|اكبر|ازيد|يزيد|تزيد|زادت|زاد|تجاوزت|تتجاوز|يتجاوز|تفوق|فاقت|يفوق|تخطت|تتخطي|ارتفعت|فوق"
_LESS = r"اقل|ادني|اصغر|تقل|يقل|قلت|نزلت|تنزل|انخفضت|تنخفض|نقصت|تنقص|دون|تحت"
_SUBJECT = rf"(?:(?:{_CMP_VALUE}\s)?(?P<s_aw>{_AWARD})|{_CMP_VALUE}\s(?P<s_est>{_ESTIMATED})|(?P<s_bare>{_CMP_VALUE}))"
_CMP_COMPARATOR = rf"(?:(?P<more>{_MORE})|(?P<less>{_LESS}))"
# Transitive verbs and prepositions take the other value with no "من"/"عن" ("فاقت التقديرية", "دون القيمة").
_DIRECT = frozenset({"تجاوزت", "تتجاوز", "يتجاوز", "تفوق", "فاقت", "يفوق", "تخطت", "تتخطي", "دون", "تحت", "فوق"})
_OBJECT = rf"(?:(?P<prep>من|عن|علي)\s)?(?:{_CMP_VALUE}\s)?(?:(?P<o_est>{_ESTIMATED})|(?P<o_aw>{_AWARD}))"
# "بأكثر من 20%", "بنسبة تزيد عن 20 %": how far apart the two values are at least (a bare
# "بـ 20%" could mean exactly that much: not read).
_MARGIN = r"(?:\s(?:ب(?:اكثر|ازيد) من|بنسبه (?:اكثر من|تزيد عن|تتجاوز))\s?(?P<pct>\d+(?:\.\d+)?)\s?%)?"
# The subject first ("قيمة ترسيتها أقل من"), or the verb first ("نزلت قيمة ترسيتها عن"), or
# none after an award verb ("رست بأقل من قيمتها التقديرية": the awarded value).
_COLUMN_COMPARISONS = (
    re.compile(rf"(?<!\w){_SUBJECT}\s{_CMP_COMPARATOR}\s{_OBJECT}{_MARGIN}(?!\w)"),
    re.compile(rf"(?<!\w){_CMP_COMPARATOR}\s{_SUBJECT}\s{_OBJECT}{_MARGIN}(?!\w)"),
    re.compile(rf"(?<!\w)(?P<s_aw>ب){_CMP_COMPARATOR}\s{_OBJECT}{_MARGIN}(?!\w)"),
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
    text, none = read_each(_NO_AWARD, text, lambda m, _: Condition("awarded", "is_null", (), "بدون ترسية"))
    return text, conditions + none


# --- durations ------------------------------------------------------------------------------------
# A future project's duration compared with a span in years or months ("مدتها أكثر من سنتين"), in
# months; read only right after a duration word (مدة، مدته), so that "سنة" elsewhere stays a date.

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
_DUR_WORDS = {"<=": "لا تتجاوز", ">=": "لا تقل عن", ">": "أكثر من", "<": "أقل من", "=": ""}


def read_durations(text: str) -> tuple[str, list[Condition]]:
    """The duration comparisons of ``text`` (normalized) as conditions in months, and the text
    with them blanked out. A bare span ("مدته سنة") is an equality."""
    return read_each(_PHRASE, text, _duration)


def _duration(m: re.Match[str], text: str) -> Condition | None:
    unit, count = m.group("unit"), m.group("n")
    if count and unit in ("سنتين", "عامين", "شهرين"):
        return None  # "3 سنتين" says two counts
    n = (int(count) if count.isdigit() else lx.SMALL_NUMBERS[count]) if count else 1
    said = [(table, m.group(group)) for table, group in ((_BEFORE, "before"), (_VERBS, "verb"), (_AFTER, "after"))]
    said = [(table, words) for table, words in said if words]
    if len(said) > 1:
        return None  # two comparators: not a reading we can trust
    op = next((op for table, words in said for pattern, op in table if re.fullmatch(pattern, words)), "=")
    span = f"{count + ' ' if count else ''}{_SPELLED.get(unit, unit)}"
    label = f"بمدة {_DUR_WORDS[op]} {span}".replace("  ", " ")
    return Condition("duration", op, (float(n * _MONTHS.get(unit, 1)),), label)
