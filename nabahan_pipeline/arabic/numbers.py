"""The one reader of numbers in Arabic and mixed text, for grounding and the reference agent.

Digits (Western, Arabic-Indic, Persian) with thousands and decimal separators, percent signs and
words, scale words after them (``٢٫٥ مليون``); written numbers in either gender and case, with
teens, tens, hundreds, scales and their duals and plurals, parts joined by و, fractions of a scale
(ثلاثة أرباع مليون، مليون ونص), a spoken decimal point (فاصلة), Saudi colloquial forms (حدعش،
ميتين) and digits mixed with words (``مليون و200 ألف``). A written form may have several readings
(``20.000`` is 20000 or 20.0): a mention carries each, with the place value of its last stated
digit (``Reading.unit``). Words vague alone are no numbers: a plural scale (آلاف), a fraction
without a scale, a definite scale (بالمليون), the month صفر; digits glued to Latin letters on
their left are an identifier (Q3).
"""

from __future__ import annotations

import enum
import functools
import json
import math
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, replace
from importlib.resources import files
from itertools import product

from nabahan_pipeline.arabic.normalize import normalize_arabic


@dataclass(frozen=True)
class Reading:
    """One value a written number can mean, and the place value of its last stated digit."""

    value: float
    unit: float


@dataclass(frozen=True)
class NumberMention:
    """A number stated in a text: its span there, every reading of it (the likeliest first), the
    digits after its decimal separator in the first reading, the factor of its largest scale word
    (1 when none), and whether it is a percentage."""

    text: str
    start: int
    end: int
    readings: tuple[Reading, ...]
    decimals: int = 0
    scale: float = 1.0
    percent: bool = False

    @property
    def value(self) -> float:
        """The first reading's value."""
        return self.readings[0].value

    @property
    def scaled(self) -> bool:
        """True when a scale word (ألف، مليون …) or a fraction of one is part of the mention."""
        return self.scale > 1


# Texts read last, kept: _mentions is pure (its mentions are frozen), and the bounds on entries and on
# text length cap what a long-lived process holds (a longer text is read anew each time).
MENTIONS_KEPT = 4_096
MENTIONS_KEPT_CHARS = 2_000


def find_numbers(text: str) -> list[NumberMention]:
    """The numbers ``text`` states, in order, with their spans in ``text`` itself."""
    if not text:
        return []
    return list(_kept_mentions(text) if len(text) <= MENTIONS_KEPT_CHARS else _mentions(text))


def _mentions(text: str) -> tuple[NumberMention, ...]:
    folded, origin = _fold_with_origin(text)
    mentions = []
    for found in _Scanner(folded).numbers():
        start, end = origin[found.start], origin[found.end - 1] + 1
        while end < len(text) and _is_mark(text[end]):
            end += 1  # the tanween of "ألفاً", folded away, still belongs to the word
        mentions.append(replace(found, text=text[start:end], start=start, end=end))
    return tuple(mentions)


_kept_mentions = functools.lru_cache(maxsize=MENTIONS_KEPT)(_mentions)


# --- folding, keeping track of where each folded character came from ----------------------------


@functools.lru_cache(maxsize=4096)  # pure, and one character per entry: safe in a long-lived process
def _fold_char(ch: str) -> str:
    if ch in "\n\r\v\f\u2028\u2029\x1c\x1d\x1e\x85":
        return "\n"
    if ch.isspace():
        return " "
    if ch in _KEPT:
        return ch
    folded = normalize_arabic(ch)
    # One character that unfolds into several with digits ("¼" -> "1⁄4", "⑩" -> "10") would put
    # two numbers, or a number and its neighbour, at one place of the text: it stays as it is.
    return ch if len(folded) > 1 and any(c in _ASCII_DIGITS for c in folded) else folded


def _is_mark(ch: str) -> bool:
    return ch == "\u0640" or unicodedata.category(ch).startswith("M")


# normalize_arabic would turn the Arabic comma into ",", which reads as a decimal separator; kept,
# it separates thousands only ("1،250،000") and otherwise lists ("5،6").
_KEPT = frozenset("،")
_ASCII_DIGITS = frozenset("0123456789")


