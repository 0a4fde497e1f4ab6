"""What a question asks once its filters are read (the table, the measure, the grouping, the order
and limit of a ranking), from the words the readers left; and every word of it accounted for."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.frame import Condition, LOOKUP_TABLES, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import (
    AVG, AWARD, BIDS, BOOKLET, COLUMN_AFTER_COUNT, COMPARE, COUNT, DEADLINE, DIMENSIONS, DIMENSION_KEYS, DURATION,
    ESTIMATED, FILLERS, GROUP_CUE, KNOWN, LIST_WORDS, OFF_TOPIC, OLDEST, PLURAL_DIMENSION, PROJECT, PROJECT_ADJ,
    QUESTION_FORM, RECENT, REGIONS, REGION_KEYS, SHARE, SOONEST, SPREAD_CUE, SUM, SUPERLATIVE, TENDER, TOP_WORDS,
    UNITS, VALUE, WHICH, blank,
)
from nabahan_pipeline.reference_agent.parser.reading import Reading


@dataclass(frozen=True)
class _Dimension:
    """A dimension noun of the question and where it stands."""

    dimension: str
    start: int
    end: int
    plural: bool
    cued: bool


_DISTINCT_FIELDS = ("region", "agency", "activity", "type", "status")
# A share is of the rows in a place and time: these conditions make the whole, the others the part.
_BASE_FIELDS = ("region", "date", "deadline")


@dataclass(frozen=True)
class _Cues:
    """The words left in a question once its filters are read, found once: what each stage of
    ``frame_of`` decides from."""

    text: str  # the working text, the deadline's words blanked ("آخر موعد": no "newest")
    dims: list[_Dimension]
    has_tender: bool
    has_project: bool
    superlatives: list[tuple[re.Match[str], str]]  # each with its direction
    count_cue: re.Match[str] | None
    sum_cue: re.Match[str] | None
    avg_cue: re.Match[str] | None
    value_word: re.Match[str] | None
    column: str
    off_topic: re.Match[str] | None
    # Which dimensions are asked about: ranked ("أكثر منطقة"), counted ("كم جهة") or asked for
    # ("أي جهة ...", "ما الجهات التي طرحت ..."); a cued one ("حسب المنطقة") says so itself.
    ranked_dims: list[_Dimension]
    counted_dim: _Dimension | None
    which_dim: _Dimension | None

    @property
    def specific_column(self) -> bool:
        """Award, booklet and bid words are procurement words in their own right."""
        return self.column in ("awarded", "bids", "booklet")


def _cues(r: Reading) -> _Cues:
    """The cues of ``r``'s working text."""
    text = DEADLINE.sub(lambda m: " " * len(m.group(0)), r.text)
    dims = _dimensions(text)
    # The tender noun inside or right after a dimension noun ("أنواع المناقصات", "طرق الطرح")
    # names the dimension only.
    has_tender = any(
        not any((d.start <= th.start() < d.end) or (d.plural and not d.cued and 0 <= th.start() - d.end <= 1) for d in dims)
        for th in TENDER.finditer(text)
    )
    has_project = bool(PROJECT.search(text)) or (bool(PROJECT_ADJ.search(text)) and not has_tender)
    superlatives = [(m, lx.SUPERLATIVE_TERMS[m.group("w")]) for m in SUPERLATIVE.finditer(text)]
    count_cue = next((m for m in COUNT.finditer(text) if not COLUMN_AFTER_COUNT.match(text, m.end())), None)
    return _Cues(
        text=text, dims=dims, has_tender=has_tender, has_project=has_project, superlatives=superlatives,
        count_cue=count_cue, sum_cue=SUM.search(text), avg_cue=AVG.search(text), value_word=VALUE.search(text),
        column=_column(text, has_project), off_topic=OFF_TOPIC.search(text),
        ranked_dims=[d for d in dims if any(_near(m, d) for m, _ in superlatives)],
        counted_dim=next((d for d in dims if count_cue and 0 <= d.start - count_cue.end() <= 6), None),
        which_dim=next((d for d in dims if any(0 <= d.start - w.end() <= 2 for w in WHICH.finditer(text))), None),
    )


