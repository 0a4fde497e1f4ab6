"""Mutation testing of the claims judge (issue 36 item 6): right answers changed by operators that
change their meaning (each should be judged not Correct) and rewritten in ways that keep it (each
should still be Correct), and the share of each operator the judge gets right.

    cd REPO && PYTHONPATH=$PWD /work/main/.venv/bin/python bench/mutate_claims.py [--json OUT]

The right answers are the labelled set's right items (nabahan_pipeline_tests/data/claims_labelled.json)
and the reference agent's answers over the shipped questions and the question sets under
nabahan_pipeline_tests/data/, each kept only when the judge calls the answer itself Correct (a
mutant of an answer already failed tells nothing). Every mutant is scored as a run scores it
(nabahan_fixtures.claims_labelled.score_items: its SQL is the gold, so only the insight
decides). Seeded, so the same mutants every time; a mutant with the meaning of its source (a swap of
equal figures, a text identical to the source) is dropped and counted.

The operators live here and the test (nabahan_pipeline_tests/bench/test_mutate_claims.py) runs this
script and reads its JSON: bench/ and the tests may not import each other, and a test fixture has no
place in the product package.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from num2words import num2words

from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers
from nabahan_pipeline.etimad_db.sql_safety import run_read_only
from nabahan_pipeline.etimad_db.store import connect_readonly, ensure_database
from nabahan_fixtures.claims_labelled import load_items, score_items
from nabahan_pipeline.reference_agent.agent import ReferenceAgent

ROOT = Path(__file__).resolve().parents[1]
CLAIMS_SET = ROOT / "nabahan_pipeline_tests" / "data" / "claims_labelled.json"
QUESTION_SETS = (ROOT / "nabahan_pipeline" / "data" / "test_cases.json",
                 *sorted((ROOT / "nabahan_pipeline_tests" / "data").glob("*questions.json")))
TARGET = 0.97
SEED = 36
PER_SOURCE = 2      # mutants one operator makes of one answer, at most
PER_OPERATOR = 85  # mutants of one operator scored, at most (a sample of its candidates)
EXAMPLES = 3

CHANGING, PRESERVING = "changing", "preserving"
_LETTER = "\u0621-\u064a\u0671-\u06d3\u06fa-\u06ff"
_INDIC = str.maketrans("0123456789,.", "٠١٢٣٤٥٦٧٨٩٬٫")
_FOLD = str.maketrans({"ی": "ي", "ى": "ي", "ک": "ك", "ە": "ه", "ۀ": "ه"})
_DATE = re.compile(r"^\d{4}-\d{2}(-\d{2})?")
_ID_COLUMN = re.compile(r"(^|_)id$|^reference_number$|^tender_number$")
_PERIOD_COLUMN = re.compile(r"year|month|quarter")
_NOT_SUMMED = re.compile(r"avg|average|mean|min|max|share|pct|percent|rate")
_RANK_WORDS = re.compile(
    "تليها|يليها|ثم |بعد|قبل|المرتبة|الأول|الثاني|الثالث|أولاً|ثانياً|ثالثاً|أعلى|أكثر|أقل|أدنى|تتصدر|يتصدر"
    r"|المقدمة|آخر|الأخير|أكبر|أصغر|\d[.)]")


# ----------------------------------------------------------------------------------------------
# Answers and their rows


@dataclass(frozen=True, eq=False)  # hashed by identity: its readings are cached per answer
class Source:
    """A right answer: its question, SQL, the rows that SQL returns, its insight."""

    id: str
    origin: str
    question: str
    category: str
    sql: str
    insight: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]

    def figure_columns(self) -> list[int]:
        """The columns that hold figures: numbers that are not ids, years or months."""
        return _figure_columns(self)

    def label_column(self) -> int | None:
        """The column that names a row (a name, a year, a month), when the result has one."""
        return _label_column(self)


@functools.cache
def _figure_columns(src: Source) -> list[int]:
    columns, rows = src.columns, src.rows
    return [c for c, name in enumerate(columns)
            if not _ID_COLUMN.search(name) and not _PERIOD_COLUMN.search(name)
            and rows and all(isinstance(row[c], (int, float)) or row[c] is None for row in rows)
            and any(isinstance(row[c], (int, float)) for row in rows)]


@functools.cache
def _label_column(src: Source) -> int | None:
    columns, rows = src.columns, src.rows
    for c, name in enumerate(columns):
        values = [row[c] for row in rows]
        if _PERIOD_COLUMN.search(name) and all(v is not None for v in values):
            return c
        if "name" in name and not name.endswith("_en") and all(isinstance(v, str) for v in values):
            return c
    return None


@dataclass(frozen=True)
class Candidate:
    """One mutant of a source: edits (start, end, new text) on its insight, and whether it means the same
    as its source by construction (a swap of equal figures)."""

    edits: tuple[tuple[int, int, str], ...]
    equivalent: bool = False
    note: str = ""


def apply_edits(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """``text`` with each span replaced (spans do not overlap)."""
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def labelled_sources() -> list[Source]:
    """The labelled set's right answers that have SQL (a refusal has no claim to mutate)."""
    database = ensure_database(None)
    sources = []
    for item in load_items(CLAIMS_SET):
        if item["label"] != "right" or item["sql"] is None:
            continue
        result = run_read_only(database, item["sql"])
        sources.append(Source(item["id"], "labelled", item["question"], item["category"], item["sql"],
                              item["insight"], tuple(result.columns), tuple(tuple(r) for r in result.rows)))
    return sources


def reference_sources() -> list[Source]:
    """The reference agent's answers with rows, over every question of the shipped and test question sets."""
    agent = ReferenceAgent()
    seen: set[str] = set()
    sources = []
    try:
        for path in QUESTION_SETS:
            for case in json.loads(path.read_text(encoding="utf-8")):
                question = case["question"]
                if question in seen:
                    continue
                seen.add(question)
                answer = agent.ask(question)
                if answer["status"] != "success" or not answer["rows"] or not answer["sql"]:
                    continue
                sources.append(Source(f"{path.stem}:{case['id']}", "reference", question, case["category"],
                                      answer["sql"], answer["insights"], tuple(answer["columns"]),
                                      tuple(tuple(r) for r in answer["rows"])))
    finally:
        agent.close()
    return sources


# ----------------------------------------------------------------------------------------------
# Reading the insight


def western(mention: NumberMention) -> bool:
    """True when the mention is written in Western digits (the ones the value operators rewrite)."""
    return bool(re.search(r"\d", mention.text)) and not re.search(r"[٠-٩۰-۹]", mention.text)


def digit_span(mention: NumberMention) -> tuple[int, int]:
    """The span of the mention's digits (without its scale word or percent sign)."""
    found = re.search(r"\d[\d,]*(?:\.\d+)?", mention.text)
    assert found is not None
    return mention.start + found.start(), mention.start + found.end()


