"""An insight read into claims: each number (or "none", yes/no, a direction, a superlative) with
what it is attached to in its clause: the row label it speaks of, its measure word, its
comparator.

A number takes the label right after it when only a unit noun and a preposition stand between
("300 في جدة", "300 منافسة لجدة"); else the labels between it and the number before it in its
clause ("جدة 1,204 ومكة 860": مكة is 860's); else, weakly, the label of the number before it in
its sentence ("الرياض (60 مناقصة، 37%)"). Labels of two columns name the rows both hold
("الرياض ... الملغاة"); two labels of one column leave the number unattached.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from nabahan_pipeline.arabic.numbers import NumberMention
from nabahan_pipeline.evaluation.claims import words
from nabahan_pipeline.evaluation.claims.folding import Folded, fold, phrase_pattern
from nabahan_pipeline.evaluation.claims.labels import Label, RowLabels, entity_pattern


@dataclass(frozen=True)
class Attachment:
    """The rows a claim's labels name, and the labels; ``strong`` unless only inherited from the
    number before it in the sentence."""

    rows: frozenset[int]
    labels: tuple[Label, ...]
    strong: bool = True

    @property
    def text(self) -> str:
        return " ".join(label.text for label in self.labels)


@dataclass(frozen=True)
class Claim:
    """One claim of an insight. ``kind``: number, none, yes_no, direction, superlative, ranking
    (a numbered list of rows, or a bulleted one a ranking sentence opens, ``labels`` in its order),
    ordinal (a row's place: ``sign`` the place, ``labels`` the row), ratio (``labels`` two rows,
    the first ``factor`` times the second). ``text`` is what the insight wrote (its label and
    number, or its word); ``sign`` is +1/-1 for yes/no, a rise/fall and most/least; ``numbers`` are a direction's "from X to Y" or a range's "بين X و Y"
    (comparator "range"); ``clause`` the span of a superlative's or a number's clause."""

    kind: str
    text: str
    start: int
    mention: NumberMention | None = None
    attachment: Attachment | None = None
    measure: str | None = None
    comparator: str | None = None
    sign: int = 0
    labels: tuple[Label, ...] = ()
    numbers: tuple[NumberMention, ...] = ()
    clause: tuple[int, int] = (0, 0)
    negated: bool = False  # "ليست الأعلى", "لا تتصدر": the claim is that the row is not the extreme
    factor: float = 0.0  # a ratio's: "ضعف" 2, "ثلث" 1/3 (its comparator: >, <, ~ or None, about equal)


def _negated_any() -> str:
    """A negation, one or two words, then "أي": "لم تطرح أي"، "لم يتم طرح أي"."""
    negations = "|".join(map(re.escape, words.NONE_NEGATIONS))
    anys = "|".join(map(re.escape, words.NONE_ANY))
    return rf"(?<![\w])(?:[وف]?)(?:{negations})\s+(?:[^\W\d]+\s+){{1,2}}(?:{anys})(?![\w])"


@functools.cache  # built once from the word tables: constants
def _patterns() -> dict[str, re.Pattern[str]]:
    return {
        "measure": phrase_pattern(words.MEASURES),
        "comparator": phrase_pattern(words.COMPARATORS),
        "direction": phrase_pattern(words.DIRECTIONS),
        "superlative": phrase_pattern(words.SUPERLATIVES),
        "none": re.compile(phrase_pattern(words.NONE_PHRASES).pattern + "|" + _negated_any()),
        "clause_word": phrase_pattern(words.CLAUSE_WORDS, proclitics=False),
        "ratio": phrase_pattern([*words.RATIOS, *words.MULTIPLES]),
        "ordinal": phrase_pattern([*words.ORDINAL_ADVERBS, *words.DEFINITE_ORDINALS]),
    }


SENTENCE_END = re.compile(r"[!?؟\n]|\.(?!\d)|(?<!\d)\.")
_CLAUSE_END = re.compile(r"[,،;؛]|\s-\s")
# The numbering of a list: "1) الرياض", and at a line's start "1. الرياض", "1- الرياض".
_NUMBERING = re.compile(r"\s*\)")
_LINE_NUMBERING = re.compile(r"\s*[.\-]\s")


def _is_numbering(insight: str, mention: NumberMention) -> bool:
    """A list's numbering: "1) الرياض" (no "(" open before it), "1. الرياض" at a line's start."""
    if mention.percent or mention.scaled or not mention.value.is_integer():
        return False
    before = insight[: mention.start]
    if _NUMBERING.match(insight, mention.end):
        return before.count("(") <= before.count(")")
    return _LINE_NUMBERING.match(insight, mention.end) is not None and not before.split("\n")[-1].strip(" -*•")


def _strip_proclitic(word: str, table: dict[str, object]) -> str | None:
    return next((word[cut:] for cut in (0, 1, 2) if word[cut:] in table), None)


@dataclass(frozen=True)
class _Spans:
    """Sentence and clause boundaries of the original text (sorted start offsets)."""

    sentences: tuple[int, ...]
    clauses: tuple[int, ...]

    def sentence(self, position: int) -> int:
        return bisect.bisect_right(self.sentences, position)

    def clause(self, position: int) -> int:
        return bisect.bisect_right(self.clauses, position)


# A measure noun with a pronoun ("قيمتها"، "عددها") opening a clause: its figure is the row named before.
_PRONOUN = re.compile(r"(?<!\w)[وف]?(?:قيمتها|قيمته|عددها|عدده|حصتها|حصته|نسبتها|نسبته|متوسطها|متوسطه|مجموعها|اجماليها)(?!\w)")


@dataclass(frozen=True)
class _Text:
    """An insight as each reader of a kind of claim takes it: its row labels, the words of each
    table (``_patterns``) with their spans, its numbers (``mentions``: not a ratio's multiplier,
    "ثلاثة أضعاف"), its sentences and clauses, and each comparator's number."""

    insight: str
    folded: Folded
    labels: list[Label]
    words: dict[str, list[tuple[int, int, re.Match[str]]]]
    every_number: list[NumberMention]
    mentions: list[NumberMention]
    spans: _Spans
    comparators: dict[int, tuple[str, tuple[int, int]]]

    def span(self, starts: tuple[int, ...], position: int) -> tuple[int, int]:
        """The span of the sentence or clause (``starts``: where each starts) ``position`` is in."""
        i = bisect.bisect_right(starts, position)
        return (starts[i - 1] if i else 0), (starts[i] if i < len(starts) else len(self.insight))

    def measure_around(self, start: int, end: int, span: tuple[int, int]) -> str | None:
        """The measure a word at ``start``..``end`` speaks of: the measure word after it in ``span``,
        else the one before it, else "value" where ``span`` speaks of a value."""
        insight, measures = self.insight, self.words["measure"]
        return (_measure(measures, end, span[1], insight) or _measure(measures, span[0], start, insight)
                or sentence_measure(insight[span[0] : span[1]]))

    def said(self, table: str, words_of: dict[str, object]) -> Iterator[tuple[int, int, str]]:
        """Each word of ``table`` the insight says, bare of its proclitics, with its span."""
        for start, end, match in self.words[table]:
            word = _strip_proclitic(match.group(0), words_of)
            if word is not None:
                yield start, end, word