def frame_of(r: Reading) -> QueryFrame | Refusal:
    """The frame the words left in a reading ask for, or the refusal of a question not about the
    data. In stages: the table (or a lookup, or a refusal), the dimensions grouped by, a share, a
    count of distinct values, the measure, then the frame of groups or of rows."""
    c = _cues(r)
    entity = _entity(c, r)
    if not isinstance(entity, str):
        return entity
    conditions = _conditions(r, entity)
    column = "value" if entity == "projects" and c.column == "awarded" else c.column
    group_dims, pick_one = _grouping(c, entity, conditions)
    if SHARE.search(c.text) and not group_dims and not c.dims:
        share = _share_frame(entity, conditions)
        if share and c.value_word and (c.sum_cue or ESTIMATED.search(c.text)):
            # "حصة الرياض من مجموع القيمة التقديرية": a share of the total value, not of the rows.
            share = replace(share, column=column)
        if share:
            return share
    # Every frame below is of these rows: all of them unless a measure, grouping or order says otherwise.
    rows = QueryFrame(entity=entity, measure="rows", conditions=tuple(conditions))
    counted = c.counted_dim
    if counted and counted.dimension in _DISTINCT_FIELDS and not counted.cued and not c.ranked_dims:
        # Count of distinct dimension values: "كم جهة طرحت مناقصات".
        return replace(rows, measure="count_distinct", distinct_of=counted.dimension)
    measure = _measure(c)
    if group_dims:
        return _groups_frame(c, r, rows, measure, column, group_dims, pick_one)
    if measure in ("sum", "avg", "count"):
        return replace(rows, measure=measure, column=column)
    return _rows_frame(c, r, rows, entity, column)


def _entity(c: _Cues, r: Reading) -> str | QueryFrame | Refusal:
    """The table asked about ("tenders" or "projects"), or the frame of a lookup table asked for
    by its dimension noun alone ("ما هي المناطق"), or the refusal of a question not about the data."""
    if c.has_project:
        return "projects"
    if c.has_tender:
        return "tenders"
    lookup = next((d for d in c.dims if d.dimension in LOOKUP_TABLES), None)
    if lookup and (c.off_topic or lookup.cued or c.ranked_dims or (c.superlatives and c.which_dim)):
        lookup = None
    if lookup and lookup.dimension == "region" and not lookup.plural and not c.count_cue:
        # "منطقة الرياض" was read as a place; a lone singular "منطقة" is no list request.
        lookup = None if any(cond.field == "region" for cond in r.conditions) else lookup
    if lookup:
        return _lookup_frame(lookup, r, c.count_cue)
    if r.strong or c.specific_column or (c.dims and (any(d.cued for d in c.dims) or c.ranked_dims) and not c.off_topic):
        return "tenders"
    question_form = QUESTION_FORM.search(r.original) or "?" in r.original
    if (r.weak or c.value_word) and not c.off_topic and question_form and not _unexplained(c.text):
        return "tenders"
    return Refusal("off_topic" if c.off_topic else "unknown")


def _grouping(c: _Cues, entity: str, conditions: list[Condition]) -> tuple[list[str], bool]:
    """The dimensions grouped by, and whether the question picks one of the values it names."""
    group_dims: list[str] = []
    # "أيهما أكثر: تبوك ولا جازان", "وش الأعلى ... الرياض أو مكة": the places named are compared
    # and the first of them is the answer.
    pick_one = bool(c.superlatives) and not c.dims
    if COMPARE.search(c.text) or pick_one:
        for cond in conditions:
            if cond.field in _DISTINCT_FIELDS and cond.op == "in" and len(cond.values) > 1 and not cond.label.startswith("غير"):
                group_dims.append(cond.field)
                break
    pick_one = pick_one and bool(group_dims)
    for d in c.dims:
        if d.cued or d in c.ranked_dims or (d is c.which_dim and (c.superlatives or not c.count_cue)):
            if d.dimension not in group_dims and not (entity == "projects" and d.dimension == "status"):
                group_dims.append(d.dimension)
    return group_dims, pick_one