@functools.cache
def figures(src: Source) -> list[tuple[NumberMention, int, int]]:
    """The insight's figures in Western digits that are a cell of the result: (mention, row, column)."""
    found = []
    columns = src.figure_columns()
    asked = {m.value for m in find_numbers(src.question)}
    for mention in find_numbers(src.insight):
        if mention.percent or not western(mention) or mention.value in asked or _list_number(src.insight, mention):
            continue
        reading = mention.readings[0]
        for r, row in enumerate(src.rows):
            c = next((c for c in columns if isinstance(row[c], (int, float))
                      and abs(row[c] - reading.value) <= reading.unit / 2 + 1e-9), None)
            if c is not None:
                found.append((mention, r, c))
                break
    return found


def _list_number(text: str, mention: NumberMention) -> bool:
    """True when the mention numbers a list item ("2) ...", "3. ...") rather than stating a figure."""
    return (re.match(r"[.)] ", text[mention.end:mention.end + 2]) is not None
            and re.search(r"(^|\n|، |: )$", text[:mention.start]) is not None)


def main_column(src: Source) -> int | None:
    """The figure column the insight's figures come from most, when the result has only one figure
    column or the insight says which (an insertion names no measure, so it must not be ambiguous)."""
    columns = src.figure_columns()
    if len(columns) == 1:
        return columns[0]
    counts = Counter(c for _, _, c in figures(src))
    return counts.most_common(1)[0][0] if len(counts) == 1 else None


def write_like(value: float, mention: NumberMention) -> str:
    """``value`` in the digits of ``mention``: its scale, its decimals, thousands grouped."""
    shown = value / mention.scale
    text = f"{shown:,.{mention.decimals}f}"
    digits = mention.text[digit_span(mention)[0] - mention.start: digit_span(mention)[1] - mention.start]
    return text if "," in digits or abs(shown) >= 10_000 else text.replace(",", "")


def fold(text: str) -> str:
    """The text with Persian letter forms folded to Arabic, keeping every offset."""
    return text.translate(_FOLD)


def label_variants(label: str) -> list[str]:
    """The ways an answer writes a row label: whole, and without the word for region."""
    label = fold(label.strip())
    variants = [label]
    for prefix in ("منطقة ", "المنطقة "):
        if label.startswith(prefix):
            variants.append(label[len(prefix):])
    return variants


@functools.cache
def label_spans(src: Source) -> list[tuple[int, int, int]]:
    """Where the insight names a row of the result: (start, end, row), the longest spelling first."""
    c = src.label_column()
    if c is None:
        return []
    text = fold(src.insight)
    spans: list[tuple[int, int, int]] = []
    for r, row in enumerate(src.rows):
        if re.fullmatch(r"\d{1,3}", str(row[c]).strip()):
            continue  # a month's number (الشهر 2) cannot be told from a figure
        for variant in label_variants(str(row[c])):
            for found in re.finditer(rf"(?<![{_LETTER}\d]){re.escape(variant)}(?![{_LETTER}\d])", text):
                if not any(s < found.end() and found.start() < e for s, e, _ in spans):
                    spans.append((found.start(), found.end(), r))
    return sorted(spans)


def word_spans(text: str, words: Sequence[str]) -> Iterator[tuple[int, int, str]]:
    """Each whole-word occurrence of one of ``words`` (a و/ف/ب/ل clitic before it allowed)."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    for found in re.finditer(rf"(?<![{_LETTER}])(?:[وفبل](?=[{_LETTER}]))?({alternatives})(?![{_LETTER}])", text):
        yield found.start(1), found.end(1), found.group(1)


def append(src: Source, sentence: str, note: str = "") -> Candidate:
    """A sentence added after the answer: on a line of its own after a list, else after a space
    (a full stop first when the answer has none: "548." would read as a decimal after a list)."""
    end = len(src.insight)
    glue = "\n" if "\n" in src.insight else " "
    return Candidate(((end, end, glue + sentence),), note=note)


def same_value(a: float, b: float) -> bool:
    """True when two figures are equal but for float noise."""
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


# ----------------------------------------------------------------------------------------------
# Meaning-changing operators


def swap_figures(src: Source) -> Iterator[Candidate]:
    """Two figures of the answer change places."""
    found = figures(src)
    for i, (a, _, _) in enumerate(found):
        for b, _, _ in found[i + 1:]:
            (sa, ea), (sb, eb) = digit_span(a), digit_span(b)
            yield Candidate(((sa, ea, src.insight[sb:eb]), (sb, eb, src.insight[sa:ea])),
                            equivalent=same_value(a.value, b.value) or a.text == b.text,
                            note=f"{a.text} <-> {b.text}")


def other_row_figure(src: Source) -> Iterator[Candidate]:
    """A figure replaced by the same column's figure of another row."""
    for mention, r, c in figures(src):
        for other, row in enumerate(src.rows):
            if other != r and isinstance(row[c], (int, float)):
                yield _replaced(src, mention, src.rows[r][c], row[c], f"row {r + 1} -> row {other + 1}")


def other_column_figure(src: Source) -> Iterator[Candidate]:
    """A figure replaced by another figure column of the same row."""
    for mention, r, c in figures(src):
        for other in src.figure_columns():
            value = src.rows[r][other]
            if other != c and isinstance(value, (int, float)):
                yield _replaced(src, mention, src.rows[r][c], value, f"{src.columns[c]} -> {src.columns[other]}")


def _replaced(src: Source, mention: NumberMention, old: float, new: float, note: str) -> Candidate:
    """The mention's figure (the cell ``old``) written as ``new``; equivalent when the two cells are
    within one unit of the figure's last digit ("2.9 مليون" for 2.96 million reads as a truncation)."""
    start, end = digit_span(mention)
    close = abs(new - old) <= mention.readings[0].unit
    return Candidate(((start, end, write_like(new, mention)),), equivalent=close, note=note)


def other_row_label(src: Source) -> Iterator[Candidate]:
    """A row's label replaced by another row's (its figures then sit on the wrong row)."""
    c = src.label_column()
    if not src.figure_columns():
        return  # a list of names claims no figure of its rows
    for start, end, r in label_spans(src):
        if not _carries_a_claim(src, end, r):
            continue
        named = fold(src.insight[start:end])
        short = named != fold(str(src.rows[r][c]))
        for other, row in enumerate(src.rows):
            if other == r:
                continue
            variants = label_variants(str(row[c]))
            new = variants[-1] if short else variants[0]
            equal_rows = all(same_value(a, b) for a, b in zip(_figures_of(src, r), _figures_of(src, other)))
            yield Candidate(((start, end, new),), equivalent=equal_rows or fold(new) == named,
                            note=f"row {r + 1} -> row {other + 1}")


