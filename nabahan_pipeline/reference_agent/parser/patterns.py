"""The lexicon compiled into regular expressions: the clitics a question glues to a word, one
pattern per group of terms (places, statuses, types, what is asked), and the cues the parser reads
around them. Every pattern matches whole words of the normalized question."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import TypeVar

from nabahan_pipeline.reference_agent import lexicon as lx

T = TypeVar("T")

# --- building patterns from lexicon fragments ------------------------------------------------------

# و/ف, then ب/ل/ك, then the article: "وبالرياض", "للرياض", "فالمناقصات".
_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال|[بلك])?"
_ARTICLE_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال)"


def _fragment(text: str) -> str:
    """A lexicon fragment as a regex: its ``ال?`` marks an optional article."""
    return text.replace("ال?", "(?:ال)?")


def alternation(fragments: Iterable[str]) -> str:
    """One regex alternation of ``fragments``, the phrases of more words first, then the longer
    ones: a regex alternation takes the first that fits, so "قيمه ال?تقديريه" must come before
    a one-word fragment whose regex happens to be longer."""
    return "|".join(sorted((_fragment(f) for f in fragments), key=lambda f: (f.count(" "), len(f)), reverse=True))


def _with_clitics(fragments: Iterable[str], clitics: bool = True) -> str:
    """``fragments`` with the clitics a question may glue to their first word (only و/ف when not ``clitics``)."""
    # A leading optional article is what the clitic prefix already allows.
    fragments = [f[3:] if f.startswith("ال?") else f for f in fragments]
    plain = [f for f in fragments if not f.startswith("ال")]
    article = [f[2:] for f in fragments if f.startswith("ال")]
    parts = []
    if plain:
        parts.append((_CLITICS if clitics else "(?:[وف])?") + f"(?:{alternation(plain)})")
    if article:
        parts.append((_ARTICLE_CLITICS if clitics else "(?:[وف])?ال") + f"(?:{alternation(article)})")
    return "(?:" + "|".join(parts) + ")"


def _terms(fragments: Iterable[str], clitics: bool = True) -> re.Pattern[str]:
    """A pattern that finds any of ``fragments`` as whole words."""
    return re.compile(rf"(?<!\w){_with_clitics(fragments, clitics)}(?!\w)")


def _keyed_terms(table: Mapping[object, Iterable[str]]) -> tuple[re.Pattern[str], dict[str, object]]:
    """A pattern over every key's fragments, and which key each named group (``m.lastgroup``) stands for."""
    names: dict[str, object] = {}
    parts = []
    for i, (key, fragments) in enumerate(table.items()):
        names[f"k{i}"] = key
        parts.append(f"(?P<k{i}>{_with_clitics(fragments)})")
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)"), names


# --- the vocabulary ----------------------------------------------------------------------------------

