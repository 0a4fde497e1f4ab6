"""The database's lookup tables, loaded once per database, and an index for finding agency and
activity names in a question: on normalized words, clitics ignored ("لوزارة الصحة" finds "وزارة
الصحة - الديوان العام"); a phrase names every entity whose name contains it, as ``LIKE '%phrase%'``
would."""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from nabahan_pipeline.arabic.normalize import normalize_arabic

_NON_WORD = re.compile(r"[^\w]+")
# "عبد العزيز" and "عبدالعزيز" are one name, written both ways in the data and in questions.
_COMPOUND_NAME = re.compile(r"(?<!\w)عبد\s+(?=ال\w)")


def join_compound_names(text: str) -> str:
    """Normalized ``text`` with each compound name in one word: "عبد الرحمن" -> "عبدالرحمن"."""
    return _COMPOUND_NAME.sub("عبد", text)


def words(text: str) -> list[str]:
    """The normalized words of ``text`` (punctuation, tabs and separators dropped; a compound
    name such as "عبد العزيز" one word)."""
    text = join_compound_names(normalize_arabic(text).replace("_", " "))
    return [w for w in _NON_WORD.sub(" ", text).split() if w]


def word_variants(word: str) -> frozenset[str]:
    """``word`` and its forms without a leading conjunction, preposition or article, keeping at
    least three letters: "بالرياض" -> {"بالرياض", "الرياض", "رياض"}."""
    forms = [word]
    if word[:1] in ("و", "ف") and len(word) > 3:
        forms.append(word[1:])
    for form in list(forms):
        if form.startswith("لل") and len(form) > 4:
            forms.append(form[2:])
        if form[:1] in ("ب", "ل", "ك") and len(form) > 3:
            forms.append(form[1:])
    for form in list(forms):
        if form.startswith("ال") and len(form) > 4:
            forms.append(form[2:])
    return frozenset(forms)


@dataclass(frozen=True)
class NameMatch:
    """A phrase of the question that names agencies or activities."""

    kind: str  # "agency" | "activity"
    ids: tuple[int, ...]
    start: int  # word index in the question
    end: int  # exclusive


@dataclass
class NameIndex:
    """Agency and activity names by word, for finding the phrases of a question that name them."""

    # (kind, id) -> the variant sets of the name's words, in order
    names: dict[tuple[str, int], list[frozenset[str]]] = field(default_factory=dict)
    postings: dict[str, list[tuple[tuple[str, int], int]]] = field(default_factory=lambda: defaultdict(list))

    def add(self, kind: str, entity_id: int, name: str) -> None:
        """Index one name."""
        variants = [word_variants(w) for w in words(name)]
        key = (kind, entity_id)
        self.names[key] = variants
        for pos, forms in enumerate(variants):
            for form in forms:
                self.postings[form].append((key, pos))

    def find(self, question_words: list[str], lexical: set[int], generic: frozenset[str]) -> list[NameMatch]:
        """The phrases of ``question_words`` that name agencies or activities, longest first, not
        overlapping. A phrase needs a word that is not ``lexical`` (a position the vocabulary
        already explains, such as a region); a one-word phrase also needs a word not in ``generic``."""
        n = len(question_words)
        hits = [
            {hit for form in word_variants(word) for hit in self.postings.get(form, ())} for word in question_words
        ]
        # run[i][(key, pos)]: matched words from question word i and name word pos on.
        run: list[dict[tuple[tuple[str, int], int], int]] = [dict() for _ in range(n + 1)]
        for i in range(n - 1, -1, -1):
            for key, pos in hits[i]:
                run[i][(key, pos)] = 1 + run[i + 1].get((key, pos + 1), 0)
        spans: dict[tuple[int, int], set[tuple[str, int]]] = defaultdict(set)
        for i in range(n):
            for (key, _pos), length in run[i].items():
                spans[(i, i + length)].add(key)
        candidates = [
            (end - start, start, end, keys) for (start, end), keys in spans.items()
            if any(i not in lexical for i in range(start, end)) and not (
                end - start == 1 and (word_variants(question_words[start]) & generic or len(question_words[start]) < 3)
            )
        ]
        candidates.sort(key=lambda c: (-c[0], c[1]))
        taken: set[int] = set()
        matches: list[NameMatch] = []
        for length, start, end, keys in candidates:
            if any(i in taken for i in range(start, end)):
                continue
            # One kind per phrase: the kind whose names the phrase covers best.
            best: dict[str, float] = {}
            for kind, entity_id in keys:
                share = length / len(self.names[(kind, entity_id)])
                best[kind] = max(best.get(kind, 0.0), share)
            kind = max(best, key=lambda k: (best[k], k == "activity"))
            ids = tuple(sorted(entity_id for k, entity_id in keys if k == kind))
            matches.append(NameMatch(kind=kind, ids=ids, start=start, end=end))
            taken.update(range(start, end))
        return matches


