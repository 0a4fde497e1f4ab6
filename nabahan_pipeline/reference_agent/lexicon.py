"""The reference agent's Arabic vocabulary, MSA and Saudi dialect, in normalized spelling.

Every entry is written as ``normalize_arabic`` leaves text and is a regex fragment for one word or
phrase *without* its clitics: the parser adds و/ف, ب/ل/ك and the article ("بالرياض" matches
``رياض``); ``ال?`` inside a phrase marks an optional article on a later word. A word listed here is
taken as meaning what its section says wherever it appears. The lists are package data
(lexicon.json, one key per constant; phrasing.json); region, city and status names come from
``etimad_db.reference_data``, the lists add only the other ways people say them.
"""

from __future__ import annotations

import functools
import json
import re
from importlib.resources import files

from nabahan_pipeline.arabic import hijri_calendar as hc
from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.etimad_db.reference_data import CITIES, REGIONS, STATUSES


@functools.cache
def package_data(name: str) -> dict:
    """One of the reference agent's JSON package data files, read once."""
    return json.loads(files("nabahan_pipeline.reference_agent").joinpath(name).read_text(encoding="utf-8"))


# The ways of phrasing a question (fillers, wrappers, rewrites, typo nouns) and the word lists below.
PHRASING: dict = package_data("phrasing.json")
_WORDS: dict = package_data("lexicon.json")


def _terms(name: str) -> tuple[str, ...]:
    return tuple(_WORDS[name])


def _by_id(name: str) -> dict[int, tuple[str, ...]]:
    return {int(key): tuple(terms) for key, terms in _WORDS[name].items()}


def _by_key(name: str) -> dict[str, tuple[str, ...]]:
    return {key: tuple(terms) for key, terms in _WORDS[name].items()}


def _pairs(name: str) -> tuple[tuple[str, str], ...]:
    return tuple((pattern, meaning) for pattern, meaning in _WORDS[name])


# --- places -------------------------------------------------------------------------------------

# Spoken names of a region beyond its short name and cities: bare city names, other spellings,
# governorates the data omits.
REGION_VARIANTS: dict[int, tuple[str, ...]] = _by_id("REGION_VARIANTS")


def _name_term(name: str, article: bool = True) -> str:
    """A reference data name as a lexicon entry: normalized, without its first word's article
    unless ``article`` (the parser adds the article itself)."""
    term = normalize_arabic(name)
    if not re.fullmatch(r"[\u0621-\u064a ]+", term):
        raise ValueError(f"reference name {name!r} is not plain Arabic words")
    return term if article or not term.startswith("ال") else term[2:]


# Region id -> its short name, its cities (with their article: a bare city name can be an ordinary
# word, "الوجه" / "وجه") and its spoken variants.
REGION_TERMS: dict[int, tuple[str, ...]] = {
    region.region_id: (
        _name_term(region.short_ar, article=False),
        *(_name_term(city.name_ar) for city in CITIES if city.region_id == region.region_id),
        *REGION_VARIANTS.get(region.region_id, ()),
    )
    for region in REGIONS
}
# Words for the whole country: no region filter.
COUNTRY_TERMS = _terms("COUNTRY_TERMS")

# --- statuses and tender types (ids as in tender_statuses / tender_types) ------------------------

STATUS_VARIANTS: dict[int, tuple[str, ...]] = _by_id("STATUS_VARIANTS")
# Status id -> its name and its spoken forms.
STATUS_TERMS: dict[int, tuple[str, ...]] = {
    status.status_id: (_name_term(status.name_ar, article=False), *STATUS_VARIANTS.get(status.status_id, ()))
    for status in STATUSES
}
TYPE_TERMS: dict[int, tuple[str, ...]] = _by_id("TYPE_TERMS")
# Groups of agencies named by a plural ("الجامعات"); who belongs is derived from the agencies'
# names (``parser.names``), never listed here.
AGENCY_GROUP_TERMS: dict[str, tuple[str, ...]] = _by_key("AGENCY_GROUP_TERMS")
# Each group's singular: the group only after a grouping word ("لكل جامعة"); elsewhere it is a
# name's first word ("جامعة القصيم").
AGENCY_GROUP_SINGULARS: dict[str, tuple[str, ...]] = _by_key("AGENCY_GROUP_SINGULARS")

