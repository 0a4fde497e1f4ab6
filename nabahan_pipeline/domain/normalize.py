"""Arabic text normalization: one place for every rule, shared by the agent and the metrics.

Two levels:

- ``normalize_digits`` only rewrites numerals (Arabic-Indic and Persian digits, the Arabic decimal
  and thousands separators) so that numbers can be read; the letters stay as written.
- ``normalize_arabic`` folds the spelling variants people type interchangeably (alef and hamza
  forms, alef maqsura, Persian yeh and kaf, ta marbuta), drops tashkeel, tatweel and bidi control
  marks, unifies Arabic punctuation, and collapses white space. Use it to *compare* text, never to
  display it.

``find_numbers`` reads the numbers a text states, with their scale words (ألف، مليون، مليار).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Tashkeel (harakat, tanween, shadda, sukun), the superscript alef and Quranic annotation marks.
_TASHKEEL = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed]")
_TATWEEL = "\u0640"
# Left-to-right / right-to-left marks, embeddings, overrides, isolates, the Arabic letter mark,
# and zero-width characters that only steer rendering.
_BIDI_AND_ZERO_WIDTH = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

_DIGITS = str.maketrans(
    "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹",
    "01234567890123456789",
)

_LETTER_FOLDS = str.maketrans(
    {
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",  # alef wasla
        "ٲ": "ا",
        "ٳ": "ا",
        "ى": "ي",  # alef maqsura
        "ی": "ي",  # Persian yeh
        "ې": "ي",
        "ئ": "ي",  # yeh with hamza above
        "ؤ": "و",  # waw with hamza above
        "ة": "ه",  # ta marbuta
        "ک": "ك",  # Persian kaf
        "ڪ": "ك",
        "ھ": "ه",  # heh doachashmee
        "ۀ": "ه",
        "،": ",",  # Arabic comma
        "؛": ";",  # Arabic semicolon
        "؟": "?",  # Arabic question mark
        "٪": "%",  # Arabic percent sign
        "«": '"',
        "»": '"',
    }
)

_ARABIC_DECIMAL = "\u066b"  # ٫
_ARABIC_THOUSANDS = "\u066c"  # ٬
_SPACES = re.compile(r"\s+")


def normalize_digits(text: str) -> str:
    """Rewrite Arabic-Indic and Persian digits as ASCII, and the Arabic decimal (٫) and thousands
    (٬) separators as '.' and nothing; letters are left as they are."""
    text = text.translate(_DIGITS)
    text = re.sub(rf"(?<=\d){_ARABIC_DECIMAL}(?=\d)", ".", text)
    text = re.sub(rf"(?<=\d){_ARABIC_THOUSANDS}(?=\d)", "", text)
    # An Arabic comma between digit groups of three is a thousands separator ("1،250،000").
    text = re.sub(r"(?<=\d)،(?=\d{3}(?!\d))", "", text)
    return text


def strip_marks(text: str) -> str:
    """Remove tashkeel, tatweel, bidi control marks and zero-width characters."""
    text = _BIDI_AND_ZERO_WIDTH.sub("", text)
    text = _TASHKEEL.sub("", text)
    return text.replace(_TATWEEL, "")


def normalize_arabic(text: str) -> str:
    """Fold Arabic spelling variants so that two ways of typing the same words compare equal.

    NFKC first (presentation forms and ligatures become plain letters), then marks, digits and
    separators, letter folds, Latin lower case, and single spaces.
    """
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text)
    text = strip_marks(text)
    text = normalize_digits(text)
    text = text.translate(_LETTER_FOLDS)
    text = text.lower()
    return _SPACES.sub(" ", text).strip()


def arabic_letter_share(text: str) -> float:
    """The share (0..1) of the letters in ``text`` that are Arabic letters; 0.0 when it has none."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    arabic = sum(1 for ch in letters if is_arabic_letter(ch))
    return arabic / len(letters)


