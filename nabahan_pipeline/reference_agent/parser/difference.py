"""The difference between two figures: "كم الفرق بين عدد المنافسات المرساة وعدد الملغاة",
"بكم يزيد عدد منافسات الرياض على منافسات مكة", "كم زاد عدد المنافسات في 2026 عن 2025",
"الفرق بين القيمة التقديرية وقيمة الترسية", "نسبة الوفر" (the estimated value less the awarded one,
as a share of the estimated).

The cue is read after the filter passes; the frame the rest of the question makes is then split
into two sides: a condition that names two values (two places, statuses, types, names), two
periods, or two columns (estimated and awarded value). The measure (count, total, average) is
taken on each side and the second subtracted from the first. Anything else (no two sides, or
several ways to split) is refused rather than answered as another question."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser.frame import Condition, QueryFrame, Refusal, Side
from nabahan_pipeline.reference_agent.parser.patterns import AWARD, BIDS, BOOKLET, COMPARE, DURATION, ESTIMATED, SHARE, VALUE
from nabahan_pipeline.reference_agent.parser.reading import Reading

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
    columns: list[str] = []
    for m in sorted([*ESTIMATED.finditer(r.text), *AWARD.finditer(r.text)], key=lambda m: m.start()):
        column = "awarded" if AWARD.fullmatch(m.group(0)) else "value"
        if column not in columns:
            columns.append(column)
    words: list[str] = []
    less = False
    for m in list(_CUE.finditer(r.text)):
        words.append(m.group(0).strip())
        less = less or bool(m.group("less"))
        r.blank(m.start(), m.end())
    savings = False
    for m in list(_SAVINGS.finditer(r.text)):
        words.append(m.group(0).strip())
        savings = True
        r.blank(m.start(), m.end())
    relative = False
    for m in list(_RELATIVE.finditer(r.text)):
        words.append(m.group(0).strip())
        relative = True
        r.blank(m.start(), m.end())
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
    for column, pattern in (("bids", BIDS), ("booklet", BOOKLET), ("duration", DURATION), ("awarded", AWARD), ("value", VALUE)):
        if pattern.search(text):
            return column
    return None


def _split_values(c: Condition, catalog: Catalog) -> tuple[Condition, Condition]:
    """A condition on two values as one condition on each, in the question's order."""
    first, second = (Condition(c.field, "in", (v,), catalog.phrase(c.field, (v,))) for v in c.values)
    return first, second


def _split_years(c: Condition, question: str) -> tuple[Condition, Condition]:
    """"منافسات 2025 و2024": the two years in the order the question names them."""
    years = sorted(c.values, key=lambda y: question.find(str(y)))
    first, second = (Condition(c.field, "year_in", (y,), f"عام {y}") for y in years)
    return first, second
