"""Arabic question -> QueryFrame: what table, what measure, grouped by what, under which filters.

A rule-based semantic parser. The question is normalized (``normalize_arabic``), then read in
passes over a working copy in which every phrase a pass understands is blanked out, so that later
passes do not read it again: agency and activity names (from the database), refusals, dates
(years, Hijri years, months, quarters, relative periods), value comparisons, top-N, places,
statuses and tender types, then the words that say what is asked (count, sum, average,
superlatives, group-by dimensions, lists). The frame it returns is all the SQL builder and the
insight writer need; a question that is not about the data comes back as a ``Refusal``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.arabic.numbers import find_numbers
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, words
from nabahan_pipeline.arabic.normalize import normalize_arabic

MAX_QUESTION_CHARS = 1000

# --- the frame ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Condition:
    """One WHERE condition. ``field`` is abstract ("region", "date", "value", ...) until the SQL
    builder maps it to a column of the chosen table; ``label`` is its Arabic wording."""

    field: str
    op: str  # in | > | >= | < | <= | = | between | date_range | month_in | not_null
    values: tuple = ()
    label: str = ""


@dataclass(frozen=True)
class QueryFrame:
    """What a question asks, independent of SQL."""

    entity: str  # tenders | projects | regions | tender_types | tender_statuses | activities | agencies
    measure: str = "rows"  # rows | count | count_distinct | sum | avg | max | min
    column: str | None = None  # measured or ordering field: value, awarded, bids, booklet, duration, date
    group_by: tuple[str, ...] = ()  # region, status, type, activity, agency, year, month, quarter
    conditions: tuple[Condition, ...] = ()
    order: str | None = None  # desc | asc
    limit: int | None = None
    ranked: bool = False  # a superlative or top-N: the order is the answer
    distinct_of: str | None = None  # count_distinct: the dimension counted
    share_of: tuple[Condition, ...] = ()  # share: the conditions of the part, among ``conditions``


@dataclass(frozen=True)
class Refusal:
    """A question the agent declines; ``reason`` picks the apology."""

    reason: str  # empty | too_long | not_arabic | sql | mutation | off_task | off_topic | unknown


# --- compiling the lexicon --------------------------------------------------------------------------

_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال|[بلك])?"
_ARTICLE_CLITICS = r"(?:[وف])?(?:لل|[بلك]?ال)"


def _fragment(text: str) -> str:
    return text.replace("ال?", "(?:ال)?")


def _alternation(fragments: Iterable[str]) -> str:
    return "|".join(sorted((_fragment(f) for f in fragments), key=len, reverse=True))


def _with_clitics(fragments: Iterable[str], clitics: bool = True) -> str:
    # A leading optional article is what the clitic prefix already allows.
    fragments = [f[3:] if f.startswith("ال?") else f for f in fragments]
    plain = [f for f in fragments if not f.startswith("ال")]
    article = [f[2:] for f in fragments if f.startswith("ال")]
    parts = []
    if plain:
        parts.append((_CLITICS if clitics else "(?:[وف])?") + f"(?:{_alternation(plain)})")
    if article:
        parts.append((_ARTICLE_CLITICS if clitics else "(?:[وف])?ال") + f"(?:{_alternation(article)})")
    return "(?:" + "|".join(parts) + ")"


def _terms(fragments: Iterable[str], clitics: bool = True) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){_with_clitics(fragments, clitics)}(?!\w)")


def _keyed_terms(table: Mapping[object, Iterable[str]]) -> tuple[re.Pattern[str], dict[str, object]]:
    names: dict[str, object] = {}
    parts = []
    for i, (key, fragments) in enumerate(table.items()):
        names[f"k{i}"] = key
        parts.append(f"(?P<k{i}>{_with_clitics(fragments)})")
    return re.compile(rf"(?<!\w)(?:{'|'.join(parts)})(?!\w)"), names


_REGIONS, _REGION_KEYS = _keyed_terms(lx.REGION_TERMS)
_REGION_PREFIX = re.compile(r"(?:(?<!\w)[وفبل]?(?:ال)?(?:منطقه|مدينه|محافظه)\s)$")
_COUNTRY = _terms(lx.COUNTRY_TERMS)
_STATUSES, _STATUS_KEYS = _keyed_terms(lx.STATUS_TERMS)
_TYPES, _TYPE_KEYS = _keyed_terms(lx.TYPE_TERMS)
_TENDER = _terms(lx.TENDER_TERMS)
_PROJECT = _terms(lx.PROJECT_TERMS)
_PROJECT_ADJ = _terms(lx.PROJECT_ADJECTIVES)
_VALUE = _terms(lx.VALUE_TERMS)
_AWARD = _terms(lx.AWARD_TERMS)
_BIDS = _terms(lx.BIDS_TERMS)
_BOOKLET = _terms(lx.BOOKLET_TERMS)
_DURATION = _terms(lx.DURATION_TERMS)
_DEADLINE = _terms(lx.DEADLINE_TERMS)
_DIMENSIONS, _DIMENSION_KEYS = _keyed_terms(lx.DIMENSION_TERMS)
_COUNT = _terms(lx.COUNT_TERMS)
_SUM = _terms(lx.SUM_TERMS)
_AVG = _terms(lx.AVG_TERMS)
_QUESTION_FORM = _terms(lx.QUESTION_FORMS, clitics=False)
_SUPERLATIVE = re.compile(
    r"(?<!\w)(?:[وف])?(?:ال)?(?P<w>" + "|".join(lx.SUPERLATIVE_TERMS) + r")(?:ه|هم|ها)?(?!\w)"
)
_RECENT = _terms(lx.RECENT_TERMS)
_OLDEST = _terms(lx.OLDEST_TERMS)
_SOONEST = _terms(lx.SOONEST_TERMS)
_MUTATION = re.compile(
    r"(?<!\w)(?:[وف])?(?:" + _alternation(lx.MUTATION_TERMS) + r")(?:ها|هم|ه|هن|لي|لنا)?(?!\w)"
)
# "غيّر ..." at the head of the request is an order to change data; elsewhere غير is "not".
_IMPERATIVE_CHANGE = re.compile(r"(?:(?:ممكن|لو سمحت|ابيك|ابغاك|اريدك|رجاء)\s)?[وف]?(?:غير|غيرو|عدلو)(?:ها|هم|ه)?\s")
_SQL = re.compile(r"(?<![a-z])(?:" + "|".join(lx.SQL_KEYWORDS) + r")(?![a-z])")
_SQL_STATEMENT = re.compile(r"(?<![a-z])(?:select|insert|update|delete|drop|alter|create|truncate|pragma|attach)(?![a-z])")
_OFF_TASK = _terms(lx.OFF_TASK_TERMS)
_OFF_TOPIC = _terms(lx.OFF_TOPIC_TERMS)
_FILLERS = _terms(lx.FILLER_TERMS)
_GROUP_CUE = re.compile(
    r"(?<!\w)(?:[وف])?(?:حسب|بحسب|على حسب|لكل|ل?كل|في كل|بكل|توزيع|توزع|تتوزع|يتوزع|وزع|موزع(?:ه)?|مقسم(?:ه)?|تقسيم|"
    r"من حيث|على مستوى|بالنسبه ل?كل|مصنف(?:ه)? حسب|per|by)(?!\w)"
)
# "توزيع المناقصات على الأنشطة": a distribution word cues the dimensions after it.
_NEGATION = re.compile(r"(?<!\w)(?:ال)?(?:غير|مو|ليست|ليس|مش|بدون|عدا|ما عدا|باستثناء)\s$")
# "عدد العروض" / "عدد المتقدمين" name the bids column, not a count of rows.
_COLUMN_AFTER_COUNT = re.compile(r"\s+(?:[وفبل]?ال)?(?:عروض|متقدمين|متنافسين|مشاركين|ايام|اشهر|شهور)(?!\w)")
_SPREAD_CUE = re.compile(r"(?<!\w)(?:[وف])?(?:ال)?(?:توزيع|توزع|تتوزع|يتوزع|وزع|موزع(?:ه)?|مقسم(?:ه)?|تقسيم|تصنيف)(?!\w)")
_PLURAL_DIMENSION = re.compile(r"(ات|اتها|مناطق|مناطقها|انواع|انواعها|انشطه|اصناف|اعوام|سنوات|سنين|اشهر|شهور|ارباع|فصول)$")
_WHICH = re.compile(r"(?<!\w)(?:اي|ايش|وش|اية|ايه|انهي|مين|ما هي|ما هو|ماهي|من هي|من هو)(?!\w)")
_SMALL_NUMBER = re.compile(r"(?<!\w)(?:ال)?(?P<w>" + _alternation(lx.SMALL_NUMBERS) + r")(?!\w)")
_TOP_WORDS = re.compile(
    r"(?<!\w)(?:[وف])?(?:ال)?(?:" + "|".join(lx.SUPERLATIVE_TERMS) + r"|احدث|اقدم|اجدد|اخر|اول|اهم|افضل|top)(?!\w)"
)

# Everything the vocabulary explains, to tell a name's own words from words such as regions.
_KNOWN = re.compile(
    r"(?<!\w)(?:"
    + "|".join(
        _with_clitics(group)
        for group in (
            [f for fr in lx.REGION_TERMS.values() for f in fr],
            lx.COUNTRY_TERMS,
            [f for fr in lx.STATUS_TERMS.values() for f in fr],
            [f for fr in lx.TYPE_TERMS.values() for f in fr],
            lx.TENDER_TERMS,
            lx.PROJECT_TERMS,
            lx.PROJECT_ADJECTIVES,
            lx.VALUE_TERMS,
            lx.AWARD_TERMS,
            lx.BIDS_TERMS,
            [f for fr in lx.DIMENSION_TERMS.values() for f in fr],
            lx.COUNT_TERMS,
            lx.SUM_TERMS,
            lx.AVG_TERMS,
            lx.LIST_TERMS,
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
        "اخرى", "منطقه", "محافظه", "مدينه", "مركزيه", "فنيه", "طبي",
    }
)
_EXTRA_GENERIC = frozenset(v for w in list(_GENERIC_NAME_WORDS) for v in (w, w[2:] if w.startswith("ال") else "ال" + w))
_GENERIC = _GENERIC_NAME_WORDS | _EXTRA_GENERIC

_PUNCTUATION = re.compile(r"[^\w\s.,%\-/]")
_LOOSE_SEPARATORS = re.compile(r"(?<!\d)[.,/](?!\d)|(?<!\d)-|-(?!\d)")

# --- dates ---------------------------------------------------------------------------------------

_YEAR_WORD = r"(?:(?:[وفبل]?ال|[لب])?(?:عام|سنه)\s?)"
_GREG = r"(?P<{n}>20[0-4]\d)(?:\s?(?:م|ميلادي(?:ه)?)(?!\w))?"
_HIJRI_YEAR = re.compile(
    rf"(?<!\w){_YEAR_WORD}?(?P<y>14\d\d)\s?(?:ه|هـ|هجري(?:ه)?|للهجره|هجريه)(?!\w)"
    rf"|(?<!\w){_YEAR_WORD}(?P<y2>14[0-9]\d)(?!\w)"
)
_YEAR_RANGE = re.compile(
    rf"(?<!\w)(?:ما\s)?(?:بين|من|[بم]ن)\s?{_YEAR_WORD}?{_GREG.format(n='a')}\s?(?:و|الى|الي|حتى|لين|لغايه|ل|-|لحد)\s?"
    rf"{_YEAR_WORD}?{_GREG.format(n='b')}(?!\d)"
)
_YEAR_BOUND = re.compile(
    rf"(?<!\w)(?P<w>بعد|منذ|من بدايه|ابتداء من|اعتبارا من|من|قبل|حتى|لغايه|الى|لين)\s{_YEAR_WORD}?{_GREG.format(n='y')}(?!\d)"
)
_MONTH_NAMES = _alternation(lx.MONTHS)
_MONTH = re.compile(
    rf"(?<!\w)(?:(?:[وفب]?ال|[بل])?شهر\s)?(?:[وفب]?(?:ال)?)?(?P<m>{_MONTH_NAMES})(?:\s(?:من\s)?{_YEAR_WORD}?{_GREG.format(n='y')})?(?!\w)"
    rf"|(?<!\w)(?:[وفب]?ال|[بل])?شهر\s(?P<mn>1[0-2]|0?[1-9])(?:\s?(?:/|-|من|سنه|عام)?\s?{_YEAR_WORD}?{_GREG.format(n='y2')})?(?!\d)"
    rf"|(?<![\w/])(?P<mn2>1[0-2]|0?[1-9])\s?[/-]\s?(?P<y3>20[0-4]\d)(?!\d)"
    rf"|(?<![\w/])(?P<y4>20[0-4]\d)\s?[/-]\s?(?P<mn3>1[0-2]|0[1-9])(?![\d/-])"
)
_ORDINAL_NAMES = _alternation(lx.ORDINALS)
_QUARTER = re.compile(
    rf"(?<!\w)(?:[وفب]?ال|[بل])?ربع\s(?:ال)?(?P<q>{_ORDINAL_NAMES}|[1-4])(?:\s(?:من\s)?(?:ال)?(?:سنه|عام)?\s?(?:{_GREG.format(n='y')})?)?(?!\w)"
    rf"|(?<![a-z])q(?P<q2>[1-4])\s?(?:{_GREG.format(n='y2')})?(?!\w)"
)
_THIS = _alternation(lx.THIS_TERMS)
_LAST = _alternation(lx.LAST_TERMS)
_NEXT = _alternation(lx.NEXT_TERMS)
_RELATIVE = re.compile(
    rf"(?<!\w)(?:(?P<this1>{_THIS})\s?(?:ال)?(?P<u1>عام|سنه|شهر)|(?:[وفب]?ال)?(?P<u2>عام|سنه|شهر)\s(?:ال)?(?:(?P<this2>حالي(?:ه)?|جاري(?:ه)?|دي|هذا|هذه|هذي)"
    rf"|(?P<before>قبل (?:ال)?(?:ماضي|ماضيه|فايت|فايته|اللي فات))|(?P<last>{_LAST})|(?P<next>{_NEXT})))(?!\w)"
)
_UNITS = {"يوم": "day", "ايام": "day", "يومين": "day2", "اسبوع": "week", "اسابيع": "week", "اسبوعين": "week2",
          "شهر": "month", "اشهر": "month", "شهور": "month", "شهرين": "month2", "سنه": "year", "سنوات": "year",
          "سنين": "year", "سنتين": "year2", "عام": "year", "اعوام": "year", "عامين": "year2"}
_ROLLING = re.compile(
    rf"(?<!\w)(?:(?:في|خلال)\s)?(?:ال)?(?P<last>اخر|ال)\s?(?P<n>\d+|{_alternation(lx.SMALL_NUMBERS)})?\s?(?:ال)?(?P<u>{_alternation(_UNITS)})"
    rf"(?:\s(?:ال)?(?:{_alternation(lx.SMALL_NUMBERS)}))?(?:\s(?:ال)?(?:ماضيه|الماضيه|اخيره|الاخيره|فايته|الفايته|ماضي|السابقه))?(?!\w)"
)


@dataclass(frozen=True)
class _DateSpan:
    start: str | None  # inclusive ISO date
    end: str | None  # exclusive ISO date
    label: str
    month_of_year: tuple[int, ...] = ()  # months in any year (no year given)


def _year_span(year: int) -> tuple[str, str]:
    return f"{year:04d}-01-01", f"{year + 1:04d}-01-01"


def _month_span(year: int, month: int) -> tuple[str, str]:
    end = (year + 1, 1) if month == 12 else (year, month + 1)
    return f"{year:04d}-{month:02d}-01", f"{end[0]:04d}-{end[1]:02d}-01"


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    last = (date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)).day
    return date(year, month, min(day.day, last))


_MONTH_LABELS = {
    1: "يناير", 2: "فبراير", 3: "مارس", 4: "أبريل", 5: "مايو", 6: "يونيو",
    7: "يوليو", 8: "أغسطس", 9: "سبتمبر", 10: "أكتوبر", 11: "نوفمبر", 12: "ديسمبر",
}
_QUARTER_LABELS = {1: "الربع الأول", 2: "الربع الثاني", 3: "الربع الثالث", 4: "الربع الرابع"}


# --- the parser ---------------------------------------------------------------------------------


@dataclass
class _Reading:
    """The working state of one parse."""

    text: str  # normalized question, with understood phrases blanked out
    original: str  # normalized question
    conditions: list[Condition] = field(default_factory=list)
    dates: list[_DateSpan] = field(default_factory=list)
    values: list[tuple[str, str, tuple[float, ...], str]] = field(default_factory=list)  # field, op, values, label
    top_n: int | None = None
    strong: bool = False  # names, statuses or types: procurement words
    weak: bool = False  # places, dates, values: could be about anything

    def blank(self, start: int, end: int) -> None:
        self.text = self.text[:start] + " " * (end - start) + self.text[end:]


class QuestionParser:
    """Parses questions against one database's lookup tables (names, as-of date)."""

    def __init__(self, catalog: Catalog, as_of: date | None = None) -> None:
        self.catalog = catalog
        self.as_of = as_of or catalog.latest_publish

    # -- entry point --

    def parse(self, question: object) -> QueryFrame | Refusal:
        """The frame of ``question``, or the reason to refuse it."""
        if not isinstance(question, str) or not question.strip():
            return Refusal("empty")
        if len(question) > MAX_QUESTION_CHARS:
            return Refusal("too_long")
        norm = normalize_arabic(question)
        latin = norm.lower()
        if _SQL_STATEMENT.search(latin) and len(_SQL.findall(latin)) >= 2:
            return Refusal("sql")
        if not re.search(r"[\u0621-\u064a]", norm):
            return Refusal("not_arabic")
        norm = _PUNCTUATION.sub(" ", norm)
        norm = _LOOSE_SEPARATORS.sub(" ", norm)
        norm = re.sub(r"\s+", " ", norm).strip()
        if _MUTATION.search(norm) or _IMPERATIVE_CHANGE.match(norm):
            return Refusal("mutation")
        if _OFF_TASK.search(norm):
            return Refusal("off_task")
        r = _Reading(text=norm, original=norm)
        self._names(r)
        self._dates(r)
        self._values(r)
        self._top_n(r)
        self._places(r)
        self._statuses_and_types(r)
        return self._frame(r)

    # -- passes --

    def _names(self, r: _Reading) -> None:
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", r.text)]
        tokens = [r.text[s:e] for s, e in spans]
        lexical: set[int] = set()
        for m in _KNOWN.finditer(r.text):
            for i, (s, e) in enumerate(spans):
                if s < m.end() and m.start() < e:
                    lexical.add(i)
        for match in self.catalog.names.find(tokens, lexical, _GENERIC):
            field_name = "agency" if match.kind == "agency" else "activity"
            phrase = " ".join(words(" ".join(tokens[match.start : match.end])))
            if len(match.ids) == 1:
                label = self.catalog.label(field_name, match.ids)
            else:
                label = f"«{phrase}»"
            r.conditions.append(Condition(field_name, "in", match.ids, label))
            r.blank(spans[match.start][0], spans[match.end - 1][1])
            r.strong = True

    def _dates(self, r: _Reading) -> None:
        as_of = self.as_of
        for m in list(_HIJRI_YEAR.finditer(r.text)):
            year = int(m.group("y") or m.group("y2"))
            start = lx.HIJRI_NEW_YEAR.get(year)
            end = lx.HIJRI_NEW_YEAR.get(year + 1)
            if start and end:
                r.dates.append(_DateSpan(start, end, f"عام {year}هـ"))
                r.blank(m.start(), m.end())
        for m in list(_YEAR_RANGE.finditer(r.text)):
            a, b = sorted((int(m.group("a")), int(m.group("b"))))
            r.dates.append(_DateSpan(_year_span(a)[0], _year_span(b)[1], f"من عام {a} إلى عام {b}"))
            r.blank(m.start(), m.end())
        for m in list(_QUARTER.finditer(r.text)):
            q_text = m.group("q") or m.group("q2")
            quarter = int(q_text) if q_text.isdigit() else lx.ORDINALS.get(q_text, lx.ORDINALS.get("ال" + q_text, 1))
            year_text = m.group("y") or m.group("y2")
            months = tuple(range(3 * quarter - 2, 3 * quarter + 1))
            if year_text:
                year = int(year_text)
                start = _month_span(year, months[0])[0]
                end = _month_span(year, months[-1])[1]
                r.dates.append(_DateSpan(start, end, f"{_QUARTER_LABELS[quarter]} من عام {year}"))
            else:
                r.dates.append(_DateSpan(None, None, _QUARTER_LABELS[quarter], months))
            r.blank(m.start(), m.end())
        for m in list(_MONTH.finditer(r.text)):
            if m.group("m"):
                month = lx.MONTHS[m.group("m")]
                year_text = m.group("y")
            else:
                month = int(m.group("mn") or m.group("mn2") or m.group("mn3"))
                year_text = m.group("y2") or m.group("y3") or m.group("y4")
            # "اب" (August) and "ماي" are also ordinary words: only with "شهر" or a year.
            if m.group("m") in ("اب", "ماي") and not year_text and "شهر" not in m.group(0):
                continue
            if year_text:
                start, end = _month_span(int(year_text), month)
                r.dates.append(_DateSpan(start, end, f"شهر {_MONTH_LABELS[month]} {year_text}"))
            else:
                r.dates.append(_DateSpan(None, None, f"شهر {_MONTH_LABELS[month]}", (month,)))
            r.blank(m.start(), m.end())
        for m in list(_RELATIVE.finditer(r.text)):
            unit = m.group("u1") or m.group("u2") or "عام"
            if m.group("this1") or m.group("this2"):
                shift, label = 0, {"شهر": "هذا الشهر"}.get(unit, "هذا العام")
            elif m.group("before"):
                shift, label = -2, {"شهر": "الشهر قبل الماضي"}.get(unit, "العام قبل الماضي")
            elif m.group("last"):
                shift, label = -1, {"شهر": "الشهر الماضي"}.get(unit, "العام الماضي")
            else:
                shift, label = 1, {"شهر": "الشهر القادم"}.get(unit, "العام القادم")
            if unit == "شهر":
                first = _add_months(as_of.replace(day=1), shift)
                start, end = _month_span(first.year, first.month)
            else:
                start, end = _year_span(as_of.year + shift)
            r.dates.append(_DateSpan(start, end, label))
            r.blank(m.start(), m.end())
        for m in list(_ROLLING.finditer(r.text)):
            unit = _UNITS[m.group("u")]
            count_text = m.group("n")
            if m.group("last") == "ال" and not re.search(r"(ماضي|اخير|فايت|سابق)", m.group(0)):
                continue
            count = 1
            if count_text:
                count = int(count_text) if count_text.isdigit() else lx.SMALL_NUMBERS.get(count_text, 1)
            elif unit.endswith("2"):
                count = 2
            else:
                trailing = _SMALL_NUMBER.search(m.group(0)[m.end("u") - m.start() :])
                if trailing:
                    count = lx.SMALL_NUMBERS[trailing.group("w")]
            unit = unit.rstrip("2")
            if unit == "day":
                start_day = as_of - timedelta(days=count)
            elif unit == "week":
                start_day = as_of - timedelta(days=7 * count)
            elif unit == "month":
                start_day = _add_months(as_of, -count)
            else:
                start_day = _add_months(as_of, -12 * count)
            unit_label = {"day": "يوم", "week": "أسبوع", "month": "شهر", "year": "سنة"}[unit]
            label = f"خلال آخر {count_text} {m.group('u')}" if count_text and count_text.isdigit() else f"خلال آخر {m.group('u')}"
            if not count_text and not m.group("u").endswith("ين"):
                label = f"خلال آخر {unit_label}"
            end_day = as_of + timedelta(days=1)
            r.dates.append(_DateSpan(start_day.isoformat(), end_day.isoformat(), label))
            r.blank(m.start(), m.end())
        for m in list(_YEAR_BOUND.finditer(r.text)):
            year = int(m.group("y"))
            word = m.group("w")
            if word == "بعد":
                span = _DateSpan(_year_span(year + 1)[0], None, f"بعد عام {year}")
            elif word in ("قبل",):
                span = _DateSpan(None, _year_span(year)[0], f"قبل عام {year}")
            elif word in ("حتى", "لغايه", "الى", "لين"):
                span = _DateSpan(None, _year_span(year)[1], f"حتى نهاية عام {year}")
            else:
                # "من 2024" alone is the year 2024 unless the sentence goes on to another bound.
                span = _DateSpan(_year_span(year)[0], None, f"منذ عام {year}")
                if word == "من":
                    span = _DateSpan(*_year_span(year), f"عام {year}")
            r.dates.append(span)
            r.blank(m.start(), m.end())
        # Plain years: a number 2000-2049 that no comparator or unit claims as an amount.
        for mention in find_numbers(r.text):
            start, end = mention.start, mention.end
            if mention.scaled or mention.percent or mention.decimals or "," in mention.text:
                continue
            if not 2000 <= mention.value <= 2049:
                continue
            before = r.text[max(0, start - 25) : start]
            after = r.text[end : end + 12]
            if _comparator_before(before) and not re.search(r"(عام|سنه)\s*$", before):
                continue
            if re.match(r"\s*(?:ريال|ر\.?س|عرض|عروض|مناقص|منافس|مشروع|مشاريع|جهه|شهر|يوم)", after):
                continue
            year = int(mention.value)
            r.dates.append(_DateSpan(*_year_span(year), f"عام {year}"))
            # Blank the year word that came with it too.
            word = re.search(rf"{_YEAR_WORD}\s*$", before)
            r.blank(start - (len(word.group(0)) if word else 0), end)
        if r.dates:
            r.weak = True

    def _values(self, r: _Reading) -> None:
        for m in list(_REFERENCE_NUMBER.finditer(r.text)):
            r.conditions.append(Condition("reference", "in", (m.group(1),), f"ذات الرقم المرجعي {m.group(1)}"))
            r.blank(m.start(), m.end())
            r.strong = True
        for m in list(_SINGLE_BID.finditer(r.text)):
            bids = 2 if m.group(0).strip().endswith("ين") else 1
            r.values.append(("bids", "=", (float(bids),), "بعرض واحد" if bids == 1 else "بعرضين"))
            r.blank(m.start(), m.end())
        text = r.text
        spans = [(m.start, m.end, m) for m in find_numbers(text) if not m.percent]
        used: set[int] = set()
        # Ranges: "بين مليون و 5 ملايين", "من 100 ألف إلى 500 ألف".
        for i in range(len(spans) - 1):
            (s1, e1, n1), (s2, e2, n2) = spans[i], spans[i + 1]
            between = text[e1:s2]
            before = text[max(0, s1 - 30) : s1]
            opener = re.search(r"(?:^|\s)(?:ما\s)?(?:بين|من|[بم]ن)\s*(?:ال?قيم\w*\s)?$", before)
            if opener and re.fullmatch(r"\s*(?:ريال\s*)?(?:و|الى|الي|لين|لحد|حتى|ل|-)\s*", between):
                first = n1.value
                if n2.scaled and not n1.scaled and first < 1000:
                    # "بين 10 و 20 مليون": the scale word serves both numbers.
                    first *= n2.scale
                low, high = sorted((first, n2.value))
                field_name = self._value_field(text, s1, e2)
                # The bounds as the question wrote them, so that the answer repeats its figures.
                texts = (n1.text, n2.text) if n1.value * (first / n1.value if n1.value else 1) <= n2.value else (n2.text, n1.text)
                label = f"{_FIELD_LABELS[field_name]} بين {_spelled(texts[0])} و{_spelled(texts[1])}{_unit(field_name)}"
                r.values.append((field_name, "between", (low, high), label))
                used.update((i, i + 1))
                r.blank(s1 - len(opener.group(0).lstrip()), e2)
        for i, (start, end, mention) in enumerate(spans):
            if i in used:
                continue
            before = text[max(0, start - 40) : start]
            after = text[end : end + 25]
            op = _comparator_before(before)
            trailing = None
            for pattern, trailing_op in _TRAILING:
                m = pattern.match(after)
                if m:
                    trailing = (trailing_op, m.end())
                    break
            if trailing:
                op = trailing[0]
            if not op:
                continue
            # "اكثر من 5" with no unit and no value word is a count of rows ("أكثر من 5 عروض" has one).
            field_name = self._value_field(text, start, end)
            value = mention.value
            label = f"{_FIELD_LABELS[field_name]} {_OP_LABELS[op]} {_spelled(mention.text)}{_unit(field_name)}"
            r.values.append((field_name, op, (value,), label))
            comparator = _COMPARATOR_TAIL.search(before)
            left = start - (len(comparator.group(0)) if comparator else 0)
            r.blank(left, end + (trailing[1] if trailing else 0))
        if r.values:
            r.weak = True

    @staticmethod
    def _value_field(text: str, start: int, end: int) -> str:
        """Which column a compared number is about, from the words around it."""
        after = text[end : end + 20]
        window = text[max(0, start - 45) : min(len(text), end + 20)]
        if re.match(r"\s*(?:عرض|عروض|متقدم|متنافس|مشارك|عطاء)", after):
            return "bids"
        if re.match(r"\s*(?:شهر|اشهر|شهور|سنه|سنوات)", after):
            return "duration"
        if _BOOKLET.search(window):
            return "booklet"
        if _AWARD.search(window) and not re.search(r"تمت? ال?ترسيه", window):
            return "awarded"
        if _BIDS.search(text[max(0, start - 30) : start]) and not re.match(r"\s*(?:ريال|الف|مليون)", after):
            return "bids"
        if _DURATION.search(text[max(0, start - 30) : start]):
            return "duration"
        return "value"

    def _top_n(self, r: _Reading) -> None:
        text = r.text
        for mention in find_numbers(text):
            start, end = mention.start, mention.end
            if mention.scaled or mention.percent or mention.decimals or not 1 <= mention.value <= 1000:
                continue
            before = text[max(0, start - 20) : start]
            after = text[end : end + 30]
            if _TOP_WORDS.search(before[-12:]) or re.match(
                r"\s*(?:[وفبل]?ال)?(?:مناقص|منافس|مشاريع|مشروع|جهات|جهه|مناطق|منطق|انشطه|نشاط|وزارات|عطاء|صفق)", after
            ):
                r.top_n = int(mention.value)
                r.blank(start, end)
                return
        for m in _SMALL_NUMBER.finditer(text):
            before = text[max(0, m.start() - 20) : m.start()]
            after = text[m.end() : m.end() + 30]
            if _TOP_WORDS.search(before) or re.match(
                r"\s*(?:[وفبل]?ال)?(?:مناقص|منافس|مشاريع|مشروع|جهات|مناطق|انشطه|وزارات|عطاء|صفق)", after
            ):
                value = lx.SMALL_NUMBERS[m.group("w")]
                # "الأولى" / "عشر سنوات" are not top-N; a small number right before a plural noun is.
                r.top_n = value
                r.blank(m.start(), m.end())
                return

    def _places(self, r: _Reading) -> None:
        region_ids: list[int] = []
        for m in list(_REGIONS.finditer(r.text)):
            region_id = _REGION_KEYS[m.lastgroup]  # type: ignore[index]
            if region_id not in region_ids:
                region_ids.append(region_id)
            prefix = _REGION_PREFIX.search(r.text[: m.start()])
            r.blank(prefix.start() if prefix else m.start(), m.end())
        for m in list(_COUNTRY.finditer(r.text)):
            r.blank(m.start(), m.end())
        if region_ids:
            r.conditions.append(
                Condition("region", "in", tuple(region_ids), "في " + self.catalog.label("region", region_ids))
            )
            r.weak = True

    def _statuses_and_types(self, r: _Reading) -> None:
        statuses: list[int] = []
        negated: list[int] = []
        for m in list(_STATUSES.finditer(r.text)):
            status_id = int(_STATUS_KEYS[m.lastgroup])  # type: ignore[index,call-overload]
            negation = _NEGATION.search(r.text[: m.start()])
            target = negated if negation else statuses
            if status_id not in target:
                target.append(status_id)
            r.blank(negation.start() if negation else m.start(), m.end())
        if negated:
            kept = [i for i in self.catalog.statuses if i not in negated]
            label = "غير " + " أو ".join(self.catalog.statuses[i] for i in negated if i in self.catalog.statuses)
            r.conditions.append(Condition("status", "in", tuple(kept), label))
            r.strong = True
        types: list[int] = []
        for m in list(_TYPES.finditer(r.text)):
            type_id = _TYPE_KEYS[m.lastgroup]  # type: ignore[index]
            if type_id not in types:
                types.append(type_id)
            # "المنافسات العامة" names a type and is still about tenders: keep the noun readable.
            noun = re.match(r"(?:[وفبل]?ال)?(?:منافس|مناقص)(?:ه|ات)", m.group(0).lstrip())
            r.blank(m.start() + (noun.end() if noun else 0), m.end())
            if noun:
                r.text = r.text[: m.start()] + m.group(0)[: noun.end()] + r.text[m.start() + noun.end() :]
        if statuses:
            r.conditions.append(
                Condition("status", "in", tuple(statuses), "ذات الحالة " + self.catalog.label("status", statuses))
            )
            r.strong = True
        if types:
            r.conditions.append(
                Condition("type", "in", tuple(types), "من نوع " + self.catalog.label("type", types))
            )
            r.strong = True

    # -- the frame --

    def _frame(self, r: _Reading) -> QueryFrame | Refusal:
        # "آخر موعد لتقديم العروض" names the deadline column; its "آخر" is no "newest".
        text = _DEADLINE.sub(lambda m: " " * len(m.group(0)), r.text)
        dims = self._dimensions(text)
        # The tender noun inside or right after a dimension noun ("أنواع المناقصات", "طرق الطرح")
        # names the dimension only.
        tender_hits = [
            th
            for th in _TENDER.finditer(text)
            if not any(
                (d.start <= th.start() < d.end) or (d.plural and not d.cued and 0 <= th.start() - d.end <= 1)
                for d in dims
            )
        ]
        has_tender = bool(tender_hits)
        has_project = bool(_PROJECT.search(text)) or (bool(_PROJECT_ADJ.search(text)) and not has_tender)
        superlatives = [(m, lx.SUPERLATIVE_TERMS[m.group("w")]) for m in _SUPERLATIVE.finditer(text)]
        count_cue = next((m for m in _COUNT.finditer(text) if not _COLUMN_AFTER_COUNT.match(text, m.end())), None)
        sum_cue = _SUM.search(text)
        avg_cue = _AVG.search(text)
        value_word = _VALUE.search(text)
        column = self._column(text, has_project)
        recent = _RECENT.search(text)
        oldest = _OLDEST.search(text)
        soonest = _SOONEST.search(text) if has_project else None
        off_topic = _OFF_TOPIC.search(text)
        question_form = _QUESTION_FORM.search(r.original) or "?" in r.original
        # Award, booklet and bid words are procurement words in their own right.
        specific_column = column in ("awarded", "bids", "booklet")

        entity: str | None = "projects" if has_project else "tenders" if has_tender else None

        # Which dimensions are asked about: cued ("حسب المنطقة"), ranked ("أكثر منطقة"),
        # counted ("كم جهة") or asked for ("أي جهة ...", "ما الجهات التي طرحت ...").
        ranked_dims = [d for d in dims if any(_near(m, d) for m, _ in superlatives)]
        counted_dim = next((d for d in dims if count_cue and 0 <= d.start - count_cue.end() <= 6), None)
        which_dim = next(
            (d for d in dims if any(0 <= d.start - w.end() <= 2 for w in _WHICH.finditer(text))), None
        )

        if entity is None:
            lookup = next((d for d in dims if d.dimension in _LOOKUP_TABLES), None)
            if lookup and (off_topic or lookup.cued or ranked_dims or (superlatives and which_dim)):
                lookup = None
            if lookup and lookup.dimension == "region" and not lookup.plural and not count_cue:
                # "منطقة الرياض" was read as a place; a lone singular "منطقة" is no list request.
                lookup = None if any(c.field == "region" for c in r.conditions) else lookup
            if lookup:
                return self._lookup_frame(lookup, r, count_cue)
            if r.strong or specific_column or (dims and (any(d.cued for d in dims) or ranked_dims) and not off_topic):
                entity = "tenders"
            elif (r.weak or value_word) and not off_topic and question_form and not self._unexplained(text):
                entity = "tenders"
            else:
                return Refusal("off_topic" if off_topic else "unknown")

        conditions = self._conditions(r, entity)
        if entity == "projects" and column == "awarded":
            column = "value"

        group_dims: list[str] = []
        if _COMPARE.search(text):
            for c in conditions:
                if c.field in _DISTINCT_FIELDS and c.op == "in" and len(c.values) > 1 and not c.label.startswith("غير"):
                    group_dims.append(c.field)
                    break
        if _SHARE.search(text) and not group_dims and not dims:
            share = self._share_frame(entity, conditions)
            if share:
                return share
        for d in dims:
            if d.cued or d in ranked_dims or (d is which_dim and (superlatives or not count_cue)):
                if d.dimension not in group_dims and not (entity == "projects" and d.dimension == "status"):
                    group_dims.append(d.dimension)

        # Count of distinct dimension values: "كم جهة طرحت مناقصات".
        if counted_dim and counted_dim.dimension in _DISTINCT_FIELDS and not counted_dim.cued and not ranked_dims:
            return QueryFrame(
                entity=entity,
                measure="count_distinct",
                distinct_of=counted_dim.dimension,
                conditions=tuple(conditions),
            )

        # The measure: average, total, count, or rows.
        kam_value = bool(count_cue and _VALUE.match(text, count_cue.end() + 1) if count_cue else False)
        kam_value = kam_value or bool(count_cue and re.match(r"\s+(?:تبلغ|يبلغ|بلغت|مجموع|اجمالي)\s", text[count_cue.end():]))
        if avg_cue:
            measure = "avg"
        elif sum_cue and (value_word or specific_column or not count_cue):
            measure = "sum"
        elif kam_value and not superlatives:
            measure = "sum"
        elif count_cue and not (superlatives and value_word):
            measure = "count"
        else:
            measure = "rows"

        direction = superlatives[0][1] if superlatives else None
        if group_dims:
            ranked = bool(ranked_dims) or (which_dim is not None and bool(superlatives))
            group_metric = measure if measure in ("sum", "avg") else "count"
            if group_metric == "count" and (value_word or specific_column) and not count_cue:
                group_metric = "sum"
            if superlatives and not ranked:
                # "أعلى قيمة في كل منطقة": the extreme within each group.
                group_metric = "max" if direction == "desc" else "min"
            limit = None
            if ranked:
                singular = all(not d.plural for d in dims if d.dimension in group_dims)
                limit = r.top_n or (1 if singular else lx.DEFAULT_TOP_N)
            return QueryFrame(
                entity=entity,
                measure=group_metric,
                column=column if group_metric != "count" else None,
                group_by=tuple(group_dims[:2]),
                conditions=tuple(conditions),
                order=(direction or "desc") if ranked else "desc",
                limit=limit,
                ranked=ranked,
            )

        if measure in ("sum", "avg", "count"):
            return QueryFrame(entity=entity, measure=measure, column=column, conditions=tuple(conditions))

        # Rows: ranked by a column, or the newest/oldest, or all matching rows.
        if superlatives:
            m = superlatives[0][0]
            order_column = column
            if m.group("w") in ("اطول", "اقصر") and entity == "projects":
                order_column = "duration"
            limit = r.top_n or (lx.DEFAULT_TOP_N if _plural_after(text, m.end()) else 1)
            return QueryFrame(
                entity=entity,
                measure="rows",
                column=order_column,
                conditions=tuple(conditions),
                order=direction,
                limit=limit,
                ranked=True,
            )
        if recent or oldest or soonest:
            cue = recent or oldest or soonest
            order = "asc" if (oldest or soonest) else "desc"
            date_column = "deadline" if entity == "tenders" and _DEADLINE.search(r.original) else "date"
            limit = r.top_n or (lx.DEFAULT_TOP_N if _plural_after(text, cue.end()) else 1)
            return QueryFrame(
                entity=entity, measure="rows", column=date_column, conditions=tuple(conditions),
                order=order, limit=limit, ranked=True,
            )
        if r.top_n:
            return QueryFrame(
                entity=entity, measure="rows", column=column, conditions=tuple(conditions),
                order="desc", limit=r.top_n, ranked=True,
            )
        return QueryFrame(entity=entity, measure="rows", column=None, conditions=tuple(conditions))

    @staticmethod
    def _share_frame(entity: str, conditions: list[Condition]) -> QueryFrame | None:
        """"نسبة المناقصات الملغاة في الرياض": the share of the rows meeting the status, type,
        value and name conditions among the rows meeting the place and time conditions."""
        part = tuple(c for c in conditions if c.field not in _BASE_FIELDS)
        base = tuple(c for c in conditions if c.field in _BASE_FIELDS)
        if not part:
            return None
        return QueryFrame(entity=entity, measure="share", conditions=base, share_of=part)

    def _conditions(self, r: _Reading, entity: str) -> list[Condition]:
        """The reading's filters as conditions on ``entity`` (dates on its date column)."""
        conditions = list(r.conditions)
        date_field = "deadline" if entity == "tenders" and _DEADLINE.search(r.original) else "date"
        for span in r.dates:
            if span.month_of_year:
                conditions.append(Condition(date_field, "month_in", span.month_of_year, span.label))
            else:
                conditions.append(Condition(date_field, "date_range", (span.start, span.end), span.label))
        for field_name, op, values, label in r.values:
            if entity == "tenders" and field_name == "duration":
                field_name = "value"
            if entity == "projects" and field_name in ("awarded", "bids", "booklet"):
                field_name = "value"
            conditions.append(Condition(field_name, op, values, label))
        if entity == "projects":
            conditions = [c for c in conditions if c.field not in ("status", "deadline")]
        return conditions

    def _lookup_frame(self, d: _Dimension, r: _Reading, count_cue: re.Match[str] | None) -> QueryFrame:
        table = _LOOKUP_TABLES[d.dimension]
        conditions = tuple(c for c in r.conditions if table == "agencies" and c.field in ("region", "agency"))
        measure = "count" if count_cue else "rows"
        return QueryFrame(entity=table, measure=measure, conditions=conditions)

    def _column(self, text: str, projects: bool) -> str:
        """The measured column named by the words left in the question."""
        if _BIDS.search(text):
            return "bids"
        if _BOOKLET.search(text):
            return "booklet"
        if _AWARD.search(text):
            return "awarded"
        if projects and _DURATION.search(text):
            return "duration"
        return "value"

    def _dimensions(self, text: str) -> list[_Dimension]:
        found = []
        near_cues = [m.end() for m in _GROUP_CUE.finditer(text)]
        spread = _SPREAD_CUE.search(text)
        for m in _DIMENSIONS.finditer(text):
            dimension = str(_DIMENSION_KEYS[m.lastgroup])  # type: ignore[index]
            word = m.group(0)
            plural = bool(_PLURAL_DIMENSION.search(word))
            cued = (
                any(0 <= m.start() - end <= 4 for end in near_cues)
                or bool(re.search(r"(سنويا|شهريا)$", word))
                or bool(spread and spread.start() < m.start())
            )
            found.append(_Dimension(dimension, m.start(), m.end(), plural, cued))
        return found

    @staticmethod
    def _unexplained(text: str) -> list[str]:
        """Words left that the vocabulary does not explain (a sign the question is about something else)."""
        rest = _FILLERS.sub(" ", text)
        rest = _KNOWN.sub(" ", rest)
        return [w for w in rest.split() if len(w) > 1 and not w.isdigit()]


