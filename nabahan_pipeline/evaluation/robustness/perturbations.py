"""Perturbations of a question that keep its meaning (so its gold SQL and verdict rules still hold):
the ways users write the same question (issue 29, after Dr.Spider's question perturbations).

Each is a small deterministic function of the question and a random generator seeded from the
perturbation's name, the seed and the question; it returns the variant, or None when it cannot apply
(nothing to change): never the original, never a silent copy. ``perturb`` is the one way in.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.etimad_db.reference_data import REGIONS

Apply = Callable[[str, random.Random], "str | None"]

_WORD = re.compile(r"[\u0621-\u064a\u0640\u064b-\u0652]+")
_NUMBER = re.compile(r"[0-9\u0660-\u0669\u06f0-\u06f9]+(?:[,\u066c][0-9\u0660-\u0669\u06f0-\u06f9]{3})*")
_WESTERN = "0123456789"
_ARABIC_INDIC = "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669"
_PERSIAN = "\u06f0\u06f1\u06f2\u06f3\u06f4\u06f5\u06f6\u06f7\u06f8\u06f9"
_TO_WESTERN = str.maketrans(_ARABIC_INDIC + _PERSIAN, _WESTERN * 2)
# Letters that join to the next one: tatweel may follow them.
_JOINING = frozenset("بتثجحخسشصضطظعغفقكلمنهيئ")
_DIACRITICS = ("\u064e", "\u064f", "\u0650", "\u0652")  # fatha, damma, kasra, sukun


@dataclass(frozen=True)
class Perturbation:
    """One way of writing a question differently: its name, its family, and the function that
    does it (whose docstring says how, in a line)."""

    name: str
    family: str
    apply: Apply


def _choose_one(question: str, spans: list[tuple[int, int, str]], rng: random.Random) -> str | None:
    """The question with one of ``spans`` (start, end, replacement) applied, chosen by ``rng``."""
    if not spans:
        return None
    start, end, replacement = spans[rng.randrange(len(spans))]
    return question[:start] + replacement + question[end:]


def _replace_all(question: str, pattern: str, replacement: str | Callable[[re.Match[str]], str]) -> str | None:
    """Every match of ``pattern`` replaced; None when there is none."""
    changed = re.sub(pattern, replacement, question)
    return changed if changed != question else None


# --- orthography ---------------------------------------------------------------------------------


def no_hamza(question: str, rng: random.Random) -> str | None:
    """Every alef with hamza or madda written as a bare alef: أ/إ/آ -> ا."""
    return _replace_all(question, "[\u0623\u0625\u0622]", "\u0627")


def hamza_swapped(question: str, rng: random.Random) -> str | None:
    """One alef's hamza written on the wrong side: أ <-> إ."""
    spans = [(m.start(), m.end(), "\u0625" if m.group() == "\u0623" else "\u0623")
             for m in re.finditer("[\u0623\u0625]", question)]
    return _choose_one(question, spans, rng)


def taa_marbuta(question: str, rng: random.Random) -> str | None:
    """Every word-final taa marbuta written as haa: ة -> ه."""
    return _replace_all(question, "\u0629(?![\u0621-\u064a])", "\u0647")


def alef_maqsura(question: str, rng: random.Random) -> str | None:
    """Word-final yaa and alef maqsura confused: every final ى -> ي, else every final ي -> ى."""
    return (_replace_all(question, "\u0649(?![\u0621-\u064a])", "\u064a")
            or _replace_all(question, "\u064a(?![\u0621-\u064a])", "\u0649"))


def tatweel(question: str, rng: random.Random) -> str | None:
    """A tatweel (ـ) stretching one word, after a letter that joins the next."""
    spans = [(m.start() + i + 1, m.start() + i + 1, "\u0640")
             for m in _WORD.finditer(question) if len(m.group()) >= 4
             for i, ch in enumerate(m.group()[:-1]) if ch in _JOINING and i > 0]
    return _choose_one(question, spans, rng)


def diacritics(question: str, rng: random.Random) -> str | None:
    """Short vowels written on the first letter of up to three words."""
    words = [m for m in _WORD.finditer(question) if len(m.group()) >= 3 and not re.search("[\u064b-\u0652]", m.group())]
    if not words:
        return None
    chosen = sorted(rng.sample(words, min(3, len(words))), key=lambda m: m.start(), reverse=True)
    for m in chosen:
        first = m.start() + (2 if m.group().startswith("\u0627\u0644") else 0) + 1
        question = question[:first] + rng.choice(_DIACRITICS) + question[first:]
    return question


# --- digits and numbers --------------------------------------------------------------------------


def _digits_to(question: str, digits: str) -> str | None:
    table = str.maketrans(_WESTERN, digits)
    return _replace_all_numbers(question, lambda number: number.translate(_TO_WESTERN).translate(table))


def _replace_all_numbers(question: str, convert: Callable[[str], str | None]) -> str | None:
    changed = _NUMBER.sub(lambda m: convert(m.group()) or m.group(), question)
    return changed if changed != question else None