def read_claims(insight: str, labels: RowLabels, folded: Folded | None = None) -> list[Claim]:
    """The claims ``insight`` makes about the rows whose labels are ``labels``, in order
    (``folded``: the insight folded, when the caller has it)."""
    if not insight:
        return []
    folded = folded or Folded.of(insight)
    found = labels.find(folded)
    starts = [label.start for label in found]  # in order, apart: a number is within the last before it or none
    every_number = [m for m in folded.numbers
                    if not (k := bisect.bisect_right(starts, m.start)) or m.end > found[k - 1].end]
    words_found = {name: list(folded.find(pattern)) for name, pattern in _patterns().items()}
    mentions = [m for m in every_number if not _multiplier(insight, m)]  # "ثلاثة أضعاف": the ratio's factor
    spans = _boundaries(folded, words_found["clause_word"], found, mentions)
    comparators = _comparators(words_found["comparator"], insight, mentions, spans)
    text = _Text(insight, folded, found, words_found, every_number, mentions, spans, comparators)
    claims = [claim for reader in _READERS for claim in reader(text)]
    asked = _questions_to_the_user(insight, spans)
    return sorted((claim for claim in claims if not any(s <= claim.start < e for s, e in asked)),
                  key=lambda claim: claim.start)


def _numbers(text: _Text) -> list[Claim]:
    """Each number with what it is attached to (see the module docstring), its measure word, its
    comparator or range, and whether its clause denies it; two labels of no one row as a pairing."""
    insight, found, mentions, spans = text.insight, text.labels, text.mentions, text.spans
    claims: list[Claim] = []
    clause_word_starts = {start for start, _, _ in text.words["clause_word"]}
    ranges = _ranges(insight, mentions, spans)
    taken: set[int] = set()  # labels taken by the number before them ("300 في جدة")
    # The last number's sentence, attachment, clause and end.
    previous: tuple[int, Attachment | None, int, int] | None = None
    for k, mention in enumerate(mentions):
        if k - 1 in ranges:
            continue  # a range's upper end: one claim with its lower end
        clause_start, clause_end = text.span(text.spans.clauses, mention.start)
        same = k and spans.clause(mentions[k - 1].start) == spans.clause(mention.start)
        before_end = mentions[k - 1].end if same else clause_start
        numbering = _is_numbering(insight, mention)
        attachment = None if numbering else _following_label(insight, mention, found, mentions[k + 1 :], spans)
        if attachment is not None:
            taken |= {label.start for label in attachment.labels}
        if attachment is None and not numbering:
            before_it = [l for l in found if l.start not in taken and before_end <= l.start and l.end <= mention.start]
            attachment = _group(before_it)
            apart = _apart(before_it) if attachment is None else None
            if apart is not None:
                claims.append(Claim("pairing", " / ".join(label.text for label in apart), apart[0].start, labels=apart))
        in_sentence = previous is not None and previous[0] == spans.sentence(mention.start) and previous[1]
        if attachment is None and not numbering and in_sentence:
            # The label of the number before: its own in one clause ("المنتهية 2,614 (11.8%)"), weakly
            # across a comma; not past a new subject ("والاتفاقية الإطارية: 497", "مقابل 709").
            same_clause = previous[2] == spans.clause(mention.start)
            after_label = max(label.end for label in previous[1].labels)
            closed = after_label < mention.start and re.search(r"[^\W\d]", insight[after_label : mention.start])
            if closed and after_label > previous[3]:
                pass  # "500 في 2022 إلى 3,852": the label closed the number before
            elif same_clause or _continues(insight[clause_start : mention.start], clause_start in clause_word_starts):
                attachment = Attachment(previous[1].rows, previous[1].labels, strong=same_clause and previous[1].strong)
        if attachment is None and not numbering and _PRONOUN.search(fold(insight[clause_start : mention.start])):
            # "أعلى سنة 2026، قيمتها قرابة 15 مليار": "ها" is the row the sentence named before
            sentence_start = spans.sentences[spans.sentence(mention.start) - 1]
            earlier = [l for l in found if sentence_start <= l.start and l.end <= clause_start]
            if earlier and len(earlier[-1].rows) == 1:
                attachment = Attachment(earlier[-1].rows, (earlier[-1],), strong=False)
        previous = (spans.sentence(mention.start), attachment, spans.clause(mention.start), mention.end)
        comparator, span = text.comparators.get(k, (None, None))
        if comparator is None and _approximated_after(insight, mention):
            comparator = "~"
        pair: tuple[NumberMention, ...] = ()
        if k in ranges:
            comparator, pair, span = "range", (mention, mentions[k + 1]), (ranges[k], mentions[k + 1].end)
        measure = _measure(text.words["measure"], before_end, mention.start, insight)
        written = f"{attachment.text} {mention.text}" if attachment and attachment.strong else mention.text
        if comparator == "range":
            written = insight[span[0] : span[1]]
        elif comparator and comparator != "~" and span:
            written = f"{insight[span[0]:span[1]]} {mention.text}"
        negated = comparator is None and _denied(insight[clause_start : mention.start])
        sentence_start = spans.sentences[spans.sentence(mention.start) - 1]
        if comparator is None and not negated and (k == 0 or mentions[k - 1].end < sentence_start):
            # the sentence's first figure: a denial that opens the sentence governs it across the
            # commas of a list ("لم يبلغ عدد المناقصات في تبوك، نجران والجوف 1,148")
            opening = insight[sentence_start : mention.start]
            negated = bool(re.match(r"\W*[وف]?(?:لم|لن|ليس|ليست)\s+[^\W\d]", opening)) and _denied(opening)
        claims.append(Claim("number", written.strip(), mention.start, mention, attachment, measure, comparator,
                            numbers=pair, clause=(clause_start, clause_end), negated=negated))
    return claims


