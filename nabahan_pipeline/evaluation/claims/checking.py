"""Each claim checked against the rows the agent's SQL returned: supported, contradicted (with what
the rows say instead) or unsupported (an unattached number nothing derives). One rule per kind of
claim (``_CHECKERS``), each by its own reading of the rows; then what a sentence says as a whole,
each said once. The rules, with their examples: docs/claims.md, "The rules".
"""

from __future__ import annotations

import functools
import math
from datetime import date
import operator
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nabahan_pipeline.arabic import hijri_calendar
from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers
from nabahan_pipeline.etimad_db.sql_safety import read_sql
from nabahan_pipeline.evaluation.claims import words
from nabahan_pipeline.evaluation.claims.bag import is_number
from nabahan_pipeline.evaluation.claims.evidence import ResultValues, Values, format_number, widened
from nabahan_pipeline.evaluation.claims.folding import Folded, fold
from nabahan_pipeline.etimad_db import reference_data as ref
from nabahan_pipeline.evaluation.claims.labels import ENTITIES, Label, RowLabels, find_entities, find_months
from nabahan_pipeline.evaluation.claims.reading import Claim, read_claims, sentence_measure
from nabahan_pipeline.evaluation.claims.windows import SqlDates, sql_dates, window_contradictions
from nabahan_pipeline.evaluation.claims.comparisons import comparison_contradictions
from nabahan_pipeline.evaluation.claims.arithmetic import arithmetic_contradictions

SUPPORTED, CONTRADICTED, UNSUPPORTED = "supported", "contradicted", "unsupported"
# What a rule of a whole sentence finds: (start, end, the words as written, what is so instead).
Found = tuple[int, int, str, str]
# How near a value on a bound's wrong side must be to be the value it rounds (a tenth of it).
BOUND_NEAR = 0.1
_RELATIONS: dict[str, Callable[[float, float], bool]] = {
    ">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le,
}


@dataclass(frozen=True)
class ClaimCheck:
    """One claim's verdict, and what the rows say when it is contradicted."""

    claim: Claim
    verdict: str
    evidence: str = ""
    context: str = ""  # an unverified number: the words around it, to say where to look

    def describe(self) -> str:
        """The claim as a reader of the results sees it: "جدة 1,204: row says 860"."""
        return f"{self.claim.text}: {self.evidence}" if self.evidence else self.claim.text


@dataclass(frozen=True)
class Result:
    """What the claims are checked against: the rows, their labels, their columns' measures, and
    whether the SQL orders them (and how)."""

    values: ResultValues
    labels: RowLabels
    measures: dict[int, str]
    order: int  # +1 ORDER BY ... DESC, -1 ASC, 0 none
    question: str
    insight: Folded
    sql: str | None = None

    @functools.cached_property
    def months(self) -> list[Any]:
        """The months the insight names (``labels.find_months``)."""
        return find_months(self.insight)

    @functools.cached_property
    def entities(self) -> list[Label]:
        """The reference entities the insight names, of every kind, in order; not those inside a
        quoted name («صيانة المباني الملغاة سابقاً» is a tender's name, not a status)."""
        return sorted((label for kind in _ENTITY_KINDS for label in find_entities(self.insight, kind)
                       if not _quoted(self.insight.original, label.start, label.end)), key=lambda label: label.start)

    @functools.cached_property
    def row_entities(self) -> set[tuple[str, str]]:
        """The reference entities the rows' labels are."""
        return {entity for spelling in self.labels.spellings for entity in [ENTITIES.get(spelling)] if entity}

    @functools.cached_property
    def insight_labels(self) -> list[Label]:
        """The row labels the insight names, in order."""
        return self.labels.find(self.insight)

    @functools.cached_property
    def folded_question(self) -> Folded:
        """The question folded, once for every rule that reads it."""
        return Folded.of(self.question)

    @functools.cached_property
    def question_months(self) -> list[Any]:
        """The months the question names, in order."""
        return find_months(self.folded_question)

    @functools.cached_property
    def filter_dates(self) -> SqlDates:
        """The SQL's date filter (its window, the months it spans), read once for every rule."""
        return sql_dates(self.sql)

    @functools.cached_property
    def asked_months(self) -> list[tuple[str, int, int | None]]:
        """The months the question names (calendar, month, year), and those its SQL's dates span."""
        named = [(m.calendar, m.month, m.year) for m in self.question_months]
        return named + [("gregorian", month, year) for year, month in self.filter_dates.months]

    @functools.cached_property
    def asked(self) -> set[tuple[str, str]]:
        """The reference entities the SQL filters by (a name in a string literal, an id compared with
        ``=`` or ``IN``): what the rows are for. Not the question's words: a question names a city for
        its region, an agency by a short name; the SQL says what was asked."""
        literals = re.findall(r"'([^']{2,80})'", self.sql or "")
        named = {entity for literal in literals if (entity := ENTITIES.get(fold(literal).strip()))}
        kept, _ = _id_filters(self.sql)
        return named | {(kind, name) for kind, names in kept.items() for name in names}


def check_insight(
    insight: str, question: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], sql: str | None,
    aggregates: Sequence[str | None] | None = None,
) -> list[ClaimCheck]:
    """Every claim of ``insight`` checked against ``rows`` (the agent's SQL's result); ``aggregates``
    as ``column_measures`` takes them."""
    values = ResultValues.of(columns, rows, question)
    result = Result(values, RowLabels.of(columns, rows), column_measures(sql, columns, aggregates),
                    _order(sql, values.columns, values.numeric_columns), question,
                    Folded.of(insight or ""), sql)
    checks = []
    for claim in read_claims(insight, result.labels, result.insight):
        check = _CHECKERS[claim.kind](claim, result)
        if check is not None:
            if claim.kind == "number" and check.verdict != CONTRADICTED and claim.comparator != "range":
                check = next((found for rule in _NUMBER_RULES if (found := rule(check, result))), check)
            if claim.kind == "number" and claim.negated and check.verdict == SUPPORTED:
                check = ClaimCheck(claim, CONTRADICTED, f"the rows say {claim.mention.text}, which the insight denies")
            if check.verdict == UNSUPPORTED and claim.mention is not None:
                check = replace(check, context=number_in_context(insight, claim.mention))
            checks.append(check)
    dates = _dates(result) + _told(_DATE_RULES, result)
    spans = [check.claim.clause for check in dates]
    # A date's day and year are the date's claim, not figures of their own.
    checks = [check for check in checks if check.claim.kind != "number"
              or not any(s <= check.claim.start < e for s, e in spans)] + dates
    # Claims read across a sentence (its figures together, a comparison with no figure): each
    # said once, not again where a claim of its words is already contradicted.
    told = [check.claim for check in checks if check.verdict == CONTRADICTED]
    across = _told(_SENTENCE_RULES, result)
    checks += [check for check in across if not any(_overlaps(check.claim, claim) for claim in told)]
    return sorted(checks, key=lambda check: check.claim.start)


def _verdict(claim: Claim, holds: bool, says: str) -> ClaimCheck:
    """``claim`` supported where it holds, else contradicted by what the rows say (``says``)."""
    return ClaimCheck(claim, SUPPORTED) if holds else ClaimCheck(claim, CONTRADICTED, says)


def _overlaps(one: Claim, other: Claim) -> bool:
    """Either claim starts within the other's clause."""
    return one.clause[0] <= other.start < one.clause[1] or other.clause[0] <= one.start < other.clause[1]


# Words either side of an unverified number that its reason quotes.
CONTEXT_WORDS = 3


def number_in_context(insight: str, mention: NumberMention) -> str:
    """The number as written with up to CONTEXT_WORDS words either side, within its line, cut
    where the text is: "… في منطقة الرياض 1,234 منافسة …"."""
    line_start = insight.rfind("\n", 0, mention.start) + 1
    line_end = insight.find("\n", mention.end)
    line_end = len(insight) if line_end < 0 else line_end
    before = list(re.finditer(r"\S+", insight[line_start : mention.start]))
    after = list(re.finditer(r"\S+", insight[mention.end : line_end]))
    start = line_start + before[-CONTEXT_WORDS].start() if len(before) >= CONTEXT_WORDS else line_start
    end = mention.end + after[CONTEXT_WORDS - 1].end() if len(after) >= CONTEXT_WORDS else line_end
    text = " ".join(insight[start:end].split()).strip(" *-•#")
    return ("… " if len(before) > CONTEXT_WORDS else "") + text + (" …" if len(after) > CONTEXT_WORDS else "")