def arabic_indic_digits(question: str, rng: random.Random) -> str | None:
    """Every number written in Arabic-Indic digits: 2024 -> ٢٠٢٤."""
    return _digits_to(question, _ARABIC_INDIC)


def persian_digits(question: str, rng: random.Random) -> str | None:
    """Every number written in Persian (Eastern Arabic-Indic) digits: 2024 -> ۲۰۲۴."""
    return _digits_to(question, _PERSIAN)


def western_digits(question: str, rng: random.Random) -> str | None:
    """Every number written in Western digits: ١٤٤٦ -> 1446."""
    return _replace_all_numbers(question, lambda number: number.translate(_TO_WESTERN))


def thousands_separators(question: str, rng: random.Random) -> str | None:
    """A number of 1,000 or more (not a year, not an id of ten digits or more) written with thousands
    separators: 50000 -> 50,000."""

    def grouped(number: str) -> str | None:
        western = number.translate(_TO_WESTERN)
        year = western.isdigit() and 1300 <= int(western) <= 2100
        if not western.isdigit() or len(western) > _GROUPED_DIGITS or int(western) < 1000 or year:
            return None
        return f"{int(western):,}"

    return _replace_all_numbers(question, grouped)


_UNIT_WORDS = {2: "اثنين", 3: "ثلاث", 4: "أربع", 5: "خمس", 6: "ست", 7: "سبع", 8: "ثماني", 9: "تسع", 10: "عشر"}
# A reference number (an id) is never grouped: only up to this many digits.
_GROUPED_DIGITS = 9


def numbers_in_words(question: str, rng: random.Random) -> str | None:
    """Every small count (2 to 10, not a year or part of a date) written in words: أكثر 5 جهات ->
    أكثر خمس جهات."""

    def spelled(match: re.Match[str]) -> str:
        value = int(match.group().translate(_TO_WESTERN))
        return _UNIT_WORDS.get(value, match.group()) if value >= 2 else match.group()

    return _replace_all(question, r"(?<![\d/\-.])\b([0-9]+)\b(?![\d/\-.%])", spelled)


def words_in_digits(question: str, rng: random.Random) -> str | None:
    """One number written in words (as ``arabic.numbers`` reads it, one reading, a whole number of 2
    or more) written in digits: مليون ريال -> 1000000 ريال; خمس جهات -> 5 جهات."""
    spans = [(mention.start, mention.end, str(int(mention.value))) for mention in find_numbers(question)
             if not re.search(r"[0-9\u0660-\u0669\u06f0-\u06f9]", mention.text) and len(mention.readings) == 1
             and not mention.percent and mention.value >= 2 and mention.value == int(mention.value)]
    return _choose_one(question, spans, rng)


# --- dialect, synonyms, register -----------------------------------------------------------------

# (MSA, Gulf dialect): the interrogatives and function words users write in the Gulf.
_TO_DIALECT = (
    (r"^ما (?:هي|هو) ", "وش "),
    (r"^ماهي ", "ايش "),
    (r"^ما (?=ال|[إا]جمالي|متوسط|توزيع)", "وش "),
    (r"(?<![\u0621-\u064a])(?:التي|الذي)(?![\u0621-\u064a])", "اللي"),
    (r"(?<![\u0621-\u064a])(?:حالياً|حاليا|الآن)(?![\u0621-\u064a])", "الحين"),
    (r"^كم عدد (?=ال)", "كم فيه من "),
    (r"^(?:أريد|أعطني) ", "ابي "),
)
_TO_MSA = (
    (r"^(?:وش|ايش|إيش) ", "ما هي "),
    (r"(?<![\u0621-\u064a])اللي(?![\u0621-\u064a])(?! (?:فات|راح|جاي))", "التي"),
    (r"(?<![\u0621-\u064a])الحين(?![\u0621-\u064a])", "حالياً"),
    (r"^كم فيه (?:من )?", "كم عدد "),
    (r"^(?:ابي|أبي|ابغى|أبغى) ", "أريد "),
)


def _one_rule(question: str, rules: tuple[tuple[str, str], ...], rng: random.Random) -> str | None:
    spans = [(m.start(), m.end(), replacement) for pattern, replacement in rules
             for m in re.finditer(pattern, question)]
    return _choose_one(question, spans, rng)


def dialect(question: str, rng: random.Random) -> str | None:
    """One MSA function word written in Gulf dialect: ما هي -> وش، التي -> اللي، حالياً -> الحين."""
    return _one_rule(question, _TO_DIALECT, rng)


def to_msa(question: str, rng: random.Random) -> str | None:
    """One dialect word written in MSA: وش -> ما هي، اللي -> التي، الحين -> حالياً، ابي -> أريد."""
    return _one_rule(question, _TO_MSA, rng)


# Words of the domain and their synonyms, both ways (each form with its article and plural).
_SYNONYMS = (
    ("المناقصات", "المنافسات"), ("مناقصات", "منافسات"), ("المناقصة", "المنافسة"), ("مناقصة", "منافسة"),
    ("جهات حكومية", "جهات"), ("جهة حكومية", "جهة"), ("الجهات الحكومية", "الجهات"),
    ("القيمة التقديرية", "القيمة المتوقعة"),
)