# --- what the question is about -----------------------------------------------------------------

TENDER_TERMS = _terms("TENDER_TERMS")
PROJECT_TERMS = _terms("PROJECT_TERMS")
PROJECT_ADJECTIVES = _terms("PROJECT_ADJECTIVES")  # confirm future_projects ("المشاريع القادمة")
VALUE_TERMS = _terms("VALUE_TERMS")
ESTIMATED_TERMS = _terms("ESTIMATED_TERMS")  # the estimated value against the awarded one
AWARD_TERMS = _terms("AWARD_TERMS")
BIDS_TERMS = _terms("BIDS_TERMS")
BOOKLET_TERMS = _terms("BOOKLET_TERMS")
DURATION_TERMS = _terms("DURATION_TERMS")
DEADLINE_TERMS = _terms("DEADLINE_TERMS")
ENQUIRY_TERMS = _terms("ENQUIRY_TERMS")  # last_enquiry_date
OPENING_TERMS = _terms("OPENING_TERMS")  # offers_opening_date
# Verbs of a date column: its day has passed ("انتهت مهلة الاستفسارات"), has not ("لم ينته موعد
# تقديم العروض"), or falls on a date the question names ("تنتهي ... في سبتمبر").
DATE_PASSED_VERBS = _terms("DATE_PASSED_VERBS")
DATE_PENDING_VERBS = _terms("DATE_PENDING_VERBS")
DATE_ON_VERBS = _terms("DATE_ON_VERBS")
# A superlative before a date column asks for the date itself: the soonest to come, the earliest
# or the latest in the data.
DATE_EXTREME_TERMS = _WORDS["DATE_EXTREME_TERMS"]
# The unit an answer is asked in ("بالأشهر"): read before the dimension nouns it looks like.
UNIT_TERMS = _terms("UNIT_TERMS")
DIMENSION_TERMS: dict[str, tuple[str, ...]] = _by_key("DIMENSION_TERMS")

# --- what is asked ----------------------------------------------------------------------------

COUNT_TERMS = _terms("COUNT_TERMS")
LIST_TERMS = _terms("LIST_TERMS")
SUM_TERMS = _terms("SUM_TERMS")
AVG_TERMS = _terms("AVG_TERMS")
# Superlative -> direction. "اكثر"/"اقل" are also comparators ("اكثر من مليون"): comparators are
# read first, and only the words left over are superlatives.
SUPERLATIVE_TERMS: dict[str, str] = _WORDS["SUPERLATIVE_TERMS"]
RECENT_TERMS = _terms("RECENT_TERMS")  # newest first
# "أول 5 منافسات طرحت في 2024": the first published, not the five highest values.
OLDEST_TERMS = _terms("OLDEST_TERMS")
SOONEST_TERMS = _terms("SOONEST_TERMS")
SMALL_NUMBERS: dict[str, int] = _WORDS["SMALL_NUMBERS"]  # a top-N in words ("اعلى خمس مناقصات")
# Plural superlatives without a number ("أكثر الجهات") return this many rows.
DEFAULT_TOP_N = 5
# A threshold on groups ("المناطق التي يتجاوز ..."): the groups' plural -> (dimension, the grouping
# the rest of the question is asked by, an agency group's words).
THRESHOLD_HEADS: dict[str, list[str]] = _WORDS["THRESHOLD_HEADS"]
# Comparators before a number (pattern -> operator; the first that fits wins) and after it
# ("مليون فأكثر", "1000 أو أقل").
COMPARATOR_TERMS: tuple[tuple[str, str], ...] = _pairs("COMPARATOR_TERMS")
TRAILING_COMPARATORS: tuple[tuple[str, str], ...] = _pairs("TRAILING_COMPARATORS")

# --- time ---------------------------------------------------------------------------------------