def _measure(c: _Cues) -> str:
    """The measure: average, total, count, or rows."""
    count_cue, text = c.count_cue, c.text
    kam_value = bool(count_cue and VALUE.match(text, count_cue.end() + 1) if count_cue else False)
    kam_value = kam_value or bool(count_cue and re.match(r"\s+(?:تبلغ|يبلغ|بلغت|مجموع|اجمالي)\s", text[count_cue.end():]))
    if c.avg_cue:
        return "avg"
    if c.sum_cue and (c.value_word or c.specific_column or not count_cue):
        return "sum"
    if kam_value and not c.superlatives:
        return "sum"
    if count_cue and not (c.superlatives and c.value_word):
        return "count"
    return "rows"


def _groups_frame(
    c: _Cues, r: Reading, rows: QueryFrame, measure: str, column: str, group_dims: list[str], pick_one: bool
) -> QueryFrame:
    """A figure per group, or the groups ranked by it."""
    direction = c.superlatives[0][1] if c.superlatives else None
    ranked = bool(c.ranked_dims) or (c.which_dim is not None and bool(c.superlatives)) or pick_one
    group_metric = measure if measure in ("sum", "avg") else "count"
    if group_metric == "count" and (c.value_word or c.specific_column) and not c.count_cue:
        group_metric = "sum"
    if c.superlatives and not ranked:
        # "أعلى قيمة في كل منطقة": the extreme within each group.
        group_metric = "max" if direction == "desc" else "min"
    limit = None
    if ranked:
        singular = all(not d.plural for d in c.dims if d.dimension in group_dims)
        limit = r.top_n or (1 if singular else lx.DEFAULT_TOP_N)
    return replace(
        rows, measure=group_metric, column=column if group_metric != "count" else None,
        group_by=tuple(group_dims[:2]), order=(direction or "desc") if ranked else "desc",
        limit=limit, ranked=ranked,
    )


def _rows_frame(c: _Cues, r: Reading, rows: QueryFrame, entity: str, column: str) -> QueryFrame:
    """Rows: ranked by a column, or the newest/oldest, or all matching rows."""
    if c.superlatives:
        m, direction = c.superlatives[0]
        order_column = "duration" if m.group("w") in ("اطول", "اقصر") and entity == "projects" else column
        limit = r.top_n or (lx.DEFAULT_TOP_N if _plural_after(c.text, m.end()) else 1)
        return replace(rows, column=order_column, order=direction, limit=limit, ranked=True)
    recent, oldest = RECENT.search(c.text), OLDEST.search(c.text)
    soonest = SOONEST.search(c.text) if c.has_project else None
    cue = recent or oldest or soonest
    if cue:
        order = "asc" if (oldest or soonest) else "desc"
        limit = r.top_n or (lx.DEFAULT_TOP_N if _plural_after(c.text, cue.end()) else 1)
        return replace(rows, column=_date_column(r, entity), order=order, limit=limit, ranked=True)
    return replace(rows, column=column, order="desc", limit=r.top_n, ranked=True) if r.top_n else rows


def _share_frame(entity: str, conditions: list[Condition]) -> QueryFrame | None:
    """"نسبة المناقصات الملغاة في الرياض": the share of the rows meeting the status, type,
    value and name conditions among the rows meeting the place and time conditions."""
    part = tuple(c for c in conditions if c.field not in _BASE_FIELDS)
    base = tuple(c for c in conditions if c.field in _BASE_FIELDS)
    if not part:
        # "نسبة منافسات الشرقية من منافسات 2024": with nothing else to share, the place is the part.
        part = tuple(c for c in base if c.field == "region")
        base = tuple(c for c in base if c.field != "region")
    return QueryFrame(entity=entity, measure="share", conditions=base, share_of=part) if part else None


