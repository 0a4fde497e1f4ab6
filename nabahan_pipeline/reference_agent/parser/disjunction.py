""""أو" between conditions of different kinds: "كم منافسة ملغاة أو في الرياض", "عامة أو في 2024",
"قيمتها أكثر من مليون أو عروضها أقل من 3". A frame ANDs its conditions, so such a question would
be answered as its "and"; the "أو" is named instead and the question refused. A list of one kind
("الرياض أو جدة", "ملغاة أو منتهية", "وزارة الصحة أو وزارة التعليم") is read by its own pass as
one condition, and stays answered."""

from __future__ import annotations

import re

from nabahan_pipeline.reference_agent.parser.patterns import STATUSES, TYPES

_OR = re.compile(r"(?<!\w)(?:او|ولا)(?!\w)")
# Passes that read only one kind of condition, each a list of its own; two comparisons of figures
# ("value") are two conditions, never one list.
_ONE_KIND = frozenset({"region", "name", "english_name", "agency_group", "date", "duration"})


def blanked_by(before: str, after: str, part: str) -> dict[int, str]:
    """The offsets a pass blanked out (``before`` -> ``after``), each marked with the pass's name."""
    return {i: part for i, (a, b) in enumerate(zip(before, after)) if a != b}


def _kind(part: str, original: str, at: int) -> str:
    """The kind of condition read at offset ``at``: the pass, and for the status-and-type pass
    which of the two."""
    if part != "status_type":
        return part
    for pattern, kind in ((STATUSES, "status"), (TYPES, "type")):
        if any(m.start() <= at < m.end() for m in pattern.finditer(original)):
            return kind
    return part


def or_across_kinds(text: str, original: str, owners: dict[int, str]) -> tuple[str, ...]:
    """The "أو" / "ولا" left in the working ``text`` that join two phrases read as conditions of
    different kinds, or two comparisons of figures; ``owners`` says which pass read each offset
    of ``original``."""
    found = []
    for m in _OR.finditer(text):
        i = m.start() - 1
        while i >= 0 and i not in owners and (text[i] == " " or _in_small_word(text, i)):
            i -= 1
        j = m.end()
        while j < len(text) and j not in owners and (text[j] == " " or _in_small_word(text, j)):
            j += 1
        if i < 0 or j >= len(text) or i not in owners or j not in owners:
            continue
        left_kind, right_kind = _kind(owners[i], original, i), _kind(owners[j], original, j)
        if left_kind != right_kind or left_kind not in _ONE_KIND | {"status", "type", "status_type"}:
            found.append(m.group(0))
    return tuple(found)


# Small words that may stand between "أو" and the phrase it joins ("أو في الرياض").
_SMALL = re.compile(
    r"(?<!\w)(?:في|من|ل|ب|اللي|التي|الي|هي|هو|قيمتها|عروضها|حالتها|نوعها|تابعه|منشوره|نشرت|مطروحه|طرحت|طرحتها)(?!\w)"
)


def _in_small_word(text: str, at: int) -> bool:
    return any(s.start() <= at < s.end() for s in _SMALL.finditer(text))


def _runs(owners: dict[int, str]) -> list[tuple[int, int, str]]:
    """The spans each pass read, as (start, end, pass): offsets in a row with one owner."""
    runs: list[tuple[int, int, str]] = []
    for i in sorted(owners):
        if runs and runs[-1][1] == i and runs[-1][2] == owners[i]:
            runs[-1] = (runs[-1][0], i + 1, owners[i])
        else:
            runs.append((i, i + 1, owners[i]))
    return runs


def elided_names(original: str, owners: dict[int, str], fields: set[str]) -> tuple[str, ...]:
    """The word after an agency's name that, with "و" glued, may name a second agency of the same
    kind with its head noun left out ("أمانة الرياض وجدة", "جامعة القصيم وحائل", "وزارة الصحة
    والتعليم"), but was read as a region or an activity and ANDed with the name; ``fields`` are
    the fields of the question's conditions."""
    found = []
    runs = _runs(owners)
    for (_, end, part), (start, stop, next_part) in zip(runs, runs[1:]):
        if part != "name" or original[end:start].strip() or original[start : start + 1] != "و":
            continue
        if next_part == "region" or (next_part == "name" and {"agency", "activity"} <= fields):
            found.append(original[start:stop].split()[0])
    return tuple(found)


# A name read with the negation before it: the negation begins its span.
_NEGATION_FIRST = re.compile(
    r"(?:[وفبل]?غير|من غير|ما عدا|ماعدا|عدا|باستثناء|سوي|خارج|بدون|لا|الا|مو|مب|مش|ليس|ليست|ما|ماهي|ماهو|مهوب|مهيب|لم)(?!\w)"
)


def modified_groups(original: str, owners: dict[int, str]) -> tuple[str, ...]:
    """The words right after a group of agencies, with no "و", that a pass read as another name
    ("المستشفيات العسكرية": the military industries corporation; "الجامعات الطبية": the medical
    activities): an adjective narrowing the group, which the reading would instead OR in as an
    agency or AND in as an activity."""
    found = []
    runs = _runs(owners)
    for (_, end, part), (start, stop, next_part) in zip(runs, runs[1:]):
        if part == "agency_group" and next_part == "name" and not original[end:start].strip() and original[start] != "و":
            if not _NEGATION_FIRST.match(original, start):  # "الجامعات ماعدا جامعة ...": read as one
                found += original[start:stop].split()
    return tuple(found)