def _check_number(claim: Claim, result: Result) -> ClaimCheck:
    mention = claim.mention
    assert mention is not None
    attachment = claim.attachment
    approximate = claim.comparator == "~"
    labelled = attachment is not None and attachment.strong
    if claim.comparator == "range":
        return _check_range(claim, result.values.of_rows(attachment.rows, own=True) if labelled else None, result)
    if claim.comparator in _RELATIONS:
        # A labelled bound holds for its row's own figures (a cell, its share, what the row derives),
        # not for a difference or ratio against another row.
        values = result.values.of_rows(attachment.rows, own=True) if labelled else result.values.near
        return _check_bound(claim, mention, values, result, own=labelled)
    if attachment is not None:
        # A figure on its row is that row's own (a cell, its share, what the row derives) or the
        # whole result's; a difference or ratio against another row only where its clause compares.
        # A percentage in its row's parentheses ("منطقة جازان (64 مناقصة، 86.5%)") is that row's share.
        after_label = max((label.end for label in attachment.labels), default=mention.start)
        bracketed = mention.percent and bool(re.fullmatch(r"\s*\([^()]*", result.insight.original[after_label : mention.start]))
        strict = (attachment.strong or bracketed) and not _COMPARING.search(fold(result.insight.original[slice(*claim.clause)]))
        values = result.values.of_rows(attachment.rows, own=strict)
        if values.supports(mention, approximate) or strict and result.values.whole.supports(mention, approximate):
            return _check_measure(claim, mention, attachment.rows, result)
        elsewhere = not (attachment.strong or strict) and not _other_row(result, attachment.rows, mention, approximate)
        if elsewhere and _unattached_supports(result, mention, approximate):
            return _check_measure(claim, mention, None, result)
        labelled = replace(claim, text=f"{attachment.text} {claim.text}") if not attachment.strong else claim
        return ClaimCheck(labelled, CONTRADICTED, _row_says(result, attachment.rows, mention, claim.measure))
    if _unattached_supports(result, mention, approximate):
        return _check_measure(claim, mention, None, result)
    return _unsupported(claim)


# A clause that compares its row with another (words.COMPARING).
_COMPARING = re.compile(r"(?<!\w)[وفبل]?(?:ال)?(?:"
                        + "|".join(sorted({*words.DIRECTIONS, *words.COMPARING}, key=len, reverse=True))
                        + r")(?!\w)")


# Rows looked at one by one for a figure of another row: a ranking's, not a listing's.
OTHER_ROWS_MAX = 50


def _other_row(result: Result, rows: frozenset[int], mention: NumberMention, approximate: bool) -> bool:
    """True when another labelled row's own figure (a cell, its share, what it derives) is the
    claimed one: the sentence's label is the figure's wrong row."""
    if len(result.values.rows) > OTHER_ROWS_MAX:
        return False
    return any(result.values.of_rows([i], own=True).supports(mention, approximate)
               for i in range(len(result.values.rows)) if i not in rows)


def _unsupported(claim: Claim) -> ClaimCheck:
    """A number nothing supports, named as the insight wrote it (as grounding names it)."""
    return ClaimCheck(replace(claim, text=claim.mention.text) if claim.mention else claim, UNSUPPORTED)


def _unattached_supports(result: Result, mention: NumberMention, approximate: bool) -> bool:
    """Supported by a row's own figures or the whole result's, else by grounding's bag."""
    values = result.values
    return (values.cells_and_whole.supports(mention, approximate)
            or values.near.supports(mention, approximate)
            or values.unattached.supports(widened(mention) if approximate else mention))


_SQL_BETWEEN = re.compile(r"\bbetween\s+(\d+(?:\.\d+)?)\s+and\s+(\d+(?:\.\d+)?)(?![\d'])", re.IGNORECASE)


def _check_range(claim: Claim, values: Values | None, result: Result) -> ClaimCheck:
    """"بين X و Y": a figure of its row (or, unlabelled, of the result) lies in the range; a figure
    of the range's scale outside it, and none inside, contradicts it."""
    low, high = claim.numbers
    for first, last in _SQL_BETWEEN.findall(result.sql or ""):  # the SQL's own range restated: both ends
        ends = (float(first), float(last))
        said = ({r.value for r in low.readings}, {r.value for r in high.readings})
        if (ends[0] in said[0]) != (ends[1] in said[1]):
            return ClaimCheck(claim, CONTRADICTED, f"the SQL filters between {format_number(ends[0])} and {format_number(ends[1])}")
    values = values or result.values.near
    percent = low.percent or high.percent
    pool = values.percent if percent else values.plain  # sorted magnitudes
    if any(low.value <= v <= high.value for v in pool):
        return ClaimCheck(claim, SUPPORTED)
    near = [v for v in pool if low.value / 2 <= v <= high.value * 2]
    if near:
        nearest = min(near, key=lambda v: min(abs(v - low.value), abs(v - high.value)))
        return ClaimCheck(claim, CONTRADICTED, f"the rows say {format_number(nearest)}")
    return _unsupported(claim)


def _check_bound(claim: Claim, mention: NumberMention, values: Values, result: Result, own: bool = False) -> ClaimCheck:
    """A bound holds for the value it rounds; ``own``: ``values`` are its row's own figures, any of
    which on the wrong side (a share at any size, a figure within ten times the bound) tells."""
    relation = _RELATIONS[claim.comparator or ">"]
    bound = mention.value
    turned = _turned_filter(claim, mention, result.sql)
    stated = result.values.question_numbers
    pool = [v for v in (*values.plain, *(values.percent if mention.percent else ())) if v not in stated]
    asks_yes_no = _YES_NO_QUESTION.match(fold(result.question))
    if any(r.value in stated for r in mention.readings) and not asks_yes_no:
        # The question's own filter restated ("بعدد عروض أكثر من 10"): its direction must be the question's.
        asked = _question_comparator(result.folded_question, [])
        denied = re.search(r"(?<!\w)(?:لا|لم|ما|ليس|ليست|مو)\s+" + _COMPARATOR.pattern, fold(result.question))
        how_many = fold(result.question).split()[:1] in (["كم"], ["ما"], ["وش"], ["اعرض"], ["عطني"], ["اعطني"], ["how"], ["what"])
        if asked is not None and how_many and not denied and asked[1] in {r.value for r in mention.readings} and (
                asked[0] in (">", ">=")) != (claim.comparator in (">", ">=")):
            return ClaimCheck(claim, CONTRADICTED, f"the question asks {asked[0]} {format_number(asked[1])}")
    if turned is not None:
        return ClaimCheck(claim, CONTRADICTED, f"the SQL filters {turned}")
    if any(r.value in stated for r in mention.readings) and not asks_yes_no:
        return ClaimCheck(claim, SUPPORTED)
    if bound <= 0 or not pool:
        return _unsupported(claim)
    near = BOUND_NEAR * bound
    # A cell of the rows just across the bound, and none just inside it: the bound rounds that cell
    # ("أقل من 3,700 مناقصة" for 3,753), whatever a derivation (a ratio of two cells) lands inside.
    cells = [abs(value) for _, _, value in result.values.cells(range(min(len(result.values.rows), OTHER_ROWS_MAX)))
             if abs(value) not in stated] if not mention.percent else []
    cells_wrong = [v for v in cells if not relation(v, bound) and abs(v - bound) <= near]
    if cells_wrong and not any(relation(v, bound) and abs(v - bound) <= near for v in cells):
        return ClaimCheck(claim, CONTRADICTED, f"the rows say {format_number(min(cells_wrong, key=lambda v: abs(v - bound)))}")
    holding = [v for v in pool if relation(v, bound) and bound / 10 <= v <= bound * 10]
    reach = (math.inf if mention.percent else 10.0) if own else 2.0
    wrong = [v for v in pool if not relation(v, bound) and bound / reach <= v <= bound * reach]
    near_wrong = [v for v in wrong if abs(v - bound) <= near]
    if near_wrong and not any(abs(v - bound) <= near for v in holding) or wrong and not holding:
        nearest = min(wrong, key=lambda v: abs(v - bound))
        unit = "%" if mention.percent else ""
        return ClaimCheck(claim, CONTRADICTED, f"the rows say {format_number(nearest)}{unit}")
    if holding:
        return ClaimCheck(claim, SUPPORTED)
    if values.supports(mention):  # the bound is itself a figure of the rows ("بحد أقصى 50")
        return ClaimCheck(claim, SUPPORTED)
    return _unsupported(claim)