def _carries_a_claim(src: Source, end: int, r: int) -> bool:
    """True when the row's label ending at ``end`` states something of its row: a figure of the row
    follows in its clause, or the answer gives the row no figure at all (a rank, a superlative). A
    label restated in the scope ("في منطقة مكة المكرمة ومنطقة الرياض حسب المنطقة") before the figures
    it names again later is not a claim."""
    own = [m.start for m, row, _ in figures(src) if row == r]
    return not own or any(end <= at <= end + 60 and not re.search(r"[.،؛\n]", src.insight[end:at]) for at in own)


def _figures_of(src: Source, r: int) -> list[float]:
    return [src.rows[r][c] or 0 for c in src.figure_columns()]


ORDINALS = [
    ("الأول", "الثاني", "الثالث", "الرابع", "الخامس", "السادس", "السابع", "الثامن", "التاسع", "العاشر"),
    ("الأولى", "الثانية", "الثالثة", "الرابعة", "الخامسة", "السادسة", "السابعة", "الثامنة", "التاسعة", "العاشرة"),
    ("أولاً", "ثانياً", "ثالثاً", "رابعاً", "خامساً", "سادساً", "سابعاً", "ثامناً", "تاسعاً", "عاشراً"),
    ("أول", "ثاني", "ثالث", "رابع", "خامس", "سادس", "سابع", "ثامن", "تاسع", "عاشر"),
]


def ordinal_word(src: Source) -> Iterator[Candidate]:
    """An ordinal word moved to another place; or, where the rows are ranked, a row told at a place
    that is not its own; or two numbered items' numbers exchanged."""
    for series in ORDINALS:
        for start, end, word in word_spans(src.insight, series):
            if src.insight[end:end + 4] == " عشر" or _in_a_name(src, start, word):
                continue  # a teen ordinal (الحادي عشر) is read whole; "المرحلة الأولى" of a tender's name is no rank
            place = series.index(word)
            period = re.search(r"(النصف|الربع) $", src.insight[:start])
            last = {"النصف": 1, "الربع": 3}[period.group(1)] if period else len(series) - 1
            for other in (place - 1, place + 1, place + 2):
                if 0 <= other <= last and other != place:  # a year has two halves and four quarters
                    yield Candidate(((start, end, series[other]),), note=f"{word} -> {series[other]}")
    numbered = list(re.finditer(r"(?:(?<=\n)|(?<=^)|(?<=، )|(?<=: ))(\d{1,2})([.)]) ", src.insight))
    for a, b in zip(numbered, numbered[1:]):
        yield Candidate(((a.start(1), a.end(1), b.group(1)), (b.start(1), b.end(1), a.group(1))),
                        equivalent=a.group(1) == b.group(1), note=f"items {a.group(1)} <-> {b.group(1)}")
    if _ranked_by_figure(src) and len(src.rows) >= 3:
        named = {r: (s, e) for s, e, r in reversed(label_spans(src))}
        order = re.search(r"order\s+by\s+(\w+)", src.sql, re.I)
        by = src.columns.index(order.group(1)) if order and order.group(1) in src.columns else src.figure_columns()[0]
        keys = [row[by] for row in src.rows]  # rows equal on what ranks them: either place is right
        for r, (s, e) in sorted(named.items())[:3]:
            for place in (r + 1, r + 2):
                if place < min(len(src.rows), 10) and place != r:
                    ties = keys[place] == keys[r]
                    told = append(src, f"وتأتي {src.insight[s:e]} في المرتبة {ORDINALS[1][place]}.")
                    yield Candidate(told.edits, equivalent=ties, note=f"row {r + 1} told at place {place + 1}")


def _period(value: Any) -> tuple[int, str]:
    """A period's place in time: 2 before 12, "2024-02" before "2024-12"."""
    text = str(value)
    return (int(text), text) if text.isdigit() else (0, text)


def _in_a_name(src: Source, start: int, word: str) -> bool:
    """True when the word at ``start`` is inside a «quoted» name or part of a cell of the rows."""
    quoted = src.insight.rfind("«", 0, start) > src.insight.rfind("»", 0, start)
    return quoted or any(isinstance(v, str) and word in fold(v) for row in src.rows for v in row)


def _ranked_by_figure(src: Source) -> bool:
    """True when the SQL orders its rows by one figure (not by a year, a month or a name)."""
    order = re.search(r"order\s+by\s+([^;]+?)(?:\s+limit\b|$)", src.sql, re.I | re.S)
    return (bool(order) and bool(src.figure_columns()) and "," not in order.group(1)
            and not re.search(r"year|month|quarter|date|name|(^|_)id\b", order.group(1), re.I))


_QUARTER = re.compile(r"\s+(الأول|الثاني|الثالث|الرابع|الماضي|الحالي|القادم|السابق|من)")
RATIOS = (("ضعف", 2.0), ("ثلاثة أضعاف", 3.0), ("أربعة أضعاف", 4.0), ("نصف", 0.5), ("ثلث", 1 / 3), ("ربع", 0.25))


def ratio_word(src: Source) -> Iterator[Candidate]:
    """A ratio or fraction word made false: an existing one changed, or one said of two rows it does not fit."""
    for start, end, word in word_spans(src.insight, [w for w, _ in RATIOS] + ["الضعف", "النصف", "الثلث", "الربع"]):
        if _QUARTER.match(src.insight[end:]):
            continue  # الربع الأول: a quarter of the year, not a fraction
        bare = word.removeprefix("ال")
        bound, times = _bound_before(src.insight, start), dict(RATIOS).get(bare, 0.0)
        for other, factor in RATIOS:
            if bound == "lower" and factor < times or bound == "upper" and factor > times:
                continue  # "تجاوز نصف مليار" told as "ربع مليار" is still true
            if other != bare:
                yield Candidate(((start, end, other),), note=f"{word} -> {other}")
    c = main_column(src)
    if c is None:
        return
    for (sa, ea, a), (sb, eb, b) in _two_named_rows(src):
        va, vb = src.rows[a][c], src.rows[b][c]
        if not (isinstance(va, (int, float)) and isinstance(vb, (int, float)) and va > 0 and vb > 0):
            continue
        big, small = ((sa, ea), (sb, eb)) if va >= vb else ((sb, eb), (sa, ea))
        ratio = max(va, vb) / min(va, vb)
        for word, times in RATIOS:
            if abs(max(times, 1 / times) - ratio) / ratio <= 0.4:
                continue  # "نحو ضعف" for 1.9 times is right
            first, second = (big, small) if times > 1 else (small, big)
            yield append(src, f"و{src.insight[slice(*first)]} نحو {word} {src.insight[slice(*second)]}.",
                         note=f"ratio {ratio:.2f} told as {word}")