def _questions_to_the_user(insight: str, spans: _Spans) -> list[tuple[int, int]]:
    """The sentences that end in a question mark: a question put to the user ("هل ترغب في قائمة
    بأعلى 5 جهات؟") or the question restated; what they hold is no claim about the rows."""
    ends = (*spans.sentences[1:], len(insight))
    return [(start, end) for start, end in zip(spans.sentences, ends)
            if insight[start:end].rstrip()[-1:] in ("?", "؟")]


_BETWEEN = re.compile(r"(?:(?<!\w)ما\s+)?(?<!\w)(?:بين|between)\s+$")


def _ranges(insight: str, mentions: list[NumberMention], spans: _Spans) -> dict[int, int]:
    """"بين 1,000 و1,500": number index of the lower end -> where "بين" starts; the two ends
    are one claim, that the figure lies in the range."""
    found: dict[int, int] = {}
    for k, (low, high) in enumerate(zip(mentions, mentions[1:])):
        window = max(0, low.start - 16)
        opening = _BETWEEN.search(insight[window : low.start])
        between = fold(insight[low.end : high.start]).split()
        joined = bool(between) and between[-1] in ("و", "and") and len(between) <= 2
        glued = insight[high.start - 1 : high.start] == "و" and len(between) <= 1  # "و1,500"
        if (opening and (joined or glued or insight[low.end : high.start].strip() in ("-", "–"))
                and spans.sentence(low.start) == spans.sentence(high.start) and low.value < high.value):
            found[k] = window + opening.start()
    return found


