"""The lexicon compiled into regular expressions (whole words of the normalized question, with
the clitics a question glues to them), and the readings of the text that come before any reader:
one-letter typos read back, negations said in speech, and "أو" between kinds."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import TypeVar

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.arabic.spelling import one_edit_apart
from nabahan_pipeline.etimad_db.reference_data import REGIONS as REFERENCE_REGIONS
from nabahan_pipeline.reference_agent import lexicon as lx


T = TypeVar("T")

# --- building patterns from lexicon fragments -----------------------------------------------------

# و/ف, then ب/ل/ك, then the article: "وبالرياض", "للرياض", "فالمناقصات".
_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال|[بلك])?"
_ARTICLE_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال)"


def _fragment(text: str) -> str:
    """A lexicon fragment as a regex: its ``ال?`` marks an optional article."""
    return text.replace("ال?", "(?:ال)?")


def alternation(fragments: Iterable[str]) -> str:
    """One regex alternation of ``fragments``, phrases of more words first, then longer ones (an
    alternation takes the first that fits: "قيمه ال?تقديريه" before a longer one-word regex)."""
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


def _all(table: Mapping[object, Iterable[str]]) -> list[str]:
    """Every key's fragments, in order."""
    return [fragment for fragments in table.values() for fragment in fragments]


# --- the vocabulary -------------------------------------------------------------------------------

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
# "غيّر ...", "انقل ...", "ارفع القيمة ..." at the head of the request: an order to change data
# (elsewhere غير is "not").
IMPERATIVE_CHANGE = re.compile(
    r"(?:(?:ممكن|لو سمحت|ابيك|ابغاك|اريدك|رجاء)\s)?[وف]?"
    r"(?:(?:غير|غيرو|عدلو)(?:ها|هم|ه)?\s|(?:انقل|انقلو|ارفع|خفض)(?:ها|هم|ه)?\s(?:كل|ال?قيم|ال?مبلغ|حال))"
)
SQL = re.compile(r"(?<![a-z])(?:" + "|".join(lx.SQL_KEYWORDS) + r")(?![a-z])")
SQL_STATEMENT = re.compile(r"(?<![a-z])(?:select|insert|update|delete|drop|alter|create|truncate|pragma|attach)(?![a-z])")
OFF_TASK = _terms(lx.OFF_TASK_TERMS)
OFF_TOPIC = _terms(lx.OFF_TOPIC_TERMS)
FILLERS = _terms(lx.FILLER_TERMS)
# Words that change nothing asked, passed over where safe (``reading.pass_over``).
PASSED_OVER = _terms(_all(lx.PASSED_OVER_TERMS))
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
            _all(lx.REGION_TERMS), lx.COUNTRY_TERMS, _all(lx.STATUS_TERMS), _all(lx.TYPE_TERMS),
            lx.TENDER_TERMS, lx.PROJECT_TERMS, lx.PROJECT_ADJECTIVES, lx.VALUE_TERMS, lx.ESTIMATED_TERMS,
            lx.AWARD_TERMS, lx.BIDS_TERMS, _all(lx.DIMENSION_TERMS),
            lx.COUNT_TERMS, lx.SUM_TERMS, lx.AVG_TERMS, lx.LIST_TERMS, list(lx.SUPERLATIVE_TERMS),
            lx.FILLER_TERMS, list(lx.MONTHS), list(lx.ORDINALS), lx.OFF_TOPIC_TERMS,
        )
    )
    + r"|\d+(?:[.,]\d+)*)(?!\w)"
)
# A name's words that, alone or with the article, name no agency or activity of their own.
GENERIC_WORDS = frozenset(v for w in lx.GENERIC_NAME_WORDS for v in (w, w[2:] if w.startswith("ال") else "ال" + w))

# Cleaning the question: punctuation out, and separators that do not sit between digits.
PUNCTUATION = re.compile(r"[^\w\s.,%\-/]")
LOOSE_SEPARATORS = re.compile(r"(?<!\d)[.,/](?!\d)|(?<!\d)-|-(?!\d)")
# "قارن بين الرياض وجدة": the conditions that name several values become a group-by.
COMPARE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:قارن|مقارنه|قارنلي|مقابل|ضد|versus|vs)(?!\w)")
# "نسبة المناقصات الملغاة", "كم تشكل منافسات جدة من ...": a share of the rows.
SHARE = re.compile(
    r"(?<!\w)(?:[وفب]?ال)?(?:نسب(?:ه|تها)(?: ال?مي?ويه)?|حص(?:ه|تها)|%|بالميه|في الميه|[تي]شكل(?:ه)?)(?!\w)"
)


# Prefaces dropped whole, and phrases read as the plain Arabic they mean (a meaning may name the
# pattern's groups); a conjunction glued to a rewritten word stays ("واتلغت": "وملغاه").
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


