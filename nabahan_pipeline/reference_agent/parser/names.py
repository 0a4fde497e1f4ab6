"""Names: written in English (the lookup tables' English names, and an agency's initials, "KSU",
kept only when no other agency has the same), groups of agencies named by a plural, which agencies
a shared phrase means, and questions about the reference tables themselves."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, word_variants, words
from nabahan_pipeline.reference_agent.parser.frame import Condition, LOOKUP_TABLES, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import (
    COUNT, DIMENSIONS, DIMENSION_KEYS, PROJECT, SMALL_NUMBER, TENDER, TOP_WORDS, WHICH, alternation, blank,
)
from nabahan_pipeline.reference_agent.parser.reading import Reading


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


# --- agency groups --------------------------------------------------------------------------------
# Groups of agencies named by a plural ("الجامعات"), members derived from the agencies' names so the
# group follows the reference data.

def _any_word(form: str) -> Callable[[list[frozenset[str]]], bool]:
    return lambda name: any(form in w for w in name)


def _first_word(form: str) -> Callable[[list[frozenset[str]]], bool]:
    return lambda name: bool(name) and form in name[0]


# group -> (its Arabic label, whether an agency's name (its words' variants) makes it a member)
_MEMBERSHIP: dict[str, tuple[str, Callable[[list[frozenset[str]]], bool]]] = {
    "universities": ("الجامعات", _any_word("جامعه")),
    "health_clusters": ("التجمعات الصحية", lambda name: _any_word("تجمع")(name) and _any_word("صحي")(name)),
    "municipalities": ("الأمانات", _first_word("امانه")),
    "hospitals": ("المستشفيات", lambda name: any(f.startswith("مستشف") for w in name for f in w)),
    "ministries": ("الوزارات", _first_word("وزاره")),
    "authorities": ("الهيئات", _any_word("هييه")),
}


def _first_word_of(term: str) -> str:
    return re.match(r"\w+", term).group(0)  # type: ignore[union-attr]


# A group's plural named with words its members' names share after the group's noun
# ("مستشفيات الملك فهد", "تجمعات الرياض الصحية"): those members, not the whole group.
_PLURAL_WORD = re.compile(
    r"(?<!\w)(?:[وف])?(?:لل|[بل]?ال|[بل])?(?:"
    + "|".join(f"(?P<{group}>{_first_word_of(terms[0])})" for group, terms in lx.AGENCY_GROUP_TERMS.items())
    + r")(?!\w)"
)
# Words after a plural that name a kind of place, not a part of the members' names.
_NOT_SHARED = frozenset({"منطقه", "المنطقه", "محافظه", "المحافظه", "مدينه", "المناطق", "في", "من", "و", "او"})

# A grouping word right before the group: "لكل", "حسب", "توزيع المنافسات على".
_GROUPED_BEFORE = re.compile(r"(?<!\w)(?:لكل|كل|حسب|بحسب|علي حسب|علي مستوي|علي)\s$")
# Words that put a question about agencies in the data: "في البيانات", "الجهات الحكومية", "اعتماد".
_DATA_CONTEXT = re.compile(r"(?<!\w)(?:[وفبل]?ال|[بل])?(?:بيانات|قاعده|اعتماد|منصه|جهه|جهات|حكومي(?:ه)?|مسجل(?:ه)?)(?!\w)")
# "كم جامعة": the agencies of the group counted.
_COUNTED_BEFORE = re.compile(r"(?<!\w)(?:كم|عدد)\s$")


class AgencyGroups:
    """The agency groups of one database, and the phrases of a question that name one."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.members: dict[str, tuple[int, ...]] = {}
        # agency id -> its name's words' variants
        self._name_words = {i: [word_variants(w) for w in words(name)] for i, name in catalog.agencies.items()}
        for group, (_, belongs) in _MEMBERSHIP.items():
            ids = tuple(i for i in sorted(catalog.agencies) if belongs(self._name_words[i]))
            if ids:
                self.members[group] = ids
        parts = [
            f"(?P<{group}>{alternation(lx.AGENCY_GROUP_TERMS[group])})" for group in self.members
        ]
        self.pattern = re.compile(r"(?<!\w)(?:[وف])?(?:لل|[بل]?ال|[بل])?(?:" + "|".join(parts) + r")(?!\w)") if parts else None
        singulars = [
            f"(?P<{group}>{alternation(lx.AGENCY_GROUP_SINGULARS[group])})" for group in self.members
        ]
        self.singular = (
            re.compile(rf"(?<=\s)(?:[بل]?ال)?(?:{'|'.join(singulars)})(?!\w)") if singulars else None
        )

    def read(self, text: str) -> tuple[str, list[Condition], tuple[str, ...]]:
        """The groups ``text`` names as conditions; the text with each plural blanked out or,
        ranked or grouped by, written as "الجهات" (padded to its length); and the group words of
        a question that names no tender, no project and not the data ("كم عدد الجامعات في
        السعودية": general knowledge, which the caller refuses). A plural that begins an agency's
        own name ("مستشفيات الهدا ...") is left to the name pass; a singular counts only after a
        grouping word ("لكل جامعة")."""
        if self.pattern is None:
            return text, [], ()
        conditions: list[Condition] = []
        general: list[str] = []
        for m in list(_PLURAL_WORD.finditer(text)):
            named = self._members_named(m.lastgroup, text[m.end() :])  # type: ignore[arg-type]
            if named:
                ids, length = named
                conditions.append(Condition("agency", "in", ids, self.catalog.label("agency", ids)))
                text = blank(text, m.start(), m.end() + length)
        about_agencies = not (TENDER.search(text) or PROJECT.search(text))
        unscoped = about_agencies and not _DATA_CONTEXT.search(text)
        for m in list(self.singular.finditer(text)) if self.singular else []:
            group = m.lastgroup
            assert group is not None
            cued = _GROUPED_BEFORE.search(text[: m.start()]) or _COUNTED_BEFORE.search(text[: m.start()])
            if not cued or self._begins_a_name(m, text):
                continue
            if unscoped:
                general.append(m.group(0).strip())
            conditions.append(Condition("agency", "in", self.members[group], _MEMBERSHIP[group][0]))
            text = text[: m.start()] + "جهه".ljust(m.end() - m.start()) + text[m.end() :]
        for m in list(self.pattern.finditer(text)):
            group = m.lastgroup
            assert group is not None
            if self._begins_a_name(m, text):
                continue
            if unscoped:
                general.append(m.group(0).strip())
            conditions.append(Condition("agency", "in", self.members[group], _MEMBERSHIP[group][0]))
            length = m.end() - m.start()
            before = text[max(0, m.start() - 14) : m.start()]
            after = text[m.end() : m.end() + 12]
            ranked = TOP_WORDS.search(before) or WHICH.search(before) or SMALL_NUMBER.search(before)
            ranked = ranked or re.search(r"\d\s*$", before) or _GROUPED_BEFORE.search(text[: m.start()])
            ranked_after = re.match(r"\s*(?:ال)?(?:اكثر|اعلي|اكبر|اقل|ادني)(?!\w)", after)
            # With no tender or project named, the question is about the agencies themselves
            # ("الجهات من الجامعات في منطقة مكة"): the noun stays for the lookup.
            if ranked or ranked_after or about_agencies:
                # "أكثر الجامعات", "أي الجامعات", "أعلى 3 مستشفيات", "الوزارات الأكثر", "توزيع
                # المنافسات على الوزارات": the agencies ranked or grouped, among the group.
                noun = "الجهات" if length >= 6 else "جهات"
                # The noun stands next to the word that ranks or groups it.
                noun = noun.rjust(length) if ranked_after and not ranked else noun.ljust(length)
                text = text[: m.start()] + noun + text[m.end() :]
            else:
                text = blank(text, m.start(), m.end())
        return text, conditions, tuple(general)

    def _members_named(self, group: str, after: str) -> tuple[tuple[int, ...], int] | None:
        """The members of ``group`` whose names go on, after the group's noun, with the words
        that begin ``after`` (at least two members, not all of them), and how many characters of
        ``after`` those words take; None when there are none such."""
        # The singular's first word: the noun the members' names hold ("تجمع" of "تجمع صحي").
        noun = _first_word_of(lx.AGENCY_GROUP_SINGULARS[group][0])
        members = {i: self._name_words[i] for i in self.members.get(group, ())}
        tokens = list(re.finditer(r"\S+", after))
        if not tokens or tokens[0].group(0) in _NOT_SHARED:
            return None
        best: tuple[tuple[int, ...], int] | None = None
        for k in range(1, len(tokens) + 1):
            phrase = [frozenset({noun})] + [word_variants(t.group(0)) for t in tokens[:k]]
            ids = tuple(i for i, name in members.items() if _holds(name, phrase))
            if len(ids) < 2:
                break
            best = (ids, tokens[k - 1].end())
        if best is None or len(best[0]) == len(members):
            return None
        ids, length = best
        rest = after[length:].split()[:1]
        if rest and all(_has_adjective(members[i], rest[0]) for i in ids):
            # "تجمعات الرياض الصحية": an adjective every one of them bears.
            length = after.index(rest[0], length) + len(rest[0])
        return ids, length

    def _begins_a_name(self, m: re.Match[str], text: str) -> bool:
        """Whether the group's word ``m`` and the word after it in ``text`` begin an agency's name."""
        following = text[m.end() :].split()[:1]
        if not following:
            return False
        first, second = m.group(m.lastgroup or 0).split()[0], word_variants(following[0])
        return any(len(name) > 1 and first in name[0] and second & name[1] for name in self._name_words.values())