def _boundaries(
    folded: Folded, clause_words: list, labels: list[Label], mentions: list[NumberMention]
) -> _Spans:
    """Where the sentences and clauses of the insight ``folded`` start."""
    insight = folded.original
    sentences = {0}
    clauses = {0}
    in_number = {at for m in mentions for at in range(m.start, m.end)}  # positions: a long text's many ends
    for match in SENTENCE_END.finditer(insight):
        if match.start() not in in_number:
            sentences.add(match.end())
            clauses.add(match.end())
    in_label = {at for label in labels for at in range(label.start, label.end)}
    # a name of the reference data with a dash in it ("وزارة الصحة - الديوان العام") is one name
    in_label |= {at for start, end, match in folded.find(entity_pattern()) if "-" in match.group(0)
                 for at in range(start, end)}
    for match in _CLAUSE_END.finditer(insight):  # not inside a number or a name ("(الانشاء، الإصلاح)")
        if match.start() not in in_number and match.start() not in in_label:
            clauses.add(match.end())
    for start, _, _ in clause_words:
        clauses.add(start)
    # "و" glued to a label or a number opens a clause: "جدة 1,204 ومكة 860".
    for label in labels:  # a proclitic "و" the label was read without (not the و of "وزارة")
        if insight[label.start : label.start + 1] == "و" and insight[label.start : label.end] != label.text:
            clauses.add(label.start)
    for mention in mentions:
        for width in (1, 2):  # "و300", "و 300"; not "هو 300"
            conjunction = insight[max(0, mention.start - width) : mention.start]
            before = insight[max(0, mention.start - width - 1) : mention.start - width]
            if conjunction == "و" + " " * (width - 1) and before.strip() == "":
                clauses.add(mention.start - width)
    return _Spans(tuple(sorted(sentences)), tuple(sorted(clauses)))


def _apart(labels: Sequence[Label]) -> tuple[Label, ...] | None:
    """Labels of two columns said of one figure ("«توريد أسرة طبية» لدى مستشفى تبوك") that name no
    common row: the pairing is not one of the result's; None when they share a row or are one column."""
    by_column: dict[int | None, list[Label]] = {}
    for label in labels:
        by_column.setdefault(label.column, []).append(label)
    if len(by_column) < 2 or None in by_column or any(len({l.rows for l in group}) > 1 for group in by_column.values()):
        return None
    chosen = tuple(group[-1] for group in by_column.values())
    if frozenset.intersection(*(frozenset(label.rows) for label in chosen)):
        return None
    return tuple(sorted(chosen, key=lambda label: label.start))


def _group(labels: Sequence[Label]) -> Attachment | None:
    """The rows named by ``labels`` together: the last label of each column, intersected; None
    when two labels of one column are named (which row is meant is not said) or none are."""
    if not labels:
        return None
    by_column: dict[int | None, list[Label]] = {}
    for label in labels:
        by_column.setdefault(label.column, []).append(label)
    if any(len({frozenset(l.rows) for l in group}) > 1 for group in by_column.values()):
        return None
    chosen = [group[-1] for group in by_column.values()]
    rows = frozenset.intersection(*(frozenset(label.rows) for label in chosen))
    return Attachment(rows, tuple(chosen)) if rows else None


def _following_label(
    insight: str, mention: NumberMention, labels: list[Label], later: list[NumberMention], spans: _Spans
) -> Attachment | None:
    """The label right after ``mention`` when only a unit noun and a preposition stand between."""
    for label in labels:
        if label.start < mention.end:
            continue
        if later and later[0].start < label.start:
            return None
        if spans.clause(label.start) != spans.clause(mention.start):
            return None
        between = fold(insight[mention.end : label.start]).replace("ـ", "").split()
        glued = label.text[:1] in ("ل", "ب") and not label.text.startswith("ال")
        if between and between[0] in words.UNIT_NOUNS:
            between = between[1:]
        if (between == [] and glued) or (len(between) == 1 and between[0] in words.LABEL_PREPOSITIONS):
            return Attachment(label.rows, (label,))
        return None
    return None