@dataclass(frozen=True)
class _Dimension:
    dimension: str
    start: int
    end: int
    plural: bool
    cued: bool


_LOOKUP_TABLES = {
    "region": "regions",
    "type": "tender_types",
    "status": "tender_statuses",
    "activity": "activities",
    "agency": "agencies",
}
_DISTINCT_FIELDS = ("region", "agency", "activity", "type", "status")
_BASE_FIELDS = ("region", "date", "deadline")
_COMPARE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:قارن|مقارنه|قارنلي|مقابل|ضد|versus|vs)(?!\w)")
_SHARE = re.compile(r"(?<!\w)(?:[وفب]?ال)?(?:نسب(?:ه|تها)|حص(?:ه|تها)|%|بالميه|في الميه)(?!\w)")


def _plural_after(text: str, position: int) -> bool:
    """Whether the noun after a superlative is plural ("أعلى المناقصات") rather than singular
    ("أعلى مناقصة", "أقل قيمة")."""
    following = text[position:].split()
    return bool(following) and bool(
        re.match(r"[وفبل]?(?:ال)?(?:مناقصات|منافسات|مشاريع|مشروعات|عطاءات|صفقات|قيم|عقود)$", following[0])
    )


def _near(m: re.Match[str], d: _Dimension) -> bool:
    """A superlative that qualifies a dimension noun: right before it ("أكثر منطقة", "أكثر 3 جهات")
    or right after it ("المنطقة الأكثر")."""
    return 0 <= d.start - m.end() <= 6 or 0 <= m.start() - d.end <= 2