MONTHS: dict[str, int] = _WORDS["MONTHS"]
ORDINALS: dict[str, int] = _WORDS["ORDINALS"]
# Ordinal ranks ("رابع منطقة"), read beside a group noun or a superlative; "الأول" is the top itself.
RANK_ORDINALS: dict[str, int] = _WORDS["RANK_ORDINALS"]
# Hijri month number -> its name as a regex fragment with its common spellings.
HIJRI_MONTHS: dict[int, str] = {int(month): form for month, form in _WORDS["HIJRI_MONTHS"].items()}
THIS_TERMS = _terms("THIS_TERMS")
LAST_TERMS = _terms("LAST_TERMS")
NEXT_TERMS = _terms("NEXT_TERMS")
# 1 Muharram of each Hijri year of the Umm al-Qura calendar (hijridate's whole range).
HIJRI_NEW_YEAR: dict[int, str] = {
    year: start.isoformat() for year in range(hc.FIRST_YEAR, hc.LAST_YEAR + 1) if (start := hc.month_start(year, 1))
}

# --- refusals -------------------------------------------------------------------------------------

MUTATION_TERMS = _terms("MUTATION_TERMS")  # imperative verbs that change data
SQL_KEYWORDS = _terms("SQL_KEYWORDS")
# Tasks that are no data question even when they mention tenders ("اكتب قصيدة عن المناقصات").
OFF_TASK_TERMS = _terms("OFF_TASK_TERMS")
# Topics outside procurement; they refuse a question that names no tender or project.
OFF_TOPIC_TERMS = _terms("OFF_TOPIC_TERMS")
# With a place or a name but no tender word, a question form still asks about tenders.
QUESTION_FORMS = COUNT_TERMS + LIST_TERMS + AVG_TERMS + SUM_TERMS + ("كم فيه", "في كم", "عندك", "عندكم", "ايش فيه", "وش فيه")
# Words the parser takes as understood without an entry of their own (particles, greetings, dialect
# particles, units); any other word it cannot place refuses the question (``parser.intent``). Add a
# word only when it changes nothing a question asks.
FILLER_TERMS: tuple[str, ...] = tuple(PHRASING["fillers"])
# Prefaces that announce a question ("أكتب عرضاً للإدارة وأريد أن أعرف ..."): dropped whole.
WRAPPER_TERMS: tuple[str, ...] = tuple(PHRASING["wrappers"])
# Phrases read as the plain Arabic they mean: dialect verbs and negation ("اتلغت": ملغاة، "مش":
# غير), colloquial percent ("في المية": نسبة), English words ("budget": قيمة).
REWRITE_TERMS: tuple[tuple[str, str], ...] = tuple((pattern, meaning) for pattern, meaning in PHRASING["rewrites"])
# Data the database does not hold, asked for by name: topic -> its words (``insights`` names the
# topic). Refused whatever else the question names, so that "كلمة المرور لحساب أمانة الرياض" is not
# read as a question about that agency's tenders.
UNHELD_DATA: dict[str, tuple[str, ...]] = _by_key("UNHELD_DATA")
# Topics of UNHELD_DATA that are no procurement data at all: refused as off topic, still by name.
OFF_TOPIC_SUBJECTS = frozenset({"weather", "sports"})
# Words too common in agencies' and activities' names to name one alone ("بلديه": "البلدية" alone is a
# town's municipality, not the ministry of municipal affairs).
GENERIC_NAME_WORDS = _terms("GENERIC_NAME_WORDS")
# Words that change nothing asked ("المنافسات المسجلة لجهة ..."), passed over only where they cannot
# carry a condition (``parser.reading``). Not here: "المتاحة" (a status), "الحالية", "الجديدة"
# (dates), nor a word another list reads ("المطروحة": a tender word; "موجودة": a filler).
PASSED_OVER_TERMS: dict[str, tuple[str, ...]] = _by_key("PASSED_OVER_TERMS")
# Domain nouns a one-letter typo is read back to (``parser.patterns``), each with its other forms: a
# typo between two forms of one noun ("المناقصت") still means that noun.
TYPO_NOUNS: tuple[tuple[str, ...], ...] = tuple(tuple(forms) for forms in PHRASING["typo_nouns"])
