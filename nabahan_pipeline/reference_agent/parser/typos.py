"""One-letter typos in domain nouns and region names ("المنافسسات", "الرياص"), read back to the
word meant when one word of the vocabulary (or forms of one noun) is a single edit away and the
word has at least five letters. Used only on a question refused as not understood: the question
is read again with the words replaced, and the insight shows each word as understood."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.arabic.spelling import one_edit_apart
from nabahan_pipeline.etimad_db.reference_data import REGIONS
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.parser.patterns import KNOWN

MIN_LETTERS = 5
# A conjunction or preposition glued to the word; the article stays part of it.
_CLITIC = re.compile(r"^(?:[وف]?(?:لل|[بلك](?=ال)|[بلك](?!ال))?)")


def _vocabulary() -> dict[str, int]:
    """Each word of the vocabulary -> the noun it is a form of (the region names' last word of
        "المدينة المنورة" among them)."""
    nouns: dict[str, int] = {}
    # A noun with its article and without is one noun ("التقديريه", "تقديريه"): a typo between
    # the two ("اتقديريه") still means it.
    bare: dict[str, int] = {}
    for n, forms in enumerate(lx.TYPO_NOUNS):
        n = bare.setdefault(forms[0].removeprefix("ال"), n)
        for form in forms:
            nouns[form] = n
    n = len(lx.TYPO_NOUNS)
    for region in REGIONS:
        n += 1
        short = normalize_arabic(region.short_ar)
        for form in {short, short.removeprefix("ال")}:
            if " " not in form:
                nouns.setdefault(form, n)
    nouns.setdefault("المنوره", n + 1)
    return nouns


VOCABULARY = _vocabulary()


# Month names: a typo in one ("فبراري") is read back too, the names of one month one noun.
MONTH_WORDS = {name: max(VOCABULARY.values()) + month for name, month in lx.MONTHS.items() if " " not in name}


def name_neighbours(names: Iterable[str]) -> dict[str, frozenset[str]]:
    """Each word of the database's names -> the words it shares a name with: a typo in a name's
    word is read back only when the word before it is one of them ("جامعه الملك سعوود")."""
    found: dict[str, set[str]] = {}
    for name in names:
        name_words_ = normalize_arabic(name).split()
        for word in name_words_:
            found.setdefault(word, set()).update(name_words_)
    return {word: frozenset(others) for word, others in found.items()}


def name_words(names: Iterable[str]) -> dict[str, int]:
    """The words of the database's names (agencies, activities) a typo may be read back to,
    each a noun of its own, numbered after the months (a name's word of four letters too:
    "سعوود" is سعود)."""
    start = max(MONTH_WORDS.values()) + 1
    found = sorted({w for name in names for w in normalize_arabic(name).split() if len(w) >= MIN_LETTERS - 1})
    return {w: start + i for i, w in enumerate(found) if w not in VOCABULARY and w not in MONTH_WORDS}


def corrected(
    text: str, names: Mapping[str, int] | None = None, neighbours: Mapping[str, frozenset[str]] | None = None
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """``text`` (normalized) with each word read back to the one vocabulary word it is a typo of
    (the domain nouns and regions; else the months and ``names``: ``name_words`` of the
    database, a name's word only after another word of that name: ``neighbours``), and the
    (typed, understood) pairs; ``text`` unchanged and () when no word is."""
    # The domain nouns and regions first; the months and names only for a word none of them is near.
    tiers = (VOCABULARY, {**MONTH_WORDS, **(names or {})})
    neighbours = neighbours or {}
    words = text.split(" ")
    corrections: list[tuple[str, str]] = []
    for i, word in enumerate(words):
        clitic = _CLITIC.match(word).group(0)  # type: ignore[union-attr]
        core = word[len(clitic) :]
        if len(core) < MIN_LETTERS or any(core in tier for tier in tiers) or KNOWN.fullmatch(word):
            continue
        previous = words[i - 1][len(_CLITIC.match(words[i - 1]).group(0)) :] if i else ""  # type: ignore[union-attr]
        for vocabulary in tiers:
            near = [
                form for form in vocabulary if abs(len(form) - len(core)) <= 1 and one_edit_apart(core, form)
                and (vocabulary is VOCABULARY or form in MONTH_WORDS or previous in neighbours.get(form, ()))
            ]
            if near:
                break
        if not near or len({vocabulary[form] for form in near}) != 1:
            continue
        # Forms of one noun: the one ending as the typed word does, else the first.
        form = next((f for f in near if f[-1] == core[-1]), near[0])
        words[i] = clitic + form
        corrections.append((word, words[i]))
    return " ".join(words), tuple(corrections)
