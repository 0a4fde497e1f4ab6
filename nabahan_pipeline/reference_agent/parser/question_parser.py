"""Arabic question -> QueryFrame: what table, what measure, grouped by what, under which filters.

A rule-based semantic parser. The question is normalized (``normalize_arabic``) and refused
outright when it is SQL, not Arabic, a request to change data or a task that is no question; then
it is read in passes over a working copy in which every phrase a pass understands is blanked out,
so that later passes do not read it again: agency and activity names (from the database), dates,
figures, top-N, places, statuses and tender types; what is left says what is asked (``intent``).
"""

from __future__ import annotations

import re
from datetime import date

from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.reference_agent import lexicon as lx
from nabahan_pipeline.reference_agent.lookup_catalog import Catalog, word_variants, words
from nabahan_pipeline.reference_agent.parser.awards import AWARDED_STATUS, read_awards
from nabahan_pipeline.reference_agent.parser.date_columns import apply_date_extreme, read_date_columns
from nabahan_pipeline.reference_agent.parser.date_reading import read_all_dates
from nabahan_pipeline.reference_agent.parser.accounting import account_intent, consumed_words, ignored_words
from nabahan_pipeline.reference_agent.parser.frame import Condition, Parse, QueryFrame, Refusal
from nabahan_pipeline.reference_agent.parser.intent import frame_of
from nabahan_pipeline.reference_agent.parser.per_value import group_each
from nabahan_pipeline.reference_agent.parser.patterns import (
    COUNTRY,
    GENERIC_WORDS,
    IMPERATIVE_CHANGE,
    KNOWN,
    LOOSE_SEPARATORS,
    MUTATION,
    NEGATION,
    NEGATION_GOES_ON,
    NEITHER,
    FIRST_NEGATION,
    NO_REGION,
    OFF_TASK,
    OFF_TOPIC,
    PUNCTUATION,
    REGION_KEYS,
    REGION_PREFIX,
    REGIONS,
    SQL,
    SQL_STATEMENT,
    STATUS_KEYS,
    STATUSES,
    TYPE_KEYS,
    TYPES,
    UNHELD,
    UNHELD_KEYS,
)
from nabahan_pipeline.reference_agent.parser.reading import Reading
from nabahan_pipeline.reference_agent.parser.values import read_top_n, read_values

MAX_QUESTION_CHARS = 1000