# --- typos ----------------------------------------------------------------------------------------
# One-letter typos ("المنافسسات", "الرياص") of words of five letters or more, read back to the one
# vocabulary noun a single edit away (a question refused is read again so; the insight says so).

MIN_LETTERS = 5
# A conjunction or preposition glued to the word; the article stays part of it.
_CLITIC = re.compile(r"^(?:[وف]?(?:لل|[بلك](?=ال)|[بلك](?!ال))?)")


def _vocabulary() -> dict[str, int]:
    """Each word of the vocabulary -> the noun it is a form of ("المنوره" of the regions among them)."""
    nouns: dict[str, int] = {}
    # A noun with its article and without is one noun ("التقديريه", "تقديريه"): a typo between
    # the two ("اتقديريه") still means it.
    bare: dict[str, int] = {}
    for n, forms in enumerate(lx.TYPO_NOUNS):
        n = bare.setdefault(forms[0].removeprefix("ال"), n)
        for form in forms:
            nouns[form] = n
    n = len(lx.TYPO_NOUNS)
    for region in REFERENCE_REGIONS:
        n += 1
        short = normalize_arabic(region.short_ar)
        for form in dict.fromkeys((short, short.removeprefix("ال"))):  # in order: a set's changes per run
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
    found: dict[str, set[str]] = defaultdict(set)
    for name in names:
        for word in (name_words_ := normalize_arabic(name).split()):
            found[word].update(name_words_)
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


# --- dialect negation -----------------------------------------------------------------------------
# Negations before a predicate ("ما هي شراء مباشر", "مب نشطة", "مو في جدة"). "ما هي" also asks: it
# negates only past the first words, before an indefinite word; one no pass read refuses.

# The negation words of the family; "ما هي" and its kin also ask a question.
_ASKING = r"و?(?:ما هي|ما هو|ماهي|ماهو)|مهي|مهو"  # "وما هي ملغاة": and not cancelled
# (Najdi "مهوب/ماهيب"; "ماعدا", "لغير", "بغير" written as one word.)
_NEGATING = r"و?(?:مب|موب|مو|مش|ليست|ليس|ليسو|مهوب|مهيب|ماهوب|ماهيب|غير)|ماعدا|لغير|بغير"  # "ومو ملغاة": and not
# "إلا": except ("كم منافسة إلا الملغاة"), but "only" after a negation ("ما طرحت إلا في الرياض").
_EXCEPT = r"الا"
# Right before a status, a type, a place or a name: the negation and the small words it may
# take first ("مو في جدة", "ماهي من وزارة الصحة", "مو تابعة لجامعة ...", "ليست منطقة ...").
DIALECT_NEGATION = re.compile(
    rf"(?<!\w)(?P<neg>{_ASKING}|{_NEGATING}|{_EXCEPT})\s(?:(?:اللي|التي|الي)\s)?"
    r"(?:(?:في|من|تابعه|تابعه ل|تابعين ل)\s)?(?:(?:ال)?(?:منطقه|جهه|نشاط|نوع|حاله) )?$"
)
# "لا ملغاة ولا منتهية" said with a word of the family first: "ماهي منتهية ولا ملغاة".
_FIRST = re.compile(rf"(?<!\w)(?P<neg>{_ASKING}|{_NEGATING})\s")
_NEITHER = re.compile(r"(?<!\w)ولا\s(?:(?:في|من)\s)?$")  # "ما هي ملغاة ولا في الرياض"
# "اللي ما هي ...": a relative clause, so "ما هي" negates whatever follows.
_RELATIVE_BEFORE = re.compile(r"(?<!\w)(?:اللي|التي|الي|الذي)\s*$")
# A negation before "إلا" makes it "only".
_NEGATION_BEFORE = re.compile(r"(?<!\w)(?:ما|لا|لم|مو|مب|ليس|ليست|ماهي|ماهو)(?!\w)")
# The words right before "ما هي" that make it a question, not a negation.
_REQUEST_BEFORE = re.compile(
    r"(?<!\w)[وف]?(?:ابي|ابغي|ابغا|اريد|نبي|ودي|اعرف|عرفني|قل|قول|قولي|عطني|اعطني|وضح|بين|اخبرني|هل|لي|يا)\s*$"
)
# "ما هي" left in the working text right before a phrase a pass read (two blanks or more), perhaps
# past "من" / "في", or before "الجهات" (a group of agencies read) or "فيها" / "لها".
_UNREAD = re.compile(
    rf"(?<!\w)(?P<neg>{_ASKING})(?=(?: من| في)?(?: {{2,}}| الجهات(?!\w))| (?:فيها|فيه|لها|له|عندها|عنده)(?!\w))"
)


