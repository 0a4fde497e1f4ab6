"""Arabic question -> QueryFrame (or Refusal): a rule-based semantic parser. Its walk (READERS,
then ``intent.frame_of``, then SHAPERS) is described in docs/internals.md; both are tables, so a
new kind of phrase is a line in one, not an edit of the walk."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, NamedTuple

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, join_compound_names, word_variants, words
from nabahan_pipeline.reference_agent.parser.comparison import (
    difference_frame, group_each, periods_compared, read_difference,
)
from nabahan_pipeline.reference_agent.parser.date_reading import apply_date_extreme, read_all_dates, read_date_columns
from nabahan_pipeline.reference_agent.parser.dates import year_span
from nabahan_pipeline.reference_agent.parser.frame import Condition, Parse, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.intent import (
    account_intent, consumed_words, frame_of, ignored_words, two_tables, unused_words,
)
from nabahan_pipeline.reference_agent.parser.names import (
    AgencyGroups, EnglishNames, asked_as_group, is_family, lookup_frame, names_rows, narrow_by_word_before,
    read_lookup_cue, whole_name,
)
from nabahan_pipeline.reference_agent.parser.patterns import (
    COMPARE, COUNTRY, FILLERS, FIRST_NEGATION, GENERIC_WORDS, IMPERATIVE_CHANGE, KNOWN, LOOSE_SEPARATORS, MUTATION,
    NEGATION, NEGATION_GOES_ON, NEITHER, NO_REGION, OFF_TASK, OFF_TOPIC, PUNCTUATION, REGIONS, REGION_KEYS,
    REGION_PREFIX, SQL, SQL_STATEMENT, STATUSES, STATUS_KEYS, TYPES, TYPE_KEYS, UNHELD, UNHELD_KEYS, blanked_by,
    corrected, dialect_negation, elided_names, modified_groups, name_neighbours, name_words, negated_conjunct,
    or_across_kinds, read_each, relative_ma, rephrased, unread_negations,
)
from nabahan_pipeline.reference_agent.parser.reading import (
    AWARDED_STATUS, Reading, pass_over, read_awards, read_order, read_value_group, sort_column,
)
from nabahan_pipeline.reference_agent.parser.values import (
    read_column_comparisons, read_durations, read_ordinal, read_threshold, read_top_n, read_values, with_threshold,
)


MAX_QUESTION_CHARS = 1000


class QuestionParser:
    """Parses questions against one database's lookup tables (names, as-of date)."""

    def __init__(self, catalog: Catalog, as_of: date | None = None) -> None:
        self.catalog = catalog
        self.as_of = as_of or catalog.latest_publish
        self.english_names = EnglishNames(catalog)
        self.agency_groups = AgencyGroups(catalog)
        # A tender's name as the cleaned question writes it -> as the data writes it, by first
        # word, the longest first.
        self.tender_names: dict[str, list[tuple[str, str]]] = defaultdict(list)
        keyed = ((_cleaned(normalize_arabic(name)), name) for name in catalog.tender_names)
        for key, name in sorted(keyed, key=lambda pair: -len(pair[0])):
            if len(key.split()) >= 2:
                self.tender_names[key.split()[0]].append((key, name))
        # The names' words a one-letter typo is read back to ("جامعة الملك سعوود").
        names = [*catalog.agencies.values(), *catalog.activities.values()]
        self.name_words, self.name_neighbours = name_words(names), name_neighbours(names)

    # -- entry point --

    def parse(self, question: object) -> QueryFrame | Refusal:
        """The frame of ``question``, or the reason to refuse it."""
        return self.read(question).frame

    def read(self, question: object) -> Parse:
        """``question`` read: its frame or refusal, what each part consumed, the words left over
        (a content word left over refuses it: answering without it would answer another question).
        A question refused so is read again without side clauses, then with typos read back."""
        if not isinstance(question, str) or len(question) > MAX_QUESTION_CHARS:
            return self._read(question)
        text = _cleaned(rephrased(normalize_arabic(question)))
        threshold = read_threshold(text)
        if threshold:
            # "المناطق التي يتجاوز إجمالي ... 5 مليارات": the rest asked of every group.
            grouped = self._read(threshold.question)
            frame = with_threshold(grouped.frame, threshold) if isinstance(grouped.frame, QueryFrame) else None
            if frame:
                return replace(grouped, frame=frame)
        parse = self._read(question)
        if not (isinstance(parse.frame, Refusal) and parse.frame.reason in _TYPO_REASONS):
            return parse
        for reworded, unused in self._clause_readings(normalize_arabic(question)):
            # A greeting or a preface in a clause of its own, a place or time fronted before it.
            again = self._read_typos(reworded, _cleaned(rephrased(reworded)))
            if isinstance(again.frame, QueryFrame):
                return replace(again, frame=replace(again.frame, unused=unused)) if unused else again
        again = self._read_typos(question, text)
        return again if isinstance(again.frame, QueryFrame) else parse

    def _read_typos(self, question: str, text: str) -> Parse:
        """``question`` read; refused as not understood, read once more with its one-letter typos
        read back (``text``: it cleaned), the insight saying which."""
        parse = self._read(question)
        if not (isinstance(parse.frame, Refusal) and parse.frame.reason in _TYPO_REASONS):
            return parse
        fixed, understood = corrected(text, self.name_words, self.name_neighbours)
        if not understood:
            return parse
        again = self._read(fixed)
        if not isinstance(again.frame, QueryFrame):
            return parse
        return replace(again, frame=replace(again.frame, understood=understood))

    def _clause_readings(self, norm: str) -> list[tuple[str, tuple[str, ...]]]:
        """Other readings of a refused question (normalized) split into clauses at its punctuation:
        a place or time fronted in a clause of its own put back after the question ("في المنطقة
        الشرقية، ما إجمالي ..."); and the question without its side clauses ("بصراحة محتار، كم
        ..."; "...؟ سؤال بسيط"), with the words they held."""
        clauses = [c.strip() for c in _CLAUSE_BREAK.split(norm) if c and c.strip()]
        if len(clauses) < 2:
            return []
        readings: list[tuple[str, tuple[str, ...]]] = []
        if _FRONTED.match(clauses[0]):
            readings.append((" ".join(clauses[1:] + clauses[:1]), ()))
        core, dropped = list(clauses), []
        while len(core) > 1 and self._side_clause(core[0], leading=True):
            dropped.append(core.pop(0))
        while len(core) > 1 and self._side_clause(core[-1], leading=False):
            dropped.append(core.pop())
        if len(core) < len(clauses):
            # The words the insight names: a greeting or a filler goes without saying.
            unused = " ".join(FILLERS.sub(" ", _cleaned(clause)) for clause in dropped).split()
            readings.append((" ".join(core), tuple(w for w in unused if _CONTENT_WORD.search(w))))
        return readings

    def _side_clause(self, clause: str, *, leading: bool) -> bool:
        """Whether ``clause`` changes nothing a question asks: read alone it is refused, consumes
        fillers and question words only, and holds no number; words not understood only before
        the question, none after a preposition (where a filter would stand)."""
        if re.search(r"\d", clause):
            return False
        parse = self._read(clause)
        if not (isinstance(parse.frame, Refusal) and parse.frame.reason in _TYPO_REASONS):
            return False
        if any(part not in _SIDE_PARTS for part, _ in parse.consumed):
            return False
        if parse.leftover and not leading:
            return False
        words = clause.split()
        return not any(
            (i and _PREPOSITION.fullmatch(words[i - 1])) or _WITH_PREPOSITION.match(word)
            for i, word in enumerate(words) if word in parse.leftover
        )

    def _read(self, question: object) -> Parse:
        if not isinstance(question, str) or not question.strip():
            return Parse(Refusal("empty"))
        if len(question) > MAX_QUESTION_CHARS:
            return Parse(Refusal("too_long"))
        norm = normalize_arabic(question)
        latin = norm.lower()
        if SQL_STATEMENT.search(latin) and len(SQL.findall(latin)) >= 2:
            return Parse(Refusal("sql"))
        if not re.search(r"[\u0621-\u064a]", norm):
            return Parse(Refusal("not_arabic"))
        norm = _cleaned(rephrased(norm))
        if MUTATION.search(norm) or IMPERATIVE_CHANGE.match(norm):
            return Parse(Refusal("mutation"))
        if OFF_TASK.search(norm):
            return Parse(Refusal("off_task"))
        unheld = UNHELD.search(norm)
        if unheld:
            topic = str(UNHELD_KEYS[unheld.lastgroup])  # type: ignore[index]
            reason = "off_topic" if topic in lx.OFF_TOPIC_SUBJECTS else "unheld"
            return Parse(Refusal(reason, (unheld.group(0).strip(),), topic))
        r = Reading(text=norm, original=norm, question=question)
        consumed: list[tuple[str, tuple[str, ...]]] = []
        owners: dict[int, str] = {}  # which pass read each offset (for "أو" between kinds)
        found: dict[str, Found] = {}
        for reader in READERS:
            before = r.text
            result = reader.read(self, r)
            words = consumed_words(before, r.text)
            found[reader.part] = Found(result, words)
            if result if reader.filed_when_found else words:
                consumed.append((reader.part, words))
                if reader.owns:
                    owners.update(blanked_by(before, r.text, reader.part))
        unread = unread_negations(r.text, r.original) + or_across_kinds(r.text, r.original, owners) + relative_ma(r.original)
        unread += elided_names(r.original, owners, {c.field for c in r.conditions}) + modified_groups(r.original, owners)
        intent, leftover = account_intent(r.text)
        leftover = unread + leftover  # "كم منافسة ما هي في 2024": a negation no pass read
        consumed += intent
        if r.general:
            # "كم عدد الجامعات في السعودية": general knowledge, not the data's few agencies.
            return Parse(Refusal("off_topic", r.general), tuple(consumed))
        if r.ambiguous:
            # A name that could be several agencies: the apology names them.
            return Parse(Refusal("ambiguous", tuple(n for _, names in r.ambiguous for n in names)), tuple(consumed))
        if r.unplaced_dates:
            # A Hijri date the calendar cannot place: refused by name, never answered for other dates.
            return Parse(Refusal("unplaced_date", tuple(r.unplaced_dates)), tuple(consumed), leftover)
        if r.ungrouped_periods:
            return Parse(Refusal("not_understood", tuple(r.ungrouped_periods)), tuple(consumed), tuple(r.ungrouped_periods))
        frame = self._frame(r, found)
        for shape in SHAPERS:
            if isinstance(frame, QueryFrame):
                frame = shape(self, frame, r, found)
        order = found["order"].result
        if isinstance(frame, Refusal):
            frame = Refusal(frame.reason, leftover or frame.words)
        elif leftover:
            off_topic = any(OFF_TOPIC.fullmatch(w) for w in leftover)
            frame = Refusal("off_topic" if off_topic else "not_understood", leftover)
        else:
            # Words read but not used: two date phrases (ANDed, they would ask for no day at
            # all) or a part of the question the frame has no place for.
            ignored = ignored_words(frame, tuple(consumed)) + unused_words(frame, tuple(consumed), r.original)
            if len(r.dates) > 1 and not frame.sides and "year" not in frame.group_by:
                ignored = dict(consumed).get("date", ()) + ignored
            ignored += two_tables(r.original)
            if not (frame.group_by or frame.sides or frame.ranked) and frame.entity in ("tenders", "projects"):
                # "قارن ..." with nothing compared side by side would answer one figure.
                ignored += tuple(w for part, words in consumed if part == "grouping" for w in words if COMPARE.fullmatch(w))
            if order and frame.ranked and frame.order != order:
                ignored += next(words for part, words in consumed if part == "order")
            if ignored:
                frame = Refusal("not_understood", ignored)
                leftover = ignored
        return Parse(frame, tuple(consumed), leftover)

    def _frame(self, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
        """The frame the walk read, before the shapers: a reference table looked up, or what the
        words left ask for (``intent.frame_of``), a date asked for itself read in."""
        difference, lookup = found["difference"].result, found["lookup"].result
        if not difference:
            # (A difference takes two names as its two sides.)
            r.conditions = _union_of_names(r.conditions)
        if lookup and lookup.kind == "located" and names_rows(r):
            # "المنافسات التابعة لوزارة الصحة": of the agency, said of tenders, is no lookup.
            lookup = None
        if lookup:
            return lookup_frame(r, lookup) if not difference else Refusal("not_understood", lookup.words)
        return apply_date_extreme(frame_of(r), r, self.as_of)

    # -- passes --

    def _tender_names(self, r: Reading) -> None:
        """A tender named whole after its noun or a naming word ("منافسة أعمال الترميم بالعلا",
        "اسمها توريد أجهزة طبية"): those tenders, by their exact name."""
        for cue in list(_TENDER_NAME_CUE.finditer(r.text)):
            start = cue.end()
            first = r.text[start:].split(" ", 1)[0]
            for key, name in self.tender_names.get(first, ()):
                end = start + len(key)
                if r.text.startswith(key, start) and (end == len(r.text) or r.text[end] == " "):
                    r.add([Condition("tender_name", "in", (name,), f"باسم «{name}»")], strong=True)
                    naming = cue.group("naming")
                    r.blank(cue.start("naming") if naming else start, end)
                    break

    def _agency_groups(self, r: Reading) -> None:
        """Groups of agencies named by a plural ("الجامعات", "التجمعات الصحية")."""
        r.text, conditions, r.general = self.agency_groups.read(r.text)
        r.add(conditions, strong=True)

    def _names(self, r: Reading) -> None:
        """Agency and activity names, matched against the database's names."""
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", r.text)]
        tokens = [r.text[s:e] for s, e in spans]
        lexical: set[int] = set()
        for m in KNOWN.finditer(r.text):
            for i, (s, e) in enumerate(spans):
                if s < m.end() and m.start() < e:
                    lexical.add(i)
        # In the question's order, so that two names compared ("الفرق بين X وY") keep it.
        for match in sorted(self.catalog.names.find(tokens, lexical, GENERIC_WORDS), key=lambda m: m.start):
            field_name = "agency" if match.kind == "agency" else "activity"
            phrase = " ".join(words(" ".join(tokens[match.start : match.end])))
            ids, end = match.ids, match.end
            if len(ids) > 1 and end < len(tokens):
                # "أمانة جدة", "أمانة الشرقية": the word after a shared name picks the one it names.
                following = word_variants(tokens[end])
                named = tuple(i for i in ids if following & set(words(self.catalog.label(field_name, (i,)))))
                if len(named) == 1 and tokens[end] not in ("في", "من", "او", "و"):
                    ids, end = named, end + 1
            first = match.start
            if field_name == "agency" and len(ids) > 1 and first > 0:
                # "هيئة المياه": the word before a shared name picks the ones it names.
                named = narrow_by_word_before(self.catalog, field_name, ids, tokens[first - 1])
                if named:
                    ids, first = named, first - 1
                    phrase = " ".join(words(" ".join(tokens[first:end])))
            group = asked_as_group(tokens, first, end) if field_name == "agency" and len(ids) > 1 else None
            if group:
                # "كل جهات الحرس الوطني": every agency whose name holds the phrase.
                first, end = group
            elif field_name == "agency" and len(ids) > 1:
                # "جامعة الملك سعود": that agency alone, not also one whose longer name holds it.
                ids = whole_name(self.catalog, field_name, ids, phrase.split()) or ids
                if len(ids) > 1 and not is_family(self.catalog, field_name, ids, phrase.split()):
                    r.ambiguous.append((phrase, tuple(self.catalog.agencies[i] for i in ids)))
            # An answer over a few agencies names them: never one figure for two unsaid.
            named = len(ids) == 1 or (field_name == "agency" and len(ids) <= _NAMED_AGENCIES)
            label = self.catalog.label(field_name, ids) if named else f"«{phrase}»"
            start = spans[first][0]
            negation = _negation(r, start)
            if negation:
                noun = "الجهة" if field_name == "agency" else "نشاط"
                r.add([Condition(field_name, "not_in", ids, f"من غير {noun} {label}")], strong=True)
                start = negation.start()
            else:
                r.add([Condition(field_name, "in", ids, label)], strong=True)
            r.blank(start, spans[end - 1][1])

    def _dates(self, r: Reading) -> None:
        """Every date phrase, Gregorian and Hijri, relative ones counted from ``as_of``."""
        reading = read_all_dates(r.text, self.as_of)
        r.text = reading.text
        r.unplaced_dates += reading.unplaced
        r.ungrouped_periods += reading.ungrouped
        r.dates += reading.spans
        if reading.spans:
            r.weak = True

    def _values(self, r: Reading) -> None:
        """Reference numbers and figures compared with a threshold or a range."""
        r.text, references, comparisons = read_values(r.text)
        r.add(references, strong=True)
        r.values += comparisons
        if comparisons:
            r.weak = True

    def _top_n(self, r: Reading) -> None:
        """The N of a top-N, and an ordinal rank ("رابع منطقة")."""
        r.text, r.rank, r.rank_words = read_ordinal(r.text)
        r.text, r.top_n = read_top_n(r.text)

    def _places(self, r: Reading) -> None:
        """Regions and the cities named for them; the whole country is no filter."""
        r.take(read_each(NO_REGION, r.text, lambda m, _: _NO_REGION), strong=False)
        region_ids: list[int] = []
        outside: list[int] = []
        negated_end = -1  # where the last negated place ended
        for m in list(REGIONS.finditer(r.text)):
            region_id = REGION_KEYS[m.lastgroup]  # type: ignore[index]
            prefix = REGION_PREFIX.search(r.text[: m.start()])
            start = prefix.start() if prefix else m.start()
            negation = _negation(r, start)
            joined = negated_end >= 0 and bool(NEGATION_GOES_ON.match(r.text[negated_end:start]))
            target = outside if (negation or joined) else region_ids
            negated_end = m.end() if (negation or joined) else -1
            if region_id not in target:
                target.append(region_id)
            r.blank(negation.start() if negation else start, m.end())
        if outside:
            label = "خارج " + self.catalog.label("region", outside)
            r.add([Condition("region", "not_in", tuple(outside), label)], strong=False)
        r.text = COUNTRY.sub(lambda m: " " * len(m.group(0)), r.text)
        if region_ids:
            phrase = self.catalog.phrase("region", region_ids)
            r.add([Condition("region", "in", tuple(region_ids), phrase)], strong=False)

    def _statuses_and_types(self, r: Reading) -> None:
        """Tender statuses (negated ones too: "غير الملغاة") and tender types."""
        statuses: list[int] = []
        negated: list[int] = []
        for m in list(STATUSES.finditer(r.text)):
            status_id = int(STATUS_KEYS[m.lastgroup])  # type: ignore[index,call-overload]
            negation = _negation(r, m.start())
            target = negated if negation else statuses
            if status_id not in target:
                target.append(status_id)
            r.blank(negation.start() if negation else m.start(), m.end())
        if negated:
            kept = [i for i in self.catalog.statuses if i not in negated]
            label = "غير " + " أو ".join(self.catalog.statuses[i] for i in negated if i in self.catalog.statuses)
            r.add([Condition("status", "in", tuple(kept), label)], strong=True)
        types: list[int] = []
        other_types: list[int] = []
        for m in list(TYPES.finditer(r.text)):
            type_id = TYPE_KEYS[m.lastgroup]  # type: ignore[index]
            negation = _negation(r, m.start())
            target = other_types if negation else types
            if type_id not in target:
                target.append(type_id)
            if negation:
                r.blank(negation.start(), m.start())
            # "المنافسات العامة" names a type and is still about tenders: keep the noun readable.
            noun = re.match(r"(?:[وفبل]?ال)?(?:منافس|مناقص)(?:ه|ات)", m.group(0).lstrip())
            r.blank(m.start() + (noun.end() if noun else 0), m.end())
        if statuses:
            phrase = self.catalog.phrase("status", statuses)
            r.add([Condition("status", "in", tuple(statuses), phrase)], strong=True)
        if types:
            r.add([Condition("type", "in", tuple(types), self.catalog.phrase("type", types))], strong=True)
        if other_types:
            label = "من غير نوع " + self.catalog.label("type", other_types)
            r.add([Condition("type", "not_in", tuple(other_types), label)], strong=True)


class Found(NamedTuple):
    """What one reader of the walk returned, and the words it consumed."""

    result: Any
    words: tuple[str, ...]


@dataclass(frozen=True)
class Reader:
    """One pass of the walk over the working copy: ``read`` blanks out what it understands and
    returns what the steps after the walk need (or None); its consumed words are filed under
    ``part`` when it consumed any (or, with ``filed_when_found``, when it returned something), and
    with ``owns`` the offsets it blanked count as its own (for "أو" between kinds)."""

    part: str
    read: Callable[[QuestionParser, Reading], Any]
    filed_when_found: bool = False
    owns: bool = True


# The walk, in order: each reader sees only what the readers before it left. A new kind of phrase
# is a reader function and its line here (and, when it changes the frame, a shaper below).
READERS: tuple[Reader, ...] = (
    Reader("tender_name", QuestionParser._tender_names),
    # A duration said in years or months, before "سنة" is read as a date.
    Reader("duration", lambda parser, r: r.take(read_durations(r.text), strong=False)),
    # Names written in English, and agencies' initials ("KSU").
    Reader("english_name", lambda parser, r: r.take(parser.english_names.read(r.text, r.question), strong=True)),
    Reader("agency_group", QuestionParser._agency_groups),
    Reader("name", QuestionParser._names),
    Reader("date", QuestionParser._dates),
    # The deadline, enquiry or opening date the question is about, and what it says of it.
    Reader("date_column", lambda parser, r: read_date_columns(r, parser.as_of)),
    # The awarded value against the estimated value of the same tender.
    Reader("column_comparison", lambda parser, r: r.take(read_column_comparisons(r.text), strong=True)),
    Reader("value", QuestionParser._values),
    Reader("top_n", QuestionParser._top_n),
    Reader("region", QuestionParser._places),
    Reader("status_type", QuestionParser._statuses_and_types),
    Reader("award", lambda parser, r: read_awards(r, parser.catalog.phrase("status", [AWARDED_STATUS]))),
    # Words that change nothing asked ("المسجلة"، "تعود إلى"), where safe to pass over.
    Reader("passed_over", lambda parser, r: pass_over(r, parser.catalog.names)),
    # After every filter: a grouping by a column's values, the order, a lookup cue, a difference.
    Reader("grouping", lambda parser, r: read_value_group(r), filed_when_found=True, owns=False),
    Reader("order", lambda parser, r: read_order(r), filed_when_found=True, owns=False),
    Reader("lookup", lambda parser, r: read_lookup_cue(r), filed_when_found=True, owns=False),
    Reader("difference", lambda parser, r: read_difference(r), owns=False),
)

Shaper = Callable[[QuestionParser, QueryFrame, Reading, dict[str, Found]], "QueryFrame | Refusal"]


def _difference(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
    difference = found["difference"].result
    return difference_frame(frame, difference, r, parser.catalog) if difference else frame


def _value_grouped(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
    column, cue = found["grouping"]
    return _grouped_by_value(frame, column, cue) if column else frame


def _sorted(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
    """"رتب المنافسات حسب القيمة": every row, sorted by that column."""
    sort = sort_column(r.original)
    if not (sort and frame.measure == "rows" and not frame.ranked and not frame.group_by):
        return frame
    column, sort_words = sort
    if column not in _SORTABLE_COLUMNS.get(frame.entity, ()):
        return Refusal("not_understood", sort_words)
    return replace(frame, ranked=True, column=column, order=found["order"].result or "desc")


def _groups_ordered(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
    """"من الأقل للأكثر": every group, in that order. (A ranking's order picks its rows: "أعلى 5
    ... تصاعدياً" is refused after the shapers rather than read as the lowest five.)"""
    order = found["order"].result
    return replace(frame, order=order) if order and frame.group_by and not frame.ranked else frame


def _from_rank(parser: QuestionParser, frame: QueryFrame, r: Reading, found: dict[str, Found]) -> QueryFrame | Refusal:
    """"رابع منطقة": the ranking's rows from that rank on; an ordinal nothing ranks is unread."""
    if not r.rank:
        return frame
    first, count = r.rank
    ranked = frame.ranked and frame.limit is not None and not r.top_n
    return replace(frame, offset=first - 1, limit=count) if ranked else Refusal("not_understood", r.rank_words)


# What the walk read, applied in order to the frame while it is one (a refusal stops them).
SHAPERS: tuple[Shaper, ...] = (
    _difference,
    lambda parser, frame, r, found: periods_compared(frame, r),
    lambda parser, frame, r, found: group_each(frame, r.original),
    _value_grouped,
    _sorted,
    _groups_ordered,
    _from_rank,
)


def _cleaned(norm: str) -> str:
    """A normalized question with punctuation and loose separators out, one space between words
    and each compound name in one word: the text every pass reads."""
    norm = LOOSE_SEPARATORS.sub(" ", PUNCTUATION.sub(" ", norm))
    return join_compound_names(re.sub(r"\s+", " ", norm).strip())


# What comes before a tender's name: its noun or a naming word ("بعنوان", "اسمها").
_TENDER_NAME_CUE = re.compile(
    r"(?<!\w)(?:(?:[وفبل]?(?:ال)?|لل)(?:منافس|مناقص)(?:ه|ات)\s(?P<naming>(?:اسمها|اسمه|بعنوان|عنوانها|باسم|المسماه)\s)?"
    r"|(?P<naming2>(?:اسمها|بعنوان|عنوانها|باسم|المسماه))\s)"
)
# Where a clause ends: Arabic and Latin punctuation, a full stop or comma not inside a number.
_CLAUSE_BREAK = re.compile(r"[،؛:؟?!]|(?<!\d)[.,]|[.,](?!\d)")
# A place or time fronted in a clause of its own ("في المنطقة الشرقية، ...", "خلال 2025، ...").
_FRONTED = re.compile(r"(?:في|خلال|بال|داخل|ضمن)\s")
# The parts a side clause may consume: fillers and the words that only carry a question.
_SIDE_PARTS = frozenset({"filler", "question"})
_CONTENT_WORD = re.compile(r"[^\W\d_]{2,}")
# An unknown word right after a preposition stands where a filter would ("في الزلفاوية").
_PREPOSITION = re.compile(r"[وف]?(?:في|من|خلال|داخل|عند|لدي|الي|علي|حتي|منذ|بعد|قبل)")
_WITH_PREPOSITION = re.compile(r"[وف]?(?:بال|لل|كال)")

# The refusals a typo may cause: words left over, or no question read at all.
_TYPO_REASONS = frozenset({"not_understood", "unknown"})

# Up to this many agencies read from one phrase are named in the insight, beyond it the phrase.
_NAMED_AGENCIES = 6

# Tenders with no region ("اللي ما لها منطقة محددة").
_NO_REGION = Condition("region", "is_null", (), "التي لا منطقة محددة لها")
# The columns each table's rows can be sorted by.
_SORTABLE_COLUMNS = {
    "tenders": ("value", "awarded", "bids", "booklet", "date"),
    "projects": ("value", "duration", "date"),
}


def _union_of_names(conditions: list[Condition]) -> list[Condition]:
    """"منافسات وزارة الصحة وجامعة الملك سعود": two names of one kind are the tenders of either
    (and "أيهما أكثر: X أو Y" compares them). ANDed, two disjoint names would ask for tenders of two
    agencies at once: none. Names that share ids ("جامعة الملك سعود" among "الجامعات") stay
    ANDed: the one within the other."""
    for field_name in ("agency", "activity"):
        named = [c for c in conditions if c.field == field_name and c.op == "in"]
        if len(named) < 2:
            continue
        ids = [i for c in named for i in c.values]
        if len(ids) != len(set(ids)):
            continue
        union = Condition(field_name, "in", tuple(ids), " و".join(c.label for c in named))
        at = conditions.index(named[0])
        conditions = [c for c in conditions if c not in named]
        conditions.insert(at, union)
    return conditions


def _grouped_by_value(frame: QueryFrame, column: str, cue: tuple[str, ...]) -> QueryFrame | Refusal:
    """``frame`` grouped by the values of ``column`` ("لكل سعر كراسة"): a count (or the total or
    average it asks for) per value; refused when the frame asks for something else or its table
    has no such column (future projects have no booklet, tenders no duration)."""
    held = {"tenders": ("booklet", "bids"), "projects": ("duration",)}.get(frame.entity, ())
    if column not in held or frame.group_by or frame.sides or frame.ranked:
        return Refusal("not_understood", cue)
    measure = frame.measure if frame.measure in ("sum", "avg") else "count"
    if frame.measure not in ("rows", "count", "sum", "avg"):
        return Refusal("not_understood", cue)
    return replace(frame, measure=measure, group_by=(column,), column=frame.column if measure != "count" else None)


def _negation(r: Reading, start: int) -> re.Match[str] | None:
    """The negation right before ``start`` in the working text ("غير", "باستثناء", "ما طرحتها"),
    or "ولا" when the question negated once already ("لا ملغاة ولا منتهية")."""
    before = r.text[:start]
    negation = NEGATION.search(before)
    if negation:
        return negation
    neither = NEITHER.search(before)
    if neither and FIRST_NEGATION.search(r.original[: neither.start()]):
        return neither
    # "في جازان ما هي شراء مباشر", "مب ملغاة", "مو في جدة"; "ما عدا الملغاة والمنتهية".
    return dialect_negation(r.text, r.original, start) or negated_conjunct(r.text, r.original, start)


# --- filters --------------------------------------------------------------------------------------

# The caller's filter keys by the field each names, and the terms a name given is read with.
_FILTER_KEYS = {
    "region": ("region", "region_id", "المنطقه", "منطقه"), "status": ("status", "status_id", "الحاله", "حاله"),
    "type": ("type", "tender_type", "tender_type_id", "النوع", "نوع"), "year": ("year", "السنه", "سنه", "عام"),
}
_FILTER_TERMS = {"region": (REGIONS, REGION_KEYS), "status": (STATUSES, STATUS_KEYS), "type": (TYPES, TYPE_KEYS)}


def apply_filters(frame: QueryFrame, filters: Mapping[str, object], parser: QuestionParser) -> QueryFrame:
    """``frame`` narrowed by the caller's ``filters`` (region, year, status, type: names or ids);
    raises ValueError naming a filter it cannot read."""
    extra: list[Condition] = []
    catalog = parser.catalog
    for key, raw in filters.items():
        if raw is None or raw == "":
            continue
        key_norm = str(key).strip().lower()
        field_name = next((name for name, keys in _FILTER_KEYS.items() if key_norm in keys), "")
        if field_name in _FILTER_TERMS:
            ids = _resolve(raw, catalog.table(field_name), *_FILTER_TERMS[field_name], field_name)
            extra.append(Condition(field_name, "in", ids, catalog.phrase(field_name, ids)))
        elif field_name == "year":
            if isinstance(raw, bool) or not isinstance(raw, (int, str)):
                raise ValueError(f"filter 'year' must be a year such as 2024, got {raw!r}")
            text = normalize_arabic(str(raw)).strip()
            hijri = re.fullmatch(r"(14\d\d)\s?(?:ه|هـ|هجري)?", text)
            if hijri and int(hijri.group(1)) in lx.HIJRI_NEW_YEAR and int(hijri.group(1)) + 1 in lx.HIJRI_NEW_YEAR:
                year = int(hijri.group(1))
                span = (lx.HIJRI_NEW_YEAR[year], lx.HIJRI_NEW_YEAR[year + 1])
            elif re.fullmatch(r"\d{4}", text) and 1900 <= int(text) <= 2100:
                span = year_span(int(text))
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