class QuestionParser:
    """Parses questions against one database's lookup tables (names, as-of date)."""

    def __init__(self, catalog: Catalog, as_of: date | None = None) -> None:
        self.catalog = catalog
        self.as_of = as_of or catalog.latest_publish

    # -- entry point --

    def parse(self, question: object) -> QueryFrame | Refusal:
        """The frame of ``question``, or the reason to refuse it."""
        return self.read(question).frame

    def read(self, question: object) -> Parse:
        """``question`` read: its frame or refusal, what each part consumed, the words left over.
        A content word left over refuses the question (``not_understood``): answering without it
        would answer a different question."""
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
        norm = PUNCTUATION.sub(" ", norm)
        norm = LOOSE_SEPARATORS.sub(" ", norm)
        norm = re.sub(r"\s+", " ", norm).strip()
        if MUTATION.search(norm) or IMPERATIVE_CHANGE.match(norm):
            return Parse(Refusal("mutation"))
        if OFF_TASK.search(norm):
            return Parse(Refusal("off_task"))
        unheld = UNHELD.search(norm)
        if unheld:
            topic = str(UNHELD_KEYS[unheld.lastgroup])  # type: ignore[index]
            reason = "off_topic" if topic in lx.OFF_TOPIC_SUBJECTS else "unheld"
            return Parse(Refusal(reason, (unheld.group(0).strip(),), topic))
        r = Reading(text=norm, original=norm)
        consumed: list[tuple[str, tuple[str, ...]]] = []
        for part, read_part in (
            ("name", self._names),
            ("date", self._dates),
            ("date_column", self._date_columns),
            ("value", self._values),
            ("top_n", self._top_n),
            ("region", self._places),
            ("status_type", self._statuses_and_types),
            ("award", self._awards),
        ):
            before = r.text
            read_part(r)
            words = consumed_words(before, r.text)
            if words:
                consumed.append((part, words))
        intent, leftover = account_intent(r.text)
        consumed += intent
        frame = group_each(apply_date_extreme(frame_of(r), r, self.as_of), r.original)
        if r.unplaced_dates:
            # A Hijri date the calendar cannot place: refused by name, never answered for other dates.
            return Parse(Refusal("unplaced_date", tuple(r.unplaced_dates)), tuple(consumed), leftover)
        if r.ungrouped_periods:
            return Parse(Refusal("not_understood", tuple(r.ungrouped_periods)), tuple(consumed), tuple(r.ungrouped_periods))
        if isinstance(frame, Refusal):
            frame = Refusal(frame.reason, leftover)
        elif leftover:
            off_topic = any(OFF_TOPIC.fullmatch(w) for w in leftover)
            frame = Refusal("off_topic" if off_topic else "not_understood", leftover)
        else:
            # Words read but not used: two date phrases (ANDed, they would ask for no day at
            # all) or a part of the question the frame has no place for.
            ignored = ignored_words(frame, tuple(consumed))
            if len(r.dates) > 1:
                ignored = dict(consumed).get("date", ()) + ignored
            if ignored:
                frame = Refusal("not_understood", ignored)
                leftover = ignored
        return Parse(frame, tuple(consumed), leftover)

    # -- passes --

    def _names(self, r: Reading) -> None:
        """Agency and activity names, matched against the database's names."""
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", r.text)]
        tokens = [r.text[s:e] for s, e in spans]
        lexical: set[int] = set()
        for m in KNOWN.finditer(r.text):
            for i, (s, e) in enumerate(spans):
                if s < m.end() and m.start() < e:
                    lexical.add(i)
        for match in self.catalog.names.find(tokens, lexical, GENERIC_WORDS):
            field_name = "agency" if match.kind == "agency" else "activity"
            phrase = " ".join(words(" ".join(tokens[match.start : match.end])))
            ids, end = match.ids, match.end
            if len(ids) > 1 and end < len(tokens):
                # "أمانة جدة", "أمانة الشرقية": the word after a shared name picks the one it names.
                following = word_variants(tokens[end])
                named = tuple(i for i in ids if following & set(words(self.catalog.label(field_name, (i,)))))
                if len(named) == 1 and tokens[end] not in ("في", "من", "او", "و"):
                    ids, end = named, end + 1
            if len(ids) == 1:
                label = self.catalog.label(field_name, ids)
            else:
                label = f"«{phrase}»"
            start = spans[match.start][0]
            negation = _negation(r, start)
            if negation:
                noun = "الجهة" if field_name == "agency" else "نشاط"
                r.conditions.append(Condition(field_name, "not_in", ids, f"من غير {noun} {label}"))
                start = negation.start()
            else:
                r.conditions.append(Condition(field_name, "in", ids, label))
            r.blank(start, spans[end - 1][1])
            r.strong = True

    def _dates(self, r: Reading) -> None:
        """Years, months, quarters and periods, Gregorian and Hijri, relative ones counted from
        ``as_of`` (``date_reading``)."""
        reading = read_all_dates(r.text, self.as_of)
        r.text = reading.text
        r.unplaced_dates += reading.unplaced
        r.ungrouped_periods += reading.ungrouped
        r.dates += reading.spans
        if reading.spans:
            r.weak = True

    def _date_columns(self, r: Reading) -> None:
        """The deadline, enquiry or opening date the question is about, and what it says of it."""
        read_date_columns(r, self.as_of)

    def _awards(self, r: Reading) -> None:
        """Awards as a noun ("عدد الترسيات"), and the dates of awarded tenders worded as publish dates."""
        read_awards(r, "ذات الحالة " + self.catalog.label("status", [AWARDED_STATUS]))

    def _values(self, r: Reading) -> None:
        """Reference numbers and figures compared with a threshold or a range."""
        r.text, references, comparisons = read_values(r.text)
        r.conditions += references
        if references:
            r.strong = True
        r.values += comparisons
        if comparisons:
            r.weak = True

    def _top_n(self, r: Reading) -> None:
        """The N of a top-N."""
        r.text, r.top_n = read_top_n(r.text)

    def _places(self, r: Reading) -> None:
        """Regions and the cities named for them; the whole country is no filter."""
        for m in list(NO_REGION.finditer(r.text)):
            r.conditions.append(Condition("region", "is_null", (), "التي لا منطقة محددة لها"))
            r.blank(m.start(), m.end())
            r.weak = True
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
            r.conditions.append(
                Condition("region", "not_in", tuple(outside), "خارج " + self.catalog.label("region", outside))
            )
            r.weak = True
        for m in list(COUNTRY.finditer(r.text)):
            r.blank(m.start(), m.end())
        if region_ids:
            r.conditions.append(
                Condition("region", "in", tuple(region_ids), "في " + self.catalog.label("region", region_ids))
            )
            r.weak = True

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
            r.conditions.append(Condition("status", "in", tuple(kept), label))
            r.strong = True
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
        if other_types:
            r.conditions.append(
                Condition("type", "not_in", tuple(other_types), "من غير نوع " + self.catalog.label("type", other_types))
            )
            r.strong = True


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
    return None