def _two_named_rows(src: Source) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Pairs of rows the insight names (first mention of each), at most three pairs."""
    first: dict[int, tuple[int, int, int]] = {}
    for s, e, r in label_spans(src):
        first.setdefault(r, (s, e, r))
    named = sorted(first.values())
    return [(a, b) for i, a in enumerate(named) for b in named[i + 1:]][:3]


COMPARATIVES = {"أكثر": "أقل", "أقل": "أكثر", "أعلى": "أدنى", "أدنى": "أعلى", "الأكثر": "الأقل", "الأقل": "الأكثر",
                "الأعلى": "الأدنى", "الأدنى": "الأعلى", "أكبر": "أصغر", "أصغر": "أكبر", "الأكبر": "الأصغر",
                "الأصغر": "الأكبر", "تتصدر": "تتذيل", "يتصدر": "يتذيل", "فوق": "تحت", "يتجاوز": "يقل عن",
                "تتجاوز": "تقل عن", "تجاوز": "لم يبلغ", "أعلاها": "أدناها", "أقلها": "أكثرها", "أكثرها": "أقلها"}


def comparative_word(src: Source) -> Iterator[Candidate]:
    """A comparative or superlative word turned to its opposite (أكثر/أقل، أعلى/أدنى، يتجاوز/يقل عن)."""
    for start, end, word in word_spans(src.insight, list(COMPARATIVES)):
        yield Candidate(((start, end, COMPARATIVES[word]),), note=f"{word} -> {COMPARATIVES[word]}")


def bound_word(src: Source) -> Iterator[Candidate]:
    """A figure told as a bound it breaks: "أكثر من" a number above it, "أقل من" one below it."""
    for mention, _, _ in figures(src):
        value = mention.value
        if value < 20 or mention.decimals or mention.scaled:
            continue
        step = 10 ** max(0, len(str(int(value))) - 2)
        above, below = (int(value // step) + 1) * step, int(value // step) * step
        start = mention.start
        end = digit_span(mention)[1]
        for word, bound in (("أكثر من", above), ("ما يزيد على", above), ("أقل من", below), ("دون", below)):
            if bound == value or bound <= 0:
                continue
            yield Candidate(((start, end, f"{word} {write_like(bound, mention)}"),),
                            note=f"{mention.text} -> {word} {bound}")


DIRECTIONS = {"ارتفع": "انخفض", "انخفض": "ارتفع", "ارتفعت": "انخفضت", "انخفضت": "ارتفعت", "ارتفاع": "انخفاض",
              "انخفاض": "ارتفاع", "زيادة": "نقص", "بزيادة": "بنقص", "نقص": "زيادة", "زاد": "نقص", "زادت": "نقصت",
              "نمو": "تراجع", "تراجع": "نمو", "تراجعت": "ارتفعت", "قفز": "هبط", "هبط": "قفز", "صعد": "نزل",
              "نزل": "صعد", "صعود": "نزول", "نزول": "صعود", "يرتفع": "ينخفض", "ينخفض": "يرتفع"}


def direction_word(src: Source) -> Iterator[Candidate]:
    """A direction word turned (ارتفع/انخفض، زيادة/نقص، نمو/تراجع); or, over periods, the wrong one said."""
    for start, end, word in word_spans(src.insight, list(DIRECTIONS)):
        yield Candidate(((start, end, DIRECTIONS[word]),), note=f"{word} -> {DIRECTIONS[word]}")
    c = src.label_column()
    column = main_column(src)
    if c is None or column is None or len(src.figure_columns()) != 1 or not _PERIOD_COLUMN.search(src.columns[c]):
        return
    columns = [column]
    named = {r: (s, e) for s, e, r in reversed(label_spans(src))}
    for r in sorted(named):
        for other in sorted(named):
            va, vb = src.rows[r][columns[0]], src.rows[other][columns[0]]
            if _period(src.rows[r][c]) >= _period(src.rows[other][c]) or va is None or vb is None or same_value(va, vb):
                continue
            wrong = "انخفض" if vb > va else "ارتفع"
            later, earlier = src.insight[slice(*named[other])], src.insight[slice(*named[r])]
            yield append(src, f"و{wrong} الرقم في {later} مقارنة بـ{earlier}.", note=f"{earlier}->{later} told {wrong}")


NEGATIONS_IN = {"بلغ": "لم يبلغ", "بلغت": "لم تبلغ", "تتصدر": "لا تتصدر", "يتصدر": "لا يتصدر", "تأتي": "لا تأتي",
                "يوجد": "لا يوجد", "توجد": "لا توجد", "هي": "ليست", "هو": "ليس", "تضم": "لا تضم", "طرحت": "لم تطرح",
                "طُرحت": "لم تُطرح", "سجلت": "لم تسجل", "فيها": "ما فيها", "نعم": "لا", "تجاوز": "لم يتجاوز",
                "تجاوزت": "لم تتجاوز", "ارتفع": "لم يرتفع", "انخفض": "لم ينخفض", "داخل": "خارج"}
NEGATIONS_OUT = {"لا يتجاوز": "يتجاوز", "لا تتجاوز": "تتجاوز", "لم يتجاوز": "تجاوز", "لا توجد": "توجد",
                 "لا يوجد": "يوجد", "ما فيه": "فيه", "ليست": "هي", "ليس": "هو", "من غير": "من", "خارج": "داخل",
                 "لا تزيد": "تزيد", "لا يزيد": "يزيد", "لم تتجاوز": "تجاوزت", "لا": "نعم", "مو": "هي"}


def negation(src: Source) -> Iterator[Candidate]:
    """A negation put before a verb of the claim, or one the claim has taken away."""
    for start, end, word in word_spans(src.insight, list(NEGATIONS_OUT)):
        if word == "لا" and not re.match(r"\s*[،,]", src.insight[end:]):
            continue  # a bare لا only as the answer's "no"
        yield Candidate(((start, end, NEGATIONS_OUT[word]),), note=f"drop: {word} -> {NEGATIONS_OUT[word]}")
    for start, end, word in word_spans(src.insight, list(NEGATIONS_IN)):
        if word == "لا" or src.insight[max(0, start - 3):start].strip() in ("لا", "لم", "ما"):
            continue
        yield Candidate(((start, end, NEGATIONS_IN[word]),), note=f"insert: {word} -> {NEGATIONS_IN[word]}")


MONTHS = [
    ("يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر", "نوفمبر", "ديسمبر"),
    ("كانون الثاني", "شباط", "آذار", "نيسان", "أيار", "حزيران", "تموز", "آب", "أيلول", "تشرين الأول", "تشرين الثاني",
     "كانون الأول"),
    ("محرم", "ربيع الأول", "ربيع الآخر", "جمادى الأولى", "جمادى الآخرة", "رجب", "شعبان", "رمضان", "شوال",
     "ذو القعدة", "ذو الحجة"),
]


def month_word(src: Source) -> Iterator[Candidate]:
    """A month name changed to a neighbouring month of its own calendar."""
    for series in MONTHS:
        for start, end, word in word_spans(src.insight, series):
            place = series.index(word)
            for other in (place - 1, place + 1, place + 3):
                if 0 <= other < len(series):
                    yield Candidate(((start, end, series[other]),), note=f"{word} -> {series[other]}")


UNITS = {"ألف": ("مليون", "مليار"), "مليون": ("ألف", "مليار"), "مليار": ("مليون", "ألف"),
         "آلاف": ("ملايين", "مليارات"), "ملايين": ("آلاف", "مليارات"), "مليارات": ("ملايين", "آلاف")}


SCALES = {"ألف": 1e3, "آلاف": 1e3, "مليون": 1e6, "ملايين": 1e6, "مليار": 1e9, "مليارات": 1e9}


def unit_word(src: Source) -> Iterator[Candidate]:
    """A scale word after a figure changed (ألف/مليون/مليار); after a bound, only the way that breaks it."""
    for start, end, word in word_spans(src.insight, list(UNITS)):
        bound = _bound_before(src.insight, start)
        for other in UNITS[word]:
            if bound == "lower" and SCALES[other] < SCALES[word] or bound == "upper" and SCALES[other] > SCALES[word]:
                continue  # "تجاوزت تسعة ملايين" for 9.16 billion is still true
            yield Candidate(((start, end, other),), note=f"{word} -> {other}")


_LOWER_BOUNDS = re.compile(r"(أكثر من|تجاوز\S*|يتجاوز|يزيد على|تزيد على|فوق|لا تقل عن|لا يقل عن|أعلى من)(?:\s+\S+){0,4}$")
_UPPER_BOUNDS = re.compile(r"(أقل من|دون|لا تتجاوز|لا يتجاوز|لا تزيد على|لا يزيد على|تحت|أدنى من)(?:\s+\S+){0,4}$")


def _bound_before(text: str, start: int) -> str | None:
    """"lower" when a lower bound (أكثر من، تجاوز) states the number ending before ``start``, "upper"
    for an upper one (أقل من، دون), None otherwise."""
    before = text[max(0, start - 40):start].rstrip()
    if _UPPER_BOUNDS.search(before):
        return "upper"
    if _LOWER_BOUNDS.search(before):
        return "lower"
    return None


MEASURES = {"القيمة التقديرية": "قيمة الترسية", "قيمة الترسية": "القيمة التقديرية", "متوسط": "إجمالي",
            "إجمالي": "متوسط", "مجموع": "متوسط", "عدد المناقصات": "عدد العروض", "عدد المنافسات": "عدد العروض",
            "عدد العروض": "عدد المناقصات", "سعر الكراسة": "القيمة التقديرية", "مدة التنفيذ": "عدد العروض"}
COUNTED = {"مناقصة": "عرضاً", "منافسة": "عرضاً", "مناقصات": "عروض", "منافسات": "عروض"}


def measure_word(src: Source) -> Iterator[Candidate]:
    """The measure a figure is told as changed: the count as bids, the estimate as the award, the
    average as the total."""
    for start, end, word in word_spans(src.insight, list(MEASURES)):
        yield Candidate(((start, end, MEASURES[word]),), note=f"{word} -> {MEASURES[word]}")
    for mention, _, _ in figures(src):
        after = re.match(r"\s*(مناقصة|منافسة|مناقصات|منافسات)(?![" + _LETTER + "])", src.insight[mention.end:])
        if after:
            start = mention.end + after.start(1)
            yield Candidate(((start, mention.end + after.end(1), COUNTED[after.group(1)]),),
                            note=f"{after.group(1)} -> {COUNTED[after.group(1)]}")


STATUSES = ("النشطة", "الملغاة", "المنتهية", "المرساة", "قيد الفحص", "قيد الترسية", "التي تمت ترسيتها", "تمت الترسية",
            "نشطة", "ملغاة", "منتهية")
STATUS_OTHER = {"النشطة": ("الملغاة", "المنتهية"), "الملغاة": ("النشطة", "المنتهية"), "المنتهية": ("الملغاة", "النشطة"),
                "المرساة": ("الملغاة", "النشطة"), "قيد الفحص": ("قيد الترسية", "تمت الترسية"),
                "قيد الترسية": ("قيد الفحص", "ملغاة"), "التي تمت ترسيتها": ("الملغاة", "المنتهية"),
                "تمت الترسية": ("ملغاة", "منتهية"), "نشطة": ("ملغاة", "منتهية"), "ملغاة": ("نشطة", "منتهية"),
                "منتهية": ("ملغاة", "نشطة")}
TYPES = {"منافسة عامة": "شراء مباشر", "شراء مباشر": "منافسة عامة", "منافسة محدودة": "منافسة عامة",
         "المنافسة العامة": "الشراء المباشر", "الشراء المباشر": "المنافسة العامة",
         "المنافسة المحدودة": "المنافسة العامة", "المزايدة العكسية الإلكترونية": "منافسة محدودة",
         "المنافسة على مرحلتين": "منافسة عامة", "منافسة اتفاقية إطارية": "شراء مباشر", "مسابقة": "منافسة محدودة"}


def status_word(src: Source) -> Iterator[Candidate]:
    """A status or tender-type name changed to another (the awarded count called the cancelled)."""
    if not src.figure_columns():
        return  # a list of the names themselves claims no figure
    for start, end, word in word_spans(src.insight, list(STATUSES)):
        for other in STATUS_OTHER[word]:
            yield Candidate(((start, end, other),), note=f"{word} -> {other}")
    for start, end, word in word_spans(src.insight, list(TYPES)):
        yield Candidate(((start, end, TYPES[word]),), note=f"{word} -> {TYPES[word]}")


def _label_domain(src: Source, c: int) -> list[str]:
    """Labels of the same kind as the result's labels that the result does not have."""
    values = [str(row[c]) for row in src.rows]
    name = src.columns[c]
    if re.search("year", name) and all(re.fullmatch(r"\d{4}", v) for v in values):
        return [str(int(max(values)) + k) for k in (1, 2)]
    if re.search("month", name) and all(re.fullmatch(r"\d{4}-\d{2}", v) for v in values):
        year, month = map(int, max(values).split("-"))
        return [f"{year + (month + k - 1) // 12}-{(month + k - 1) % 12 + 1:02d}" for k in (1, 2)]
    have = {fold(v) for v in values}
    for table in _LOOKUPS:
        names = _LOOKUPS[table]
        if have <= {fold(n) for n in names}:
            return [n.strip() for n in names if fold(n) not in have]
    return []


