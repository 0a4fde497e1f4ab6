"""Names written in English in an Arabic question: the lookup tables' English names ("Two-stage
tender", "King Saud University", "Riyadh") and the initials of an agency's English name ("KSU"),
read as the same conditions their Arabic names make.

Initials are taken from the reference data (the capitalized words of ``name_en``) and kept only
when no other agency has the same ones, so that "KSU" names King Saud University and nothing else."""

from __future__ import annotations

import re
from collections import defaultdict

from nabahan_pipeline.reference_agent.lookup_catalog import Catalog
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import blank

_NOT_LETTERS = re.compile(r"[^a-z0-9]+")


def latin_words(text: str) -> str:
    """``text`` as the parser leaves Latin text: lower case, words separated by single spaces."""
    return _NOT_LETTERS.sub(" ", text.lower()).strip()


def initials(name_en: str, patronyms: bool = True) -> str:
    """The initials of the capitalized words of an English name: "King Saud University" -> "ksu";
    without ``patronyms``, the name after bin/bint/ibn is skipped, as the usual initials do
    ("Princess Nourah bint Abdulrahman University" -> "pnu")."""
    found = re.findall(r"[A-Za-z][A-Za-z'.]*", name_en)
    kept = [w for i, w in enumerate(found) if patronyms or i == 0 or found[i - 1].lower() not in ("bin", "bint", "ibn")]
    return "".join(w[0] for w in kept if w[0].isupper() and w.lower() not in ("bin", "bint", "ibn")).lower()


class EnglishNames:
    """The English names and the agencies' initials of one database, and the phrases of a question that are one."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        keys: dict[str, set[tuple[str, int]]] = defaultdict(set)
        for dimension, names in catalog.english.items():
            for entity_id, name in names.items():
                phrase = latin_words(name)
                if phrase:
                    keys[phrase].add((dimension, entity_id))
        by_initials: dict[str, set[int]] = defaultdict(set)
        for entity_id, name in catalog.english.get("agency", {}).items():
            for letters in {initials(name), initials(name, patronyms=False)}:
                if len(letters) >= 3:
                    by_initials[letters].add(entity_id)
        self.initials: set[str] = set()
        for letters, ids in by_initials.items():
            if len(ids) == 1 and letters not in keys:
                keys[letters].add(("agency", next(iter(ids))))
                self.initials.add(letters)
        self.keys = dict(keys)
        alternation = "|".join(re.escape(k) for k in sorted(self.keys, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<![a-z0-9])(?:{alternation})(?![a-z0-9])") if self.keys else None

    def read(self, text: str, question: str = "") -> tuple[str, list[Condition]]:
        """The English names of ``text`` (normalized) as conditions, and the text with them blanked
        out. Initials count only when ``question`` (as asked) writes them in capitals: "KSU" is
        the university, "hmm" is no municipality. A phrase that names entities of two dimensions
        is left unread."""
        if self.pattern is None or not re.search(r"[a-z]", text):
            return text, []
        conditions: list[Condition] = []
        for m in list(self.pattern.finditer(text)):
            if m.group(0) in self.initials and not re.search(rf"(?<![A-Za-z]){m.group(0).upper()}(?![A-Za-z])", question):
                continue
            found = self.keys[m.group(0)]
            dimensions = {dimension for dimension, _ in found}
            if len(dimensions) != 1:
                continue
            dimension = dimensions.pop()
            ids = tuple(sorted(entity_id for _, entity_id in found))
            conditions.append(Condition(dimension, "in", ids, self.catalog.phrase(dimension, ids)))
            text = blank(text, m.start(), m.end())
        return text, conditions
