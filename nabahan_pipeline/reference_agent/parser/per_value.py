"""A question asked of each of several values rather than of all of them together: "في كل من
الرياض وجدة", "كم منافسة في كل من 2023 و2024", "قارن عدد المنافسات بين 2023 و2024"; and years
compared ("مقارنة عدد المنافسات في 2023 وفي 2025": ANDed, two years would ask for no day at all).
Its answer is one figure per value (grouped by that field), not one total over them."""

from __future__ import annotations

import re
from dataclasses import replace

from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import COMPARE
from nabahan_pipeline.reference_agent.parser.reading import Reading

# "في كل من", "لكل من", "كلا من": each of the values named after it.
_EACH_OF = re.compile(r"(?<!\w)(?:في |ل)?(?:كل|كلا|كلتا) من(?!\w)")
# "بين 2023 و2024" beside a comparison word: the two years, not the range between them.
_BETWEEN_YEARS = re.compile(
    r"(?<!\w)بين(?=\s(?:(?:عام|سنه|عامي|سنتي)\s)?20[0-4]\d\s?و\s?(?:(?:عام|سنه)\s)?20[0-4]\d(?!\d))"
)
# A second question asked beside the first ("كم نشطة وكم ملغاة", "عدد الملغاة كم، وعدد النشطة كم"):
# its figures are given each, never summed into one.
_SECOND_QUESTION = re.compile(
    r"(?<!\w)و\s?(?:كم|كام|قديش|عدد)(?!\w)|(?<!\w)(?:كم|كام|قديش)(?!\w).*(?<!\w)(?:كم|كام|قديش)(?!\w)"
    r"|(?<!\w)(?:كم|كام|قديش|ما|وش|ايش|شو)(?!\w).*(?<!\w)و\s?(?:ما|وش|ايش|شو)(?= (?:ال|متوسط|مجموع|اجمالي|عدد|نسبه|اعلي|اقل|اكثر))"
)
# The conditions a group can stand for: a field with several values named.
_GROUPABLE = ("region", "type", "status", "activity", "agency")


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
    if not isinstance(frame, QueryFrame):
        return frame
    # A difference or a comparison asks for its two figures.
    second = two_questions(original) if not (frame.sides or COMPARE.search(original)) else ()
    if frame.group_by or frame.measure not in ("count", "sum", "avg"):
        return Refusal("two_questions", second) if second else frame
    each = bool(_EACH_OF.search(original)) or bool(second)
    compare = bool(COMPARE.search(original))
    for c in frame.conditions:
        if c.op == "year_in" and c.field == "date" and len(c.values) > 1 and (each or compare):
            return replace(frame, group_by=("year",), order="desc")
        if each and c.op == "in" and len(c.values) > 1 and c.field in _GROUPABLE:
            return replace(frame, group_by=(c.field,), order="desc")
    if second:
        # "كم في 2023 وكم في 2024": two whole years, ANDed by the frame, are one figure per year.
        dated = [c for c in frame.conditions if c.field == "date"]
        years = [_whole_years(c, original) for c in dated]
        if len(dated) >= 2 and all(y is not None and len(y) == 1 for y in years):
            rest = tuple(c for c in frame.conditions if c not in dated)
            named = tuple(sorted(y[0] for y in years if y))
            label = "في الأعوام " + " و".join(str(y) for y in named)
            return replace(frame, group_by=("year",), conditions=(*rest, Condition("date", "year_in", named, label)))
        # Two questions whose figures are no values of one field: one figure would answer neither.
        return Refusal("two_questions", second)
    return frame


def two_questions(original: str) -> tuple[str, ...]:
    """The words that ask a second question in ``original`` (normalized), or ()."""
    m = _SECOND_QUESTION.search(original)
    return tuple(m.group(0).split()[-1:]) if m else ()


def _whole_years(c: Condition, question: str) -> list[int] | None:
    """The years a date condition spans whole, if it does: one, or those of a range the question
    names ("بين 2024 و2025" is read as a range; compared, it is those two years)."""
    if c.op == "date_range" and len(c.values) == 2 and all(isinstance(v, str) for v in c.values):
        start, end = c.values
        if start.endswith("-01-01") and end.endswith("-01-01") and int(end[:4]) > int(start[:4]):
            first, last = int(start[:4]), int(end[:4]) - 1
            if first == last:
                return [first]
            named = sorted({int(y) for y in re.findall(r"(?<!\d)(20\d\d)(?!\d)", question) if first <= int(y) <= last})
            return named if len(named) >= 2 else None
    return None


def periods_compared(frame: QueryFrame, r: Reading) -> QueryFrame:
    """``frame`` grouped by year when the question compares two or more whole years; else as it is."""
    if not COMPARE.search(r.original) or frame.group_by or frame.sides or frame.measure not in ("count", "sum", "avg"):
        return frame
    dated = [c for c in frame.conditions if c.field in ("date", "deadline")]
    years: list[int] = []
    for c in dated:
        if c.op == "year_in":
            years += [int(y) for y in c.values]
        else:
            whole = _whole_years(c, r.original)
            if whole is None:
                return frame
            years += whole
    years = sorted(set(years))
    if len(years) < 2:
        return frame
    label = "في الأعوام " + " و".join(str(y) for y in years)
    rest = tuple(c for c in frame.conditions if c not in dated)
    return replace(frame, group_by=("year",), conditions=(*rest, Condition(dated[0].field, "year_in", tuple(years), label)))
