"""Questions about the reference tables themselves rather than the tenders: a name in English or
in Arabic ("ما الاسم الإنجليزي لمنطقة القصيم", "الاسم العربي لـ Two-stage tender"), an id ("ما رقم
نوع المنافسة المحدودة"), where an agency is ("في أي منطقة تقع جامعة طيبة", "الجهات اللي مقرها
حائل"), and the names that contain a word ("كم نشاط اسمه فيه كلمة تجارة").

The cue is read after the filter passes; the table is the one the question's dimension noun
names, or else the one its single name condition is on. A lookup whose conditions the table
cannot hold (a year, a value, a second kind of name) is refused."""

from __future__ import annotations

import re
from dataclasses import dataclass

from nabahan_pipeline.reference_agent.parser.frame import LOOKUP_TABLES, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.patterns import COUNT, DIMENSION_KEYS, DIMENSIONS, PROJECT, TENDER
from nabahan_pipeline.reference_agent.parser.reading import Reading

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
    if r.dates or r.values:
        return refusal
    nouns = list(DIMENSIONS.finditer(r.text))
    dims = [str(DIMENSION_KEYS[m.lastgroup]) for m in nouns]  # type: ignore[index]
    dims = [d for d in dims if d in LOOKUP_TABLES]
    if names_rows(r):
        return refusal
    fields = {c.field for c in r.conditions}
    if any(c.op != "in" or c.field not in LOOKUP_TABLES for c in r.conditions):
        return refusal
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
    if cue.kind == "contains":
        # The names that contain the word: the name pass found them (as an analyst's LIKE would).
        if target not in fields:
            return refusal
        return QueryFrame(LOOKUP_TABLES[target], measure, conditions=tuple(r.conditions))
    return QueryFrame(LOOKUP_TABLES[target], measure, column=cue.kind, conditions=tuple(r.conditions))
