"""Questions asked of each of several values ("في كل من الرياض وجدة", "قارن عدد المنافسات بين
2023 و2024": one figure per value, grouped by that field, never one total), years compared (ANDed,
two years would hold no day), and the difference between two figures."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame, Refusal, Side
from nabahan_pipeline.reference_agent.parser.patterns import (
    AWARD, BIDS, BOOKLET, COMPARE, DURATION, ESTIMATED, SHARE, VALUE,
)
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
    return _BETWEEN_YEARS.sub("في ", text) if COMPARE.search(text) else text


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
            return _by_year(frame, dated, sorted(y[0] for y in years if y))
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
    return _by_year(frame, dated, years) if len(years) >= 2 else frame


def _by_year(frame: QueryFrame, dated: list[Condition], years: list[int]) -> QueryFrame:
    """``frame`` grouped by year, its ``dated`` conditions replaced by one on ``years``."""
    label = "في الأعوام " + " و".join(str(y) for y in years)
    rest = tuple(c for c in frame.conditions if c not in dated)
    return replace(frame, group_by=("year",), conditions=(*rest, Condition(dated[0].field, "year_in", tuple(years), label)))


# --- difference -----------------------------------------------------------------------------------
# "كم الفرق بين ...", "بكم يزيد ... على", "نسبة الوفر": the frame split into two sides (two values of
# one condition, two periods or two columns), the second subtracted; no way or several to split: refused.

# "الفرق (الإجمالي) بين", "بكم يزيد ... على", "كم زاد ... عن", "زيادة ... مقارنة بـ", "بكم يقل".
_CUE = re.compile(
    r"(?<!\w)(?:[وف])?(?:"
    r"(?P<diff>(?:ال)?(?:فرق|فارق)(?: (?:ال)?(?:اجمالي|كلي))?)"
    r"|(?P<more>يزيد|تزيد|زاد|زادت|ازداد|ازدادت|زياده|الزياده|يتفوق|تتفوق|يفوق|فاق|فاقت)"
    r"|(?P<less>يقل|تقل|قلت|ينقص|تنقص|نقصت)"
    r")(?!\w)"
)
# "نسبة الوفر", "التوفير": the estimated value less the awarded one.
_SAVINGS = re.compile(r"(?<!\w)(?:[وفبل]?ال|[بل])?(?:وفر|توفير|وفورات)(?!\w)")
# "منسوب للتقديري", "كنسبة من": the difference as a share of the first side.
_RELATIVE = re.compile(r"(?<!\w)(?:منسوب(?:ا|ه)?|كنسبه)(?!\w)")

_RATE = re.compile(r"(?<!\w)(?:ال)?معدل(?!\w)")
_SPLIT_FIELDS = ("region", "status", "type", "activity", "agency")
_LISTED_FIELDS = ("region", "status", "type")  # one condition lists the values the question named
_DATE_FIELDS = ("date", "deadline")
_MEASURES = ("count", "sum", "avg")


@dataclass(frozen=True)
class DifferenceCue:
    """What the question said of a difference: its words, whether the second side is the larger
    ("بكم يقل"), the columns it names in order, and whether it asks for a share of the first."""

    words: tuple[str, ...]
    less: bool = False
    columns: tuple[str, ...] = ()
    relative: bool = False
    savings: bool = False


def read_difference(r: Reading) -> DifferenceCue | None:
    """The difference cue of the working text (blanked out), or None when the question asks for
    none. "قارن بين مجموع القيم التقديرية ومجموع قيم الترسية" (two columns compared) is one too."""
    named = sorted([*ESTIMATED.finditer(r.text), *AWARD.finditer(r.text)], key=lambda m: m.start())
    columns = list(dict.fromkeys("awarded" if AWARD.fullmatch(m.group(0)) else "value" for m in named))
    words: list[str] = []

    def take(pattern: re.Pattern[str]) -> list[re.Match[str]]:
        found = list(pattern.finditer(r.text))
        for m in found:
            words.append(m.group(0).strip())
            r.blank(m.start(), m.end())
        return found

    less = any(m.group("less") for m in take(_CUE))
    savings, relative = bool(take(_SAVINGS)), bool(take(_RELATIVE))
    if savings:
        # "نسبة الوفر", "معدل التوفير": the savings as a share of the estimated value.
        columns = ["value", "awarded"]
        relative = relative or bool(SHARE.search(r.original) or _RATE.search(r.original))
    if not words and not (COMPARE.search(r.text) and len(columns) == 2):
        return None
    return DifferenceCue(tuple(words), less, tuple(columns), relative, savings)


def difference_frame(frame: QueryFrame, cue: DifferenceCue, r: Reading, catalog: Catalog) -> QueryFrame | Refusal:
    """``frame`` as the difference between its two sides, or the refusal of a difference the
    question does not name two sides of."""
    refusal = Refusal("not_understood", cue.words or ("الفرق",))
    if frame.entity not in ("tenders", "projects"):
        return refusal
    conditions = list(frame.conditions) + [c for c in frame.share_of if c not in frame.conditions]
    # Each split: the conditions it replaces, and the two sides' conditions. Two values named in
    # one list ("الرياض ومكة", "المرساة والملغاة") ...
    splits = [
        ((c,), *_split_values(c, catalog))
        for c in conditions
        if c.op == "in" and c.field in _LISTED_FIELDS and len(c.values) == 2
    ]
    # ... or two names, each its own condition ("وزارة الصحة وجامعة الملك سعود"; one name may be
    # several agencies, read together), or two periods.
    for field_name in _SPLIT_FIELDS:
        named = [c for c in conditions if c.field == field_name and c.op == "in"]
        if len(named) == 2:
            splits.append(((named[0], named[1]), named[0], named[1]))
    dated = [c for c in conditions if c.field in _DATE_FIELDS]
    if len(dated) == 2:
        splits.append(((dated[0], dated[1]), dated[0], dated[1]))
    elif len(dated) == 1 and dated[0].op == "year_in" and len(dated[0].values) == 2:
        splits.append(((dated[0],), *_split_years(dated[0], r.original)))
    columns = cue.columns if len(cue.columns) == 2 else ()
    measure = frame.measure
    named_column = _named_column(r.text)
    if measure in ("rows", "share"):
        # "الفرق بين قيمة ترسية منافسات الرياض وجدة", "كم يزيد عدد العروض في الرياض عن جدة": a
        # column named with no measure is a total.
        measure = "sum" if columns or named_column else "count"
    elif measure == "count" and named_column == "bids":
        # "كم يزيد عدد العروض": the number of bids is a column, summed on each side.
        measure = "sum"
    if measure not in _MEASURES or len(splits) + bool(columns) != 1:
        return refusal
    if columns:
        if measure == "count" or (cue.relative and cue.savings):
            measure = "sum"
        sides = tuple(Side(column=column) for column in columns)
        if not any(c.field in ("status", "awarded") for c in conditions):
            # The estimated value against the awarded one (savings too) is of the tenders
            # awarded: the others have no awarded value to subtract.
            conditions.append(Condition("awarded", "not_null", (), "التي تمت ترسيتها"))
        shared = conditions
    else:
        replaced, first, second = splits[0]
        shared = [c for c in conditions if c not in replaced]
        sides = (Side(conditions=(first,)), Side(conditions=(second,)))
    if cue.less:
        sides = (sides[1], sides[0])
    column = frame.column if frame.column in ("value", "awarded", "bids", "booklet", "duration") else None
    # A rows frame names no column: the one column the question named ("قيمة ترسية", "عدد العروض").
    column = column or named_column or "value"
    return replace(
        frame, measure=measure, column=column, group_by=(), conditions=tuple(shared), order=None, limit=None,
        ranked=False, share_of=(), sides=sides, relative=cue.relative,
    )


def _named_column(text: str) -> str | None:
    """The one column the words left in ``text`` name, if any: bids, booklet, duration, the
    awarded or the estimated value."""
    named = (("bids", BIDS), ("booklet", BOOKLET), ("duration", DURATION), ("awarded", AWARD), ("value", VALUE))
    return next((column for column, pattern in named if pattern.search(text)), None)


def _split_values(c: Condition, catalog: Catalog) -> tuple[Condition, Condition]:
    """A condition on two values as one condition on each, in the question's order."""
    first, second = (Condition(c.field, "in", (v,), catalog.phrase(c.field, (v,))) for v in c.values)
    return first, second


def _split_years(c: Condition, question: str) -> tuple[Condition, Condition]:
    """"منافسات 2025 و2024": the two years in the order the question names them."""
    years = sorted(c.values, key=lambda y: question.find(str(y)))
    first, second = (Condition(c.field, "year_in", (y,), f"عام {y}") for y in years)
    return first, second