_SQL_BOUND = re.compile(r"(>=|<=|>|<)\s*(\d+(?:\.\d+)?)(?![\d'])")


def _turned_filter(claim: Claim, mention: NumberMention, sql: str | None) -> str | None:
    """A bound the SQL's own filter states the other way round ("أقل من مليون" over "> 1000000"):
    the filter as the SQL writes it, when every comparison of the SQL with that number points the
    other way; None otherwise."""
    if not sql or claim.comparator not in (">", ">=", "<", "<=") or mention.percent:
        return None
    values = {r.value for r in mention.readings}
    found = [(op, float(number)) for op, number in _SQL_BOUND.findall(sql) if float(number) in values]
    # "IS NOT NULL" turns no comparison
    if not found or re.search(r"\bcase\b|(?<!\bis\s)\bnot\b(?!\s+null\b)", sql, re.IGNORECASE):
        return None  # a CASE splits the rows both ways; a NOT turns the comparison
    upward = claim.comparator in (">", ">=")
    if all((op in (">", ">=")) != upward for op, _ in found):
        op, number = found[0]
        return f"{op} {format_number(number)}"
    return None


def _check_measure(claim: Claim, mention: NumberMention, rows: frozenset[int] | None, result: Result) -> ClaimCheck:
    """A number that matches only cells of another measure's column, where its measure word has a
    column of its own, is quoted for the wrong measure."""
    measure = claim.measure
    derivable = measure == "avg" and {"sum", "count"} <= set(result.measures.values())
    if measure in _OTHER_AGGREGATE and not mention.percent and measure not in result.measures.values():
        # "إجمالي" of a figure the rows hold only as an average (or "متوسط" of a sum's)
        held = {result.measures.get(j) for _, j, _ in _cells_saying(result, mention, rows)}
        if held and held <= _OTHER_AGGREGATE[measure] and not derivable:
            return ClaimCheck(claim, CONTRADICTED, f"the rows hold it as {'/'.join(sorted(held))}, not {measure}")
    if measure is None or (measure not in result.measures.values() and not derivable) or mention.percent:
        return ClaimCheck(claim, SUPPORTED)
    matched = _cells_saying(result, mention, rows)
    if not matched:
        return ClaimCheck(claim, SUPPORTED)  # a derivation: not a column's cell
    if any(result.measures.get(j) in (measure, None) for _, j, _ in matched):
        return ClaimCheck(claim, SUPPORTED)
    own = [j for j, m in result.measures.items() if m == measure]
    row = matched[0][0]
    cells = result.values.cells([row], own)
    if cells:
        _, column, value = cells[0]
        return ClaimCheck(claim, CONTRADICTED, f"{result.values.columns[column]} says {format_number(value)}")
    average = _average_of_row(result, row) if measure == "avg" else None
    if average is not None:
        return ClaimCheck(claim, CONTRADICTED, f"sum / count says {format_number(average)}")
    return ClaimCheck(claim, SUPPORTED)


def _cells_saying(
    result: Result, mention: NumberMention, rows: Iterable[int] | None
) -> list[tuple[int, int, float]]:
    """The cells (of ``rows``, or any) that the figure says at the precision of its significant digits."""
    indices = range(len(result.values.rows)) if rows is None else rows
    bounds = [(r.value, r.unit / 2 + 1e-9 * max(1.0, r.value)) for r in widened(mention).readings]
    return [(i, j, value) for i, j, value in result.values.cells(indices)
            if any(abs(abs(value) - claimed) <= margin for claimed, margin in bounds)]


def _ranked_by(result: Result) -> list[Found]:
    """"أعلى مناقصة من حيث قيمة الترسية" over rows the SQL sorts by another value (or by the sum
    where the insight says the average): the ranking's measure is the SQL's sort key."""
    column = _sort_column(result)
    if column is None:
        return []
    name = result.values.columns[column].lower()
    value = next((v for v in _VALUE_COLUMN_WORDS if v in name), None)
    aggregate = result.measures.get(column)
    found = []
    for start, end, match in result.insight.find(_RANKED_BY):
        said_aggregate = _AGGREGATE_WORDS.get(match.group(1) or "")
        said_value = words.VALUE_MEASURES[match.group(2)]
        wrong = (value is not None and said_value != value) or (
            said_aggregate is not None and aggregate in _OTHER_AGGREGATE.get(said_aggregate, set()))
        if wrong:
            found.append((start, end, result.insight.original[start:end],
                          f"the SQL ranks by {result.values.columns[column]}"))
    return found


def _average_of_row(result: Result, row: int) -> float | None:
    """A row's average where it holds a sum and a count (and no average of its own)."""
    sums = result.values.cells([row], [j for j, m in result.measures.items() if m == "sum"])
    counts = result.values.cells([row], [j for j, m in result.measures.items() if m == "count"])
    if len(sums) == 1 and len(counts) == 1 and counts[0][2]:
        return sums[0][2] / counts[0][2]
    return None


def _row_says(result: Result, rows: frozenset[int], mention: NumberMention, measure: str | None) -> str:
    """What the label's rows hold nearest the claimed value (in the measure's columns first; a
    percentage: the row's share of its column's total)."""
    own = [j for j, m in result.measures.items() if m == measure] if measure else []
    cells = result.values.cells(rows, own) or result.values.cells(rows)
    if not cells:
        return "its row holds no such figure"
    if mention.percent:
        totals = [(value, sum(v for *_, v in result.values.cells(range(len(result.values.rows)), [j])))
                  for _, j, value in cells]
        shares = [100.0 * value / total for value, total in totals if total > 0]
        if shares:
            nearest_share = min(shares, key=lambda share: _distance(share, mention.value))
            return f"row's share is {nearest_share:.1f}%"
    nearest = min(cells, key=lambda cell: _distance(cell[2], mention.value))
    return f"row says {format_number(nearest[2])}"


def _distance(a: float, b: float) -> float:
    a, b = abs(a), abs(b)
    if a <= 0 or b <= 0:
        return abs(a - b) + 1e12
    return abs(math.log(a / b))


# Columns that name a row rather than measure it: a year, a month, an id.
_KEY_COLUMN = re.compile(r"year|month|سنه|عام|شهر|_id$|^id$")


def _none_check(claim: Claim, cells: Sequence[tuple[int, int, float]]) -> ClaimCheck:
    """"None" holds when no count of its rows (``cells``) is above zero."""
    above = [value for _, _, value in cells if value > 0]
    return _verdict(claim, not above, f"row says {format_number(above[0])}" if above else "")


def _check_none(claim: Claim, result: Result) -> ClaimCheck | None:
    rows = result.values.rows
    attachment = claim.attachment
    if attachment is not None:
        return _none_check(claim, _count_cells(result, attachment.rows))
    if not rows:
        return ClaimCheck(claim, SUPPORTED)
    if len(rows) == 1 and result.values.numeric_columns:
        cells = _count_cells(result, [0])
        if len(cells) == 1 or all(result.measures.get(j) == "count" for _, j, _ in cells):
            return _none_check(claim, cells)
        return None
    if not result.values.numeric_columns:
        return ClaimCheck(claim, CONTRADICTED, f"the result has {len(rows):,} rows")
    return None


