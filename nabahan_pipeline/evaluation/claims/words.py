"""The words a claim is made of, by table: the tables live in words.json, loaded once. Each word is
written as normalize_arabic leaves text (أ/إ/آ -> ا, ة -> ه, ى -> ي, ئ -> ي), so that it is looked up
in the folded insight as it is, and matched as a whole word, with its proclitics (و، ف، ب، ل)
allowed. To teach the reader a new word, add it to its table in words.json; ``reading`` finds it
and ``checking`` applies the rule of its kind.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from importlib.resources import files

_TABLES = json.loads(files(__package__).joinpath("words.json").read_text(encoding="utf-8"))

# Tables of a word and what it means.

# A measure word -> its measure; the nearest one before a number (no number between) is the number's.
MEASURES: dict[str, str] = _TABLES["MEASURES"]
# A comparator before a number -> the relation the number bounds; "~" an approximation: the number
# holds within the precision of its significant digits.
COMPARATORS: dict[str, str] = _TABLES["COMPARATORS"]
# Direction words: +1 a rise, -1 a fall.
DIRECTIONS: dict[str, int] = _TABLES["DIRECTIONS"]
# Superlatives: +1 the most, -1 the least (but a comparison before NOT_SUPERLATIVE_AFTER).
SUPERLATIVES: dict[str, int] = _TABLES["SUPERLATIVES"]
# Scale words written definite, which the number reader does not read alone ("هل تجاوزت المليار؟").
DEFINITE_SCALES: dict[str, float] = _TABLES["DEFINITE_SCALES"]
# Result columns by the kind of figure they hold, from their names (checked in this order; a rank
# is a place, never a count or a value).
COLUMN_KINDS: dict[str, list[str]] = _TABLES["COLUMN_KINDS"]
# The phrase that names which value a riyal figure is -> the word of the columns that hold it
# ("القيمة التقديرية 882 مليون" is an estimated_value's, never an awarded_value's).
VALUE_MEASURES: dict[str, str] = _TABLES["VALUE_MEASURES"]
# Name words for columns by measure, for the SQL's aliases and the words of a sentence.
COLUMN_HINTS: dict[str, list[str]] = _TABLES["COLUMN_HINTS"]
# Ratio and fraction words: the factor one row's figure is of another's ("الرياض ضعف مكة": 2); a
# multiple multiplies the number before it ("ثلاثة أضعاف" 3, "ثلاثة أرباع" 0.75).
RATIOS: dict[str, float] = _TABLES["RATIOS"]
MULTIPLES: dict[str, float] = _TABLES["MULTIPLES"]
# What qualifies a ratio, written before it: more than, less than, about.
RATIO_QUALIFIERS: dict[str, str] = _TABLES["RATIO_QUALIFIERS"]
# Ordinal words, a row's place: adverbs ("أولاً: الرياض") always rank; definite ordinals after a
# rank noun ("المرتبة الثانية") or right before a row's label ("الثانية جدة"); "الحادي" only with
# عشر after it ("الحادي عشر": the reader adds the ten).
ORDINAL_ADVERBS: dict[str, int] = _TABLES["ORDINAL_ADVERBS"]
DEFINITE_ORDINALS: dict[str, int] = _TABLES["DEFINITE_ORDINALS"]
# A comparison with no figure: the quantity compared with -> the SQL's side it is.
COMPARED_QUANTITIES: dict[str, str] = _TABLES["COMPARED_QUANTITIES"]
# The Gregorian months' names by number: both Arabic series and the English.
GREGORIAN_MONTHS: dict[int, tuple[str, ...]] = {
    int(month): tuple(names) for month, names in _TABLES["GREGORIAN_MONTHS"].items()
}
# Other spellings of the statuses people write, by the status's folded name.
STATUS_SPELLINGS: dict[str, list[str]] = _TABLES["STATUS_SPELLINGS"]

# Lists of words of one role.

# Approximators written after the number: "5,000 تقريبا".
AFTER_APPROXIMATORS: tuple[str, ...] = tuple(_TABLES["AFTER_APPROXIMATORS"])
# After a superlative, a word that makes it a comparison ("أكثر من 100", "أقل مما").
NOT_SUPERLATIVE_AFTER: tuple[str, ...] = tuple(_TABLES["NOT_SUPERLATIVE_AFTER"])
# Yes and no; a "no" followed by one of NO_FOLLOWERS is a "no" answer (a bare "لا" opens many
# sentences otherwise).
YES: tuple[str, ...] = tuple(_TABLES["YES"])
NO: tuple[str, ...] = tuple(_TABLES["NO"])
NO_FOLLOWERS: tuple[str, ...] = tuple(_TABLES["NO_FOLLOWERS"])
# "None": the quantity its clause names is zero; also a negated verb before "أي" ("لم تطرح أي").
NONE_PHRASES: tuple[str, ...] = tuple(_TABLES["NONE_PHRASES"])
NONE_NEGATIONS: tuple[str, ...] = tuple(_TABLES["NONE_NEGATIONS"])
NONE_ANY: tuple[str, ...] = tuple(_TABLES["NONE_ANY"])
# What opens a refusal or a statement about the data after a "none", not a count ("لا توجد بيانات").
NONE_NOT_COUNTS: tuple[str, ...] = tuple(_TABLES["NONE_NOT_COUNTS"])
# Question words for yes/no ("هل ...؟"); existence asked right after them compares a count with zero.
YES_NO_QUESTION: tuple[str, ...] = tuple(_TABLES["YES_NO_QUESTION"])
EXISTENCE: tuple[str, ...] = tuple(_TABLES["EXISTENCE"])
# Words that name a row as left out ("خارج منطقة الرياض"): no superlative speaks of it.
EXCLUDING: tuple[str, ...] = tuple(_TABLES["EXCLUDING"])
# Clause breaks within a sentence: what follows names another row ("تليها جدة").
CLAUSE_WORDS: tuple[str, ...] = tuple(_TABLES["CLAUSE_WORDS"])
# Between a number and the label after it, a preposition that gives it the label ("500 في الرياض")
# and the nouns a figure is stated in, skipped ("500 منافسة في الرياض").
LABEL_PREPOSITIONS: tuple[str, ...] = tuple(_TABLES["LABEL_PREPOSITIONS"])
UNIT_NOUNS: tuple[str, ...] = tuple(_TABLES["UNIT_NOUNS"])
# The noun right after a figure: a riyal figure is a value column's, "N مناقصة" a count's.
MONEY_UNITS: tuple[str, ...] = tuple(_TABLES["MONEY_UNITS"])
COUNT_UNITS: tuple[str, ...] = tuple(_TABLES["COUNT_UNITS"])
# Words of a sentence that speak of a value ("القيمة"), and the words of a value column's name.
VALUE_WORDS: tuple[str, ...] = tuple(_TABLES["VALUE_WORDS"])
VALUE_COLUMN_HINTS: tuple[str, ...] = tuple(_TABLES["VALUE_COLUMN_HINTS"])
# A ratio word is a number, not a ratio, before a scale or a period ("نصف مليار"، "النصف الأول").
NOT_RATIO_BEFORE: tuple[str, ...] = tuple(_TABLES["NOT_RATIO_BEFORE"])
# The nouns of a rank ("المرتبة"), and before a definite ordinal the words that make it no rank: a
# quarter, a month of a calendar, a period.
RANK_NOUNS: tuple[str, ...] = tuple(_TABLES["RANK_NOUNS"])
NOT_RANK_BEFORE: tuple[str, ...] = tuple(_TABLES["NOT_RANK_BEFORE"])
# A bulleted list claims an order when the sentence that opens it says it ranks.
RANKING_CUES: tuple[str, ...] = tuple(_TABLES["RANKING_CUES"])
# Words of a clause that compares its row with another (besides DIRECTIONS): its figure may be a
# difference, a ratio or a change between them; and those by which one row exceeds another.
COMPARING: tuple[str, ...] = tuple(_TABLES["COMPARING"])
EXCEEDS: tuple[str, ...] = tuple(_TABLES["EXCEEDS"])
# Words that count bids (offers), not tenders.
BIDS_WORDS: tuple[str, ...] = tuple(_TABLES["BIDS_WORDS"])
# The noun of an entity's kind, which may stand between an excluding word and the entity ("غير نوع").
KIND_NOUNS: tuple[str, ...] = tuple(_TABLES["KIND_NOUNS"])
# After a denial, words that make it a statement of none or of scope, or a bound's verb ("لا يقل
# العدد عن ..."), not a figure denied.
NOT_DENIED: tuple[str, ...] = tuple(_TABLES["NOT_DENIED"])
# A comparison with no figure: its comparators.
GREATER_THAN: tuple[str, ...] = tuple(_TABLES["GREATER_THAN"])
LESS_THAN: tuple[str, ...] = tuple(_TABLES["LESS_THAN"])


def one_of(word: str, table: Collection[str]) -> bool:
    """``word`` is one of ``table``'s, as written or after a one-letter proclitic ("وخارج")."""
    return word in table or word[1:] in table