# --- comparators ----------------------------------------------------------------------------------

_VALUE_WORDS_TAIL = r"(?:\s+(?:[وفب]?ال)?(?:قيم\w*|تقديري\w*|اجمالي\w*|مبلغ\w*|ترسي\w*|مرسا\w*|عقد|كراس\w*|سعر\w*|تكلف\w*|مد\w*|عدد|عروض\w*|ميزاني\w*))*"
_COMPARATOR_TAIL = re.compile(
    r"(?:(?<!\w)(?:" + "|".join(p for p, _ in lx.COMPARATOR_TERMS) + r")" + _VALUE_WORDS_TAIL + r")\s*$"
)
_COMPARATOR_PARTS = [
    (re.compile(r"(?<!\w)(?:" + p + r")" + _VALUE_WORDS_TAIL + r"\s*$"), op) for p, op in lx.COMPARATOR_TERMS
]
_TRAILING = [(re.compile(r"\s*(?:ريال\s*)?(?:" + p + r")(?!\w)"), op) for p, op in lx.TRAILING_COMPARATORS]


def _comparator_before(before: str) -> str | None:
    """The comparison operator that ends ``before`` (the text just before a number), if any."""
    before = re.sub(r"(?:ال)?(?:ريال|ر\.?س)\s*$", "", before)
    for pattern, op in _COMPARATOR_PARTS:
        if pattern.search(before):
            return op
    return None


