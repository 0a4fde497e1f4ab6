"""What a question means, independent of SQL: the QueryFrame the parser reads it into, its WHERE
conditions, and the Refusal of a question the agent declines."""

from __future__ import annotations

from dataclasses import dataclass, field


# The lookup table that lists each dimension's values ("ما هي المناطق": the regions table).
LOOKUP_TABLES = {
    "region": "regions", "type": "tender_types", "status": "tender_statuses", "activity": "activities",
    "agency": "agencies",
}


@dataclass(frozen=True)
class Condition:
    """One WHERE condition. ``field`` is abstract ("region", "date", "value", ...) until the SQL
    builder maps it to a column of the chosen table; ``label`` is its Arabic wording."""

    field: str
    op: str  # in | not_in | is_null | > | >= | < | <= | = | between | date_range | not_date_range | month_in | year_in | not_null
    # | column> | column< (values: the other field, its factor)
    values: tuple = ()
    label: str = ""


@dataclass(frozen=True)
class Side:
    """One of the two figures a difference compares: its own conditions (beside the frame's
    shared ones) and the column it measures (None: the frame's)."""

    conditions: tuple[Condition, ...] = ()
    column: str | None = None


@dataclass(frozen=True)
class QueryFrame:
    """What a question asks, independent of SQL."""

    entity: str  # tenders | projects | regions | tender_types | tender_statuses | activities | agencies
    measure: str = "rows"  # rows | count | count_distinct | sum | avg | max | min
    column: str | None = None  # measured or ordering field: value, awarded, bids, booklet, duration, date
    group_by: tuple[str, ...] = ()  # region, status, type, activity, agency, year, month, quarter
    conditions: tuple[Condition, ...] = ()
    order: str | None = None  # desc | asc
    limit: int | None = None
    offset: int = 0  # ranks skipped before the first row: "رابع منطقة" is rank 4, offset 3
    ranked: bool = False  # a superlative or top-N: the order is the answer
    distinct_of: str | None = None  # count_distinct: the dimension counted
    share_of: tuple[Condition, ...] = ()  # share: the conditions of the part, among ``conditions``
    # difference: the measure of each side, then first minus second ("كم الفرق بين ...")
    sides: tuple[Side, ...] = ()
    relative: bool = False  # difference: also as a percentage of the first side ("نسبة الوفر")
    # having: a threshold on each group's figure (field "count" or "total": the frame's measure)
    having: Condition | None = None
    # Words read back from a one-letter typo: (as typed, as understood), shown in the insight.
    understood: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    # Words of a clause beside the question that change nothing asked ("بصراحة محتار، ..."):
    # not used, and the insight says so.
    unused: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Refusal:
    """A question the agent declines; ``reason`` picks the apology."""

    # empty | too_long | not_arabic | sql | mutation | off_task | off_topic | unknown
    # | not_understood (content words left over) | unheld (data the schema does not hold)
    # | no_column (a condition the question's table cannot hold; decided by the agent)
    # | unplaced_date (a Hijri date outside the embedded calendar, or a Hijri month with no year)
    # | ambiguous (a name several agencies share; ``words`` are their names)
    # | two_questions (two questions in one whose figures are no values of one field)
    reason: str
    # The question's words the parser could not account for (not compared: the reason is the verdict).
    words: tuple[str, ...] = field(default=(), compare=False)
    # unheld: which data the question asks for (a key of lexicon.UNHELD_DATA).
    topic: str = field(default="", compare=False)


@dataclass(frozen=True)
class Parse:
    """A question read: its frame (or refusal), the words each part of the reading consumed
    (part, words), and the words not understood: content words nothing explained, or words read
    that the frame has no place for (then the frame is a ``not_understood`` refusal)."""

    frame: QueryFrame | Refusal
    consumed: tuple[tuple[str, tuple[str, ...]], ...] = ()
    leftover: tuple[str, ...] = ()