def synonym(question: str, rng: random.Random) -> str | None:
    """One domain word replaced by its synonym: مناقصة/منافسة، جهة حكومية/جهة، القيمة التقديرية/
    القيمة المتوقعة."""
    spans = []
    for left, right in _SYNONYMS:
        for source, target in ((left, right), (right, left)):
            for m in re.finditer(rf"(?<![\u0621-\u064a]){source}(?![\u0621-\u064a])", question):
                if source in ("جهة", "جهات", "الجهات") and question[m.end():].startswith((" حكومية", " الحكومية")):
                    continue
                spans.append((m.start(), m.end(), target))
    return _choose_one(question, spans, rng)


_POLITE_BEFORE = ("لو سمحت، ", "من فضلك، ", "ممكن تقول لي ", "سؤال: ")
_POLITE_AFTER = (" من فضلك", " لو سمحت", " وشكراً")


def politeness(question: str, rng: random.Random) -> str | None:
    """Politeness or filler words before or after the question: لو سمحت، ... من فضلك (none around
    a question without a word)."""
    if _WORD.search(question) is None:
        return None
    if rng.random() < 0.5:
        return rng.choice(_POLITE_BEFORE) + question
    body = question.rstrip("؟?. ")
    return body + rng.choice(_POLITE_AFTER) + question[len(body):]


def word_order(question: str, rng: random.Random) -> str | None:
    """A closing place or time phrase moved to the front, as Arabic allows: كم عدد المناقصات في
    منطقة الرياض؟ -> في منطقة الرياض، كم عدد المناقصات؟"""
    body = question.rstrip("؟?. ")
    m = re.search(r" ((?:في|خلال) [^،,]+)$", body)
    if m is None or m.start() == 0 or len(body[:m.start()].split()) < 2:
        return None
    return f"{m.group(1)}، {body[:m.start()]}{question[len(body):]}"


_ENGLISH = (("منطقة " + region.name_ar.removeprefix("منطقة "), region.name_en) for region in REGIONS)
_ENGLISH_NAMES = tuple(sorted({*_ENGLISH, *((region.name_ar, region.name_en) for region in REGIONS),
                               ("المنطقة الشرقية", "Eastern Province")}, key=lambda pair: -len(pair[0])))


def english_name(question: str, rng: random.Random) -> str | None:
    """A region written by its English name: منطقة الرياض -> Riyadh."""
    for arabic, english in _ENGLISH_NAMES:
        # Not inside an agency's name: أمانة منطقة تبوك names the municipality, not the region.
        m = re.search(rf"(?<![\u0621-\u064a])(?<!أمانة )(?<!إمارة ){arabic}(?![\u0621-\u064a])", question)
        if m is not None:
            return question[:m.start()] + english + question[m.end():]
    return None


# --- typos ---------------------------------------------------------------------------------------

_NOT_TYPED = frozenset(_UNIT_WORDS.values()) | {"مليون", "مليار", "ملايين", "الف", "ألف", "آلاف"}


def typo(question: str, rng: random.Random) -> str | None:
    """One letter dropped, or two neighbouring letters swapped, inside one word of five letters or
    more (never a number or a number's word)."""
    words = [m for m in _WORD.finditer(question) if len(m.group()) >= 5 and m.group() not in _NOT_TYPED]
    if not words:
        return None
    m = words[rng.randrange(len(words))]
    word = m.group()
    at = rng.randrange(1, len(word) - 1)
    if rng.random() < 0.5 or word[at] == word[at + 1]:
        typed = word[:at] + word[at + 1:]
    else:
        typed = word[:at] + word[at + 1] + word[at] + word[at + 2:]
    return question[:m.start()] + typed + question[m.end():]


# The perturbations by family, in the order they run.
_FAMILIES: dict[str, tuple[Apply, ...]] = {
    "orthography": (no_hamza, hamza_swapped, taa_marbuta, alef_maqsura, tatweel, diacritics),
    "digits": (arabic_indic_digits, persian_digits, western_digits, thousands_separators),
    "numbers": (numbers_in_words, words_in_digits),
    "dialect": (dialect, to_msa),
    "lexicon": (synonym,),
    "typo": (typo,),
    "register": (politeness,),
    "order": (word_order,),
    "loanword": (english_name,),
}
PERTURBATIONS: tuple[Perturbation, ...] = tuple(
    Perturbation(apply.__name__, family, apply) for family, applies in _FAMILIES.items() for apply in applies
)
BY_NAME = {perturbation.name: perturbation for perturbation in PERTURBATIONS}


def perturb(question: str, name: str, seed: int = 0) -> str | None:
    """The variant of ``question`` by the perturbation ``name`` for ``seed`` (the same every time),
    or None when it cannot apply; never the question itself."""
    rng = random.Random(f"{name}\x00{seed}\x00{question}")
    variant = BY_NAME[name].apply(question, rng)
    return variant if variant is not None and variant != question else None