REGIONS, REGION_KEYS = _keyed_terms(lx.REGION_TERMS)
REGION_PREFIX = re.compile(r"(?:(?<!\w)[وفبل]?(?:ال)?(?:منطقه|مدينه|محافظه)\s)$")
COUNTRY = _terms(lx.COUNTRY_TERMS)
STATUSES, STATUS_KEYS = _keyed_terms(lx.STATUS_TERMS)
TYPES, TYPE_KEYS = _keyed_terms(lx.TYPE_TERMS)
TENDER = _terms(lx.TENDER_TERMS)
PROJECT = _terms(lx.PROJECT_TERMS)
PROJECT_ADJ = _terms(lx.PROJECT_ADJECTIVES)
VALUE = _terms(lx.VALUE_TERMS + lx.ESTIMATED_TERMS)
ESTIMATED = _terms(lx.ESTIMATED_TERMS)
UNITS = _terms(lx.UNIT_TERMS, clitics=False)
AWARD = _terms(lx.AWARD_TERMS)
BIDS = _terms(lx.BIDS_TERMS)
BOOKLET = _terms(lx.BOOKLET_TERMS)
DURATION = _terms(lx.DURATION_TERMS)
DEADLINE = _terms(lx.DEADLINE_TERMS)
ENQUIRY = _terms(lx.ENQUIRY_TERMS)
OPENING = _terms(lx.OPENING_TERMS)
DIMENSIONS, DIMENSION_KEYS = _keyed_terms(lx.DIMENSION_TERMS)
COUNT = _terms(lx.COUNT_TERMS)
SUM = _terms(lx.SUM_TERMS)
AVG = _terms(lx.AVG_TERMS)
QUESTION_FORM = _terms(lx.QUESTION_FORMS, clitics=False)
SUPERLATIVE = re.compile(
    r"(?<!\w)(?:[وف])?(?:ال)?(?P<w>" + "|".join(lx.SUPERLATIVE_TERMS) + r")(?:ه|هم|ها)?(?!\w)"
)
RECENT = _terms(lx.RECENT_TERMS)
OLDEST = _terms(lx.OLDEST_TERMS)
SOONEST = _terms(lx.SOONEST_TERMS)
MUTATION = re.compile(
    r"(?<!\w)(?:[وف])?(?:" + alternation(lx.MUTATION_TERMS) + r")(?:ها|هم|ه|هن|لي|لنا)?(?!\w)"
)
# "غيّر ..." at the head of the request is an order to change data; elsewhere غير is "not".
# So is "انقل ..." / "ارفع القيمة ...": an order to move or raise what the data holds.
IMPERATIVE_CHANGE = re.compile(
    r"(?:(?:ممكن|لو سمحت|ابيك|ابغاك|اريدك|رجاء)\s)?[وف]?"
    r"(?:(?:غير|غيرو|عدلو)(?:ها|هم|ه)?\s|(?:انقل|انقلو|ارفع|خفض)(?:ها|هم|ه)?\s(?:كل|ال?قيم|ال?مبلغ|حال))"
)
SQL = re.compile(r"(?<![a-z])(?:" + "|".join(lx.SQL_KEYWORDS) + r")(?![a-z])")
SQL_STATEMENT = re.compile(r"(?<![a-z])(?:select|insert|update|delete|drop|alter|create|truncate|pragma|attach)(?![a-z])")
OFF_TASK = _terms(lx.OFF_TASK_TERMS)
OFF_TOPIC = _terms(lx.OFF_TOPIC_TERMS)
FILLERS = _terms(lx.FILLER_TERMS)
# Words that change nothing asked, passed over where safe (``passed_over``).
PASSED_OVER = _terms([term for terms in lx.PASSED_OVER_TERMS.values() for term in terms])
LIST_WORDS = _terms(lx.LIST_TERMS)
UNHELD, UNHELD_KEYS = _keyed_terms(lx.UNHELD_DATA)
GROUP_CUE = re.compile(
    r"(?<!\w)(?:[وف])?(?:حسب|بحسب|علي حسب|لكل|ل?كل|في كل|بكل|توزيع|توزع|تتوزع|يتوزع|وزع|موزع(?:ه)?|مقسم(?:ه)?|تقسيم|"
    r"من حيث|علي مستوي|بالنسبه ل?كل|مصنف(?:ه)? حسب|رتب(?: لي)?|per|by)(?!\w)"
)
# A negation right before a status, type, place or name: "غير الملغاة", "باستثناء الشراء المباشر",
# "في المناطق الأخرى غير مكة", "ما طرحتها أمانة تبوك".
NEGATION = re.compile(
    r"(?<!\w)(?:(?:[وفب]?ال)?مناطق ال?اخري\s)?"
    r"(?:(?:من |في |بال?)?(?:ال)?(?:و?غير|مو|ليست|ليس|مش|بدون|عدا|ما عدا|باستثناء|سوي|خارج|لا)(?:\s(?:في|من|ب|تابع(?:ه)? ل))?"
    r"|(?:ما|لم|مو) (?:اللي )?(?:ت|ي)?طرح(?:ت|ها|ته|تها)?)\s(?:(?:ال)?(?:منطقه|جهه|نشاط|نوع|منافسات|مناقصات|مشاريع) )?$"
)
# A place joined to a negated one ("غير الرياض وجدة", "عدا الرياض والشرقية") is negated with it.
NEGATION_GOES_ON = re.compile(r"^\s*(?:،|,)?\s*(?:او\s)?$")
# "لا ملغاة ولا منتهية", "مو عامة ولا مباشرة": "ولا" negates only after a first negation
# (alone, in speech, it is "or": "تبوك ولا جازان").
NEITHER = re.compile(r"(?<!\w)ولا\s(?:في\s)?$")
FIRST_NEGATION = re.compile(r"(?<!\w)(?:لا|مو|ما|ليس|ليست|غير)\s")
# Tenders with no region: "اللي ما لها منطقة محددة", "لم تحدد لها منطقة", "بدون منطقة".
NO_REGION = re.compile(
    r"(?<!\w)(?:(?:اللي|التي) )?(?:(?:ما|لم|ليس|مو) (?:(?:ت|ي)?حدد )?(?:له|لها|لهم)|(?:بدون|بلا|من غير))"
    r" (?:ال)?منطقه(?: محدده)?(?!\w)"
)
# "عدد العروض" / "عدد المتقدمين" name the bids column, not a count of rows.
COLUMN_AFTER_COUNT = re.compile(r"\s+(?:[وفبل]?ال)?(?:عروض|متقدمين|متنافسين|مشاركين|ايام|اشهر|شهور)(?!\w)")
# "توزيع المناقصات على الأنشطة": a distribution word cues the dimensions after it.
SPREAD_CUE = re.compile(r"(?<!\w)(?:[وف])?(?:ال)?(?:توزيع|توزع|تتوزع|يتوزع|وزع|موزع(?:ه)?|مقسم(?:ه)?|تقسيم|تصنيف)(?!\w)")
PLURAL_DIMENSION = re.compile(r"(ات|اتها|مناطق|مناطقها|انواع|انواعها|انشطه|اصناف|اعوام|سنوات|سنين|اشهر|شهور|ارباع|فصول)$")
WHICH = re.compile(r"(?<!\w)(?:اي|ايش|وش|ايه|انهي|مين|ما هي|ما هو|ماهي|من هي|من هو)(?!\w)")
SMALL_NUMBER = re.compile(r"(?<!\w)(?:ال)?(?P<w>" + alternation(lx.SMALL_NUMBERS) + r")(?!\w)")
TOP_WORDS = re.compile(
    r"(?<!\w)(?:[وف])?(?:ال)?(?:" + "|".join(lx.SUPERLATIVE_TERMS) + r"|احدث|اقدم|اجدد|اخر|اول|اهم|افضل|top)(?!\w)"
)