def _fold_with_origin(text: str) -> tuple[str, list[int]]:
    """``text`` folded character by character as normalize_arabic folds it (white space kept as
    single characters), and for each folded character the index of the one it came from."""
    parts = list(map(_fold_char, text))
    folded = "".join(parts)
    if len(folded) == len(text):  # every character folded into one: each comes from its own place
        return folded, list(range(len(text)))
    return folded, [i for i, part in enumerate(parts) for _ in part]


# --- the words ------------------------------------------------------------------------------------
# Every word is spelled as it reads after normalize_arabic: أ/إ/آ -> ا, ة -> ه, ى -> ي, ئ -> ي.


class _Kind(enum.Enum):
    UNIT = enum.auto()  # 1..9
    TEEN_HEAD = enum.auto()  # أحد/إحدى/اثنا/اثني: only before عشر (and أحد/إحدى before tens)
    ORDINAL_HEAD = enum.auto()  # حادي، ثاني … تاسعة: only before عشر ("الحادي عشر" is 11)
    TEN = enum.auto()  # عشر/عشرة: ten, and the second word of a teen
    TEEN = enum.auto()  # a colloquial teen in one word
    TENS = enum.auto()  # 20..90
    HUNDRED = enum.auto()  # مئة: 100, and the second word of "ثلاث مئة"
    HUNDRED_CONSTRUCT = enum.auto()  # ميت: 100 before a scale word only ("ميت" is also "dead")
    HUNDREDS = enum.auto()  # 200..900 in one word
    SCALE = enum.auto()  # ألف، مليون …
    SCALE_OR_DUAL = enum.auto()  # ألفا: the accusative after 11..99, or the dual alone
    DUAL = enum.auto()  # ألفان، ألفين، ألفي …
    PLURAL = enum.auto()  # آلاف، ملايين …: after a number only
    DEFINITE_SCALE = enum.auto()  # المليون: after a number or a fraction only
    FRACTION = enum.auto()  # نصف، ربع، ثلث: of a scale
    QUARTERS = enum.auto()  # أرباع, after a unit: "ثلاثة أرباع مليون"
    ZERO = enum.auto()
    POINT = enum.auto()  # فاصلة: a spoken decimal point


_Entry = tuple[_Kind, float]

# The number words by kind (UNIT ... FRACTION: word -> value), and the parts of the hundreds and
# scale words the lexicon composes: package data, read once.
_NUMBER_WORDS: dict = json.loads(files(__package__).joinpath("number_words.json").read_text(encoding="utf-8"))
_HUNDRED_WORDS: tuple[str, ...] = tuple(_NUMBER_WORDS["HUNDRED_WORDS"])  # مئة/مية, مائة
_SCALES: dict[str, float] = _NUMBER_WORDS["SCALES"]
# Scale letters glued to digits, as figures are written in reports: 10M, 500K, 1.2B.
_LATIN_SCALES = {"k": 1e3, "m": 1e6, "mn": 1e6, "mm": 1e6, "b": 1e9, "bn": 1e9}
_KINDS = ("UNIT", "TEEN_HEAD", "ORDINAL_HEAD", "TEEN", "TENS", "PLURAL", "FRACTION")


def _lexicon() -> dict[str, _Entry]:
    words: dict[str, _Entry] = {}
    for kind in _KINDS:
        words.update({word: (_Kind[kind], value) for word, value in _NUMBER_WORDS[kind].items()})
        if kind == "ORDINAL_HEAD":  # الحادية، الرابعة …
            words.update({word + "ه": (_Kind[kind], value) for word, value in _NUMBER_WORDS[kind].items()})
    words.update({"عشر": (_Kind.TEN, 10), "عشره": (_Kind.TEN, 10), "ميت": (_Kind.HUNDRED_CONSTRUCT, 100)})
    words.update({word: (_Kind.HUNDRED, 100) for word in _HUNDRED_WORDS})
    words.update({word: (_Kind.HUNDREDS, 200) for word in _NUMBER_WORDS["TWO_HUNDRED"]})
    for prefix, n in _NUMBER_WORDS["HUNDRED_PREFIXES"].items():
        words.update({prefix + hundred: (_Kind.HUNDREDS, n * 100) for hundred in _HUNDRED_WORDS})
    for word, size in _SCALES.items():
        words[word] = (_Kind.SCALE, size)
        words["ال" + word] = (_Kind.DEFINITE_SCALE, size)
        words[word + "ا"] = (_Kind.SCALE_OR_DUAL, size)
        words.update({word + ending: (_Kind.DUAL, size) for ending in ("ان", "ين", "ي")})
    words.update({"ارباع": (_Kind.QUARTERS, 0.25), "صفر": (_Kind.ZERO, 0), "فاصله": (_Kind.POINT, 0), "فاصل": (_Kind.POINT, 0)})
    return words