def extra_row(src: Source) -> Iterator[Candidate]:
    """A bullet for a row the result does not have, with another row's figure."""
    c = src.label_column()
    found = figures(src)
    if c is None or not found:
        return
    mention, r, column = found[0]
    for label in _label_domain(src, c)[:3]:
        shown = write_like(src.rows[r][column], mention)
        yield Candidate(((len(src.insight), len(src.insight), f"\n- {label}: {shown}"),), note=f"extra row {label}")


def other_base_percentage(src: Source) -> Iterator[Candidate]:
    """A percentage change between two rows computed on the other row's base (or a share of the rest
    told as the share of the whole)."""
    column = main_column(src)
    columns = [] if column is None else [column]
    for mention in find_numbers(src.insight):
        if not mention.percent or not western(mention) or not columns:
            continue
        values = [row[columns[0]] for row in src.rows if isinstance(row[columns[0]], (int, float))]
        total = sum(values)
        for value in values:
            share = value / total * 100 if total else None
            if share is not None and value != total and abs(share - mention.value) <= mention.readings[0].unit / 2 + 1e-9:
                new = f"{value / (total - value) * 100:.{mention.decimals}f}"
                start, end = digit_span(mention)
                yield Candidate(((start, end, new),), equivalent=new == src.insight[start:end],
                                note="share of the rest")
    for (sa, ea, a), (sb, eb, b) in _two_named_rows(src):
        if len(src.figure_columns()) != 1:
            break
        va, vb = src.rows[a][columns[0]], src.rows[b][columns[0]]
        if not (isinstance(va, (int, float)) and isinstance(vb, (int, float))):
            continue
        if va <= 0 or vb <= 0 or same_value(va, vb):
            continue
        c = src.label_column()
        if c is not None and _PERIOD_COLUMN.search(src.columns[c]):
            # Over time the change is on the earlier period's base; told on the later one's.
            (es, ee, early), (ls, le, late) = sorted(((sa, ea, va), (sb, eb, vb)),
                                                     key=lambda x: _period(src.rows[a if x[0] == sa else b][c]))
            right, wrong = (late - early) / early * 100, (late - early) / late * 100
            said = (f"و{'ارتفع' if late > early else 'انخفض'} الرقم من {src.insight[es:ee]} إلى {src.insight[ls:le]} "
                    f"بنسبة {abs(wrong):.1f}%.")
        else:
            (hs, he, high), (ls, le, low) = ((sa, ea, va), (sb, eb, vb)) if va > vb else ((sb, eb, vb), (sa, ea, va))
            right, wrong = (high - low) / low * 100, (high - low) / high * 100
            said = f"ويزيد رقم {src.insight[hs:he]} على رقم {src.insight[ls:le]} بنسبة {wrong:.1f}%."
        if f"{abs(right):.1f}" == f"{abs(wrong):.1f}":
            yield Candidate((), equivalent=True)
            continue
        yield append(src, said, note=f"on the other base: {abs(wrong):.1f}% (right {abs(right):.1f}%)")