def _conditions(r: Reading, entity: str) -> list[Condition]:
    """The reading's filters as conditions on ``entity`` (dates on its date column)."""
    conditions = list(r.conditions)
    date_field = r.date_field or _date_column(r, entity)
    for span in r.dates:
        if span.years:
            conditions.append(Condition(date_field, "year_in", span.years, span.label))
        elif span.month_of_year:
            conditions.append(Condition(date_field, "month_in", span.month_of_year, span.label))
        else:
            op = "not_date_range" if span.negated else "date_range"
            conditions.append(Condition(date_field, op, (span.start, span.end), span.label))
    # A column the table lacks is compared on the value.
    lacks = ("duration",) if entity == "tenders" else ("awarded", "bids", "booklet") if entity == "projects" else ()
    # (A status or deadline of a future project stays: ``sql_builder.unanswerable`` refuses it.)
    return conditions + [
        Condition("value" if name in lacks else name, op, values, label) for name, op, values, label in r.values
    ]


def _date_column(r: Reading, entity: str) -> str:
    """The date column a question's dates and "newest" are of: a tender's deadline when it names it."""
    return "deadline" if entity == "tenders" and DEADLINE.search(r.original) else "date"


def _lookup_frame(d: _Dimension, r: Reading, count_cue: re.Match[str] | None) -> QueryFrame | Refusal:
    """A list (or count) of a lookup table: "ما هي المناطق", "كم جهة حكومية"; "تجمع القصيم
    الصحي في أي منطقة": the region of the agency named. A condition the table cannot hold ("ما
    هي الأنشطة في الرياض", a year) refuses the question rather than list every row."""
    table = LOOKUP_TABLES[d.dimension]
    conditions = tuple(c for c in r.conditions if table == "agencies" and c.field in ("region", "agency"))
    measure = "count" if count_cue else "rows"
    if table == "regions" and r.conditions and not r.dates and not r.values and not count_cue:
        if all(c.field == "agency" and c.op == "in" for c in r.conditions):
            return QueryFrame(entity="agencies", measure="rows", column="region", conditions=tuple(r.conditions))
    dropped = [c.label for c in r.conditions if c not in conditions] + [s.label for s in r.dates]
    dropped += [v.label for v in r.values]
    if dropped:
        return Refusal("not_understood", tuple(dropped))
    return QueryFrame(entity=table, measure=measure, conditions=conditions)


def _column(text: str, projects: bool) -> str:
    """The measured column named by the words left in the question."""
    named = ((BIDS, "bids"), (BOOKLET, "booklet"), (AWARD, "awarded")) + (((DURATION, "duration"),) if projects else ())
    return next((column for pattern, column in named if pattern.search(text)), "value")


def _dimensions(text: str) -> list[_Dimension]:
    """The dimension nouns of ``text`` ("المنطقة", "الجهات"), each plural or not and cued by a group word or not."""
    found = []
    near_cues = [m.end() for m in GROUP_CUE.finditer(text)]
    spread = SPREAD_CUE.search(text)
    for m in DIMENSIONS.finditer(text):
        dimension = str(DIMENSION_KEYS[m.lastgroup])  # type: ignore[index]
        word = m.group(0)
        plural = bool(PLURAL_DIMENSION.search(word))
        cued = (
            any(0 <= m.start() - end <= 4 for end in near_cues)
            or bool(re.search(r"(سنويا|شهريا)$", word))
            or bool(spread and spread.start() < m.start())
        )
        found.append(_Dimension(dimension, m.start(), m.end(), plural, cued))
    return found


def _unexplained(text: str) -> list[str]:
    """Words left that the vocabulary does not explain (a sign the question is about something else)."""
    rest = KNOWN.sub(" ", FILLERS.sub(" ", text))
    return [w for w in rest.split() if len(w) > 1 and not w.isdigit()]


