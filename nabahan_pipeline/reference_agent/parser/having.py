"""A threshold on each group's total or count ("المناطق التي يتجاوز إجمالي القيمة التقديرية
لمنافساتها 5 مليارات", "الجهات التي طرحت أكثر من 100 منافسة"): the groups named first, then a
relative ("التي", "اللي"), a comparator and a figure. The threshold is taken out and the rest asked
of every group ("... حسب المنطقة"); the caller keeps the groups whose figure passes it (HAVING).
A count when the figure is followed by the rows' noun or the rest asks for a number of rows, a
total (or average) when the rest names one; a value with neither is each row's, and no HAVING."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame
from nabahan_pipeline.reference_agent.parser.patterns import alternation
from nabahan_pipeline.reference_agent.parser.values import AVERAGE

# The groups named first -> (dimension, the grouping the rest is asked by, an agency group's words).
_HEADS: dict[str, tuple[str, str, str]] = {
    "مناطق": ("region", "حسب المنطقه", ""),
    "جهات": ("agency", "حسب الجهه", ""),
    "انشطه": ("activity", "حسب النشاط", ""),
    "انواع ال?(?:منافسات|مناقصات)": ("type", "حسب النوع", ""),
    "انواع": ("type", "حسب النوع", ""),
    "حالات": ("status", "حسب الحاله", ""),
    "جامعات": ("agency", "حسب الجهه", "للجامعات"),
    "وزارات": ("agency", "حسب الجهه", "للوزارات"),
    "مستشفيات": ("agency", "حسب الجهه", "للمستشفيات"),
    "امانات": ("agency", "حسب الجهه", "للامانات"),
}
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
