"""The working state of one parse (the question with every phrase understood blanked out, and what
the readers have read from it), and the small readers over it: the order asked, a grouping by a
column's values, awards as a noun, the words passed over."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import NameIndex, word_variants
from nabahan_pipeline.reference_agent.parser.dates import DateSpan
from nabahan_pipeline.reference_agent.parser.frame import Condition
from nabahan_pipeline.reference_agent.parser.patterns import PASSED_OVER, blank
from nabahan_pipeline.reference_agent.parser.values import Comparison


@dataclass
class Reading:
    """One question being read."""

    text: str  # normalized question, with understood phrases blanked out
    original: str  # normalized question
    conditions: list[Condition] = field(default_factory=list)
    dates: list[DateSpan] = field(default_factory=list)
    values: list[Comparison] = field(default_factory=list)
    top_n: int | None = None
    rank: tuple[int, int] | None = None  # an ordinal rank asked for: (first rank, how many)
    rank_words: tuple[str, ...] = ()
    strong: bool = False  # names, statuses or types: procurement words
    weak: bool = False  # places, dates, values: could be about anything
    unplaced_dates: list[str] = field(default_factory=list)  # Hijri dates outside the calendar
    ungrouped_periods: list[str] = field(default_factory=list)  # "كل يوم": a figure per day, not read
    date_field: str | None = None  # the date column the dates are on, when not the publish date
    date_extreme: tuple[str, str, bool] | None = None  # (soonest | min | max, date column, rows) asked for
    question: str = ""  # as asked, before normalization (the case of Latin letters)
    # Groups of agencies asked about outside the data ("كم عدد الجامعات في السعودية").
    general: tuple[str, ...] = ()
    # Names that could be several agencies: (the phrase, the candidates' names).
    ambiguous: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)

    def add(self, conditions: list[Condition], *, strong: bool) -> None:
        """Take the ``conditions`` a pass read: any makes the question ``strong`` or else ``weak``."""
        self.conditions += conditions
        if conditions:
            self.strong |= strong
            self.weak |= not strong

    def take(self, read: tuple[str, list[Condition]], *, strong: bool) -> None:
        """Take what a reader of the working text returned: the text with the phrases it
        understood blanked out, and the ``conditions`` they make."""
        self.text, conditions = read
        self.add(conditions, strong=strong)

    def blank(self, start: int, end: int) -> None:
        """Blank out ``[start, end)`` of the working text: that phrase is understood."""
        self.text = blank(self.text, start, end)

    def first_of(self, table: tuple[tuple[str, re.Pattern[str]], ...]) -> str | None:
        """The name of the first pattern of ``table`` the working text holds; every phrase of
        each pattern is blanked out (one asked twice is still read once)."""
        found = None
        for name, pattern in table:
            for m in list(pattern.finditer(self.text)):
                found = found or name
                self.blank(m.start(), m.end())
        return found


# --- ordering -------------------------------------------------------------------------------------
# The order asked as a phrase ("من الأكثر للأقل", "تصاعدياً"), not a superlative; and the column rows
# are sorted by ("رتب المنافسات حسب القيمة").

_DESCENDING = re.compile(
    r"(?<!\w)(?:من (?:ال)?(?:اكثر|اعلي|اكبر) (?:لل|الي (?:ال)?|ل)(?:اقل|ادني|اصغر)|(?:[بو]?ال|ب)?(?:ترتيب )?(?:ال)?تنازلي(?:ا)?)(?!\w)"
)
_ASCENDING = re.compile(
    r"(?<!\w)(?:من (?:ال)?(?:اقل|ادني|اصغر) (?:لل|الي (?:ال)?|ل)(?:اكثر|اعلي|اكبر)|(?:[بو]?ال|ب)?(?:ترتيب )?(?:ال)?تصاعدي(?:ا)?)(?!\w)"
)


def read_order(r: Reading) -> str | None:
    """"desc" or "asc" when the question words the order of its rows (the phrase blanked out, so
    that its "الأكثر" is not read as a superlative), else None."""
    return r.first_of((("desc", _DESCENDING), ("asc", _ASCENDING)))


# "رتب", "مرتبة", "ترتيب": a sort asked for.
SORT_VERB = re.compile(r"(?<!\w)(?:[وف])?(?:رتب(?:ها|هم|لي)?|ترتيب|مرتب(?:ه)?)(?!\w)")
_SORT_COLUMNS = (
    ("awarded", r"(?:(?:ال)?قيم\w* )?(?:ال)?ترسي\w*"),
    ("value", r"(?:ال)?قيم\w*(?: (?:ال)?تقديري\w*)?|(?:ال)?تقديري\w*"),
    ("duration", r"(?:ال)?مد(?:ه|ته|تها)(?: (?:ال)?تنفيذ)?"),
    ("bids", r"(?:ال)?عدد (?:ال)?عروض|(?:ال)?عروض"),
    ("booklet", r"(?:ال)?سعر (?:ال)?كراس\w*|(?:ال)?كراس\w*"),
    ("date", r"(?:ال)?تاريخ(?: (?:ال)?(?:نشر|طرح))?"),
)
_SORT_BY = re.compile(
    r"(?<!\w)(?:حسب|بحسب|علي حسب|وفق)\s(?:" + "|".join(f"(?P<{name}>{p})" for name, p in _SORT_COLUMNS) + r")(?!\w)"
)


def sort_column(question: str) -> tuple[str, tuple[str, ...]] | None:
    """The column ``question`` (normalized) asks its rows sorted by and the words that name it
    ("رتب المنافسات حسب القيمة": "value", ("حسب", "القيمه")), or None when it asks for no sort."""
    if not SORT_VERB.search(question):
        return None
    m = _SORT_BY.search(question)
    return (str(m.lastgroup), tuple(m.group(0).split())) if m else None


# --- value groups ---------------------------------------------------------------------------------
# Grouped by the values of a column with few of them: "كم منافسة لكل سعر من أسعار كراسات الشروط",
# "توزيع المنافسات حسب عدد العروض", "المشاريع حسب المدة".

_CUE = r"(?:لكل|حسب|بحسب|علي حسب|علي)"
_GROUPS = (
    (
        "booklet",
        re.compile(
            rf"(?<!\w){_CUE}\s(?:(?:ال)?(?:سعر|قيمه|فيه)\s)?(?:(?:من\s)?(?:ال)?اسعار\s)?"
            r"(?:[وفبل]?ال)?كراس(?:ه|ات|تها|ته)(?:\s(?:ال)?شروط)?(?:\s(?:وال)?مواصفات)?(?!\w)"
        ),
    ),
    ("bids", re.compile(rf"(?<!\w){_CUE}\s(?:ال)?عدد\s(?:ال)?(?:عروض|متقدمين)(?:\s(?:ال)?مقدمه)?(?!\w)")),
    ("duration", re.compile(rf"(?<!\w){_CUE}\s(?:ال)?مد(?:ه|تها|ته)(?:\s(?:ال)?تنفيذ)?(?:\s(?:بال)?(?:اشهر|شهور))?(?!\w)")),
)


def read_value_group(r: Reading) -> str | None:
    """The column whose values the question groups by ("booklet", "bids", "duration"), the phrase blanked
    out, or None."""
    if SORT_VERB.search(r.original):
        return None  # "رتب المشاريع حسب المدة": the rows sorted, not grouped
    return r.first_of(_GROUPS)


# --- awards ---------------------------------------------------------------------------------------
# Awards as a noun ("عدد الترسيات", "عمليات الترسية"): the awarded tenders; dated ("تمت ترسيتها خلال
# 2025"), on their publish date, which the answer says: the data holds no award date.

AWARDED_STATUS = 4  # تمت الترسية (tender_statuses)

# The noun counted: plural awards, "عمليات الترسية", or "ترسية" right after "كم"; and the verb
# that says they happened ("كم ترسية صارت").
_AWARDS = re.compile(
    r"(?<!\w)(?:[وف]?(?:ال|لل|بال)?ترسيات|(?:[وفب]?ال)?عمليات (?:ال)?ترسيه|(?<=كم )ترسيه"
    r"|(?:[وفب]?ال)?(?:تاريخ|موعد|وقت) (?:ال)?ترسي(?:ه|تها|ته))"  # "تاريخ ترسيتها في 2025": read on the publish date
    r"(?:\s(?:تمت|تم|صارت|صار|حصلت|جرت|اللي (?:تمت|صارت)))?(?!\w)"
)
# A verb of publishing: the question dates the tenders by their publish date itself.
_PUBLISHED = re.compile(r"(?<!\w)[وف]?(?:تم )?(?:طرح|انطرح|نشر|انشر|نزل|اعلن)(?:ت|ها|تها|ته)?(?!\w)")
_VALUE_BEFORE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:قيم(?:ه)?|مبالغ|مبلغ)\s$")
_DATE_NOTE = " (بتاريخ الطرح، إذ لا تحوي البيانات تاريخ الترسية)"


def read_awards(r: Reading, status_label: str) -> None:
    """Read the awards noun as the awarded status (worded ``status_label``), and word the dates
    of a question about awarded tenders that does not say they are publish dates."""
    found = list(_AWARDS.finditer(r.text))
    for m in found:
        if not _VALUE_BEFORE.search(r.text, 0, m.start()):
            r.blank(m.start(), m.end())  # "قيمة الترسيات" is left: it names the awarded value
    awarded = any(c.field == "status" and c.op == "in" and c.values == (AWARDED_STATUS,) for c in r.conditions)
    if found and not awarded:
        r.add([Condition("status", "in", (AWARDED_STATUS,), status_label)], strong=True)
        awarded = True
    if awarded and r.dates and not _PUBLISHED.search(r.original):
        r.dates = [replace(span, label=span.label + _DATE_NOTE) for span in r.dates]


# --- passed over ----------------------------------------------------------------------------------
# Words that change nothing asked (``lexicon.PASSED_OVER_TERMS``), blanked out after the other passes;
# never next to a number, a negation or a comparator, nor a word of a name the name pass did not read.

# What a word passed over must not stand next to.
_NUMBER = re.compile(r"\d[\d.,]*|(?:[وب]?ال)?(?:" + "|".join(lx.SMALL_NUMBERS) + r"|الف|الاف|مليون|ملايين|مليار|مليارات)")
_NEGATION = re.compile(r"[وف]?(?:غير|لا|ليس|ليست|لم|لن|ما|ماهي|ماهو|مو|مب|مش|بدون|عدا|سوي|الا|باستثناء|خارج)")
_COMPARATOR = re.compile(
    r"[وب]?(?:ال)?(?:اكثر|اقل|اكبر|اصغر|اعلي|ادني|فوق|تحت|دون|يتجاوز|تتجاوز|يزيد|تزيد|يقل|تقل|يساوي|تساوي"
    r"|يتعدي|تتعدي|قبل|بعد|منذ|حتي|اعلى|اول|اخر|احدث|اقدم)"
)
_GUARDS = (_NUMBER, _NEGATION, _COMPARATOR)


def pass_over(r: Reading, names: NameIndex) -> None:
    """Blank out in ``r`` the words of ``PASSED_OVER`` that are safe to pass over (above)."""
    for m in list(PASSED_OVER.finditer(r.text)):
        before = r.original[: m.start()].split()[-1:]
        after = r.original[m.end() :].split()[:1]
        if any(guard.fullmatch(word) for word in before + after for guard in _GUARDS):
            continue
        if any(word_variants(word) & names.postings.keys() for word in m.group(0).split()):
            continue
        r.blank(m.start(), m.end())