def is_arabic_letter(ch: str) -> bool:
    """True for a letter of the Arabic script blocks (base, supplement, extended, presentation)."""
    cp = ord(ch)
    return ch.isalpha() and (
        0x0600 <= cp <= 0x06FF
        or 0x0750 <= cp <= 0x077F
        or 0x08A0 <= cp <= 0x08FF
        or 0xFB50 <= cp <= 0xFDFF
        or 0xFE70 <= cp <= 0xFEFF
    )


# --- numbers in text ---------------------------------------------------------------------------

# Scale words after a number, as written after normalize_arabic (hamza and ta marbuta folded).
_SCALES = {
    "الف": 1e3,
    "الاف": 1e3,
    "الفا": 1e3,
    "مليون": 1e6,
    "ملايين": 1e6,
    "مليونا": 1e6,
    "ملاين": 1e6,
    "مليار": 1e9,
    "مليارات": 1e9,
    "مليارا": 1e9,
    "بليون": 1e9,
}
# Number words that stand alone: duals and halves of the scales.
_WORD_NUMBERS = {
    "الفين": 2e3,
    "الفان": 2e3,
    "مليونين": 2e6,
    "مليونان": 2e6,
    "مليارين": 2e9,
    "ملياران": 2e9,
    "نص مليون": 5e5,
    "نصف مليون": 5e5,
    "نص مليار": 5e8,
    "نصف مليار": 5e8,
    "ربع مليون": 2.5e5,
}

# "مليون ونص" is one and a half million; "الف وربع" one and a quarter thousand.
_FRACTIONS = {"ونص": 0.5, "ونصف": 0.5, "وربع": 0.25}
_FRACTION = r"(?:\s?(?P<frac>" + "|".join(_FRACTIONS) + r")(?!\w))?"
_SCALE_WORD = "|".join(sorted(map(re.escape, _SCALES), key=len, reverse=True))

_NUMBER = re.compile(
    r"(?<![0-9.])"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<pct>\s?%)?"
    r"(?:\s?(?P<scale>" + _SCALE_WORD + r")(?!\w)" + _FRACTION + ")?"
)
_WORDS = re.compile(
    r"(?<!\w)(?:و?)(?P<word>"
    + "|".join(sorted(map(re.escape, _WORD_NUMBERS), key=len, reverse=True))
    + r")(?!\w)"
)

# Cardinal words before a scale word ("عشرة آلاف", "مية ألف", "خمسة وعشرين مليون"), as written
# after normalize_arabic (مئة and مائة fold to ميه and مايه). Alone they are not read as numbers:
# "خمس مناقصات" is a count of the text, not a quantity this reader should report.
_UNITS = {
    "واحد": 1, "واحده": 1, "اثنين": 2, "اثنان": 2, "اثنتين": 2, "ثنتين": 2,
    "ثلاث": 3, "ثلاثه": 3, "اربع": 4, "اربعه": 4, "خمس": 5, "خمسه": 5, "ست": 6, "سته": 6,
    "سبع": 7, "سبعه": 7, "ثمان": 8, "ثماني": 8, "ثمانيه": 8, "تسع": 9, "تسعه": 9,
    "عشر": 10, "عشره": 10,
    "عشرين": 20, "عشرون": 20, "ثلاثين": 30, "ثلاثون": 30, "اربعين": 40, "اربعون": 40,
    "خمسين": 50, "خمسون": 50, "ستين": 60, "ستون": 60, "سبعين": 70, "سبعون": 70,
    "ثمانين": 80, "ثمانون": 80, "تسعين": 90, "تسعون": 90,
    "ميه": 100, "مايه": 100, "ميت": 100, "ميتين": 200, "مايتين": 200, "ميتان": 200, "مايتان": 200,
}
_HUNDRED = r"(?:ميه|مايه|ميت)"
_UNIT_WORD = "|".join(sorted(map(re.escape, _UNITS), key=len, reverse=True))
# A cardinal term: "ثلاثمية" / "ثلاث مية" (hundreds) or a unit, ten or hundred word.
_TERM = rf"(?:(?:{_UNIT_WORD})\s?{_HUNDRED}|{_UNIT_WORD})"
_CARDINAL_SCALED = re.compile(
    rf"(?<!\w)(?P<card>{_TERM}(?:\s(?:و\s?){_TERM})*)\s(?P<scale>{_SCALE_WORD})(?!\w)" + _FRACTION
)
_TERM_SPLIT = re.compile(rf"{_TERM}")
# A scale word standing alone is one of it ("فوق مليون"); plurals alone ("ملايين") are vague.
_BARE_SCALES = {"الف": 1e3, "مليون": 1e6, "مليار": 1e9}
_BARE = re.compile(r"(?<!\w)(?:و?)(?P<word>الف|مليون|مليار)(?!\w)" + _FRACTION)