# Words a comparator may stand apart from its number by: none or one after "أكثر من"; a verb's
# subject ("تجاوزت قيمتها 1.2 مليار"); an approximator's sentence ("يقارب عدد المنافسات في نجران 300").
PREPOSITION_REACH, VERB_REACH, APPROXIMATOR_REACH = 1, 3, 6
_PREPOSITION_ENDS = ("من", "عن", "علي", "than")
_NEGATIONS = frozenset(fold(word) for word in ("لا", "لم", "ما", "لن", "ليس", "ليست", "مو", "مب", "not"))
# "ما فيها أكثر من": a negated "there is in it" before a comparator negates it.
_IN_IT = frozenset(fold(word) for word in ("فيها", "فيه", "فيهم", "بها", "به"))
_NEGATED = {">": "<=", "<": ">=", ">=": "<", "<=": ">"}
# Comparators that are prepositions of place too: right before their number, with no proclitic.
_ADJACENT = frozenset(fold(word) for word in ("دون", "تحت", "فوق", "over", "under"))


def _comparators(
    found: list, insight: str, mentions: list[NumberMention], spans: _Spans
) -> dict[int, tuple[str, tuple[int, int]]]:
    """Each comparator's number: the first after it in its clause, within COMPARATOR_REACH words,
    past a year ("تجاوزت قيمة منافسات 2023 تسعة مليارات"); number index -> (relation, span)."""
    taken: dict[int, tuple[str, tuple[int, int]]] = {}
    for start, end, match in found:
        word = _strip_proclitic(match.group(0), words.COMPARATORS) or match.group(0)
        relation = words.COMPARATORS[word]
        before = fold(insight[max(0, start - 10) : start]).split()
        if relation in _NEGATED and (before and before[-1] in _NEGATIONS or len(before) > 1 and before[-2] in _NEGATIONS
                                     and before[-1] in _IN_IT):
            relation = _NEGATED[relation]  # "ما تعدّت المليار", "ما فيها أكثر من 200": not above it
        if word in _ADJACENT and word != match.group(0):
            continue  # "بدون ترسية" is "without"
        reach = (APPROXIMATOR_REACH if relation == "~" else 0 if word in _ADJACENT else
                 PREPOSITION_REACH if word.split()[-1] in _PREPOSITION_ENDS else VERB_REACH)
        for k, mention in enumerate(mentions):
            if mention.start < end or spans.clause(mention.start) != spans.clause(start):
                continue
            between = insight[end : mention.start]
            years = sum(year_like(m) for m in mentions[:k] if m.start >= end)
            if len(between.split()) - years > reach or re.search(r"[:()]", between):
                break
            more = any(spans.clause(m.start) == spans.clause(start) for m in mentions[k + 1 :])
            if year_like(mention) and more:
                continue
            if k not in taken:
                taken[k] = (relation, (start, end))
            break
    return taken


def year_like(mention: NumberMention) -> bool:
    """A whole number 1900..2100 written without a thousands separator ("2,000" is a figure)."""
    return (not (mention.percent or mention.scaled) and mention.value.is_integer() and 1900 <= mention.value <= 2100
            and not re.search(r"[,٬]", mention.text))


def _approximated_after(insight: str, mention: NumberMention) -> bool:
    """"5,000 تقريباً", "5,000 منافسة تقريباً"."""
    after = fold(insight[mention.end : mention.end + 30]).split()
    return bool(after[:1] and after[0] in words.AFTER_APPROXIMATORS
                or after[1:2] and after[0] in words.UNIT_NOUNS and after[1] in words.AFTER_APPROXIMATORS)


def _continues(text: str, after_clause_word: bool) -> bool:
    """True when a clause's words before its number go on about the subject before ("أي 30.5%",
    "وبلغت قيمتها"); False after a clause word ("مقابل"), a colon, or a new definite subject
    ("والاتفاقية الإطارية")."""
    if after_clause_word or ":" in text:
        return False
    first = fold(text).strip(" ,،").split()[:1]
    return not (first and first[0].startswith("وال"))


def _measure(found: list, start: int, end: int, text: str = "") -> str | None:
    """The measure of the last measure word in ``start``..``end``; an average or a share governs
    the word right after it ("متوسط عدد العروض" is an average)."""
    measure, last_end = None, None
    for s, e, match in found:
        if start <= s and e <= end:
            word = _strip_proclitic(match.group(0), words.MEASURES)
            current = words.MEASURES.get(word or "")
            if current is None:
                continue
            governed = last_end is not None and measure in ("avg", "share") and len(text[last_end:s].split()) <= 1
            if not governed:
                measure = current
            last_end = e
    return measure


