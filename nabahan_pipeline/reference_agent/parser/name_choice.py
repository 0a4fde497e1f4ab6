"""Which agencies a phrase shared by several names means: the word before it may pick them
("هيئة المياه": the authority, not the ministry whose name also holds "المياه"); a phrase every
name begins with is a family of agencies ("أمانة", "الأمن العام"), as an analyst's LIKE would read
it; one agency's whole name inside the names of others selects that agency alone ("جامعة الملك
سعود", not also "جامعة الملك سعود بن عبدالعزيز ..."), unless the question asks for every agency that
holds it ("كل جهات الحرس الوطني"); any other phrase found inside the names of different agencies is
ambiguous, and the question is refused with the candidates named rather than answered for one of
them or for all."""

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