# Everything the vocabulary explains, to tell a name's own words from words such as regions.
KNOWN = re.compile(
    r"(?<!\w)(?:"
    + "|".join(
        _with_clitics(group)
        for group in (
            [f for fr in lx.REGION_TERMS.values() for f in fr],
            lx.COUNTRY_TERMS,
            [f for fr in lx.STATUS_TERMS.values() for f in fr],
            [f for fr in lx.TYPE_TERMS.values() for f in fr],
            lx.TENDER_TERMS, lx.PROJECT_TERMS, lx.PROJECT_ADJECTIVES, lx.VALUE_TERMS, lx.ESTIMATED_TERMS,
            lx.AWARD_TERMS, lx.BIDS_TERMS,
            [f for fr in lx.DIMENSION_TERMS.values() for f in fr],
            lx.COUNT_TERMS, lx.SUM_TERMS, lx.AVG_TERMS, lx.LIST_TERMS,
            list(lx.SUPERLATIVE_TERMS),
            lx.FILLER_TERMS,
            list(lx.MONTHS),
            list(lx.ORDINALS),
            lx.OFF_TOPIC_TERMS,
        )
    )
    + r"|\d+(?:[.,]\d+)*)(?!\w)"
)
# Words of agency and activity names too common to name one by themselves.
_GENERIC_NAME_WORDS = frozenset(
    {
        "وزاره", "هيئه", "اداره", "عامه", "عام", "ديوان", "صحي", "انشطه", "نشاط", "الملك", "ملك", "امير",
        "الاميره", "بن", "عبد", "سعودي", "سعوديه", "ملكيه", "اول", "الاول", "ثاني", "الثاني", "جديده",
        "اخري", "منطقه", "محافظه", "مدينه", "مركزيه", "فنيه", "طبي",
        "بلديه",  # "البلدية" alone is a town's municipality, not the ministry of municipal affairs
    }
)
_EXTRA_GENERIC = frozenset(v for w in list(_GENERIC_NAME_WORDS) for v in (w, w[2:] if w.startswith("ال") else "ال" + w))
GENERIC_WORDS = _GENERIC_NAME_WORDS | _EXTRA_GENERIC

