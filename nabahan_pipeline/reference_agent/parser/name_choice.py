"""Which agencies a phrase shared by several names means: the word before it may pick them
("هيئة المياه": the authority, not the ministry whose name also holds "المياه"); a phrase every
name begins with is a family of agencies ("أمانة", "الأمن العام"), as an analyst's LIKE would read
it, and so is one agency's whole name inside the names of its parts; a phrase found inside the
names of different agencies is ambiguous, and the question is refused with the candidates named
rather than answered for one of them or for all."""

from __future__ import annotations

from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, word_variants, words

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
    of agency: "أمانة ..."), or ``phrase`` is one of them whole and the others hold it ("وزارة
    الحرس الوطني" and "الشؤون الصحية بوزارة الحرس الوطني")."""
    names = [words(catalog.label(field, (i,))) for i in ids]
    if all(len(name) >= len(phrase) and _same(phrase, name) for name in names):
        return True
    return any(len(name) == len(phrase) and _same(phrase, name) for name in names)