def _plural_after(text: str, position: int) -> bool:
    """Whether the noun after a superlative is plural ("أعلى المناقصات") rather than singular
    ("أعلى مناقصة", "أقل قيمة")."""
    following = text[position:].split()
    return bool(following) and bool(
        re.match(r"[وفبل]?(?:ال)?(?:مناقصات|منافسات|مشاريع|مشروعات|عطاءات|صفقات|قيم|عقود)$", following[0])
    )


def _near(m: re.Match[str], d: _Dimension) -> bool:
    """A superlative that qualifies a dimension noun: right before it ("أكثر منطقة", "أكثر 3 جهات")
    or right after it ("المنطقة الأكثر")."""
    return 0 <= d.start - m.end() <= 6 or 0 <= m.start() - d.end <= 2


# --- accounting -----------------------------------------------------------------------------------
# Every word accounted for: consumed by a reader, read as what is asked, or a filler; a content word
# left over makes the agent refuse rather than answer a different question.

# The words left after the filter passes, read by what is asked (``intent``), part by part.
INTENT_PARTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("column:deadline", DEADLINE), ("unit", UNITS), ("grouping:dimension", DIMENSIONS),
    ("table", PROJECT), ("table", TENDER), ("table", PROJECT_ADJ),
    ("column:booklet", BOOKLET), ("column:bids", BIDS), ("column:awarded", AWARD),
    ("column:duration", DURATION), ("column:value", ESTIMATED), ("column:any", VALUE),
    ("grouping", GROUP_CUE), ("grouping", SPREAD_CUE), ("grouping", COMPARE),
    ("measure:share", SHARE), ("measure", AVG), ("measure", SUM), ("measure", COUNT),
    ("order", SUPERLATIVE), ("order", TOP_WORDS), ("order", RECENT), ("order", OLDEST), ("order", SOONEST),
    ("question", WHICH), ("question", QUESTION_FORM), ("question", LIST_WORDS),
    ("filler", FILLERS),
)
_WORD = re.compile(r"\S+")
_CONTENT = re.compile(r"[^\W_]{2,}|\d")


def consumed_words(before: str, after: str) -> tuple[str, ...]:
    """The words of ``before`` that a pass blanked out (wholly or in part) in ``after``."""
    return tuple(m.group(0) for m in _WORD.finditer(before) if after[m.start() : m.end()] != m.group(0))


# "ما" past the question's first word negates ("المنافسات اللي ما لها منطقة", "ما طرحتها"):
# no filler then, a word the parser does not understand.
_MID_NEGATION = re.compile(r"(?<=\S)(\s+)ما(?=\s)(?!\s(?:هي|هو|عدا)(?!\w))")
_FIRST_WORD = re.compile(r"\s*\S+")
# A comparator the values pass left, so with no figure after it ("بقيمة أعلى من قيمتها التقديرية"):
# a comparison the parser cannot read.
_DANGLING_COMPARATOR = re.compile(r"(?<!\w)(?:ب)?(?:اكثر|اعلي|اقل|ادني|اكبر|اصغر|ازيد)(?=\s(?:من|عن)\s)")


def account_intent(text: str) -> tuple[list[tuple[str, tuple[str, ...]]], tuple[str, ...]]:
    """The words of ``text`` (the question with its filters blanked) each part of what is asked
    explains, and the content words none explains: the leftover."""
    consumed: list[tuple[str, tuple[str, ...]]] = []
    first = _FIRST_WORD.match(text)
    negations: list[tuple[int, str]] = []  # and other words left unexplained on purpose
    for m in _MID_NEGATION.finditer(text, first.end() if first else 0):
        negations.append((m.end(1), "ما"))
        text = blank(text, m.end(1), m.end())
    for m in _DANGLING_COMPARATOR.finditer(text):
        negations.append((m.start(), m.group(0)))
        text = blank(text, m.start(), m.end())
    for part, pattern in INTENT_PARTS:
        found = [m for m in pattern.finditer(text) if m.group(0).strip()]
        if not found:
            continue
        consumed.append((part, tuple(m.group(0).strip() for m in found)))
        for m in found:
            text = blank(text, m.start(), m.end())
    left = [(m.start(), m.group(0)) for m in _WORD.finditer(text) if _CONTENT.search(m.group(0))]
    return consumed, tuple(word for _, word in sorted(left + negations))