def negates(original: str, match: re.Match[str]) -> bool:
    """Whether ``match`` (its group ``neg``, at the same offsets in ``original``) negates: an
    asking form ("ما هي") only with words before it that are not a request, and before a word
    without the article."""
    if match.group("neg") == _EXCEPT:
        return not _NEGATION_BEFORE.search(original[: match.start("neg")])
    if not re.fullmatch(_ASKING, match.group("neg")):
        return True
    before = original[: match.start("neg")]
    after = original[match.end("neg") :].split()
    if not before.strip() or _REQUEST_BEFORE.search(before):
        return False
    if _RELATIVE_BEFORE.search(before):
        return True  # "اللي ماهي الملغاة": that are not
    return not (after and after[0].startswith("ال"))


def dialect_negation(text: str, original: str, start: int) -> re.Match[str] | None:
    """The dialect negation right before ``start`` in the working ``text`` ("كم منافسة ما هي
    ملغاة"), or "ولا" after one ("ماهي منتهية ولا ملغاة"); ``original`` is the normalized
    question at the same offsets."""
    before = text[:start]
    m = DIALECT_NEGATION.search(before)
    if m:
        return m if negates(original, m) else None
    neither = _NEITHER.search(before)
    if neither and any(negates(original, f) for f in _FIRST.finditer(original[: neither.start()])):
        return neither
    return None


def unread_negations(text: str, original: str) -> tuple[str, ...]:
    """The asking-form negations ("ما هي") left in the working ``text`` right before a phrase a
    pass read without them (a date, a figure, a group of agencies): the question read would be
    its positive."""
    return tuple(m.group("neg") for m in _UNREAD.finditer(text) if negates(original, m) or _after_a_count(original, m))


# "كم منافسة ماهي الملغاة": after "كم" (or "توزيع") the question is asked, so "ماهي" before a word with the
# article is no second question and may be "not": neither reading is sure.
_COUNT_BEFORE = re.compile(r"(?<!\w)(?:كم|عدد|مجموع|متوسط|اجمالي|نسبه|توزيع)(?!\w)")


def _after_a_count(original: str, match: re.Match[str]) -> bool:
    before = original[: match.start("neg")]
    return bool(_COUNT_BEFORE.search(before)) and not _REQUEST_BEFORE.search(before)


# A list's later member: "و" glued to it, or "و" / "أو" / "ولا" before it in the working text.
_CONJUNCTION_BEFORE = re.compile(r"(?:(?<=\s)(?:او|و|ولا)\s)?$")
# A negation in the phrase a pass read (and blanked) right before the conjunction, a few words at most.
_NEGATED_PHRASE = re.compile(
    rf"(?<!\w)(?:[وفب]?غير|من غير|في غير|ما عدا|ماعدا|عدا|باستثناء|سوي|خارج|بدون|لا|{_ASKING}|{_NEGATING}|{_EXCEPT})"
    r"\s(?:\S+\s){1,6}$"
)


_CONJUNCTION_AT = re.compile(r"(?:(?:او|و|ولا)\s)?")


def negated_conjunct(text: str, original: str, start: int) -> re.Match[str] | None:
    """The conjunction before ``start`` (perhaps empty: "و" glued to the word) when a later member
    of a negated list stands there: right before it, a phrase a pass read with its negation ("ما
    عدا الملغاة والمنتهية"); ``original`` is the normalized question at the same offsets."""
    before = text[:start]
    conjunction = _CONJUNCTION_BEFORE.search(before)
    at = conjunction.start() if conjunction and conjunction.group(0) else start
    if at == start and original[start : start + 1] != "و":
        return None
    run = len(before[:at].rstrip(" "))
    if at - run < 2:
        return None  # nothing read right before it: no list
    if not _NEGATED_PHRASE.search(original[run:at].rstrip(" ") + " "):
        return None
    return _CONJUNCTION_AT.match(text, at)


# "بقيمة ما يزيد عن مليون", "بما يقل عن": "ما" after a noun with "ب" (or "بما") is "what", not
# "not" (written Arabic: more than a million), but the comparator reads it as a negation.
_RELATIVE_MA = re.compile(
    r"(?<!\w)(?:(?:بقيمه|بمبلغ|بسعر|بعدد|بتكلفه|بميزانيه|بقيم)\sما|بما)\s"
    r"(?:ي|ت)?(?:زيد|قل|تجاوز|تعدي|تخطي|فوق|نقص|جاوز)\w*(?!\w)"
)


def relative_ma(original: str) -> tuple[str, ...]:
    """The words of a relative "ما" before a comparator ("بقيمة ما يزيد عن مليون"), which the
    figures' reading would take for a negation and answer with the opposite comparison."""
    return tuple(w for m in _RELATIVE_MA.finditer(original) for w in m.group(0).split()[-2:])