# A sentence that opens by saying the rows exist ("توجد منافسات ..."، "نعم، يوجد ...").
_EXISTS = re.compile(r"(?:^|[.!؟?\n]\s*)(?:نعم\s*[،,]?\s*)?[وف]?(?:توجد|يوجد|هناك|فيه)\s+(?!\d)")


def _existence(result: Result) -> list[Found]:
    """"توجد منافسات من نوع مسابقة في الجوف" over one row whose counts are all zero: the converse of
    "لا توجد"."""
    rows = result.values.rows
    if len(rows) != 1 or not any(m == "count" for m in result.measures.values()):
        return []
    cells = _count_cells(result, [0])
    if not cells or any(value != 0 for _, _, value in cells):
        return []
    return [(start, end, result.insight.original[start:end].strip(), "the count is 0")
            for start, end, _ in result.insight.find(_EXISTS)][:1]


def _count_cells(result: Result, rows: Any) -> list[tuple[int, int, float]]:
    counts = [j for j, m in result.measures.items() if m == "count"]
    return result.values.cells(rows, counts) if counts else result.values.cells(rows)


def _check_yes_no(claim: Claim, result: Result) -> ClaimCheck | None:
    asked = _question_truth(result)
    if asked is None:
        return None
    truth, says = asked
    return _verdict(claim, truth == (claim.sign > 0), says)


# A yes/no question ("هل ..."), and one that asks whether rows exist ("هل توجد ...").
_YES_NO_WORDS = r"\W*(?:و|ف)?(?:" + "|".join(words.YES_NO_QUESTION) + ")"
_YES_NO_QUESTION = re.compile(_YES_NO_WORDS + r"\b")
_ASKS_EXISTENCE = re.compile(_YES_NO_WORDS + r"\s+(?:" + "|".join(words.EXISTENCE) + r")\b")


def _question_truth(result: Result) -> tuple[bool, str] | None:
    """The true answer to a yes/no question over the rows, and what the rows say: two rows it
    names compared ("هل قيمة 2028 أعلى من 2027؟", "هل زادت ... في 2025 عن 2024؟"), a figure
    against the question's threshold ("هل تجاوزت المليار؟"), or existence ("هل توجد ...؟")."""
    question = result.folded_question
    labels = result.labels.find(question)
    named = _distinct_rows(labels)
    asked = _question_comparator(question, labels)
    direction = _question_direction(question)
    if len(named) == 2 and (asked is not None or direction is not None):
        probe = Claim("yes_no", "", 0, measure=_question_measure(question))
        (first, _), (second, _) = named
        years = result.values.periods if direction is not None else {}
        if years and first in years and second in years and years[first] > years[second]:
            first, second = second, first
        pairs = _row_pairs(result, probe, first, second)
        if not pairs:
            return None
        a, b = pairs[0]
        truth = (b > a if direction > 0 else b < a) if direction is not None else _RELATIONS[asked[0]](a, b)
        return truth, f"the rows say {format_number(a)} and {format_number(b)}"
    if asked is not None and asked[1] is not None:
        relation, threshold = asked
        value = _compared_value(result, threshold)
        if value is None:
            return None
        side = "above" if value > threshold else "below" if value < threshold else "at"
        says = f"the rows say {format_number(value)}, {side} {format_number(threshold)}"
        return _RELATIONS[relation](value, threshold), says
    if _ASKS_EXISTENCE.match(question.text):
        value = _compared_value(result, 0.0)
        if value is None:
            return None
        return value > 0, f"the rows say {format_number(value)}"
    return None


def _distinct_rows(labels: Sequence[Any]) -> list[tuple[int, Any]]:
    """Each row one of ``labels`` names alone, with the first label naming it, in order."""
    named: dict[int, Any] = {}
    for label in labels:
        if len(label.rows) == 1:
            named.setdefault(next(iter(label.rows)), label)
    return list(named.items())


_COMPARATOR_RELATIONS = {word: relation for word, relation in words.COMPARATORS.items() if relation != "~"}
_COMPARATOR = re.compile(r"(?<!\w)("
                         + "|".join(sorted(map(re.escape, _COMPARATOR_RELATIONS), key=len, reverse=True))
                         + r")(?!\w)")


def _question_comparator(question: Folded, labels: Sequence[Any]) -> tuple[str, float | None] | None:
    """The comparator a question asks and the threshold after it (None when a row label, not a
    number, follows it: two rows compared)."""
    mentions = [m for m in find_numbers(question.original) if not any(l.start <= m.start < l.end for l in labels)]
    for match in _COMPARATOR.finditer(question.text):
        relation = _COMPARATOR_RELATIONS[match.group(1)]
        start = question.original_span(match.start(), match.end())[1]
        after = [m for m in mentions if m.start >= start]
        if after:
            return relation, after[0].value
        for word in question.text[match.end() :].split()[:6]:
            word = word.strip("?؟.,")
            if word in words.DEFINITE_SCALES:
                return relation, words.DEFINITE_SCALES[word]
        return relation, None
    return None


def _question_direction(question: Folded) -> int | None:
    signs = (words.DIRECTIONS.get(word[cut:].strip("?؟.,"))
             for word in question.text.split() for cut in (0, 1, 2))
    return next((sign for sign in signs if sign is not None), None)


def _question_measure(question: Folded) -> str | None:
    named = (words.MEASURES[word] for word in question.text.split() if word in words.MEASURES)
    return next(named, None) or sentence_measure(question.text)


def _compared_value(result: Result, threshold: float) -> float | None:
    """The figure a yes/no question compares: the one numeric cell of a one-row result (the count
    where a count is among several), or the row count of a listing."""
    rows = result.values.rows
    if not rows:
        return 0.0
    cells = result.values.cells(range(len(rows)))
    if not cells:
        return float(len(rows))
    if len(rows) == 1:
        if len(cells) == 1:
            return cells[0][2]
        if threshold == 0:
            counts = [value for _, j, value in cells if result.measures.get(j) == "count"]
            return counts[0] if counts else None
        return min(cells, key=lambda cell: _distance(cell[2], threshold))[2]
    return None


def _check_direction(claim: Claim, result: Result) -> ClaimCheck | None:
    if len(claim.numbers) == 2:
        first, second = claim.numbers
        change = second.value - first.value
        if change and (change > 0) != (claim.sign > 0):
            return ClaimCheck(claim, CONTRADICTED, f"from {first.text} to {second.text}")
        return ClaimCheck(claim, SUPPORTED) if change else None
    periods = _periods(claim, result)
    if periods is None:
        return None
    changes = _row_pairs(result, claim, *periods)
    if not changes:
        return None
    if any(b != a and (b > a) == (claim.sign > 0) for a, b in changes):
        return ClaimCheck(claim, SUPPORTED)
    a, b = changes[0]
    return ClaimCheck(claim, CONTRADICTED, f"the rows go from {format_number(a)} to {format_number(b)}")


def _periods(claim: Claim, result: Result) -> tuple[int, int] | None:
    """The rows a change runs between: the two periods or places named (years in their order,
    else as written, the one after "مقارنة" first), or a named year and the year before it."""
    named = [row for row, _ in _distinct_rows([label for label in claim.labels if label.column is not None])]
    years = result.values.periods
    if len(named) >= 2:
        r1, r2 = named[:2]
        if r1 in years and r2 in years:
            return (r1, r2) if years[r1] < years[r2] else (r2, r1)
        return None
    if len(named) == 1 and named[0] in years:
        earlier = [r for r, year in years.items() if year < years[named[0]]]
        return (max(earlier, key=years.__getitem__), named[0]) if earlier else None
    if not named and len(years) == 2:
        first, second = sorted(years, key=years.__getitem__)
        return first, second
    return None


def _measure_columns(result: Result, claim: Claim) -> list[int]:
    """The numeric columns a claim speaks of: its measure's where it names one and the result has
    it ("value": a column named for a value), else every numeric column but keys (years, months, ids)."""
    numeric = [j for j in result.values.numeric_columns
               if not _KEY_COLUMN.search(result.values.columns[j].lower())]
    if claim.measure == "value":
        names = {j: fold(result.values.columns[j]).lower() for j in numeric}
        own = [j for j in numeric if any(hint in names[j] for hint in words.VALUE_COLUMN_HINTS)]
    else:
        own = [j for j in numeric if result.measures.get(j) == claim.measure] if claim.measure else []
    return own or numeric


