"""Arabic text normalization, one place for every rule: ``normalize_digits`` rewrites numerals only
(so numbers can be read); ``normalize_arabic`` also folds the spelling variants people type
interchangeably and drops marks, to *compare* text, never to display it."""

from __future__ import annotations

import functools
import re
import unicodedata

# Tashkeel (harakat, tanween, shadda, sukun), the superscript alef and Quranic annotation marks.
_TASHKEEL = re.compile("[\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e8\u06ea-\u06ed]")
_TATWEEL = "\u0640"
# Left-to-right / right-to-left marks, embeddings, overrides, isolates, the Arabic letter mark,
# and zero-width characters that only steer rendering.
_BIDI_AND_ZERO_WIDTH = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

_DIGITS = str.maketrans("٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹", "01234567890123456789")

_LETTER_FOLDS = str.maketrans({
    "أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا", "ٲ": "ا", "ٳ": "ا",  # alef with hamza or madda, alef wasla
    "ى": "ي", "ی": "ي", "ې": "ي", "ئ": "ي",  # alef maqsura, Persian yeh, yeh with hamza above
    "ؤ": "و",  # waw with hamza above
    "ة": "ه", "ھ": "ه", "ۀ": "ه",  # ta marbuta, heh doachashmee
    "ک": "ك", "ڪ": "ك",  # Persian kaf
    "،": ",", "؛": ";", "؟": "?", "٪": "%", "«": '"', "»": '"',  # Arabic punctuation, guillemets
})

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


# Texts folded last, kept: _fold is pure, and the bounds on entries and on text length cap what a
# long-lived process holds (a longer text is folded anew each time).
FOLDED_KEPT = 4_096
FOLDED_KEPT_CHARS = 2_000


def normalize_arabic(text: str) -> str:
    """Fold Arabic spelling variants so that two ways of typing the same words compare equal.

    NFKC first (presentation forms and ligatures become plain letters), then marks, digits and
    separators, letter folds, Latin lower case, and single spaces.
    """
    if not text:
        return ""
    return _kept_fold(text) if len(text) <= FOLDED_KEPT_CHARS else _fold(text)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = strip_marks(text)
    text = normalize_digits(text)
    text = text.translate(_LETTER_FOLDS)
    text = text.lower()
    return _SPACES.sub(" ", text).strip()


_kept_fold = functools.lru_cache(maxsize=FOLDED_KEPT)(_fold)


def arabic_letter_share(text: str) -> float:
    """The share (0..1) of the letters in ``text`` that are Arabic letters; 0.0 when it has none."""
    letters = "".join(filter(str.isalpha, text))
    return len(_ARABIC_BLOCKS.findall(letters)) / len(letters) if letters else 0.0


# The Arabic script blocks, as is_arabic_letter names them.
_ARABIC_BLOCKS = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")


def is_arabic_letter(ch: str) -> bool:
    """True for a letter of the Arabic script blocks (base, supplement, extended, presentation)."""
    return ch.isalpha() and _ARABIC_BLOCKS.fullmatch(ch) is not None