_REFERENCE_NUMBER = re.compile(r"(?<![\d.,])(\d{12})(?![\d.,])")
_SINGLE_BID = re.compile(r"(?<!\w)(?:[بل]?(?:عرض|عطاء|متقدم) واحد(?: فقط| بس)?|[بل]?عرضين|[بل]?متقدمين اثنين)(?!\w)")


_SPELLINGS = {"الف": "ألف", "الاف": "آلاف", "الفين": "ألفين", "نص": "نصف", "ميه": "مئة", "مايه": "مئة"}


def _spelled(text: str) -> str:
    """A number as the question wrote it, with the hamza that normalization folded back on."""
    return " ".join(_SPELLINGS.get(word, word) for word in text.split())


_FIELD_LABELS = {
    "value": "بقيمة تقديرية",
    "awarded": "بقيمة ترسية",
    "bids": "بعدد عروض",
    "booklet": "بسعر كراسة",
    "duration": "بمدة",
}
_OP_LABELS = {">": "أكثر من", ">=": "لا تقل عن", "<": "أقل من", "<=": "لا تتجاوز", "=": "تساوي"}


def _unit(field_name: str) -> str:
    return {"value": " ريال", "awarded": " ريال", "booklet": " ريال", "duration": " شهراً", "bids": ""}[field_name]