# Cleaning the question: punctuation out, and separators that do not sit between digits.
PUNCTUATION = re.compile(r"[^\w\s.,%\-/]")
LOOSE_SEPARATORS = re.compile(r"(?<!\d)[.,/](?!\d)|(?<!\d)-|-(?!\d)")
# "قارن بين الرياض وجدة": the conditions that name several values become a group-by.
COMPARE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:قارن|مقارنه|قارنلي|مقابل|ضد|versus|vs)(?!\w)")
# "نسبة المناقصات الملغاة", "كم تشكل منافسات جدة من ...": a share of the rows.
SHARE = re.compile(
    r"(?<!\w)(?:[وفب]?ال)?(?:نسب(?:ه|تها)(?: ال?مي?ويه)?|حص(?:ه|تها)|%|بالميه|في الميه|[تي]شكل(?:ه)?)(?!\w)"
)


# Prefaces dropped whole, and phrases read as the plain Arabic they mean (phrasing.json; a meaning
# may name the pattern's groups: "هل A أعلى من B" is "قارن A و B"); a conjunction glued to a
# rewritten word stays ("واتلغت": "وملغاه").
WRAPPERS = re.compile(rf"(?<!\w)(?:{alternation(lx.WRAPPER_TERMS)})(?!\w)")
REWRITES = tuple(
    (re.compile(rf"(?<!\w)(?P<conj>[وف]?)(?:{_fragment(pattern)})(?!\w)"), meaning) for pattern, meaning in lx.REWRITE_TERMS
)
_LATIN_WORD = re.compile(r"[a-z]+")
# Latin words beside an English word that leave it a word of an Arabic question: "total budget",
# "per region"; any other makes it part of an English phrase ("Two-stage tender" names a type).
_GROUP_WORDS = frozenset({"per", "by"})


def _english_phrase(text: str, m: re.Match[str]) -> bool:
    """Whether the Latin word ``m`` matched in ``text`` stands beside a Latin word no rewrite reads."""
    if not _LATIN_WORD.search(m.group(0)):
        return False
    before = re.search(r"([a-z]+)[ -]$", text[: m.start()])
    after = re.match(r"[ -]([a-z]+)", text[m.end() :])
    return any(
        word and word not in _GROUP_WORDS and not any(p.fullmatch(word) for p, _ in REWRITES)
        for word in (before and before.group(1), after and after.group(1))
    )


@lru_cache(maxsize=512)  # a question is rephrased once per reading and again by the walk
def rephrased(text: str) -> str:
    """``text`` (normalized) with its prefaces dropped and its dialect, colloquial and English
    phrases written as the plain Arabic they mean, for every pass to read alike."""
    text = WRAPPERS.sub(" ", text)
    for pattern, meaning in REWRITES:
        text = pattern.sub(
            lambda m, meaning=meaning, text=text: m.group(0) if _english_phrase(text, m) else m.group("conj") + m.expand(meaning),
            text,
        )
    return text


def blank(text: str, start: int, end: int) -> str:
    """``text`` with ``[start, end)`` blanked out: a phrase understood, every other offset kept."""
    return text[:start] + " " * (end - start) + text[end:]


def read_each(
    pattern: re.Pattern[str], text: str, read: Callable[[re.Match[str], str], T | None]
) -> tuple[str, list[T]]:
    """Each phrase ``pattern`` finds in ``text`` read by ``read(match, text so far)``: ``text`` with
    the phrases read (not None) blanked out, and what was read, in order."""
    found: list[T] = []
    for m in list(pattern.finditer(text)):
        item = read(m, text)
        if item is not None:
            found.append(item)
            text = blank(text, m.start(), m.end())
    return text, found