# --- disjunction ----------------------------------------------------------------------------------
# "أو" between conditions of different kinds ("ملغاة أو في الرياض"): a frame ANDs its conditions, so
# the question is refused; a list of one kind is one condition.

_OR = re.compile(r"(?<!\w)(?:او|ولا)(?!\w)")
# Passes that read only one kind of condition, each a list of its own; two comparisons of figures
# ("value") are two conditions, never one list.
_ONE_KIND = frozenset({"region", "name", "english_name", "agency_group", "date", "duration"})


def blanked_by(before: str, after: str, part: str) -> dict[int, str]:
    """The offsets a pass blanked out (``before`` -> ``after``), each marked with the pass's name."""
    return {i: part for i, (a, b) in enumerate(zip(before, after)) if a != b}


def _kind(part: str, original: str, at: int) -> str:
    """The kind of condition read at offset ``at``: the pass, and for the status-and-type pass
    which of the two."""
    if part != "status_type":
        return part
    for pattern, kind in ((STATUSES, "status"), (TYPES, "type")):
        if any(m.start() <= at < m.end() for m in pattern.finditer(original)):
            return kind
    return part


def or_across_kinds(text: str, original: str, owners: dict[int, str]) -> tuple[str, ...]:
    """The "أو" / "ولا" left in the working ``text`` that join two phrases read as conditions of
    different kinds, or two comparisons of figures; ``owners`` says which pass read each offset
    of ``original``."""
    found = []
    for m in _OR.finditer(text):
        i = m.start() - 1
        while i >= 0 and i not in owners and (text[i] == " " or _in_small_word(text, i)):
            i -= 1
        j = m.end()
        while j < len(text) and j not in owners and (text[j] == " " or _in_small_word(text, j)):
            j += 1
        if i < 0 or j >= len(text) or i not in owners or j not in owners:
            continue
        left_kind, right_kind = _kind(owners[i], original, i), _kind(owners[j], original, j)
        if left_kind != right_kind or left_kind not in _ONE_KIND | {"status", "type", "status_type"}:
            found.append(m.group(0))
    return tuple(found)


# Small words that may stand between "أو" and the phrase it joins ("أو في الرياض").
_SMALL = re.compile(
    r"(?<!\w)(?:في|من|ل|ب|اللي|التي|الي|هي|هو|قيمتها|عروضها|حالتها|نوعها|تابعه|منشوره|نشرت|مطروحه|طرحت|طرحتها)(?!\w)"
)


def _in_small_word(text: str, at: int) -> bool:
    return any(s.start() <= at < s.end() for s in _SMALL.finditer(text))


def _runs(owners: dict[int, str]) -> list[tuple[int, int, str]]:
    """The spans each pass read, as (start, end, pass): offsets in a row with one owner."""
    runs: list[tuple[int, int, str]] = []
    for i in sorted(owners):
        if runs and runs[-1][1] == i and runs[-1][2] == owners[i]:
            runs[-1] = (runs[-1][0], i + 1, owners[i])
        else:
            runs.append((i, i + 1, owners[i]))
    return runs


def elided_names(original: str, owners: dict[int, str], fields: set[str]) -> tuple[str, ...]:
    """The word after an agency's name that, with "و" glued, may name a second agency with its
    head noun left out ("أمانة الرياض وجدة", "وزارة الصحة والتعليم") but was read as a region or
    an activity and ANDed with the name; ``fields`` are those of the question's conditions."""
    found = []
    runs = _runs(owners)
    for (_, end, part), (start, stop, next_part) in zip(runs, runs[1:]):
        if part != "name" or original[end:start].strip() or original[start : start + 1] != "و":
            continue
        if next_part == "region" or (next_part == "name" and {"agency", "activity"} <= fields):
            found.append(original[start:stop].split()[0])
    return tuple(found)


# A name read with the negation before it: the negation begins its span.
_NEGATION_FIRST = re.compile(
    r"(?:[وفبل]?غير|من غير|ما عدا|ماعدا|عدا|باستثناء|سوي|خارج|بدون|لا|الا|مو|مب|مش|ليس|ليست|ما|ماهي|ماهو|مهوب|مهيب|لم)(?!\w)"
)


def modified_groups(original: str, owners: dict[int, str]) -> tuple[str, ...]:
    """The words right after a group of agencies, with no "و", that a pass read as another name
    ("المستشفيات العسكرية", "الجامعات الطبية"): an adjective narrowing the group, not a name."""
    found = []
    runs = _runs(owners)
    for (_, end, part), (start, stop, next_part) in zip(runs, runs[1:]):
        if part == "agency_group" and next_part == "name" and not original[end:start].strip() and original[start] != "و":
            if not _NEGATION_FIRST.match(original, start):  # "الجامعات ماعدا جامعة ...": read as one
                found += original[start:stop].split()
    return tuple(found)