def _row_pairs(result: Result, claim: Claim, first: int, second: int) -> list[tuple[float, float]]:
    """The figures of two rows in the columns ``claim`` speaks of, where both rows hold one."""
    a, b = result.values.rows[first], result.values.rows[second]
    return [(float(a[j]), float(b[j])) for j in _measure_columns(result, claim) if is_number(a[j]) and is_number(b[j])]


def _check_superlative(claim: Claim, result: Result) -> ClaimCheck | None:
    rows = result.values.rows
    if not rows or not result.values.numeric_columns and len(rows) > 1:
        return None
    # the SQL sorts a measure the other way: its first row is the other extreme
    against = result.order == -claim.sign and _sorts_a_measure(result)
    if not claim.labels:
        outside = _superlative_outside(claim, result)
        if outside is None and against and not claim.negated:
            return ClaimCheck(claim, CONTRADICTED, f"the rows are sorted {'ascending' if claim.sign > 0 else 'descending'}")
        return outside
    label = claim.labels[0]
    columns = _measure_columns(result, claim)
    sorted_by = _sort_column(result)
    if sorted_by in columns:  # the SQL ranks by this column: its extreme is the one the list ranks by
        columns = [sorted_by]
    extreme_rows: set[int] = set()
    for j in columns:
        cells = [(i, float(row[j])) for i, row in enumerate(rows) if j < len(row) and is_number(row[j])]
        if len(cells) < 2:
            continue
        best = (max if claim.sign > 0 else min)(value for _, value in cells)
        extreme_rows |= {i for i, value in cells if value == best}
    holds = (len(rows) == 1 and not against or bool(label.rows & extreme_rows) or not extreme_rows and 0 in label.rows and not against
             or result.order == claim.sign and 0 in label.rows
             or against and len(rows) > 1 and len(rows) - 1 in label.rows)
    if claim.negated:
        if len(rows) > 1 and holds:
            return ClaimCheck(replace(claim, text=f"{claim.text} {label.text}"), CONTRADICTED,
                              f"{label.text} is the first row")
        return ClaimCheck(claim, SUPPORTED)
    if holds:
        return ClaimCheck(claim, SUPPORTED)
    first = _row_name(result, 0 if result.order else min(extreme_rows, default=0))
    return ClaimCheck(replace(claim, text=f"{claim.text} {label.text}"), CONTRADICTED, f"the first row is {first}")


def _superlative_outside(claim: Claim, result: Result) -> ClaimCheck | None:
    """A superlative naming an entity of the rows' kind that is not among the rows."""
    kinds = set(result.labels.column_kinds.values())
    if len(kinds) != 1:
        return None
    start, end = claim.clause
    named = next((entity.text for entity in find_entities(result.insight, kinds.pop())
                  if start <= entity.start and entity.end <= end), None)
    if named is None:
        return None
    says = f"the first row is {_row_name(result, 0)}"
    return ClaimCheck(replace(claim, text=f"{claim.text} {named}"), CONTRADICTED, says)


def _row_name(result: Result, row: int) -> str:
    row_cells = result.values.rows[row]
    names = (" ".join(cell.split()) for cell in row_cells if isinstance(cell, str) and cell.strip())
    return next(names, f"row {row + 1}")


def column_measures(
    sql: str | None, columns: Sequence[str], aggregates: Sequence[str | None] | None = None
) -> dict[int, str]:
    """Each result column's measure (count, sum, avg, share, max, min) where the SQL's aggregate
    or the column's name says it; columns of no known measure are left out. ``aggregates`` is
    ``select_aggregates`` of ``sql`` when its reading has it (else ``sql`` is read here)."""
    measures: dict[int, str] = {}
    if aggregates is None:
        aggregates = (read_sql(sql).aggregates if sql else None) or ()
    for j, name in enumerate(columns):
        measure = aggregates[j] if j < len(aggregates) and len(aggregates) == len(columns) else None
        if measure is None:
            lowered = fold(name).lower()
            measure = next((m for m, hints in words.COLUMN_HINTS.items() if any(h in lowered for h in hints)), None)
        if measure is not None:
            measures[j] = measure
    return measures


def _order(sql: str | None, columns: Sequence[str], numeric: Sequence[int]) -> int:
    """+1 when the SQL's outer ORDER BY sorts a measure (an aggregate, or a numeric column of the
    result that is no key) descending, -1 ascending; 0 when it sorts none (or by a year, a name)."""
    first, key = _order_key(sql)
    if not key:
        return 0
    measures = {columns[j].lower() for j in numeric if not _KEY_COLUMN.search(columns[j].lower())}
    if not (re.search(r"\b(?:count|sum|avg|max|min|total)\s*\(", key) or key in measures):
        return 0
    return 1 if re.search(r"\bdesc\b", first, re.IGNORECASE) else -1


def _order_key(sql: str | None) -> tuple[str, str]:
    """The SQL's first ORDER BY term as written and its key lowered, bare of quotes and direction
    ("", "") when it sorts by nothing."""
    match = re.search(r"order\s+by\s+(.+?)(?:\blimit\b|\boffset\b|$)", sql or "", re.IGNORECASE | re.DOTALL)
    if not match:
        return "", ""
    first = match.group(1).split(",")[0].strip()
    key = re.sub(r"\s+(?:asc|desc)\b.*$", "", first, flags=re.IGNORECASE | re.DOTALL).strip().strip('"`[]').lower()
    return first, key


def _sorts_a_measure(result: Result) -> bool:
    """The SQL sorts by an aggregate or a column of a known measure or value ("tender_count",
    "estimated_value"), not by a bare numeric key ("m" of a month): only then does its order say
    which end its first row is."""
    _, key = _order_key(result.sql)
    if re.search(r"\b(?:count|sum|avg|max|min|total)\s*\(", key):
        return True
    columns = [j for j, name in enumerate(result.values.columns) if name.lower() == key]
    return any(j in result.measures or column_kind(result, j) in ("money", "count") for j in columns)


def _sort_column(result: Result) -> int | None:
    """The result column the SQL's ORDER BY sorts a measure by, when it names one of its columns."""
    if not _sorts_a_measure(result):
        return None
    _, key = _order_key(result.sql)
    return next((j for j, name in enumerate(result.values.columns) if name.lower() == key), None)


def _check_ranking(claim: Claim, result: Result) -> ClaimCheck | None:
    """A numbered list of rows ranks them as a result ordered by a measure does."""
    if result.order == 0 or any(len(label.rows) != 1 for label in claim.labels):
        return None
    rows = [next(iter(label.rows)) for label in claim.labels]
    for (before, label), after in zip(zip(rows, claim.labels), rows[1:]):
        if after < before:
            return ClaimCheck(claim, CONTRADICTED, f"the rows rank {_row_name(result, after)} above {label.text}")
    return ClaimCheck(claim, SUPPORTED)


# How near a ratio said plainly ("ضعف") or "about" ("قرابة ضعف") must be to its factor.
RATIO_EXACT, RATIO_ABOUT = 0.075, 0.15


def _check_ratio(claim: Claim, result: Result) -> ClaimCheck | None:
    """The first row's figure over the second's against the factor: above it for "أكثر من ضعف",
    within RATIO_EXACT of it for a plain "ضعف" (RATIO_ABOUT for "قرابة ضعف")."""
    (first,), (second,) = (tuple(label.rows) for label in claim.labels) if all(
        len(label.rows) == 1 for label in claim.labels) else ((None,), (None,))
    if first is None:
        return None
    pairs = [(a, b) for a, b in _row_pairs(result, claim, first, second) if b]
    if not pairs:
        return None
    a, b = pairs[0]
    ratio, factor = a / b, claim.factor
    relation = claim.comparator
    if relation in _RELATIONS:
        holds = _RELATIONS[relation](ratio, factor)
    else:
        holds = abs(ratio / factor - 1) <= (RATIO_ABOUT if relation == "~" else RATIO_EXACT)
    return _verdict(claim, holds, f"the rows say {format_number(a)} / {format_number(b)} = {ratio:.2f}")