def _by_part(consumed: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[str, ...]]:
    parts: dict[str, tuple[str, ...]] = {}
    for part, words in consumed:
        parts[part] = parts.get(part, ()) + words
    return parts


def ignored_words(frame: QueryFrame, consumed: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[str, ...]:
    """Words a part of the reading consumed that ``frame`` does not use: a share that became a
    count, a superlative with nothing ranked, a column word (booklet, bids, award, duration) that
    neither a condition, the measure nor the grouping is about ("التقديرية" beside a sum of awards),
    a dimension noun ("المناطق") with nothing grouped or counted by it."""
    parts = _by_part(consumed)
    ignored: list[str] = []
    rows = frame.measure == "rows" and not frame.ranked  # the rows show every column
    if not (rows or frame.group_by or frame.distinct_of or frame.entity not in ("tenders", "projects")):
        # A dimension noun beside a condition on it ("في نشاط الاتصالات") names that condition.
        filtered = {c.field for c in frame.conditions + frame.share_of}
        filtered |= {c.field for side in frame.sides for c in side.conditions}
        for word in parts.get("grouping:dimension", ()):
            m = DIMENSIONS.fullmatch(word)
            if not (m and DIMENSION_KEYS[m.lastgroup] in filtered):  # type: ignore[index]
                ignored.append(word)
    if frame.measure != "share" and not frame.relative:
        ignored += parts.get("measure:share", ())
    if not (frame.ranked or frame.group_by or frame.measure in ("max", "min") or frame.order):
        ignored += parts.get("order", ())
    used_columns = {c.field for c in frame.conditions + frame.share_of} | set(frame.group_by)
    if frame.measure in ("sum", "avg", "max", "min") or frame.ranked or (frame.measure == "share" and frame.column):
        used_columns.add(frame.column or "value")
    if rows:
        used_columns |= {"booklet", "bids", "awarded", "duration", "value"}
    for side in frame.sides:
        used_columns.add(side.column or frame.column or "value")
        used_columns |= {c.field for c in side.conditions}
    for column in ("booklet", "bids", "awarded", "duration", "value"):
        if column not in used_columns:
            ignored += parts.get(f"column:{column}", ())
    columns_named = any(part.startswith("column:") and part != "column:deadline" for part in parts)
    if frame.measure in ("avg", "sum") and not columns_named:
        # "متوسط عدد المنافسات شهرياً": an average of counts, which no frame holds; not an
        # average of the values nobody named.
        ignored += tuple(w for w in parts.get("measure", ()) if w in ("عدد", "كم عدد", "تعداد"))
    return tuple(ignored)


# "كم مناقصة ومشروع", "المشاريع أو المنافسات": two tables joined; one frame reads one table.
_TENDER_NOUN = r"(?:[بل]?ال|[بل]|لل)?(?:مناقص|منافس|عطاء)\w*"
_PROJECT_NOUN = r"(?:[بل]?ال|[بل]|لل)?(?:مشروع|مشاريع)\w*"
_TWO_TABLES = re.compile(
    rf"(?<!\w){_TENDER_NOUN}(?: \w+)? (?:و|او |ولا ){_PROJECT_NOUN}(?!\w)"
    rf"|(?<!\w){_PROJECT_NOUN}(?: \w+)? (?:و|او |ولا ){_TENDER_NOUN}(?!\w)"
)


def two_tables(question: str) -> tuple[str, ...]:
    """The words of ``question`` (normalized) that join tenders and future projects ("و", "أو"): a
    frame answers for one table, so the other would be a word read and left unused."""
    m = _TWO_TABLES.search(question)
    return tuple(m.group(0).split()) if m else ()


# --- unused words ---------------------------------------------------------------------------------
# Words read and left unused by the frame beyond ``ignored_words``: one SELECT holds none of them, so
# the agent names them and refuses rather than answer another question.

# The column words a measure may be of; with none, an average or a total is of the value.
_COLUMN_PARTS = ("column:any", "column:value", "column:awarded", "column:bids", "column:booklet", "column:duration")
# A figure compared and followed by the rows' noun: a number of rows, not a value.
# ("أكبر 10 مناقصات", with no "من", is a top-N.)
_ROW_COUNT_THRESHOLD = re.compile(
    r"(?<!\w)(?:[وب]?(?:اكثر|اقل|ازيد|اكبر|اصغر|يزيد|تزيد|يقل|تقل)\s(?:من|عن|علي)"
    r"|(?:فوق|تحت|دون|يتجاوز|تتجاوز|تجاوزت|تتعدي))"
    r"\s(?:\d+(?:[.,]\d+)?)\s(?:[بل]?ال)?(?:منافس|مناقص|مشروع|مشاريع|عطاء|عطاءات)\w*(?!\w)"
)


# "من الأقل", "من الأحدث للأقدم": an order of rows, never the one row at an end.
_FROM_END = re.compile(r"(?<!\w)من (?:ال)?(?:اقل|اكثر|اعلي|ادني|احدث|اقدم|اكبر|اصغر|اجدد)(?:\s(?:لل|الي ال|ل)\w+)?")


def unused_words(frame: QueryFrame, consumed: tuple[tuple[str, tuple[str, ...]], ...], question: str) -> tuple[str, ...]:
    """The words of ``question`` (normalized) the parts in ``consumed`` read and ``frame`` leaves
    unused: a count averaged, the deadline beside another measure, both ends of a ranking, a
    threshold on a number of rows."""
    parts = _by_part(consumed)
    unused: list[str] = []
    if frame.measure in ("avg", "sum", "max", "min") and not frame.sides and not any(parts.get(p) for p in _COLUMN_PARTS):
        # "متوسط عدد المنافسات", "كم منافسة في المتوسط": the count is what is averaged.
        unused += [w for w in parts.get("measure", ()) if COUNT.fullmatch(w)]
    deadline_used = frame.measure == "rows" or frame.column == "deadline" or any(
        c.field == "deadline" for c in frame.conditions
    )
    if not deadline_used:
        unused += parts.get("column:deadline", ())
    if frame.group_by and frame.entity in ("tenders", "projects"):
        # "حسب المنطقة والحالة" grouped by the region alone; a noun beside a condition on it
        # ("في نشاط الاتصالات") names that condition.
        held = set(frame.group_by) | {c.field for c in frame.conditions}
        for word in parts.get("grouping:dimension", ()):
            m = DIMENSIONS.fullmatch(word)
            if m and DIMENSION_KEYS[m.lastgroup] not in held:  # type: ignore[index]
                unused.append(word)
    superlatives = [(w, SUPERLATIVE.fullmatch(w)) for w in parts.get("order", ())]
    directions = {lx.SUPERLATIVE_TERMS[m.group("w")] for _, m in superlatives if m}
    if frame.ranked and len(directions) > 1:
        # "أعلى وأقل منطقة في عدد المنافسات": the ranking answers one end.
        unused += [w for w, m in superlatives if m]
    from_end = _FROM_END.search(question)
    if from_end and frame.ranked and frame.limit == 1:
        unused += from_end.group(0).split()
    if frame.measure == "share" or frame.sides or "region" in frame.group_by:
        seen: dict[object, str] = {}
        for m in REGIONS.finditer(question):
            region = REGION_KEYS[m.lastgroup]  # type: ignore[index]
            place = m.group(0).strip()
            if region in seen and seen[region] != place:
                unused.append(place)
            seen.setdefault(region, place)
    for m in _ROW_COUNT_THRESHOLD.finditer(question):
        unused += m.group(0).split()
    return tuple(unused)