def _holds(name: list[frozenset[str]], phrase: list[frozenset[str]]) -> bool:
    """Whether ``name`` (its words' variants) holds ``phrase`` as consecutive words."""
    return any(
        all(name[start + j] & forms for j, forms in enumerate(phrase)) for start in range(len(name) - len(phrase) + 1)
    )


def _has_adjective(name: list[frozenset[str]], word: str) -> bool:
    """Whether ``name`` has ``word`` as one of its words, in the plural's feminine or not ("الصحية"
    of "تجمع ... الصحي")."""
    forms = word_variants(word) | word_variants(word[:-1] if word.endswith("ه") else word)
    return any(w & forms for w in name)


# --- name choice ----------------------------------------------------------------------------------
# Which agencies a phrase several names share means: those the word before it picks, a family, the one
# whole name (unless all are asked for: "كل جهات الحرس الوطني"), else ambiguous, the candidates named.

# Words that stand before a name without being part of it.
_NOT_NAME_WORDS = frozenset({"في", "من", "او", "و", "لدي", "عند", "ل", "ب", "طرحتها", "طرحها", "طرحت"})


def _has_word(name: str, variants: frozenset[str]) -> bool:
    return any(variants & word_variants(w) for w in words(name))


def narrow_by_word_before(catalog: Catalog, field: str, ids: tuple[int, ...], word: str) -> tuple[int, ...]:
    """The ``ids`` whose names also hold ``word`` (the question's word right before the phrase),
    or () when it picks none or all of them."""
    if len(ids) < 2 or word in _NOT_NAME_WORDS:
        return ()
    variants = word_variants(word)
    named = tuple(i for i in ids if _has_word(catalog.label(field, (i,)), variants))
    return named if 0 < len(named) < len(ids) else ()