_RANK_COLUMN = re.compile(r"rank|ترتيب|مرتبه|place")


def _check_ordinal(claim: Claim, result: Result) -> ClaimCheck | None:
    """A row's place in words: its place in an ordered result, else its rank by the measure (the
    largest first); ties share a place."""
    place, label = claim.sign, claim.labels[0]
    row = next(iter(label.rows))
    rows = result.values.rows
    ranks = [j for j, name in enumerate(result.values.columns) if _RANK_COLUMN.search(fold(name).lower())]
    if ranks and is_number(rows[row][ranks[0]]):  # the result says each row's place
        ranked = float(rows[row][ranks[0]])
        return _verdict(claim, ranked == place, f"{label.text} ranks {format_number(ranked)}")
    offset = _offset(result.sql)
    if len(rows) < 2 and not (offset and result.order != 0):
        return None
    if result.order != 0:
        if row + offset == place - 1:
            return ClaimCheck(claim, SUPPORTED)
        if offset:
            return ClaimCheck(claim, CONTRADICTED, f"{label.text} ranks {row + offset + 1}")
        says = _row_name(result, place - 1) if place - 1 < len(rows) else f"{len(rows)} rows"
        return ClaimCheck(claim, CONTRADICTED, f"place {place} is {says}")
    columns = _measure_columns(result, claim)
    if not columns or len(rows) < 2:
        return None
    j = columns[0]
    values = [float(r[j]) for r in rows if j < len(r) and is_number(r[j])]
    if len(values) != len(rows) or not is_number(rows[row][j]):
        return None
    own = float(rows[row][j])
    above = sum(value > own for value in values)
    ties = sum(value == own for value in values)
    return _verdict(claim, above < place <= above + ties, f"{label.text} ranks {above + 1}")


_OFFSET = re.compile(r"\blimit\s+(?:\d+\s+offset\s+(\d+)|(\d+)\s*,\s*\d+)\s*;?\s*$", re.IGNORECASE)


def _offset(sql: str | None) -> int:
    """The rows the SQL's outer LIMIT skips ("LIMIT 1 OFFSET 3", "LIMIT 3, 1"): its first row's place
    less one."""
    match = _OFFSET.search(sql or "")
    return int(match.group(1) or match.group(2)) if match else 0


# The SQL columns that filter by a reference entity (each entity's own id attribute), and the
# kinds of row the entities name.
_ID_COLUMNS = {"region_id": ("region", ref.REGIONS), "status_id": ("status", ref.STATUSES),
               "tender_type_id": ("type", ref.TENDER_TYPES), "activity_id": ("activity", ref.ACTIVITIES),
               "agency_id": ("agency", ref.AGENCIES)}
_ENTITY_KINDS = tuple(kind for kind, _ in _ID_COLUMNS.values())
_BIDS_COLUMN = re.compile(r"bid|offer|عرض|عروض|عطاء", re.IGNORECASE)


def _month_elsewhere(check: ClaimCheck, result: Result) -> ClaimCheck | None:
    """A month named before a figure in its clause that is not the one the question or the SQL's
    dates ask about, or (over rows by month) a month the result has no row for."""
    claim, mention = check.claim, check.claim.mention
    months = [m for m in result.months if claim.clause[0] <= m.start and m.end <= mention.start]
    if not months or months[-1].calendar != "gregorian":
        return None
    month, asked = months[-1], result.asked_months
    told = replace(claim, text=f"{month.text}: {mention.text}")
    if "month" not in result.labels.column_kinds.values():
        years = {year for _, _, year in asked if year}
        named = {(calendar, number) for calendar, number, _ in asked}
        if asked and ("gregorian", month.month) not in named and (
                month.year is None or month.year in years or not years):
            _, number, year = asked[0]
            of_year = f" of {year}" if year else ""
            return ClaimCheck(told, CONTRADICTED, f"the question asks about month {number}{of_year}")
        return None
    held = {(int(cell[:4]), int(cell[5:7])) for row in result.values.rows for cell in row
            if isinstance(cell, str) and re.fullmatch(r"\d{4}-\d{2}", cell)}
    if held and not any(m == month.month and (month.year is None or y == month.year) for y, m in held):
        return ClaimCheck(told, CONTRADICTED, "the result has no row for this month")
    return None


def _entity_elsewhere(check: ClaimCheck, result: Result) -> ClaimCheck | None:
    """An entity named before a figure in its clause that the rows are not: of the rows' kind and not
    among them, or another than the SQL asks for (the awarded count called "الملغاة")."""
    claim, mention = check.claim, check.claim.mention
    start = claim.clause[0]
    entities = [e for e in result.entities if start <= e.start and e.end <= mention.start
                and not _outside(result, start, e)]
    # Every entity the figure's clause names before it, the nearest first ("المناقصات الملغاة لدى
    # أمانة جدة 11": the status as well as the agency).
    own_labels = ({label.start for label in claim.attachment.labels}
                  if claim.attachment is not None and claim.attachment.strong else set())
    for entity in reversed(entities):
        kind = entity.entity[0]
        # an entity the SQL filters by is the question's scope ("في منطقة تبوك ومنطقة جازان: تبوك")
        if (entity.start not in own_labels and entity.entity not in result.row_entities
                and entity.entity not in result.asked):
            if kind in result.labels.column_kinds.values():
                return ClaimCheck(replace(claim, text=f"{entity.text} {mention.text}"), CONTRADICTED,
                                  f"the result has no row for {entity.text}")
            asked = sorted(e for e in result.asked if e[0] == kind)  # a set: named in a fixed order
            if asked and entity.entity not in asked:
                return ClaimCheck(replace(claim, text=f"{entity.text} {mention.text}"), CONTRADICTED,
                                  f"the rows are for {asked[0][1]}")
    return None


def _bids_for_tenders(check: ClaimCheck, result: Result) -> ClaimCheck | None:
    """A figure told as bids over rows that count tenders (no bids column, no bids in the SQL)."""
    claim, mention = check.claim, check.claim.mention
    start = claim.clause[0]
    # Bids words of this figure: after the last figure before it in its clause ("بعدد عروض أكثر من 10
    # ... 236 مناقصة": the bids are the filter's), or right after it; or "عدد العروض" as the subject
    # of its clause (not "بعدد عروض", a filter).
    previous = [m.end for m in find_numbers(result.insight.original[start : mention.start])]
    said = re.findall(r"\w+", fold(result.insight.original[start + (previous[-1] if previous else 0) : mention.end + 12]))
    subject = re.search(r"(?<![\w])(?:[وف]?)عدد\s+(?:ال)?(?:عروض|عطاءات)(?!\w)", fold(result.insight.original[start : mention.start]))
    bids = any(word.lstrip("وبل") in words.BIDS_WORDS or word in words.BIDS_WORDS for word in said) or subject
    if (bids and check.verdict == SUPPORTED and not mention.percent and claim.comparator is None
            and result.sql and not any(_BIDS_COLUMN.search(name) for name in result.values.columns)
            and "bids" not in result.sql.lower()):
        return ClaimCheck(claim, CONTRADICTED, "the rows count tenders, not bids")
    return None


def _figure_unit(result: Result, mention: NumberMention) -> str | None:
    """"money" or "count" as the noun right after the figure says ("1,551 ريال"، "87 مناقصة")."""
    after = re.findall(r"[\w.]+", fold(result.insight.original[mention.end : mention.end + 16]))[:1]
    word = after[0].rstrip(".") if after else ""
    if word in words.MONEY_UNITS or word + "." in words.MONEY_UNITS:
        return "money"
    if word in words.COUNT_UNITS or word[1:] in words.COUNT_UNITS and word[:1] in "بل":
        return "count"
    return None


_GENERIC_COLUMN = re.compile(r"(?:(?:first|second|third|other)_)?value|difference|diff")