# Each lookup table by dimension: its name and its id column.
_TABLES = {
    "region": ("regions", "region_id"), "status": ("tender_statuses", "status_id"),
    "type": ("tender_types", "tender_type_id"), "activity": ("activities", "activity_id"),
    "agency": ("government_agencies", "agency_id"),
}
# Each dimension's table among the Catalog's fields.
_PLURALS = {"region": "regions", "status": "statuses", "type": "types", "activity": "activities", "agency": "agencies"}


@dataclass
class Catalog:
    """The lookup tables of one database and the dates that anchor relative time."""

    regions: dict[int, str]
    statuses: dict[int, str]
    types: dict[int, str]
    activities: dict[int, str]
    agencies: dict[int, str]
    latest_publish: date
    names: NameIndex
    # dimension -> id -> English name (name_en of the lookup tables)
    english: dict[str, dict[int, str]] = field(default_factory=dict)
    # agency id -> region id (government_agencies.region_id)
    agency_regions: dict[int, int] = field(default_factory=dict)
    # The tenders' names as written (a tender looked up by its name: "منافسة أعمال الترميم بالعلا").
    tender_names: tuple[str, ...] = ()

    @classmethod
    def load(cls, con: sqlite3.Connection) -> Catalog:
        """Read the lookup tables and the latest publish date from ``con``."""

        def table(sql: str) -> list[tuple]:
            return list(con.execute(sql).fetchall())

        arabic = {
            dimension: {i: n.strip() for i, n in table(f"SELECT {id_column}, name_ar FROM {source}")}
            for dimension, (source, id_column) in _TABLES.items()
        }
        english = {
            dimension: {i: n.strip() for i, n in table(f"SELECT {id_column}, name_en FROM {source}") if n}
            for dimension, (source, id_column) in _TABLES.items()
        }
        agency_regions = {r[0]: r[1] for r in table("SELECT agency_id, region_id FROM government_agencies")}
        latest = con.execute("SELECT MAX(publish_date) FROM tenders_full_details").fetchone()[0]
        index = NameIndex()
        for kind in ("agency", "activity"):
            for entity_id, name in arabic[kind].items():
                index.add(kind, entity_id, name)
        return cls(
            regions=arabic["region"], statuses=arabic["status"], types=arabic["type"],
            activities=arabic["activity"], agencies=arabic["agency"],
            latest_publish=date.fromisoformat(latest) if latest else date.today(),
            names=index, english=english, agency_regions=agency_regions,
            tender_names=tuple(n for (n,) in table("SELECT DISTINCT tender_name FROM tenders_full_details") if n),
        )

    def phrase(self, dimension: str, ids: Iterable[int]) -> str:
        """A condition on ``ids`` worded as the parser words it: "في منطقة الرياض", "ذات الحالة
        ملغاة", "من نوع شراء مباشر", or the names alone (agencies, activities)."""
        prefix = {"region": "في ", "status": "ذات الحالة ", "type": "من نوع "}.get(dimension, "")
        return prefix + self.label(dimension, ids)

    def table(self, dimension: str) -> dict[int, str]:
        """The lookup table of ``dimension`` (region, status, type, activity, agency): id -> name."""
        return getattr(self, _PLURALS[dimension])

    def label(self, dimension: str, ids: Iterable[int]) -> str:
        """The Arabic names of ``ids`` in ``dimension`` joined with و (for insights)."""
        table = self.table(dimension)
        names = [table.get(i, str(i)) for i in ids]
        if len(names) <= 2:
            return " و".join(names) if len(names) == 2 else (names[0] if names else "")
        return "، ".join(names[:-1]) + " و" + names[-1]