def wrong_total(src: Source) -> Iterator[Candidate]:
    """A total that is not the sum of the items: one row left out of it."""
    column = main_column(src)
    columns = [] if column is None or _NOT_SUMMED.search(src.columns[column]) else [column]
    if len(src.rows) < 3 or not columns or re.search(r"\bavg\s*\(", src.sql, re.I):
        return
    c = columns[0]
    values = [row[c] for row in src.rows]
    if not all(isinstance(v, (int, float)) for v in values):
        return
    total = sum(values)
    prefix = {round(sum(values[:k]), 2) for k in range(len(values) + 1)}
    mentions = [m for m, _, column in figures(src) if column == c]
    for m in find_numbers(src.insight):
        if western(m) and not m.percent and abs(m.value - total) <= m.readings[0].unit / 2 and m.value > max(values):
            for k in (1, len(values) - 1):
                start, end = digit_span(m)
                yield Candidate(((start, end, write_like(total - values[k], m)),), note=f"total without row {k + 1}")
    if not mentions:
        return
    for k in range(1, len(values) - 1):
        wrong = total - values[k]
        if round(wrong, 2) in prefix or round(wrong, 2) == round(sum(m.value for m in mentions), 2):
            continue
        yield append(src, f"والإجمالي {write_like(wrong, mentions[0])}.", note=f"total without row {k + 1}")


# ----------------------------------------------------------------------------------------------
# Meaning-preserving rewrites


def arabic_indic_digits(src: Source) -> Iterator[Candidate]:
    """Every Western digit written in Arabic-Indic, with ٬ for thousands and ٫ for decimals."""
    edits = tuple((m.start(), m.end(), m.group().translate(_INDIC))
                  for m in re.finditer(r"[0-9](?:[0-9,]*[0-9])?(?:\.[0-9]+)?", src.insight))
    if edits:
        yield Candidate(edits)


def number_words(src: Source) -> Iterator[Candidate]:
    """One figure in words: below a million spelled out, a round larger one as millions or billions."""
    for mention, _, _ in figures(src):
        value = mention.value
        if mention.scaled or mention.decimals or value != int(value):
            continue
        value = int(value)
        if value < 1_000_000:
            words = num2words(value, lang="ar").replace("و ", "و")
        elif value % 100_000 == 0:
            words = f"{value / 1e9:g} مليار" if value >= 1e9 and value % 100_000_000 == 0 else f"{value / 1e6:g} مليون"
        else:
            continue
        yield Candidate(((mention.start, mention.end, words),), note=f"{mention.text} -> {words}")


def markdown_bullets(src: Source) -> Iterator[Candidate]:
    """The answer as a markdown list: one bullet a sentence, or the items after its colon."""
    sentences = [s for s in re.split(r"(?<=[.؛])\s+", src.insight.strip()) if s]
    if len(sentences) >= 2 and "\n" not in src.insight:
        yield Candidate(((0, len(src.insight), "\n".join(f"- {s}" for s in sentences)),))
        return
    head, colon, rest = src.insight.partition(": ")
    items = re.split(r"، (?=\d+\) )", rest) if colon else []
    if len(items) >= 2 and "\n" not in src.insight:
        yield Candidate(((0, len(src.insight), f"{head}:\n" + "\n".join(f"- {i}" for i in items)),))
    elif "\n" not in src.insight:
        yield Candidate(((0, len(src.insight), f"- {src.insight}"),))


def bold(src: Source) -> Iterator[Candidate]:
    """Every figure, with its scale word, in markdown bold."""
    edits = tuple((m.start, m.end, f"**{src.insight[m.start:m.end]}**") for m in find_numbers(src.insight)
                  if "*" not in src.insight[max(0, m.start - 2):m.end + 2])
    if edits:
        yield Candidate(edits)


PREFACES = ("بناءً على نتائج الاستعلام، ", "إليك ما تظهره البيانات:\n", "بعد تحليل البيانات المتاحة، وجدت ما يلي:\n",
            "سؤال ممتاز! ", "وفقاً لبيانات منصة اعتماد، ")


def preface(src: Source) -> Iterator[Candidate]:
    """A chat agent's opening line before the answer."""
    for text in PREFACES:
        yield Candidate(((0, 0, text),))


OFFERS = ("هل ترغب في قائمة بأعلى 5 جهات؟", "هل تريد أن أعرض لك أعلى 10 مناطق؟", "تبي أوزع لك الرقم على 12 شهراً؟",
          "هل أعرض لك تفاصيل أول 3 منافسات؟", "إذا أردت، هل أقارن لك بين آخر 2 سنتين؟")