def _same(phrase: list[str], name: list[str]) -> bool:
    return all(word_variants(q) & word_variants(n) for q, n in zip(phrase, name))


def is_family(catalog: Catalog, field: str, ids: tuple[int, ...], phrase: list[str]) -> bool:
    """Whether the names of ``ids`` are read together: every one begins with ``phrase`` (one kind
    of agency: "أمانة ...")."""
    names = [words(catalog.label(field, (i,))) for i in ids]
    return all(len(name) >= len(phrase) and _same(phrase, name) for name in names)


def whole_name(catalog: Catalog, field: str, ids: tuple[int, ...], phrase: list[str]) -> tuple[int, ...]:
    """The one of ``ids`` whose whole name ``phrase`` is ("وزارة الحرس الوطني", not also "الشؤون
    الصحية بوزارة الحرس الوطني", which holds it), or () when none or several are."""
    exact = tuple(i for i in ids if _whole(phrase, words(catalog.label(field, (i,)))))
    return exact if len(exact) == 1 else ()


def _whole(phrase: list[str], name: list[str]) -> bool:
    return len(name) == len(phrase) and _same(phrase, name)


# "جهات الحرس الوطني", "كل جهات ...", "... كلها": every agency whose name holds the phrase.
_GROUP_BEFORE = frozenset({"جهات", "لجهات", "بجهات", "وجهات", "الجهات", "للجهات"})
_ALL_BEFORE = frozenset({"كل", "لكل", "جميع", "لجميع", "وكل", "بكل"})
_ALL_AFTER = frozenset({"كلها", "جميعها"})
_OF = frozenset({"التابعه", "تابعه"})