_WORDS = _lexicon()
# Proclitics a number word may carry: و (and), ف, ب (with), ل (for), ك (as), and pairs of them.
_PROCLITICS = ("و", "ف", "ب", "ل", "ك", "وب", "ول", "وك", "فب", "فل")
_NOT_NUMBERS = frozenset({"لست"})  # "I am not", not ل + ست
# Every number word after any proclitic: a word not among them has none (most words of a text).
_PROCLITIC_FORMS = frozenset(proclitic + word for proclitic in _PROCLITICS for word in _WORDS)
# The article, alone or after proclitics ("والحادي عشر", "للثالث عشر"), before a definite teen.
_ARTICLES = ("ال", "وال", "فال", "بال", "كال", "وبال", "لل", "ولل", "فلل")
_TEEN_HEAD_KINDS = (_Kind.UNIT, _Kind.TEEN_HEAD, _Kind.ORDINAL_HEAD)
_PERCENT_WORDS = ("بالميه", "بالمايه", "%")
_PERCENT_AFTER_FI = ("الميه", "المايه")

# --- the digits -----------------------------------------------------------------------------------

_THOUSANDS_SEPARATORS = frozenset(",.٬،'’ ")
_DECIMAL_SEPARATORS = frozenset(",.٫")
_TOKEN = re.compile(
    r"(?P<num>[0-9]+(?:[,.٫٬،'’ ][0-9]+)*)|(?P<word>[^\W\d_]+)|(?P<newline>\n)|(?P<other>[^\s])"
)
_DIGIT_RUN = re.compile(r"[0-9]+")


def _thousands_grouped(groups: list[str]) -> bool:
    return 1 <= len(groups[0]) <= 3 and groups[0][0] != "0" and all(len(g) == 3 for g in groups[1:])


def _digit_readings(token: str) -> list[tuple[str, str]]:
    """The (integer digits, fraction digits) readings of a digit run with separators, the
    thousands-grouped reading first; empty when no separator pattern fits."""
    groups = _DIGIT_RUN.findall(token)
    separators = _DIGIT_RUN.sub("", token)
    if not separators:
        return [(token, "")]
    readings = []
    if len(set(separators)) == 1 and separators[0] in _THOUSANDS_SEPARATORS and _thousands_grouped(groups):
        readings.append(("".join(groups), ""))
    point, head = separators[-1], separators[:-1]
    if point in _DECIMAL_SEPARATORS and (
        not head
        or (len(set(head)) == 1 and head[0] in _THOUSANDS_SEPARATORS and head[0] != point and _thousands_grouped(groups[:-1]))
    ):
        readings.append(("".join(groups[:-1]), groups[-1]))
    return readings


def _split_digits(token: str, start: int) -> Iterator[tuple[int, int, list[tuple[str, str]]]]:
    """A digit token as one number when its separators read as one, else as the numbers of its
    space-separated chunks, else as its bare digit runs (a list written "1,2,3")."""
    readings = _digit_readings(token)
    if readings:
        yield start, start + len(token), readings
        return
    if " " in token:
        offset = 0
        for chunk in token.split(" "):
            yield from _split_digits(chunk, start + offset)
            offset += len(chunk) + 1
        return
    for run in _DIGIT_RUN.finditer(token):
        yield start + run.start(), start + run.end(), [(run.group(0), "")]


# --- the scanner ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Token:
    kind: str  # num | word | newline | other
    text: str
    start: int
    end: int
    digits: list[tuple[str, str]]  # num: its (integer, fraction) readings