def apply_filters(frame: QueryFrame, filters: Mapping[str, object], parser: QuestionParser) -> QueryFrame:
    """``frame`` narrowed by the caller's ``filters`` (region, year, status, type: names or ids);
    raises ValueError naming a filter it cannot read."""
    extra: list[Condition] = []
    catalog = parser.catalog
    for key, raw in filters.items():
        if raw is None or raw == "":
            continue
        key_norm = str(key).strip().lower()
        if key_norm in ("region", "region_id", "المنطقه", "منطقه"):
            ids = _resolve(raw, catalog.regions, _REGIONS, _REGION_KEYS, "region")
            extra.append(Condition("region", "in", ids, "في " + catalog.label("region", ids)))
        elif key_norm in ("status", "status_id", "الحاله", "حاله"):
            ids = _resolve(raw, catalog.statuses, _STATUSES, _STATUS_KEYS, "status")
            extra.append(Condition("status", "in", ids, "ذات الحالة " + catalog.label("status", ids)))
        elif key_norm in ("type", "tender_type", "tender_type_id", "النوع", "نوع"):
            ids = _resolve(raw, catalog.types, _TYPES, _TYPE_KEYS, "type")
            extra.append(Condition("type", "in", ids, "من نوع " + catalog.label("type", ids)))
        elif key_norm in ("year", "السنه", "سنه", "عام"):
            if isinstance(raw, bool) or not isinstance(raw, (int, str)):
                raise ValueError(f"filter 'year' must be a year such as 2024, got {raw!r}")
            text = normalize_arabic(str(raw)).strip()
            hijri = re.fullmatch(r"(14\d\d)\s?(?:ه|هـ|هجري)?", text)
            if hijri and int(hijri.group(1)) in lx.HIJRI_NEW_YEAR and int(hijri.group(1)) + 1 in lx.HIJRI_NEW_YEAR:
                year = int(hijri.group(1))
                span = (lx.HIJRI_NEW_YEAR[year], lx.HIJRI_NEW_YEAR[year + 1])
            elif re.fullmatch(r"\d{4}", text) and 1900 <= int(text) <= 2100:
                span = _year_span(int(text))
            else:
                raise ValueError(f"filter 'year' must be a year such as 2024, got {raw!r}")
            extra.append(Condition("date", "date_range", span, "في السنة المحددة"))
    if not extra:
        return frame
    if frame.entity in ("tenders", "projects"):
        usable = [c for c in extra if not (frame.entity == "projects" and c.field == "status")]
    elif frame.entity == "agencies":
        usable = [c for c in extra if c.field == "region"]
    else:
        usable = []
    return replace(frame, conditions=frame.conditions + tuple(usable))