def closing_offer(src: Source) -> Iterator[Candidate]:
    """A chat agent's closing offer, a question to the user with a number in it."""
    for text in OFFERS:
        yield Candidate(((len(src.insight), len(src.insight), f"\n\n{text}"),))


def reorder_bullets(src: Source) -> Iterator[Candidate]:
    """The items of a list whose order the answer does not claim, as bullets in another order."""
    def unranked(text: str) -> str:
        return re.sub(r"(أكثر|أقل|أعلى) من \d", "", text)  # a threshold restated claims no order

    if _RANK_WORDS.search(unranked(src.insight)) or re.search("أعلى|أكثر|أقل|أدنى|رتب", unranked(src.question)):
        return
    head, colon, rest = src.insight.rpartition(": ")
    tail = ""
    rest = rest.rstrip(".")
    more = re.search(r"،? و(غيرها|\S+ أخرى)$", rest)
    if more:
        tail, rest = rest[more.start():], rest[:more.start()]
    items = [i.strip() for i in re.split(r"،\s*|\s+و(?=\S)", rest) if i.strip()] if colon else []
    named = [(s, e) for s, e, _ in label_spans(src)]
    offset = len(head) + len(colon)
    if len(items) < 2 or "\n" in src.insight or not all(_names_a_row(item, rest, offset, named) for item in items):
        return  # only a list of the result's rows: another kind of item may lean on the one before it
    order = list(range(len(items)))
    for shift in (1, 2):
        moved = order[shift:] + order[:shift]
        if moved != order and shift < len(items):
            bullets = [items[i] for i in moved] + ([tail.lstrip("، ").lstrip("و")] if tail else [])
            text = f"{head}:\n" + "\n".join(f"- {item}" for item in bullets)
            yield Candidate(((0, len(src.insight), text),), note=f"items rotated by {shift}")


def _names_a_row(item: str, rest: str, offset: int, named: list[tuple[int, int]]) -> bool:
    """True when the list item (found in ``rest``, which starts at ``offset`` of the insight) holds a
    row label of the result."""
    start = offset + rest.find(item)
    return any(start <= s and e <= start + len(item) for s, e in named)


def rounding_last_digit(src: Source) -> Iterator[Candidate]:
    """A figure rounded within the last digit it keeps, said as about (نحو 3,560 for 3,558)."""
    for mention in find_numbers(src.insight):
        if not western(mention) or mention.value < 10:
            continue
        before = src.insight[max(0, mention.start - 8):mention.start]
        about = "" if re.search("نحو|قرابة|حوالي|تقريب|ما يقارب", before) else "نحو "
        start, end = digit_span(mention)
        if mention.decimals:
            shown = mention.value / mention.scale
            new = f"{round(shown, mention.decimals - 1):,.{mention.decimals - 1}f}"
        elif not mention.scaled and mention.value >= 100 and mention.value % 10 and not 1900 <= mention.value <= 2100:
            new = f"{int(round(mention.value, -1)):,}"
        else:
            continue
        digits = src.insight[start:end]
        if "," not in digits:
            new = new.replace(",", "")
        yield Candidate(((mention.start, start, about), (start, end, new)), equivalent=new == digits,
                        note=f"{digits} -> {about}{new}")


SAUDI = {"يوجد": "فيه", "توجد": "فيه", "لا يوجد": "ما فيه", "لا توجد": "ما فيه", "هناك": "فيه", "الذي": "اللي",
         "التي": "اللي", "الذين": "اللي", "فقط": "بس", "ليس": "مو", "ليست": "مو", "هذا العام": "هالسنة",
         "هذا الشهر": "هالشهر", "كثير": "وايد", "بلغ": "وصل", "بلغت": "وصلت", "في البيانات": "بالبيانات",
         "ماذا": "وش", "جداً": "مرة"}
OTHER_DIALECT = {"يوجد": "فيه", "توجد": "فيه", "لا يوجد": "مفيش", "لا توجد": "مفيش", "هناك": "فيه", "الذي": "اللي",
                 "التي": "اللي", "فقط": "بس", "ليس": "مش", "ليست": "مش", "هذا العام": "السنة دي", "هذا": "ده",
                 "هذه": "دي", "كثير": "كتير", "بلغ": "وصل", "بلغت": "وصلت", "جداً": "خالص"}


def _dialect(src: Source, words: dict[str, str], openers: Sequence[str]) -> Iterator[Candidate]:
    edits = [(s, e, words[w]) for s, e, w in word_spans(src.insight, list(words))]
    for opener in openers:
        yield Candidate(((0, 0, opener), *edits))


def dialect_saudi(src: Source) -> Iterator[Candidate]:
    """Saudi wording: وش، اللي، فيه، بس، مو, and a Saudi opener."""
    return _dialect(src, SAUDI, ("أبشر، ", "طال عمرك، "))


def dialect_other(src: Source) -> Iterator[Candidate]:
    """Another dialect's wording (Egyptian: مفيش، ده، مش، اللي), and its opener."""
    return _dialect(src, OTHER_DIALECT, ("بص يا سيدي، ", "تمام، "))


Operator = Callable[[Source], Iterator[Candidate]]
OPERATORS: dict[str, tuple[str, Operator]] = {
    "swap_figures": (CHANGING, swap_figures),
    "other_row_figure": (CHANGING, other_row_figure),
    "other_column_figure": (CHANGING, other_column_figure),
    "other_row_label": (CHANGING, other_row_label),
    "ordinal_word": (CHANGING, ordinal_word),
    "ratio_word": (CHANGING, ratio_word),
    "comparative_word": (CHANGING, comparative_word),
    "bound_word": (CHANGING, bound_word),
    "direction_word": (CHANGING, direction_word),
    "negation": (CHANGING, negation),
    "month_word": (CHANGING, month_word),
    "unit_word": (CHANGING, unit_word),
    "measure_word": (CHANGING, measure_word),
    "status_word": (CHANGING, status_word),
    "extra_row": (CHANGING, extra_row),
    "other_base_percentage": (CHANGING, other_base_percentage),
    "wrong_total": (CHANGING, wrong_total),
    "arabic_indic_digits": (PRESERVING, arabic_indic_digits),
    "number_words": (PRESERVING, number_words),
    "markdown_bullets": (PRESERVING, markdown_bullets),
    "bold": (PRESERVING, bold),
    "preface": (PRESERVING, preface),
    "closing_offer": (PRESERVING, closing_offer),
    "reorder_bullets": (PRESERVING, reorder_bullets),
    "rounding_last_digit": (PRESERVING, rounding_last_digit),
    "dialect_saudi": (PRESERVING, dialect_saudi),
    "dialect_other": (PRESERVING, dialect_other),
}