@dataclass
class _Part:
    """A number or a part of one: its (value, unit) readings, its scale (1 when none), the token
    index after it, and the digits after the decimal separator in its first reading."""

    readings: list[tuple[float, float]]
    scale: float
    end: int
    decimals: int = 0


@dataclass
class _Group:
    """Hundreds, tens and units of a written number, before any scale word."""

    value: float
    end: int
    needs_scale: bool  # "ميت" and "ثلاثة أرباع" are numbers only before a scale word
    decimal: tuple[list[tuple[float, float]], int] | None = None  # with a spoken decimal part: readings, digits


# The places of a group (hundreds, tens, units) each word fills; "construct" and "quarters" mark the
# words that only a scale word may follow, "one" أحد/إحدى, which need tens with them.
_PLACES = {
    _Kind.UNIT: {"u"}, _Kind.TEN: {"t", "u"}, _Kind.TEEN: {"t", "u"}, _Kind.TENS: {"t"},
    _Kind.HUNDRED: {"h"}, _Kind.HUNDREDS: {"h"}, _Kind.HUNDRED_CONSTRUCT: {"h", "construct"},
    _Kind.ZERO: {"h", "t", "u"},
}  # fmt: skip
_GROUP_SCALES = (_Kind.SCALE, _Kind.SCALE_OR_DUAL, _Kind.PLURAL, _Kind.DEFINITE_SCALE)
_DIGIT_SCALES = (_Kind.SCALE, _Kind.SCALE_OR_DUAL, _Kind.PLURAL)
_FRACTION_SCALES = (_Kind.SCALE, _Kind.SCALE_OR_DUAL, _Kind.DEFINITE_SCALE)