def column_kind(result: Result, column: int) -> str | None:
    """What a result column holds, from its name or its aggregate: "share", "money", "count"."""
    name = fold(result.values.columns[column]).lower()
    if _GENERIC_COLUMN.fullmatch(name):
        return None  # "first_value" of a comparison holds whatever the two sides measure
    kind = next((k for k, hints in words.COLUMN_KINDS.items() if any(h in name for h in hints)), None)
    if kind is None and result.measures.get(column) == "count":
        return "count"
    return kind


def _unit_mismatch(check: ClaimCheck, result: Result) -> ClaimCheck | None:
    """A figure verified only by cells of another kind of column than its unit says: a count told
    in riyals ("3,558.00 ريال" for a count of 3,558), a value told as a count of tenders."""
    claim, mention = check.claim, check.claim.mention
    if check.verdict != SUPPORTED or mention is None or mention.percent or claim.comparator not in (None, "~"):
        return None
    attachment = claim.attachment
    rows = attachment.rows if attachment is not None and attachment.strong else None
    columns = {j for _, j, _ in _cells_saying(result, mention, rows)}
    unit = _figure_unit(result, mention)
    kinds = {column_kind(result, j) for j in columns}
    if unit is not None and kinds and unit not in kinds and None not in kinds:
        return ClaimCheck(claim, CONTRADICTED,
                          f"told as {unit}; the rows hold it as {'/'.join(sorted(kinds))}")
    named = _value_named(result, claim)
    held = {next((v for v in _VALUE_COLUMN_WORDS if v in result.values.columns[j].lower()), None) for j in columns}
    if named is not None and held and named not in held and None not in held:
        return ClaimCheck(claim, CONTRADICTED, f"the rows hold it as the {'/'.join(sorted(held))} value, not the {named}")
    if named is None and claim.measure is None and unit != "count" and columns:
        # the measure a heading or an earlier sentence names for the figures that follow it
        # ("متوسط القيمة التقديرية حسب النوع: ... (75,960,209.35 ريال)")
        aggregate, value = _measure_named_before(result, mention.start)
        aggregates = {result.measures.get(j) for j in columns}
        if value is not None and held and value not in held and None not in held:
            return ClaimCheck(claim, CONTRADICTED, f"the rows hold it as the {'/'.join(sorted(held))} value, not the {value}")
        if aggregate is not None and aggregates <= _OTHER_AGGREGATE.get(aggregate, set()):
            return ClaimCheck(claim, CONTRADICTED, f"the rows hold it as {'/'.join(sorted(aggregates))}, not {aggregate}")
    return None


# An average and a sum are never each other; a count may be told as a total ("إجمالي المناقصات").
_OTHER_AGGREGATE = {"avg": {"sum"}, "sum": {"avg"}}
_AGGREGATE_WORDS = {word: measure for word, measure in words.MEASURES.items() if measure in ("avg", "sum")}


def _measure_named_before(result: Result, position: int) -> tuple[str | None, str | None]:
    """The last value phrase before ``position`` within its paragraph ("متوسط القيمة التقديرية"):
    the aggregate said right before it (avg, sum, or None) and the value (estimated, awarded ...)."""
    original = result.insight.original
    start = original.rfind("\n\n", 0, position) + 1
    folded = fold(original[start:position])
    found = list(_VALUE_PHRASE.finditer(folded))
    if not found:
        return None, None
    last = found[-1]
    before = re.findall(r"\w+", folded[max(0, last.start() - 16) : last.start()])[-1:]
    aggregate = next((_AGGREGATE_WORDS.get(word, _AGGREGATE_WORDS.get(word[1:])) for word in before), None)
    return aggregate, words.VALUE_MEASURES[last.group(1)]


_VALUE_PHRASES = "|".join(map(re.escape, sorted(words.VALUE_MEASURES, key=len, reverse=True)))
_VALUE_PHRASE = re.compile(r"(?<!\w)(?:[وبل]|ال)?(" + _VALUE_PHRASES + r")(?!\w)")
_VALUE_COLUMN_WORDS = tuple(sorted(set(words.VALUE_MEASURES.values())))
_RANKED_BY = re.compile(r"(?<!\w)(?:من حيث|بحسب)\s+(?:(متوسط|اجمالي|مجموع)\s+)?(?:[وبل]|ال)?("
                        + _VALUE_PHRASES + r")(?!\w)")


def _value_named(result: Result, claim: Claim) -> str | None:
    """The value a figure is said to be by the phrase right before it in its clause, after any
    figure before it ("قيمة الترسية 5,000 ريال": awarded)."""
    mention = claim.mention
    start = max(claim.clause[0], mention.start - 60)
    text = result.insight.original[start : mention.start]
    previous = [m.end for m in find_numbers(text)]
    found = list(_VALUE_PHRASE.finditer(fold(text[previous[-1] if previous else 0 :])))
    return words.VALUE_MEASURES[found[-1].group(1)] if found else None


def _percent_base(check: ClaimCheck, result: Result) -> ClaimCheck | None:
    """"يزيد رقم الرياض على رقم مكة بنسبة 98%": a percentage by which one row exceeds another is
    on the other's base (the row after "على"/"عن"/"من"); on the first row's base it is contradicted."""
    claim, mention = check.claim, check.claim.mention
    if mention is None or not mention.percent or claim.comparator or len(result.values.rows) > OTHER_ROWS_MAX:
        return None
    start = claim.clause[0]
    named = [label for label in result.insight_labels if start <= label.start and label.end <= mention.start
             and len(label.rows) == 1 and label.column is not None]
    distinct = list({next(iter(label.rows)): label for label in named}.values())
    if len(distinct) != 2 or distinct[0].column != distinct[1].column:
        return None
    first, second = distinct
    between = re.findall(r"\w+", fold(result.insight.original[start : second.start]))
    if not any(words.one_of(word, words.EXCEEDS) for word in between):
        return None
    rows = (next(iter(label.rows)) for label in (first, second))
    pairs = [(a, b) for a, b in _row_pairs(result, claim, *rows) if a and b and a != b]
    if not pairs:
        return None
    a, b = pairs[0]
    right, other = 100.0 * abs(a - b) / abs(b), 100.0 * abs(a - b) / abs(a)
    if Values((), (right,)).supports(mention):
        return ClaimCheck(claim, SUPPORTED)
    if Values((), (other,)).supports(mention):
        return ClaimCheck(claim, CONTRADICTED, f"on {second.text}'s base it is {right:.1f}%")
    return None


def _outside(result: Result, start: int, label: Label) -> bool:
    """The entity is named as left out ("خارج منطقة الرياض", "من غير نوع الشراء المباشر ومسابقة"):
    a word that excludes stands before it in its clause (from ``start``)."""
    before = fold(result.insight.original[start : label.start]).split()
    return any(words.one_of(word, words.EXCLUDING) for word in before)