def _nones(text: _Text) -> list[Claim]:
    """"لا توجد"، "لم تطرح أي": the quantity its clause names (its rows, when labelled) is zero."""
    insight = text.insight
    claims = []
    for start, end, match in text.words["none"]:
        following = fold(insight[end : end + 40]).split()[:3]
        if any(word.lstrip("وبل").removeprefix("ال") in words.NONE_NOT_COUNTS or word in words.NONE_NOT_COUNTS
               for word in following):
            continue
        clause_start, clause_end = text.span(text.spans.clauses, start)
        attachment = _group([label for label in text.labels if clause_start <= label.start and label.end <= clause_end])
        claims.append(Claim("none", insight[start:end], start, attachment=attachment))
    return claims


def _yes_no(text: _Text) -> list[Claim]:
    """"نعم" or "لا" opening the insight: the answer to a yes/no question."""
    folded = text.folded
    first = re.match(r"\W*(\w+)(\W*)(\w*)", folded.text)
    if not first:
        return []
    word, punctuation, following = first.group(1), first.group(2).strip(), first.group(3)
    if word in words.YES:
        return [Claim("yes_no", word, 0, sign=1)]
    if word in words.NO and (punctuation[:1] in words.NO_FOLLOWERS or following in words.NO_FOLLOWERS
                             or not folded.text[first.end(1):].strip(" .!")):
        return [Claim("yes_no", word, 0, sign=-1)]
    return []


def _directions(text: _Text) -> list[Claim]:
    """A rise or fall, with the rows it runs between and its "من X إلى Y"."""
    insight, labels, spans = text.insight, text.labels, text.spans
    claims = []
    for start, end, word in text.said("direction", words.DIRECTIONS):
        sentence = spans.sentence(start)
        sentence_start, sentence_end = text.span(text.spans.sentences, start)
        following = [s for s, _, _ in text.words["direction"] if s > start and spans.sentence(s) == sentence]
        until = following[0] if following else sentence_end
        named = tuple(label for label in labels if end <= label.start < until)
        if not named:
            named = tuple(label for label in labels if sentence_start <= label.start < start)[-2:]
        numbers = _from_to(insight, text.mentions, start, spans)
        measure = text.measure_around(start, end, (sentence_start, sentence_end))
        claims.append(Claim("direction", insight[start:end], start, sign=words.DIRECTIONS[word], labels=named,
                            numbers=numbers, measure=measure))
    return claims


def sentence_measure(text: str) -> str | None:
    """"value" when ``text`` speaks of a value ("القيمة", "ريال"), else None."""
    said = any(word.lstrip("وبل") in words.VALUE_WORDS or word in words.VALUE_WORDS
               for word in fold(text).split())
    return "value" if said else None


def _from_to(insight: str, mentions: list[NumberMention], start: int, spans: _Spans) -> tuple[NumberMention, ...]:
    """"من X إلى Y" after a direction word, in its sentence: (X, Y)."""
    sentence = spans.sentence(start)
    after = [m for m in mentions if m.start > start and spans.sentence(m.start) == sentence]
    for first, second in zip(after, after[1:]):
        before_first = fold(insight[max(start, first.start - 6) : first.start]).split()
        between = fold(insight[first.end : second.start]).split()
        if before_first[-1:] and before_first[-1] in ("من",) and any(w in ("الي", "ل", "حتي") for w in between):
            return (first, second)
    return ()


# A list's item: "1. الرياض", "2) جدة", "- 3- عسير", at a line's start or after the item before.
_LIST_ITEM = re.compile(r"(?:^|\n|(?<=\s))\s*(?:[-*•]\s*)?(\d{1,2})\s*[.)\-–]\s+")


def _rankings(text: _Text) -> list[Claim]:
    """A numbered list of rows, else a bulleted one a ranking line opens: the order it ranks its
    items' first labels in."""
    ranked = _numbered(text.insight, text.labels) or _bulleted(text.insight, text.labels)
    if len(ranked) < 2:
        return []
    return [Claim("ranking", " > ".join(label.text for label in ranked), ranked[0].start, labels=ranked)]


