"""Groups of agencies named by a plural: "الجامعات", "التجمعات الصحية", "أمانات المناطق",
"المستشفيات", "الوزارات", "الهيئات", read as one condition on every agency of the group.

Who belongs is derived from the agencies' names in the database (a university is an agency whose
name has the word جامعة, a municipality one whose name begins with أمانة, ...), so the group
follows the reference data. The plural is left in the text as "الجهات" so that what is asked of
it still reads after a superlative, a number or "أي" ("أكثر الجامعات طرحاً": the agencies ranked,
among the universities); elsewhere it is blanked out (a distribution of the universities' tenders
by region is not one by agency)."""

from __future__ import annotations

import re
from collections.abc import Callable

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, word_variants, words
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import PROJECT, SMALL_NUMBER, TENDER, TOP_WORDS, WHICH, alternation, blank


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
        """The groups ``text`` names as conditions, and the text with each plural blanked out or,
        ranked or grouped by, written as the agency noun "الجهات" (padded to its length). A
        plural that begins an agency's own name ("مستشفيات الهدا ...") is left to the name pass;
        a singular counts only after a grouping word ("لكل جامعة").

        Also the group words of a question that names no tender, no project and not the data
        ("كم عدد الجامعات في السعودية"): general knowledge about institutions, which the data
        (a few agencies of each kind) would answer wrongly; the caller refuses it."""
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
            following = text[m.end() :].split()[:1]
            cued = _GROUPED_BEFORE.search(text[: m.start()]) or _COUNTED_BEFORE.search(text[: m.start()])
            if not cued or (following and self._begins_a_name(m.group(group), following[0])):
                continue
            if unscoped:
                general.append(m.group(0).strip())
            conditions.append(Condition("agency", "in", self.members[group], _MEMBERSHIP[group][0]))
            text = text[: m.start()] + "جهه".ljust(m.end() - m.start()) + text[m.end() :]
        for m in list(self.pattern.finditer(text)):
            group = m.lastgroup
            assert group is not None
            following = text[m.end() :].split()[:1]
            if following and self._begins_a_name(m.group(group), following[0]):
                continue
            label = _MEMBERSHIP[group][0]
            if unscoped:
                general.append(m.group(0).strip())
            conditions.append(Condition("agency", "in", self.members[group], label))
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

    def _begins_a_name(self, word: str, following: str) -> bool:
        first, second = word.split()[0], word_variants(following)
        for name in self.catalog.agencies.values():
            name_words = [word_variants(w) for w in words(name)]
            if len(name_words) > 1 and first in name_words[0] and second & name_words[1]:
                return True
        return False



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