def asked_as_group(tokens: list[str], start: int, end: int) -> tuple[int, int] | None:
    """The span (first token, end) of a name asked for as the group of every agency that holds
    it ("لكل جهات الحرس الوطني", "جهات الأمن العام كلها", "الجهات التابعة للحرس الوطني"), or
    None when it is asked alone."""
    if start >= 2 and tokens[start - 1] in _OF and tokens[start - 2] in _GROUP_BEFORE:
        # "الجهات التابعة للحرس الوطني": the agencies noun stays, to be listed.
        return start - 1, end
    if start == 0 or tokens[start - 1] not in _GROUP_BEFORE:
        return None
    first = start - 1
    if first > 0 and tokens[first - 1] in _ALL_BEFORE:
        first -= 1
    if end < len(tokens) and tokens[end] in _ALL_AFTER:
        end += 1
    return first, end


# --- reference lookup -----------------------------------------------------------------------------
# Questions about the reference tables themselves (a name in English or Arabic, an id, an agency's
# region, names holding a word), of the table the question names; a condition it cannot hold refuses.

_CUES = (
    (
        "name_en",
        re.compile(
            r"(?<!\w)(?:(?:[وفبل]?ال)?(?:اسم|اسماء) )?(?:[وفب]?ال)?(?:انجليزي|انكليزي|انقليزي)(?:ه)?(?!\w)"
            r"|(?<![a-z])(?:in )?english(?![a-z])"
        ),
    ),
    ("name_ar", re.compile(r"(?<!\w)(?:(?:[وفبل]?ال)?(?:اسم|اسماء) )?(?:[وفب]?ال)?عربي(?:ه)?(?!\w)")),
    # "رقم نوع ...", "معرف المنطقة": an id, only before a dimension noun (``_ID_OF``; a tender's
    # own number is a value, and "كود" asks for program code: ``lexicon.OFF_TASK_TERMS``).
    ("id", re.compile(r"(?<!\w)(?:ال)?(?:رقم|رمز|معرف)(?!\w)")),
    # "تقع", "مقرها", "تابع لأي منطقة".
    ("located", re.compile(r"(?<!\w)(?:تقع|يقع|مقر(?:ها|ه)?|(?:ال)?تابع(?:ه)?(?: ل)?|تتبع)(?!\w)")),
    # "اسمه فيه كلمة", "يحتوي اسمها على", "في اسمه كلمة".
    (
        "contains",
        re.compile(
            r"(?<!\w)(?:(?:في |ب)?اسم(?:ه|ها|هم)? (?:فيه|فيها|يحتوي علي|تحتوي علي|يتضمن|تتضمن|يشمل)"
            r"|(?:يحتوي|تحتوي|يتضمن|تتضمن) اسم(?:ه|ها)(?: علي)?|في اسم(?:ه|ها))"
            r"(?: (?:ال)?كلمه)?(?!\w)"
        ),
    ),
)
# The id cue reads only before a dimension noun, in the question as written (a place read
# already is blanked): "رقم منطقة جازان", "رقم نوع المنافسة".
_ID_OF = re.compile(r"\s(?:[وفبل]?ال)?(?:نوع|حال|منطق|نشاط|جه|وزار|هي)\w*")