_LOOKUPS: dict[str, list[str]] = {}


def load_lookups() -> None:
    """The names of regions, statuses, types and agencies: the rows a result could have had."""
    con = connect_readonly(ensure_database(None))
    try:
        for table in ("regions", "tender_statuses", "tender_types", "activities", "government_agencies"):
            _LOOKUPS[table] = [str(name) for (name,) in con.execute(f"SELECT name_ar FROM {table} ORDER BY 1")]
    finally:
        con.close()


# ----------------------------------------------------------------------------------------------
# The run


@dataclass
class Tally:
    """What one operator made: candidates, equivalents dropped, mutants kept."""

    kind: str
    candidates: int = 0
    equivalent: int = 0
    mutants: list[dict[str, Any]] = field(default_factory=list)


def generate(sources: Sequence[Source], seed: int = SEED, per_source: int = PER_SOURCE,
             per_operator: int = PER_OPERATOR) -> dict[str, Tally]:
    """Every operator over every source: up to ``per_source`` mutants of a source, a seeded sample of
    ``per_operator`` mutants of an operator; equivalent mutants dropped and counted."""
    tallies = {}
    for name, (kind, operator) in OPERATORS.items():
        rng = random.Random(f"{seed}:{name}")
        tally = Tally(kind)
        pool = []
        for src in sources:
            kept, seen = [], {src.insight}
            for candidate in operator(src):
                tally.candidates += 1
                text = apply_edits(src.insight, candidate.edits)
                if candidate.equivalent or text == src.insight:
                    tally.equivalent += 1
                    continue
                if text in seen:
                    continue  # the same mutant twice (two candidates, one text): kept once
                seen.add(text)
                kept.append({"operator": name, "kind": kind, "source": src.id, "origin": src.origin,
                             "question": src.question, "category": src.category, "sql": src.sql,
                             "before": src.insight, "text": text, "edits": [list(e) for e in candidate.edits],
                             "note": candidate.note})
            pool.extend(rng.sample(kept, min(per_source, len(kept))))
        tally.mutants = rng.sample(pool, min(per_operator, len(pool)))
        tally.mutants.sort(key=lambda m: (m["source"], m["text"]))
        tallies[name] = tally
    return tallies


def _item(item_id: str, mutant: dict[str, Any], insight: str) -> dict[str, Any]:
    """An item of claims_labelled: the mutant's (or its source's) insight over the source's SQL."""
    return {"id": item_id, "question": mutant["question"], "category": mutant["category"], "status": "success",
            "sql": mutant["sql"], "insight": insight, "label": "right", "kind": "mutant"}


def score(tallies: dict[str, Tally]) -> tuple[int, int]:
    """Every mutant's verdict (correct, not_correct_because) written into it, scored in one batch with
    the answers it was made from; the mutants of an answer not judged Correct itself are left out (a
    mutant of an answer already failed tells nothing). Returns the answers judged and left out."""
    mutants = [m for tally in tallies.values() for m in tally.mutants]
    sources = {m["source"]: m for m in mutants}
    items = [_item(f"source:{i}", m, m["before"]) for i, m in sources.items()]
    items += [_item(f"m{i}", m, m["text"]) for i, m in enumerate(mutants)]
    scores = score_items(items).set_index("item")
    failed = {i for i in sources if not scores.at[f"source:{i}", "correct"]}
    for i, mutant in enumerate(mutants):
        mutant["correct"] = bool(scores.at[f"m{i}", "correct"])
        mutant["because"] = scores.at[f"m{i}", "not_correct_because"]
    for tally in tallies.values():
        tally.mutants = [m for m in tally.mutants if m["source"] not in failed]
    return len(sources), len(failed)


def report(tallies: dict[str, Tally]) -> dict[str, dict[str, Any]]:
    """Per operator: mutants, judged as they should be, the share, the first failures."""
    table = {}
    for name, tally in tallies.items():
        expected = [m for m in tally.mutants if m["correct"] == (tally.kind == PRESERVING)]
        failures = [m for m in tally.mutants if m["correct"] != (tally.kind == PRESERVING)]
        table[name] = {"kind": tally.kind, "candidates": tally.candidates, "equivalent_dropped": tally.equivalent,
                       "mutants": len(tally.mutants), "as_expected": len(expected),
                       "share": len(expected) / len(tally.mutants) if tally.mutants else None,
                       "failures": [{key: m[key] for key in ("source", "text", "because", "note")}
                                    for m in failures[:EXAMPLES]]}
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, help="write the sources, every mutant and the table here")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-operator", type=int, default=PER_OPERATOR)
    parser.add_argument("--no-score", action="store_true", help="generate only (the mutants, no verdicts)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    load_lookups()
    sources = labelled_sources() + reference_sources()
    read = time.perf_counter()
    print(f"{len(sources)} right answers ({sum(s.origin == 'labelled' for s in sources)} labelled, "
          f"{sum(s.origin == 'reference' for s in sources)} the reference agent's)")
    tallies = generate(sources, args.seed, per_operator=args.per_operator)
    generated = time.perf_counter()
    judged = left_out = 0
    if not args.no_score:
        judged, left_out = score(tallies)
        print(f"{judged} of them mutated; {left_out} not judged Correct themselves, their mutants left out")
    total = sum(len(t.mutants) for t in tallies.values())
    dropped = sum(t.equivalent for t in tallies.values())
    print(f"{total} mutants by {len(tallies)} operators; {dropped} equivalent mutants dropped")
    out: dict[str, Any] = {"seed": args.seed, "target": TARGET, "sources": len(sources),
                           "mutated_sources": judged, "left_out_sources": left_out,
                           "source_rows": {s.id: {"columns": list(s.columns), "rows": [list(r) for r in s.rows]}
                                           for s in sources},
                           "mutants": total, "equivalent_dropped": dropped}
    if not args.no_score:
        table = report(tallies)
        out["operators"] = table
        print(f"\n{'operator':24}{'kind':12}{'mutants':>8}{'equiv.':>8}{'as expected':>13}{'share':>8}  ratio to 97 %")
        for name, row in table.items():
            share = row["share"]
            print(f"{name:24}{row['kind']:12}{row['mutants']:8}{row['equivalent_dropped']:8}{row['as_expected']:13}"
                  f"{share:8.1%}  {share / TARGET:.2f}" if share is not None else f"{name:24}{row['kind']:12}       0")
        for name, row in table.items():
            for failure in row["failures"]:
                print(f"\n[{name}] {failure['source']} ({failure['note']}): {failure['because'] or 'Correct'}\n  "
                      + failure["text"].replace("\n", " ⏎ "))
    out["all_mutants"] = [m for t in tallies.values() for m in t.mutants]
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    print(f"\n{time.perf_counter() - started:.1f} s: answers {read - started:.1f} s, "
          f"generating {generated - read:.1f} s, "
          f"scoring {time.perf_counter() - generated:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
