"""Figures an insight relates to each other by arithmetic, checked against each other.

A share said with its part and whole ("11.8% (2,359 من أصل 20,000 مناقصة)") is the part over the
whole; a difference said with its two figures ("3,558 ... 3,486 ...؛ يزيد الأول على الثاني بمقدار
72"، "من 66 إلى 52، بفارق 14") is the one minus the other. Each figure may be a cell of the rows on
its own (so the row readings pass it) while the three together say something the rows do not:
the part told as the whole, the difference told as one of its sides. These rules read the figures
as the sentence relates them.
"""

from __future__ import annotations

import re

from nabahan_pipeline.arabic.numbers import NumberMention, find_numbers
from nabahan_pipeline.evaluation.claims.folding import fold

_SENTENCE_END = re.compile(r"[!?؟\n]|\.(?!\d)|(?<!\d)\.")
# Between a part and its whole: up to two words (its noun, its status), then "من" (أصل، إجمالي).
_PART_OF = re.compile(r"\s*(?:[^\W\d]+\s+){0,2}?من(?:\s+(?:اصل|اجمالي|مجموع|بين))?\s*")
_FROM_TO = re.compile(r"^\s*(?:[^\W\d]+\s+)?(?:الي|حتي|to)(?!\w)")
# The word right before a difference: "بمقدار 72"، "بفارق 14"، "الفرق 500".
_DIFFERENCE = re.compile(r"(?<!\w)(?:ب|و)?(?:مقدار|فارق|الفارق|الفرق|فرق)\s*(?:قدره\s+|يبلغ\s+|بلغ\s+)?$")
_APPROXIMATE = re.compile(r"(?<!\w)(?:نحو|حوالي|قرابه|تقريبا|يقارب|ما يقارب|زهاء)\s*$")


def _sentences(text: str) -> list[tuple[int, int]]:
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(text)]
    return [(a, b) for a, b in zip(starts, starts[1:] + [len(text)]) if b > a]


def _year_like(mention: NumberMention) -> bool:
    return (not (mention.percent or mention.scaled) and mention.value.is_integer()
            and 1900 <= mention.value <= 2100 and not re.search(r"[,٬]", mention.text))


def _approximate(text: str, mention: NumberMention) -> bool:
    return bool(_APPROXIMATE.search(fold(text[max(0, mention.start - 14) : mention.start])))


def _within(value: float, mention: NumberMention) -> bool:
    """``value`` is what ``mention`` says, within a unit of its last stated digit."""
    return any(abs(abs(value) - r.value) <= r.unit + 1e-9 * max(1.0, r.value) for r in mention.readings)


def arithmetic_contradictions(insight: str) -> list[tuple[int, int, str, str]]:
    """The parts, wholes and shares, and the differences, that ``insight`` says together and that
    do not add up: each as (start, end, the words as written, what the figures make)."""
    found = []
    mentions = find_numbers(insight)
    for start, end in _sentences(insight):
        inside = [m for m in mentions if start <= m.start and m.end <= end]
        found += _parts(insight, inside) + _differences(insight, inside) + _restated(insight, inside)
    return found


def _parts(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"X من أصل Y" beside a percentage: some percentage of the sentence is X / Y."""
    shares = [m for m in mentions if m.percent]
    if not shares:
        return []
    found = []
    for part, whole in zip(mentions, mentions[1:]):
        if part.percent or whole.percent or _year_like(part) or _year_like(whole) or whole.value <= 0:
            continue
        if not _PART_OF.fullmatch(fold(insight[part.end : whole.start])):
            continue
        if _FROM_TO.match(fold(insight[whole.end : whole.end + 12])):
            continue  # "من 3,000 إلى 3,500": a change, not a whole
        share = 100.0 * part.value / whole.value
        if any(_within(share, m) or _approximate(insight, m) and abs(share - m.value) <= 0.15 * m.value
               for m in shares):
            continue
        found.append((part.start, whole.end, insight[part.start : whole.end],
                      f"{part.text} / {whole.text} is {share:.1f}%, not any share the sentence says"))
    return found


def _differences(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"بمقدار D"، "بفارق D" after two figures: D is the difference of two figures before it."""
    found = []
    for k, difference in enumerate(mentions):
        if difference.percent or not _DIFFERENCE.search(fold(insight[max(0, difference.start - 20) : difference.start])):
            continue
        if _approximate(insight, difference) or re.match(r"\s*(?:نقط|نقاط)", fold(insight[difference.end : difference.end + 8])):
            continue
        sides = [m for m in mentions[:k] if not (m.percent or _year_like(m) or _approximate(insight, m))]
        if len(sides) < 2:
            continue
        if any(_within(a.value - b.value, difference) for i, a in enumerate(sides) for b in sides[i + 1 :]):
            continue
        found.append((difference.start, difference.end, difference.text,
                      "no two figures before it differ by it"))
    return found


# A figure restated rounded right after it: "25,569,081,486.42 ريال (نحو 25.57 مليار ريال)".
_RESTATED = re.compile(r"\s*(?:[^\W\d]+\s*)?[(،,]\s*(?:اي\s+)?(?:نحو|حوالي|قرابه|تقريبا|ما يقارب|يقارب)\s*")


def _restated(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """A figure and its rounding in the words right after it: the rounding is of that figure."""
    found = []
    for exact, rounded in zip(mentions, mentions[1:]):
        if exact.percent != rounded.percent or _approximate(insight, exact) or _year_like(exact):
            continue
        if not _RESTATED.fullmatch(fold(insight[exact.end : rounded.start])):
            continue
        if any(abs(exact.value - r.value) <= r.unit * 0.5 + 1e-9 * max(1.0, r.value) for r in rounded.readings):
            continue
        found.append((rounded.start, rounded.end, rounded.text, f"it restates {exact.text}"))
    return found