@dataclass(frozen=True)
class LookupCue:
    """What the question asks of a reference table, and the words that ask it."""

    kind: str  # name_en | name_ar | id | located | contains
    words: tuple[str, ...]


def read_lookup_cue(r: Reading) -> LookupCue | None:
    """The reference-lookup cue of the working text (blanked out), or None. Two different cues
    ("الاسم الإنجليزي ... ورقمه") are one lookup of the first."""
    kind = ""
    words: list[str] = []
    for name, pattern in _CUES:
        for m in list(pattern.finditer(r.text)):
            if name == "id" and not _ID_OF.match(r.original, m.end()):
                continue
            kind = kind or name
            words.append(m.group(0).strip())
            r.blank(m.start(), m.end())
    return LookupCue(kind, tuple(words)) if kind else None


def names_rows(r: Reading) -> bool:
    """Whether the question names tenders or projects: a tender or project word that does not
    qualify a dimension noun ("نوع المنافسة", "حالات المنافسات")."""
    nouns = list(DIMENSIONS.finditer(r.text))
    return any(
        not any(0 <= m.start() - noun.end() <= 1 for noun in nouns)
        for m in [*TENDER.finditer(r.text), *PROJECT.finditer(r.text)]
    )


def lookup_frame(r: Reading, cue: LookupCue) -> QueryFrame | Refusal:
    """The lookup of ``cue`` on the table the question names, or the refusal of one it cannot be."""
    refusal = Refusal("not_understood", cue.words)
    unheld = any(c.op != "in" or c.field not in LOOKUP_TABLES for c in r.conditions)
    if r.dates or r.values or names_rows(r) or unheld:
        return refusal
    dims = [str(DIMENSION_KEYS[m.lastgroup]) for m in DIMENSIONS.finditer(r.text)]  # type: ignore[index]
    dims = [d for d in dims if d in LOOKUP_TABLES]
    fields = {c.field for c in r.conditions}
    count = bool(COUNT.search(r.text))
    measure = "count" if count else "rows"
    if cue.kind == "located":
        # "في أي منطقة تقع جامعة طيبة": the region of the agencies named.
        if fields == {"agency"} and set(dims) <= {"region", "agency"} and not count:
            return QueryFrame("agencies", "rows", column="region", conditions=tuple(r.conditions))
        # "الجهات اللي مقرها حائل": the agencies of a region.
        if fields == {"region"} and set(dims) <= {"agency", "region"}:
            return QueryFrame("agencies", measure, conditions=tuple(r.conditions))
        return refusal
    target = dims[0] if dims else (next(iter(fields)) if len(fields) == 1 else None)
    if target is None or any(d != target for d in dims):
        return refusal
    allowed = {target} | ({"region"} if target == "agency" else set())
    if not fields <= allowed:
        return refusal
    # "contains": the names holding the word are those the name pass found (as an analyst's LIKE would).
    if cue.kind == "contains" and target not in fields:
        return refusal
    column = None if cue.kind == "contains" else cue.kind
    return QueryFrame(LOOKUP_TABLES[target], measure, column=column, conditions=tuple(r.conditions))