class _Scanner:
    """Reads the numbers of one folded text, token by token."""

    def __init__(self, text: str):
        self.text = text
        self.free = 0  # the first token that no number read so far has taken
        self.tokens: list[_Token] = []
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup or "other"
            if kind == "num":
                for start, end, digits in _split_digits(m.group(0), m.start()):
                    self.tokens.append(_Token("num", text[start:end], start, end, digits))
            else:
                self.tokens.append(_Token(kind, m.group(0), m.start(), m.end(), []))

    # tokens ------------------------------------------------------------------------------------

    def joined(self, i: int) -> bool:
        """True when token i follows token i-1 with nothing but spaces between them."""
        return 0 < i < len(self.tokens) and not self.text[self.tokens[i - 1].end : self.tokens[i].start].strip(" ")

    def entry(self, i: int, *, prefixes: tuple[str, ...] = ()) -> _Entry | None:
        """The lexicon entry of word token i, also after one of ``prefixes``."""
        if i >= len(self.tokens) or self.tokens[i].kind != "word":
            return None
        text = self.tokens[i].text
        if text in _WORDS:
            return _WORDS[text]
        prefix = self.prefix(i, prefixes)
        return _WORDS[text[len(prefix) :]] if prefix else None

    def prefix(self, i: int, prefixes: tuple[str, ...]) -> str:
        """The proclitic of word token i that leaves a number word, or '' (``prefixes``: some of
        _PROCLITICS)."""
        text = self.tokens[i].text
        if text not in _PROCLITIC_FORMS or text in _WORDS or text in _NOT_NUMBERS:
            return ""
        return next((p for p in prefixes if text.startswith(p) and text[len(p) :] in _WORDS), "")

    def kind(self, i: int) -> _Kind | None:
        entry = self.entry(i)
        return entry[0] if entry else None

    def conjunction(self, i: int) -> int | None:
        """After "و" at token i (alone, or glued to a number word): the token index where the next
        part starts, that word's entry read without its و; None when no و joins there."""
        if i >= len(self.tokens) or not self.joined(i) or self.tokens[i].kind != "word":
            return None
        text = self.tokens[i].text
        if text == "و":
            return i + 1 if self.joined(i + 1) and self.tokens[i + 1].kind in ("num", "word") else None
        return i if text.startswith("و") and text[1:] in _WORDS else None

    # numbers -----------------------------------------------------------------------------------

    def numbers(self) -> Iterator[NumberMention]:
        """The numbers of the text, their spans in the folded text."""
        i = self.free = 0
        while i < len(self.tokens):
            token = self.tokens[i]
            found = None
            if token.kind == "num" and not self.identifier(i):
                found = self.number(i, self.digits_part(i))
            elif token.kind == "word":
                entry = self.entry(i, prefixes=_PROCLITICS)
                if entry is not None and not self.month_safar(i, entry):
                    skip = len(self.prefix(i, _PROCLITICS))
                    found = self.number(i, self.part(i, entry), skip=skip)
                    if found is None and entry[0] == _Kind.DEFINITE_SCALE and self.prefix(i, _PROCLITICS) in ("", "و"):
                        # "حاجز المليون", "والمليون": one of it; "بالمليون" is a unit of display.
                        found = self.number(i, _Part([(entry[1], entry[1])], entry[1], i + 1), skip=skip)
                    if found is None and self.kind(i + 1) == _Kind.QUARTERS:
                        i += 1  # "ثلاثة أرباع" without a scale word: a share, not a number
                elif entry is None:
                    found = self.definite_number(i)
            if found is None:
                i += 1
                continue
            i, mention = found
            self.free = i
            yield mention

    def definite_number(self, i: int) -> tuple[int, NumberMention] | None:
        """A number whose first word has the article, before its scale word: "حاجز المئة مليون",
        "المائة ألف", "الخمسين ألف" (the mention keeps its article, as "المليون" does); without a
        scale word ("المئة", "العشرين") the word is no number, but for a teen: "الاثنا عشر شهراً",
        "المرتبة الرابعة عشرة", "والحادي عشر" (after a proclitic too, which the mention drops)."""
        text = self.tokens[i].text
        article = next((a for a in _ARTICLES if text.startswith(a)), "")
        entry = _WORDS.get(text[len(article) :]) if article else None
        if entry is None or entry[0] in (_Kind.ZERO, _Kind.POINT, _Kind.FRACTION, _Kind.QUARTERS) or entry[0] in _GROUP_SCALES:
            return None
        # "الأحد" before عشر is more often Sunday than the teen: it stays no number.
        teen = (entry[0] in _TEEN_HEAD_KINDS and text[len(article) :] != "احد" and self.joined(i + 1)
                and self.kind(i + 1) == _Kind.TEN)
        if article != "ال" and not teen:
            return None
        first = self.part(i, entry)
        if first is None or (first.scale <= 1 and not teen):
            return None
        # The proclitics before the article are no part of the number; "لل" is ل and the article.
        return self.number(i, first, skip=len(article) - (0 if article.endswith("لل") else 2))

    def identifier(self, i: int) -> bool:
        """Digits glued to a Latin letter on their left: Q3, H1, COVID19."""
        start = self.tokens[i].start
        before = self.text[start - 1] if start else ""
        return before.isascii() and before.isalpha()

    def month_safar(self, i: int, entry: _Entry) -> bool:
        """صفر the Hijri month (after شهر, or before a year) rather than zero."""
        if entry[0] != _Kind.ZERO:
            return False
        after_month = i > 0 and self.tokens[i - 1].text == "شهر"
        return after_month or (i + 1 < len(self.tokens) and self.tokens[i + 1].kind == "num" and self.joined(i + 1))

    def number(self, i: int, first: _Part | None, *, skip: int = 0) -> tuple[int, NumberMention] | None:
        """A whole number that starts with part ``first`` at token i: parts joined by و with ever
        smaller scales, then a fraction (مليون ونص) or a decimal part, then a percent sign or word."""
        if first is None:
            return None
        parts = [first]
        while (k := self.conjunction(parts[-1].end)) is not None:
            entry = self.entry(k, prefixes=("و",))
            if entry and entry[0] == _Kind.FRACTION and not self.scale_after(k + 1, _FRACTION_SCALES):
                size = parts[-1].scale
                value = entry[1] * size
                parts.append(_Part([(value, min(size, _magnitude(value)))], 1.0, k + 1))
                break
            following = self.part(k, entry) if entry else self.digits_part(k)
            if following is None or following.scale >= parts[-1].scale:
                break
            parts.append(following)
        if parts[-1].scale > 1 and (decimal := self.spoken_decimal(parts[-1].end, 0.0)):
            readings, digits, end = decimal
            parts.append(_Part(readings, 1.0, end, digits))
        percent, end = self.percent_after(parts[-1].end)
        start = self.tokens[i].start + skip
        if self.tokens[i].kind == "num" and self.percent_before(i):
            percent, start = True, start - 1
        sums = [(sum(v for v, _ in c), c[-1][1]) for c in product(*(part.readings for part in parts))]
        readings = [Reading(float(value), float(unit)) for value, unit in sums if math.isfinite(value)]
        if not readings:
            return None
        stop = self.tokens[end - 1].end
        decimals = max(part.decimals for part in parts)
        scale = max(part.scale for part in parts)
        return end, NumberMention(self.text[start:stop], start, stop, tuple(dict.fromkeys(readings)), decimals, scale, percent)

    def digits_part(self, i: int) -> _Part | None:
        """Digits at token i, and a scale word after them: "2.5 مليون", "3 آلاف"."""
        if i >= len(self.tokens) or self.tokens[i].kind != "num":
            return None
        scale = self.scale_after(i + 1, _DIGIT_SCALES) or self.latin_scale_after(i)
        readings = [
            (float(f"{integer}.{fraction}" if fraction else integer) * (scale or 1.0), (scale or 1.0) * 10.0 ** -len(fraction))
            for integer, fraction in self.tokens[i].digits
        ]
        return _Part(readings, scale or 1.0, i + 2 if scale else i + 1, len(self.tokens[i].digits[0][1]))

    def latin_scale_after(self, i: int) -> float:
        """The factor of a Latin scale letter glued to the digits at token i ("10M", "500K",
        "1.2B"); 0 when there is none."""
        if i + 1 >= len(self.tokens) or self.tokens[i + 1].start != self.tokens[i].end:
            return 0.0
        if i + 2 < len(self.tokens) and self.tokens[i + 2].start == self.tokens[i + 1].end:
            return 0.0  # "5m2": a unit with more glued to it, no scale
        return _LATIN_SCALES.get(self.tokens[i + 1].text.lower(), 0.0)

    def scale_after(self, i: int, kinds: tuple[_Kind, ...]) -> float:
        """The factor of a scale word of one of ``kinds`` at token i, joined to the one before; 0
        when there is none."""
        entry = self.entry(i) if self.joined(i) else None
        return entry[1] if entry and entry[0] in kinds else 0.0

    def part(self, i: int, entry: _Entry | None) -> _Part | None:
        """A part of a written number at token i (``entry`` is its word, proclitic dropped): a group
        with an optional scale word after it, a scale word alone, a dual, a fraction of a scale."""
        if entry is None:
            return None
        kind, size = entry
        if kind == _Kind.SCALE:
            larger = self.scale_after(i + 1, (_Kind.SCALE,))
            if larger > size:  # "ألف مليون" is a billion
                return _Part([(size * larger, larger)], size * larger, i + 2)
            return _Part([(size, size)], size, i + 1)
        if kind in (_Kind.SCALE_OR_DUAL, _Kind.DUAL):
            return _Part([(2 * size, size)], size, i + 1)
        if kind == _Kind.FRACTION:
            scale = self.scale_after(i + 1, _FRACTION_SCALES)
            value = size * scale
            return _Part([(value, min(scale, _magnitude(value)))], scale, i + 2) if scale else None
        group = self.group(i, entry)
        if group is None:
            return None
        scale = self.scale_after(group.end, _GROUP_SCALES)
        readings, digits = group.decimal if group.decimal is not None else ([(group.value, 1.0)], 0)
        if scale:
            scaled = [(value * scale, min(unit * scale, _magnitude(value * scale))) for value, unit in readings]
            return _Part(scaled, scale, group.end + 1, digits)
        return None if group.needs_scale else _Part(readings, 1.0, group.end, digits)

    def group(self, i: int, entry: _Entry, *, decimal: bool = True) -> _Group | None:
        """Hundreds, tens and units joined by و in any order, each place once ("خمسة وعشرون",
        "عشرون وخمسة", "مائة وثلاثة عشر"), and with ``decimal`` a spoken decimal part after them."""
        atom = self.atom(i, entry)
        if atom is None:
            return None
        value, places, end = atom
        needs_scale = places in ({"quarters"}, {"h", "construct"})
        while not needs_scale and (k := self.conjunction(end)) is not None:
            following = self.atom(k, self.entry(k, prefixes=("و",)))
            if following is None or following[1] & places or "quarters" in following[1]:
                break
            value, end = value + following[0], following[2]
            places |= following[1]
            needs_scale = "construct" in places
        if "one" in places and "t" not in places:
            return None  # أحد/إحدى count only in a teen or before tens ("إحدى وسبعون")
        group = _Group(value, end, needs_scale)
        if decimal and not needs_scale and (spoken := self.spoken_decimal(end, value)):
            readings, digits, group.end = spoken
            group.decimal = (readings, digits)
        return group

    def atom(self, i: int, entry: _Entry | None) -> tuple[float, set[str], int] | None:
        """One member of a group, one word or two ("ثلاثة عشر", "ثلاث مئة", "ثلاثة أرباع"): its
        value, the places it fills, and the token index after it."""
        if entry is None:
            return None
        kind, value = entry
        following = self.kind(i + 1) if self.joined(i + 1) else None
        if kind in _TEEN_HEAD_KINDS and following == _Kind.TEN:
            return value + 10, {"t", "u"}, i + 2
        if kind == _Kind.UNIT and following == _Kind.HUNDRED:
            return value * 100, {"h"}, i + 2
        if kind in (_Kind.UNIT, _Kind.TEN) and following == _Kind.QUARTERS:
            return value / 4, {"quarters"}, i + 2
        places = {"u", "one"} if kind == _Kind.TEEN_HEAD and value == 1 else _PLACES.get(kind)
        return (value, set(places), i + 1) if places else None

    def spoken_decimal(self, i: int, whole: float) -> tuple[list[tuple[float, float]], int, int] | None:
        """A decimal part at token i after a written number: "فاصلة خمسة" (.5), "فاصل صفر خمسة"
        (.05), or the " , " of number-to-words writers ("واحد , خمسون" 1.50, "ثلاثة , سبع" 3.07 or
        3.7): the readings of ``whole`` with it, the digits of the first, the token index after it."""
        if not self.joined(i):
            return None
        token = self.tokens[i]
        spoken = self.kind(i) == _Kind.POINT
        comma = token.text == "," and self.text[token.start - 1] == " "
        if not (spoken or comma):
            return None
        j, zeros = i + 1, 0
        while self.joined(j) and self.kind(j) == _Kind.ZERO:
            j, zeros = j + 1, zeros + 1
        entry = self.entry(j) if self.joined(j) else None
        group = self.group(j, entry, decimal=False) if entry and entry[0] != _Kind.ZERO else None
        if group is None and entry == (_Kind.TEEN_HEAD, 1):
            group = _Group(1.0, j + 1, False)  # إحدى alone: the feminine one
        if group is None or group.needs_scale:
            if not zeros:
                return None
            digits, end = "0" * zeros, j
        else:
            digits, end = "0" * zeros + str(int(group.value)), group.end
        places = {len(digits)}
        if comma and not zeros and len(digits) <= 2:
            places.add(2)  # number-to-words writers give the decimal part in hundredths
        ordered = sorted(places, reverse=True)
        return [(whole + int(digits) / 10**n, 10.0**-n) for n in ordered], ordered[0], end

    def percent_after(self, j: int) -> tuple[bool, int]:
        """Whether a percent sign or word follows (at token j), and the token index after it."""
        if not self.joined(j):
            return False, j
        text = self.tokens[j].text
        if text in _PERCENT_WORDS:
            return True, j + 1
        if text == "في" and self.joined(j + 1) and self.tokens[j + 1].text in _PERCENT_AFTER_FI:
            return True, j + 2
        return False, j

    def percent_before(self, i: int) -> bool:
        """A percent sign right before the digits ("%25", as right-to-left typing leaves it), not
        one that belongs to a number before it."""
        if i <= self.free or self.tokens[i - 1].text != "%" or self.tokens[i - 1].end != self.tokens[i].start:
            return False
        return not (i >= 2 and self.tokens[i - 2].kind == "num" and self.joined(i - 1))


def _magnitude(value: float) -> float:
    """The place value of the first digit of ``value`` (1 for zero)."""
    return 10.0 ** math.floor(math.log10(value)) if value > 0 else 1.0