def _numbered(insight: str, labels: list[Label]) -> tuple[Label, ...]:
    """The first label of each item of a numbered list, in the order of its numbers."""
    items: list[tuple[int, Label]] = []
    every: list[tuple[int, Label]] = []
    for match in _LIST_ITEM.finditer(insight):
        end = insight.find("\n", match.end())
        end = len(insight) if end < 0 else end
        named = [label for label in labels if match.end() <= label.start < end]
        if named:
            every.append((int(match.group(1)), named[0]))
        if named and (not items or int(match.group(1)) == items[-1][0] + 1):
            items.append((int(match.group(1)), named[0]))
    numbers = sorted(number for number, _ in every)
    if len(every) > len(items) and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
        # every item numbered once, out of order ("2) الطبية، 1) قطع الغيار"): the numbers rank them
        items = sorted(every, key=lambda item: item[0])
    return tuple(label for _, label in items) if len(items) >= 2 else ()


_BARE_COMPARATIVES = frozenset(fold(word) for word in ("أكثر", "أقل", "أعلى", "أدنى", "أكبر", "أصغر"))


def _excluded(insight: str, label: Label) -> bool:
    """True when the label is named as left out: "خارج منطقة الرياض", "ما عدا جدة"."""
    before = fold(insight[max(0, label.start - 12) : label.start]).split()
    return bool(before) and before[-1] in words.EXCLUDING


def _superlatives(text: _Text) -> list[Claim]:
    """The most or the least, with the row it names in its clause, or none (the first row)."""
    insight, labels = text.insight, text.labels
    comparators = [span for _, span in text.comparators.values()]
    claims = []
    for start, end, word in text.said("superlative", words.SUPERLATIVES):
        if any(s <= start < e for s, e in comparators):
            continue
        following = fold(insight[end : end + 20]).split()[:2]
        if following[:1] and following[0] in words.NOT_SUPERLATIVE_AFTER and following[1:2] != ["حيث"]:
            continue
        if word in _BARE_COMPARATIVES and not re.match(r"\s+[^\W\d]|\s+\d+\s+(?!من\b)[^\W\d]", insight[end : end + 12]):
            continue  # "عدد المشاريع أقل (671 مقابل 709)": a comparison, not a superlative
        if word in ("المقدمه", "الصداره", "صداره") and not fold(insight[max(0, start - 4) : start]).endswith("في "):
            continue
        clause_start, clause_end = text.span(text.spans.clauses, start)
        after = [label for label in labels if end <= label.start < clause_end and not _excluded(insight, label)]
        before = [label for label in labels if clause_start <= label.start and label.end <= start]
        named = after[:1] or before[-1:]
        measure = text.measure_around(start, end, (clause_start, clause_end))
        # the words right before it in its own line and clause ("وجدت ما يلي:\nأعلى 10" is no "ما أعلى")
        before = re.split(r"[\n:،,.]", insight[max(0, start - 12) : start])[-1]
        negated = bool(set(fold(before).split()[-2:]) & _NEGATIONS)
        written = insight[max(0, start - 12) : end].split()[-2:] if negated else [insight[start:end]]
        claims.append(Claim("superlative", " ".join(written), start, sign=words.SUPERLATIVES[word],
                            measure=measure, labels=tuple(named), clause=(clause_start, clause_end),
                            negated=negated))
    return claims


_RATIO_QUALIFIERS = sorted(words.RATIO_QUALIFIERS.items(), key=lambda item: -len(item[0]))


def _multiplier(insight: str, mention: NumberMention) -> bool:
    """True for the number of "ثلاثة أضعاف": it multiplies the ratio word after it."""
    after = fold(insight[mention.end : mention.end + 12]).split()[:1]
    return bool(after) and after[0] in words.MULTIPLES


def _ratios(text: _Text) -> list[Claim]:
    """"الرياض ضعف مكة", "أكثر من ثلث"، "ثلاثة أضعاف": the first row's figure is ``factor`` times
    the second's (more, less or about, as the word before says). Both rows named in the sentence:
    the last label before the word, the first after it."""
    insight, labels = text.insight, text.labels
    claims = []
    for start, end, word in text.said("ratio", {**words.RATIOS, **words.MULTIPLES}):
        following = fold(insight[end : end + 16]).split()[:1]
        if following and following[0] in words.NOT_RATIO_BEFORE:
            continue  # "نصف مليار", "النصف الأول": a number or a period
        factor, opening = words.RATIOS.get(word), start
        if factor is None:
            number = next((m for m in text.every_number if 0 <= start - m.end <= 2), None)
            if number is None:
                continue  # "أضعاف" alone: several times, no factor said
            factor, opening = number.value * words.MULTIPLES[word], number.start
        sentence_start, sentence_end = text.span(text.spans.sentences, start)
        before = [label for label in labels if sentence_start <= label.start and label.end <= opening]
        after = [label for label in labels if end <= label.start < sentence_end]
        if not before or not after or before[-1].column != after[0].column or before[-1].rows == after[0].rows:
            continue
        head = " " + fold(insight[max(sentence_start, opening - 20) : opening]).strip()
        relation = next((r for q, r in _RATIO_QUALIFIERS if head.endswith(" " + q) or head.endswith(" " + q + " ب")
                         or head.endswith(" ب" + q)), None)
        claims.append(Claim("ratio", f"{before[-1].text} {insight[opening:end]} {after[0].text}", opening,
                            labels=(before[-1], after[0]), comparator=relation, factor=factor,
                            measure=sentence_measure(insight[sentence_start:sentence_end])))
    return claims