def _id_filters(sql: str | None) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The reference entities (kind -> folded names) the SQL's id filters keep (= or IN) and those
    they leave out (<>, != or NOT IN)."""
    kept: dict[str, set[str]] = {}
    dropped: dict[str, set[str]] = {}
    for column, relation, ids in _ID_COMPARISON.findall(sql or ""):
        kind, entities = _ID_COLUMNS[column.lower()]
        wanted = {int(i) for i in re.findall(r"\d+", ids)}
        target = dropped if relation.lower().replace(" ", "") in ("<>", "!=", "notin") else kept
        target.setdefault(kind, set()).update(fold(e.name_ar) for e in entities if getattr(e, column.lower()) in wanted)
    return kept, dropped


_ID_COMPARISON = re.compile(rf"\b({'|'.join(_ID_COLUMNS)})\s*(<>|!=|=|not\s+in|in)\s*\(?([\d,\s]+)\)?", re.IGNORECASE)


def _excluded_entities(result: Result) -> list[Found]:
    """An entity named as left out ("من غير نوع شراء مباشر"، "غير منتهية") must be one the SQL
    leaves out: compared with <> or NOT IN, or absent from its = / IN list of that kind. And the
    converse: an entity named as what the rows are ("من نوع شراء مباشر"، "داخل منطقة الرياض") must
    not be one the SQL only leaves out (its <> or NOT IN, and no = or IN naming it)."""
    kept, dropped = _id_filters(result.sql)
    if not kept and not dropped:
        return []
    found = []
    previous: tuple[int, bool] | None = None  # the entity before: its end, and whether named as left out
    for entity in result.entities:
        kind, name = entity.entity
        excluded = _named_as_left_out(result, entity.start, previous)
        previous = (entity.end, excluded)
        says = None
        if excluded:
            # left out by a "<>" even where an IN list of the same kind also names it ("الوزارات عدا الصحة")
            if name not in dropped.get(kind, set()) and (kind in dropped or name in kept.get(kind, set())):
                says = "the SQL does not leave it out"
        elif name in dropped.get(kind, set()) and name not in kept.get(kind, set()):
            says = "the SQL leaves it out"
        elif kind in kept and name not in kept[kind] and kind not in dropped and entity.entity not in result.row_entities:
            # the SQL keeps only its = / IN list of this kind: another one named is not what the rows are
            says = f"the rows are for {', '.join(sorted(kept[kind]))}"
        found += [(entity.start, entity.end, entity.text, says)] if says else []
    return found


def _quoted(text: str, start: int, end: int) -> bool:
    """Part of a longer «...» or "...": a tender's or a project's name, whose words name no filter
    (the entity alone in quotes, «منافسة محدودة», is that entity named)."""
    before, after = text[:start], text[end:]
    if before.count("«") > before.count("»"):
        opening, closing = before.rfind("«"), after.find("»")
    elif before.count('"') % 2 == 1:
        opening, closing = before.rfind('"'), after.find('"')
    else:
        return False
    return bool(before[opening + 1 :].strip() or (after[:closing] if closing >= 0 else after).strip())


_LIST_JOINS = frozenset(fold(word) for word in ("و", "أو", "ولا", "لا", "or", "nor", "and"))


def _named_as_left_out(result: Result, start: int, previous: tuple[int, bool] | None) -> bool:
    """True when the words before an entity name it as left out ("غير نوع"، "خارج منطقة"، "ما عدا"),
    or it continues a list ("و"، "،") whose entity before was."""
    text = result.insight.original
    if previous is not None and previous[1]:
        between = re.findall(r"\w+", fold(text[previous[0] : start]))
        if len(between) <= 2 and all(w in _LIST_JOINS or words.one_of(w, words.KIND_NOUNS) for w in between):
            return True
    before = re.findall(r"\w+", fold(text[max(0, start - 30) : start]))
    while before and words.one_of(before[-1], words.KIND_NOUNS):
        before.pop()  # "غير نوع شراء مباشر": the kind's noun between
    return bool(before) and words.one_of(before[-1], words.EXCLUDING)


_DATE_CELL = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _dates(result: Result) -> list[ClaimCheck]:
    """A date written with its month's name ("31 أكتوبر 2026", "15 رمضان 1447هـ") against the
    dates the rows hold: the month (and day) on a row's date, else contradicted; a date the
    question names (its window) is the question's, no claim."""
    cells = sorted({(int(m.group(1)), int(m.group(2)), int(m.group(3))) for row in result.values.rows[:OTHER_ROWS_MAX]
                    for cell in row if isinstance(cell, str) for m in [_DATE_CELL.match(cell)] if m})
    window = result.filter_dates.months
    if not cells and not window:
        return []
    asked = {(m.calendar, m.month) for m in result.question_months}
    checks = []
    for month in result.months:
        if (month.calendar, month.month) in asked:
            continue
        if window and month.calendar == "gregorian" and (month.day is None or not cells):
            # A month said as the period of the figures ("في شهر أبريل 2025") is the SQL's window's.
            claim = Claim("date", month.text, month.start, clause=(month.start, month.end))
            inside = any(m == month.month and (month.year is None or y == month.year) for y, m in window)
            if not inside and (month.year is not None or len(window) < 12):
                checks.append(ClaimCheck(claim, CONTRADICTED, _window_says(window)))
            continue
        if month.year is None or not cells:
            continue
        if month.calendar == "gregorian":
            held = cells
        else:
            held = [found for found in (hijri_calendar.hijri_date(date(*cell)) for cell in cells) if found]
        claim = Claim("date", month.text, month.start, clause=(month.start, month.end))
        if any(y == month.year and m == month.month and (month.day is None or d == month.day) for y, m, d in held):
            checks.append(ClaimCheck(claim, SUPPORTED))
        elif any(y == month.year for y, _, _ in held):  # the year is right, the month or day not
            says = ", ".join(f"{y}-{m:02d}-{d:02d}" for y, m, d in cells[:3])
            checks.append(ClaimCheck(claim, CONTRADICTED, f"the rows' dates are {says}"))
    return checks


def _told(rules: Sequence[tuple[str, Callable[[Result], list[Found]]]], result: Result) -> list[ClaimCheck]:
    """What the rules of a whole sentence find, each as a contradicted claim of its rule's kind."""
    return [ClaimCheck(Claim(kind, text, start, clause=(start, end)), CONTRADICTED, says)
            for kind, rule in rules for start, end, text, says in rule(result)]


_PERIOD = re.compile(r"(?<!\w)(?:ف|ب|و)?(?:ال)?(ربع|نصف)\s+(الاول|الثاني|الثالث|الرابع)(?:\s+من)?(?:\s+(?:عام|سنه|العام))?\s+(\d{4})")
_PERIOD_PLACES = {"الاول": 1, "الثاني": 2, "الثالث": 3, "الرابع": 4}


def _named_periods(result: Result) -> list[Found]:
    """A quarter or half of a year ("الربع الثاني من عام 2024") against the SQL's window of
    months: it must overlap the window (the third quarter's figures told as the second's do not)."""
    window = set(result.filter_dates.months)
    if not window:
        return []
    found = []
    folded = result.insight
    for start, end, match in folded.find(_PERIOD):
        length = 3 if match.group(1) == "ربع" else 6
        place, year = _PERIOD_PLACES[match.group(2)], int(match.group(3))
        if length == 6 and place > 2:
            continue
        months = {(year, (place - 1) * length + k + 1) for k in range(length)}
        # only a contradiction is added: a right period is the question's, as a date the question names
        if not months & window and any(y == year for y, _ in window):
            found.append((start, end, folded.original[start:end], _window_says(window)))
    return found


def _window_says(window: Collection[tuple[int, int]]) -> str:
    """The SQL's window of (year, month)s as a reason says it."""
    (y0, m0), (y1, m1) = min(window), max(window)
    return f"the SQL's window is {y0}-{m0:02d} to {y1}-{m1:02d}"


# The rules a number's own reading may still break where its figure is supported (a range's
# ends have none): the first that finds a contradiction tells it.
_NUMBER_RULES: tuple[Callable[[ClaimCheck, Result], ClaimCheck | None], ...] = (
    _month_elsewhere, _entity_elsewhere, _bids_for_tenders, _percent_base, _unit_mismatch)
# The rules of a whole sentence, each with the kind of claim it tells, in the order they are told.
_DATE_RULES = (("date", _named_periods), ("date", lambda result: window_contradictions(result.insight, result.sql)))
_SENTENCE_RULES = (
    ("entity", _excluded_entities), ("comparison", lambda result: comparison_contradictions(result.insight, result.sql)),
    ("arithmetic", lambda result: arithmetic_contradictions(result.insight)),
    ("measure", _ranked_by), ("none", _existence))
_CHECKERS: dict[str, Callable[[Claim, Result], ClaimCheck | None]] = {
    # two labels of one figure that are of no one row ("«X» لدى Y" where X is another agency's)
    "pairing": lambda claim, result: ClaimCheck(claim, CONTRADICTED, "no row of the result has both"),
    "ratio": _check_ratio,
    "ordinal": _check_ordinal,
    "ranking": _check_ranking,
    "number": _check_number,
    "none": _check_none,
    "yes_no": _check_yes_no,
    "direction": _check_direction,
    "superlative": _check_superlative,
}
