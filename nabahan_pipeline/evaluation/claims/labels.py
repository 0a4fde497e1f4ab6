"""Row labels: the names a result's rows hold (a region, agency, status, type, activity, year or
month) in every spelling an answer may use (from the reference data: "منطقة الرياض", "الرياض",
"Riyadh"; definite and plural forms), and where an insight names them. A spelling several rows
share names all of them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from nabahan_pipeline.arabic.hijri_calendar import MONTH_NAMES as HIJRI_MONTH_NAMES
from nabahan_pipeline.etimad_db import reference_data as ref
from nabahan_pipeline.evaluation.claims.folding import Folded, fold, phrase_pattern
from nabahan_pipeline.evaluation.claims.words import GREGORIAN_MONTHS, STATUS_SPELLINGS

# Rows whose labels are read: a longer result is a listing, whose rows an insight does not name
# one by one.
LABELLED_ROWS_MAX = 500
_YEAR_COLUMN = re.compile(r"year|سنه|عام", re.IGNORECASE)
_MONTH_LABEL = re.compile(r"^(\d{4})-(\d{2})$")
_MONTH_COLUMN = re.compile(r"month|شهر", re.IGNORECASE)
_NUMBER_TEXT = re.compile(r"^[-+]?[\d.,٬٫ ]+%?$")


@dataclass(frozen=True)
class Label:
    """A row label named in an insight: its span there, the rows it names, the column it is from
    (the label's kind), and the entity of the reference data it is (kind, folded name), if any."""

    start: int
    end: int
    rows: frozenset[int]
    column: int | None
    entity: tuple[str, str] | None = None
    text: str = ""


@dataclass(frozen=True)
class RowLabels:
    """The labels of one result's rows: folded spelling -> (rows, column), and each label column's
    reference kind (region, agency ...)."""

    spellings: dict[str, tuple[frozenset[int], int]]
    column_kinds: dict[int, str]
    pattern: re.Pattern[str] | None

    @classmethod
    def of(cls, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> RowLabels:
        spellings: dict[str, tuple[set[int], int]] = {}
        kinds: dict[int, dict[str, int]] = {}
        for i, row in enumerate(rows[:LABELLED_ROWS_MAX]):
            for j, cell in enumerate(row):
                name = columns[j] if j < len(columns) else ""
                for spelling, kind in _cell_spellings(cell, name) if _hashable(cell) else ():
                    rows_of, _ = spellings.setdefault(spelling, (set(), j))
                    rows_of.add(i)
                    if kind:
                        kinds.setdefault(j, {}).setdefault(kind, 0)
                        kinds[j][kind] += 1
        frozen = {spelling: (frozenset(rows_of), j) for spelling, (rows_of, j) in spellings.items()}
        column_kinds = {j: max(counts, key=counts.__getitem__) for j, counts in kinds.items()}
        pattern = phrase_pattern(frozen) if frozen else None
        return cls(frozen, column_kinds, pattern)

    def find(self, folded: Folded) -> list[Label]:
        """The labels named in ``folded``, in order, longest spelling first where two overlap."""
        if self.pattern is None:
            return []
        return [Label(start, end, *self.spellings[spelling], ENTITIES.get(spelling), written)
                for start, end, spelling, written in _named(folded, self.pattern, self.spellings)]


def _named(folded: Folded, pattern: re.Pattern[str], spellings: dict[str, Any]) -> Iterator[tuple[int, int, str, str]]:
    """Each of ``spellings`` ``pattern`` finds in ``folded``: its span, the spelling, and the label
    as the insight wrote it, without its proclitics ("ولمكة" -> "مكة")."""
    for start, end, match in folded.find(pattern):
        form = match.group(0)
        spelling = _strip_proclitics(form, spellings)
        if spelling is not None:
            cut = len(form) - len(spelling) if form.endswith(spelling) else 0
            yield start, end, spelling, folded.original[start:end][cut:]


def _strip_proclitics(form: str, spellings: dict[str, Any]) -> str | None:
    if form in spellings:
        return form
    for cut in (1, 2):
        rest = form[cut:]
        if rest in spellings:
            return rest
        if rest.startswith("ل") and "ا" + rest in spellings:  # لل + name: ل + ال
            return "ا" + rest
    if form.startswith("لل") and "ا" + form[1:] in spellings:
        return "ا" + form[1:]
    return None


def _hashable(cell: Any) -> bool:
    return isinstance(cell, (str, int, float)) and not isinstance(cell, bool)


@functools.lru_cache(maxsize=16_384)  # the cells seen last (names repeat across answers): pure
def _cell_spellings(cell: Any, column: str) -> tuple[tuple[str, str | None], ...]:
    """A cell's spellings as a label, each with the reference kind it is of (None if none)."""
    return tuple(_spellings(cell, column))


def _spellings(cell: Any, column: str) -> Iterator[tuple[str, str | None]]:
    if isinstance(cell, bool) or cell is None:
        return
    if isinstance(cell, (int, float)):
        if _YEAR_COLUMN.search(column) and float(cell).is_integer() and 1900 <= cell <= 2100:
            yield str(int(cell)), "year"
        elif _MONTH_COLUMN.search(column) and float(cell).is_integer() and 1 <= cell <= 12:
            yield from ((spelling, "month") for spelling in _month_spellings(int(cell)))
        return
    if not isinstance(cell, str):
        return
    folded = fold(cell)
    if folded.isdigit() and 1 <= int(folded) <= 12 and _MONTH_COLUMN.search(column):
        yield from ((spelling, "month") for spelling in _month_spellings(int(folded)))
        return
    if not folded or _NUMBER_TEXT.match(folded):
        if folded.isdigit() and len(folded) == 4 and 1900 <= int(folded) <= 2100:
            yield folded, "year"
        return
    month = _MONTH_LABEL.match(folded)
    if month:
        yield folded, "month"
        for name in GREGORIAN_MONTHS.get(int(month.group(2)), ()):
            yield f"{name} {month.group(1)}", "month"
        return
    entity = ENTITIES.get(folded)
    if entity is not None:
        for spelling in ENTITY_SPELLINGS[entity]:
            yield spelling, entity[0]
        return
    for spelling in _forms(folded):
        yield spelling, None


def _month_spellings(month: int) -> list[str]:
    """A month number as a label: "الشهر 4", "شهر 4", "الشهر الرابع" is not read; its names."""
    names = [name for name in GREGORIAN_MONTHS[month] if len(name) > 2]
    return [f"الشهر {month}", f"شهر {month}", f"الشهر {month:02d}", f"شهر {month:02d}", *names]


def _forms(name: str) -> set[str]:
    """A folded name, its definite form ("منافسه عامه" -> "المنافسه العامه") and the plural of
    its head noun; without a parenthesis; before a " - " (the part people say)."""
    forms = {name}
    base = re.sub(r"\s*\(.*?\)\s*", " ", name).strip()
    if base:
        forms.add(base)
    if " - " in name:
        forms.add(name.split(" - ")[0].strip())
    for form in list(forms):
        words = form.split()
        if 1 <= len(words) <= 3 and not any(word.startswith("ال") for word in words):
            forms.add(" ".join("ال" + word for word in words))
        if words and words[0] in _PLURALS:
            for plural in (_PLURALS[words[0]], "ال" + _PLURALS[words[0]]):
                definite = plural.startswith("ال")
                rest = [("ال" + word if definite and not word.startswith("ال") else word) for word in words[1:]]
                forms.add(" ".join([plural, *rest]))
    return {form for form in forms if len(form) >= 2}


_PLURALS = {"منافسه": "منافسات", "المنافسه": "المنافسات", "مناقصه": "مناقصات", "مزايده": "مزايدات"}


@functools.cache  # built once from constants: the same in every call of a long-lived process
def _entities() -> tuple[dict[str, tuple[str, str]], dict[tuple[str, str], frozenset[str]]]:
    """The reference data's names: folded spelling -> (kind, canonical name), and each entity's
    spellings."""
    spellings: dict[tuple[str, str], set[str]] = {}

    def add(kind: str, canonical: str, *names: str) -> None:
        key = (kind, fold(canonical))
        forms = spellings.setdefault(key, set())
        for name in names:
            if name and name.strip():
                forms |= _forms(fold(name.strip()))

    for region in ref.REGIONS:
        short_words = fold(region.short_ar).split()
        extra = [short_words[0]] if short_words[0] in ("مكه",) else []
        add("region", region.name_ar, region.name_ar, region.short_ar, region.name_en,
            "منطقة " + region.short_ar, *extra)
    for status in ref.STATUSES:
        add("status", status.name_ar, status.name_ar, status.name_en,
            *STATUS_SPELLINGS.get(fold(status.name_ar), ()))
    for kind, entities in (("type", ref.TENDER_TYPES), ("activity", ref.ACTIVITIES), ("agency", ref.AGENCIES)):
        for entity in entities:
            add(kind, entity.name_ar, entity.name_ar, entity.name_en)
    by_spelling: dict[str, tuple[str, str]] = {}
    ambiguous: set[str] = set()
    for key, forms in spellings.items():
        for form in forms:
            if form in by_spelling and by_spelling[form] != key:
                ambiguous.add(form)
            by_spelling.setdefault(form, key)
    for form in ambiguous:
        del by_spelling[form]
    return by_spelling, {key: frozenset(forms - ambiguous) for key, forms in spellings.items()}


ENTITIES, ENTITY_SPELLINGS = _entities()


@functools.cache  # built once from constants, as _entities
def entity_pattern() -> re.Pattern[str]:
    """Every reference entity's spellings, as one whole-word pattern."""
    return phrase_pattern(ENTITIES)


def find_entities(folded: Folded, kind: str) -> list[Label]:
    """The reference entities of ``kind`` (region, agency ...) named in ``folded``, rows unknown."""
    return [Label(start, end, frozenset(), None, ENTITIES[spelling], written)
            for start, end, spelling, written in _named(folded, entity_pattern(), ENTITIES)
            if ENTITIES[spelling][0] == kind]


def _month_names() -> dict[str, tuple[str, int]]:
    """Folded month name -> (calendar, month): both Arabic series of the Gregorian months
    ("نوفمبر", "تشرين الثاني"), the English names, and the Hijri months ("ذو القعدة")."""
    names = {name: ("gregorian", month) for month, spellings in GREGORIAN_MONTHS.items()
             for name in spellings if len(name) > 2}
    for month, name in HIJRI_MONTH_NAMES.items():
        names[fold(name)] = ("hijri", month)
        if name.startswith("ذي "):
            names[fold("ذو " + name[3:])] = ("hijri", month)
    names[fold("ربيع الثاني")] = ("hijri", 4)
    names[fold("جمادى الثانية")] = ("hijri", 6)
    return names


MONTH_NAMES = _month_names()
_MONTH_PATTERN = phrase_pattern(MONTH_NAMES)
_DAY_BEFORE = re.compile(r"(\d{1,2})\s*$")
_YEAR_AFTER = re.compile(r"^\s*(\d{4})(?:\s*(?:هـ|ه|م)(?!\w))?")


@dataclass(frozen=True)
class MonthMention:
    """A month named in a text: its span (day before and year after included), calendar
    ("gregorian" or "hijri"), month, and the day and year written with it, if any."""

    start: int
    end: int
    calendar: str
    month: int
    day: int | None
    year: int | None
    text: str


def find_months(folded: Folded) -> list[MonthMention]:
    """The months ``folded`` names, with the day before ("31 أكتوبر") and the year after ("2026")."""
    found = []
    original = folded.original
    for start, end, match in folded.find(_MONTH_PATTERN):
        form = match.group(0)
        name = next((form[cut:] for cut in (0, 1, 2) if form[cut:] in MONTH_NAMES), None)
        if name is None:
            continue
        calendar, month = MONTH_NAMES[name]
        day = _DAY_BEFORE.search(original[max(0, start - 4) : start])
        year = _YEAR_AFTER.match(original[end : end + 10])
        span_start = start - len(day.group(0)) if day else start
        span_end = end + year.end() if year else end
        found.append(MonthMention(span_start, span_end, calendar, month, int(day.group(1)) if day else None,
                                  int(year.group(1)) if year else None, original[span_start:span_end].strip()))
    return found