def _ordinals(text: _Text) -> list[Claim]:
    """A row's place said in words: "ثانياً: جدة", "تحتل جدة المرتبة الثانية", "الثالثة عسير"."""
    insight, labels = text.insight, text.labels
    claims = []
    for start, end, word in text.said("ordinal", {**words.ORDINAL_ADVERBS, **words.DEFINITE_ORDINALS}):
        clause_start, clause_end = text.span(text.spans.clauses, start)
        after = [label for label in labels if end <= label.start < clause_end]
        if word in words.ORDINAL_ADVERBS:
            named = after[:1]
        else:
            previous = fold(insight[max(0, start - 16) : start]).split()[-1:]
            if previous and previous[0] in words.NOT_RANK_BEFORE:
                continue
            if previous and previous[0] in words.RANK_NOUNS:
                before = [label for label in labels if clause_start <= label.start and label.end <= start]
                named = before[-1:] or after[:1]
            else:  # "الثانية جدة", "والثالثة: عسير"
                gap = insight[end : after[0].start] if after else "x"
                named = after[:1] if re.fullmatch(r"[\s:\-–]*(?:(?:هي|هو)\s+)?", gap) else []
        if named and len(named[0].rows) == 1:
            place = words.ORDINAL_ADVERBS.get(word) or words.DEFINITE_ORDINALS[word]
            if fold(insight[end : end + 8]).split()[:1] in (["عشر"], ["عشره"]):
                place += 10  # "الثالثة عشرة"
            elif word in ("الحادي", "الحاديه"):
                continue  # "الحادي" ranks only as "الحادي عشر"
            claims.append(Claim("ordinal", f"{insight[start:end]} {named[0].text}", start, sign=place,
                                labels=tuple(named)))
    return claims


_BULLET = re.compile(r"(?m)^[ \t]*[-*•][ \t]+(?!\d{1,2}\s*[.)\-–]\s)")


def _bulleted(insight: str, labels: list[Label]) -> tuple[Label, ...]:
    """The first label of each item of a bulleted list after a line that ranks ("أعلى المناطق:").
    Without such a line the bullets' order claims nothing."""
    items = list(_BULLET.finditer(insight))
    if len(items) < 2:
        return ()
    opening = [word.strip(":،,.*") for word in fold(insight[: items[0].start()]).strip().split("\n")[-1].split()]
    if not any(words.one_of(word, words.RANKING_CUES)
               and opening[k + 1 : k + 2] not in (["من"], ["مما"], ["than"])  # "أقل من 200": a filter, no rank
               for k, word in enumerate(opening)):
        return ()
    ranked = []
    for item in items:
        end = insight.find("\n", item.end())
        end = len(insight) if end < 0 else end
        named = [label for label in labels if item.end() <= label.start < end]
        if named:
            ranked.append(named[0])
    return tuple(ranked)


_DENIALS = frozenset(fold(word) for word in ("لم", "لن", "ليس", "ليست", "لا", "not", "never"))


def _denied(text: str) -> bool:
    """True when a number's clause opens by denying its verb: "لم يبلغ عدد المنافسات ..."; not a
    denial inside it ("التي لا منطقة لها", "بقيمة لا تقل عن ..."), "لا توجد ..." (a "none" of its
    own) nor "لا سيما"."""
    folded = re.findall(r"\w+", fold(text))
    if folded and folded[0] in ("و", "ف", "لكن", "ولكن"):
        folded = folded[1:]
    first = folded[0][1:] if folded and folded[0][:1] in "وف" and folded[0][1:] in _DENIALS else folded[:1] and folded[0]
    return bool(first) and first in _DENIALS and len(folded) > 1 and folded[1] not in words.NOT_DENIED


# The readers of each kind of claim, in the order their claims are told where two start together.
_READERS: tuple[Callable[[_Text], list[Claim]], ...] = (
    _numbers, _nones, _yes_no, _directions, _rankings, _ratios, _ordinals, _superlatives)