def _resolve(
    raw: object, table: Mapping[int, str], pattern: re.Pattern[str], keys: Mapping[str, object], name: str
) -> tuple[int, ...]:
    """Ids for a filter value given as an id, a list of ids, or an Arabic name."""
    if isinstance(raw, bool):
        raise ValueError(f"filter {name!r} must be a name or an id, got {raw!r}")
    if isinstance(raw, (list, tuple)):
        ids: list[int] = []
        for item in raw:
            ids.extend(_resolve(item, table, pattern, keys, name))
        if not ids:
            raise ValueError(f"filter {name!r} is empty")
        return tuple(dict.fromkeys(ids))
    if isinstance(raw, int) or (isinstance(raw, str) and normalize_arabic(raw).strip().isdigit()):
        value = int(normalize_arabic(str(raw)).strip())
        if value in table:
            return (value,)
        raise ValueError(f"filter {name!r}: no {name} with id {value}")
    if isinstance(raw, str):
        text = normalize_arabic(raw)
        for entity_id, label in table.items():
            if normalize_arabic(label) == text:
                return (entity_id,)
        found = [int(keys[m.lastgroup]) for m in pattern.finditer(text) if m.lastgroup]  # type: ignore[call-overload]
        if found:
            return tuple(dict.fromkeys(found))
        raise ValueError(f"filter {name!r}: unknown {name} {raw!r}")
    raise ValueError(f"filter {name!r} must be a name or an id, got {type(raw).__name__}")