def _cardinal_value(words: str) -> float:
    """The value of cardinal words joined by و ("خمسه وعشرين" is 25, "ثلاث ميه" is 300)."""
    total = 0.0
    for term in _TERM_SPLIT.findall(words):
        parts = re.fullmatch(rf"(?P<unit>{_UNIT_WORD})\s?{_HUNDRED}", term)
        if parts and _UNITS[parts.group("unit")] < 10:
            total += _UNITS[parts.group("unit")] * 100
        else:
            total += _UNITS.get(term.replace(" ", ""), 0)
    return total


@dataclass(frozen=True)
class NumberMention:
    """A number stated in a text: what was written, its value, whether it was a percentage."""

    text: str
    value: float
    percent: bool = False
    scaled: bool = False
    decimals: int = 0


def number_spans(norm: str) -> list[tuple[int, int, NumberMention]]:
    """The numbers stated in an already normalized text (``normalize_arabic``), with their start
    and end offsets in it, in order; overlapping readings keep the longest."""
    found: list[tuple[int, int, NumberMention]] = []
    for m in _NUMBER.finditer(norm):
        raw = m.group("num")
        # Digits glued to Latin letters on the left are identifiers, not quantities.
        if m.start() > 0 and norm[m.start() - 1].isascii() and norm[m.start() - 1].isalpha():
            continue
        value = float(raw.replace(",", ""))
        decimals = len(raw.split(".", 1)[1]) if "." in raw else 0
        scale = m.group("scale")
        if scale:
            value = (value + _FRACTIONS.get(m.group("frac") or "", 0.0)) * _SCALES[scale]
        mention = NumberMention(
            text=m.group(0).strip(), value=value, percent=bool(m.group("pct")), scaled=bool(scale), decimals=decimals
        )
        found.append((m.start(), m.end(), mention))
    for m in _WORDS.finditer(norm):
        word = m.group("word")
        found.append((m.start("word"), m.end(), NumberMention(text=word, value=_WORD_NUMBERS[word], scaled=True)))
    for m in _CARDINAL_SCALED.finditer(norm):
        value = (_cardinal_value(m.group("card")) + _FRACTIONS.get(m.group("frac") or "", 0.0)) * _SCALES[
            m.group("scale")
        ]
        if value:
            found.append((m.start(), m.end(), NumberMention(text=m.group(0), value=value, scaled=True)))
    for m in _BARE.finditer(norm):
        value = (1.0 + _FRACTIONS.get(m.group("frac") or "", 0.0)) * _BARE_SCALES[m.group("word")]
        found.append((m.start("word"), m.end(), NumberMention(text=m.group(0).strip(), value=value, scaled=True)))
    # Longest reading first at each position, then drop readings inside an earlier one.
    found.sort(key=lambda item: (item[0], -(item[1] - item[0])))
    kept: list[tuple[int, int, NumberMention]] = []
    for item in found:
        if kept and item[0] < kept[-1][1]:
            continue
        kept.append(item)
    return kept


def find_numbers(text: str) -> list[NumberMention]:
    """The numbers that ``text`` states, in order: digits in any script, with thousands and decimal
    separators, percent signs and scale words ("1.5 مليون" is 1,500,000), the word numbers
    (مليونين، نص مليون، مليون ونص), cardinal words before a scale ("عشرة آلاف") and a scale word
    alone ("فوق مليون"). A digit run glued to letters ("Q3", "H1") is not a number of the text."""
    return [mention for _, _, mention in number_spans(normalize_arabic(text))]
