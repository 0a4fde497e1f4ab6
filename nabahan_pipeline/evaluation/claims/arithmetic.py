"""Figures an insight relates by arithmetic, checked against each other: a share with its part and
whole ("11.8% (2,359 من أصل 20,000)"), a difference with its two figures ("بفارق 14"), figures
compared by their places ("يزيد الأول على الثاني"), a rounding or an exact figure beside the one it
restates, a rise or fall with its two ends. Each figure may be a cell of the rows (so the row
readings pass it) while together they say what the rows do not.
"""

from __future__ import annotations

import re

from nabahan_pipeline.arabic.numbers import NumberMention
from nabahan_pipeline.evaluation.claims.evidence import significant_unit
from nabahan_pipeline.evaluation.claims.words import DIRECTIONS
from nabahan_pipeline.evaluation.claims.folding import Folded, fold
from nabahan_pipeline.evaluation.claims.reading import SENTENCE_END, year_like

# Between a part and its whole: up to two words (its noun, its status), then "من" (أصل، إجمالي).
_PART_OF = re.compile(r"\s*(?:[^\W\d]+\s+){0,2}?من(?:\s+(?:اصل|اجمالي|مجموع|بين))?\s*")
_FROM_TO = re.compile(r"^\s*(?:[^\W\d]+\s+)?(?:الي|حتي|to)(?!\w)")
# The word right before a difference: "بمقدار 72"، "بفارق 14"، "الفرق 500".
_DIFFERENCE = re.compile(r"(?<!\w)(?:ب|و)?(?:مقدار|فارق|الفارق|الفرق|فرق)\s*(?:قدره\s+|يبلغ\s+|بلغ\s+)?$")
_APPROXIMATE = re.compile(r"(?<!\w)(?:نحو|حوالي|قرابه|تقريبا|يقارب|ما يقارب|زهاء)[\s*_]*$")


def _sentences(text: str) -> list[tuple[int, int]]:
    starts = [0] + [m.end() for m in SENTENCE_END.finditer(text)]
    return [(a, b) for a, b in zip(starts, starts[1:] + [len(text)]) if b > a]


def _approximate(text: str, mention: NumberMention) -> bool:
    return bool(_APPROXIMATE.search(fold(text[max(0, mention.start - 14) : mention.start])))


def _within(value: float, mention: NumberMention) -> bool:
    """``value`` is what ``mention`` says, within a unit of its last stated digit."""
    return any(abs(abs(value) - r.value) <= r.unit + 1e-9 * max(1.0, r.value) for r in mention.readings)


def arithmetic_contradictions(folded: Folded) -> list[tuple[int, int, str, str]]:
    """The parts, wholes and shares, and the differences, that the insight ``folded`` says together
    and that do not add up: each as (start, end, the words as written, what the figures make)."""
    found, insight = [], folded.original
    mentions = folded.numbers
    for start, end in _sentences(insight):
        inside = [m for m in mentions if start <= m.start and m.end <= end]
        before = [m for m in mentions if m.end <= start]
        found += (_parts(insight, inside) + _differences(insight, inside) + _restated(insight, inside)
                  + _exactly(insight, inside) + _moves(folded, start, end, inside)
                  + _ordinal_comparisons(folded, start, end, inside, before))
    return found


def _parts(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"X من أصل Y" beside a percentage: some percentage of the sentence is X / Y."""
    shares = [m for m in mentions if m.percent]
    if not shares:
        return []
    found = []
    for part, whole in zip(mentions, mentions[1:]):
        if part.percent or whole.percent or year_like(part) or year_like(whole) or whole.value <= 0:
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


def _sides(insight: str, mentions: list[NumberMention]) -> list[NumberMention]:
    """The figures a comparison or a difference may be between: not percentages, years, or a
    rounding restating the figure before it ("(نحو 28.23 مليار)")."""
    restated = {b.start for a, b in zip(mentions, mentions[1:])
                if a.percent == b.percent and _RESTATED.fullmatch(fold(insight[a.end : b.start]))}
    return [m for m in mentions if not (m.percent or year_like(m) or m.start in restated)]


def _slack(insight: str, mention: NumberMention) -> float:
    """How far a side may be from what it rounds: half its last digit, the whole of it when said
    as about ("نحو 3,560")."""
    unit = mention.readings[0].unit
    return max(unit, significant_unit(mention.value)) if _approximate(insight, mention) else unit / 2


def _differences(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"بمقدار D"، "بفارق D" after two figures: D is the difference of two figures before it."""
    found = []
    for k, difference in enumerate(mentions):
        if difference.percent or not _DIFFERENCE.search(fold(insight[max(0, difference.start - 20) : difference.start])):
            continue
        if _approximate(insight, difference) or re.match(r"\s*(?:نقط|نقاط)", fold(insight[difference.end : difference.end + 8])):
            continue
        sides = _sides(insight, mentions[:k])
        if len(sides) < 2:
            continue
        if any(abs(abs(a.value - b.value) - r.value) <= r.unit + _slack(insight, a) + _slack(insight, b)
               + 1e-9 * max(1.0, r.value) for i, a in enumerate(sides) for b in sides[i + 1 :] for r in difference.readings):
            continue
        found.append((difference.start, difference.end, difference.text,
                      "no two figures before it differ by it"))
    return found


# A figure restated rounded right after it: "25,569,081,486.42 ريال (نحو 25.57 مليار ريال)".
_RESTATED = re.compile(r"[\s*_]*(?:[^\W\d]+[\s*_]*)?[(،,][\s*_]*(?:اي\s+)?(?:نحو|حوالي|قرابه|تقريبا|ما يقارب|يقارب)[\s*_]*")


def _restated(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """A figure and its rounding in the words right after it: the rounding is of that figure."""
    found = []
    for exact, rounded in zip(mentions, mentions[1:]):
        if exact.percent != rounded.percent or _approximate(insight, exact) or year_like(exact):
            continue
        if not _RESTATED.fullmatch(fold(insight[exact.end : rounded.start])):
            continue
        if any(abs(exact.value - r.value) <= r.unit * 0.5 + 1e-9 * max(1.0, r.value) for r in rounded.readings):
            continue
        found.append((rounded.start, rounded.end, rounded.text, f"it restates {exact.text}"))
    return found


_PLACES = {"الاول": 1, "الاولي": 1, "الثاني": 2, "الثانيه": 2, "الثالث": 3, "الثالثه": 3, "الرابع": 4,
           "الرابعه": 4, "الخامس": 5, "الخامسه": 5}
_MORE = ("يزيد", "تزيد", "يفوق", "تفوق", "اكثر", "اعلي", "اكبر")
_LESS = ("يقل", "تقل", "اقل", "ادني", "اصغر")
_PLACE = "|".join(_PLACES)
_VERB = "|".join((*_MORE, *_LESS))
# "يزيد الأول على الثاني"، "الأولى أكثر من الثانية": two figures said before, named by their places.
_BY_PLACE = re.compile(rf"(?<!\w)(?:[وف]?(?P<verb1>{_VERB})\s+(?P<first1>{_PLACE})|(?P<first2>{_PLACE})\s+(?P<verb2>{_VERB}))"
                       rf"\s+(?:علي|عن|من)\s+(?P<second>{_PLACE})(?!\w)")


def _ordinal_comparisons(folded: Folded, start: int, end: int, mentions: list[NumberMention],
                         before: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"يزيد الأول على الثاني": the figures the sentence said before it, in order, are the first and
    the second (those of the text before, when the sentence says fewer than two); one compared with
    itself, a place past the figures said, or the comparison the wrong way round is contradicted."""
    found, insight = [], folded.original
    for at, until, match in folded.find(_BY_PLACE, start, end):
        verb = match.group("verb1") or match.group("verb2")
        first = _PLACES[match.group("first1") or match.group("first2")]
        second = _PLACES[match.group("second")]
        sides = _sides(insight, [m for m in mentions if m.end <= at])
        if len(sides) < 2:  # the figures are in the lines before ("- ...؛\n- يزيد الأول على الثاني")
            sides = _sides(insight, before + [m for m in mentions if m.end <= at])
        text = insight[at:until]
        if first == second:
            found.append((at, until, text, "it compares a figure with itself"))
        elif max(first, second) > len(sides):
            found.append((at, until, text, f"the sentence says {len(sides)} figures before it"))
        elif (sides[first - 1].value > sides[second - 1].value) != (verb in _MORE) \
                and sides[first - 1].value != sides[second - 1].value:
            found.append((at, until, text, f"{sides[first - 1].text} and {sides[second - 1].text}"))
    return found


# "قرابة ثلاثة عشر ألف منافسة (بالضبط 12,862)": the exact figure of the approximation before it.
_EXACTLY = re.compile(r"[\s\w]*\(\s*(?:بالضبط|تحديدا|بالتحديد|علي وجه الدقه|وبالضبط)\s*")
# How far "about" reaches: the approximation's last digit, or this share of it.
ABOUT = 0.15


def _exactly(insight: str, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """An exact figure given for an approximation right before it must be what it approximates."""
    found = []
    for rough, exact in zip(mentions, mentions[1:]):
        if rough.percent != exact.percent or not _EXACTLY.fullmatch(fold(insight[rough.end : exact.start])):
            continue
        reach = max(significant_unit(rough.value), ABOUT * rough.value)
        if abs(exact.value - rough.value) > reach:
            found.append((exact.start, exact.end, exact.text, f"it is not about {rough.text}"))
    return found


_MOVE = re.compile(r"(?<!\w)[وف]?(?:ثم\s+)?("
                   + "|".join(sorted(map(re.escape, DIRECTIONS), key=len, reverse=True)) + r")(?!\w)")
_TO = re.compile(r"(?<!\w)(?:الي|لتصل الي|ليصل الي|ليبلغ|لتبلغ)\s*$")
_FROM = re.compile(r"(?<!\w)من\s*$")


def _moves(folded: Folded, start: int, end: int, mentions: list[NumberMention]) -> list[tuple[int, int, str, str]]:
    """"انخفض ... من 709 إلى 671": a rise or fall with the figure it went to (after "إلى") and the
    one it came from ("من", else the figure said last before the word) goes that way."""
    found, insight = [], folded.original
    sides = _sides(insight, mentions)
    for at, until, match in folded.find(_MOVE, start, end):
        sign = DIRECTIONS[match.group(1)]
        after = [m for m in sides if m.start >= until]
        to = next((m for m in after if _TO.search(fold(insight[max(until, m.start - 14) : m.start]))), None)
        if to is None or _MOVE.search(fold(insight[until : to.start])):
            continue  # another rise or fall between: the figure is that one's
        origin = next((m for m in after if m.start < to.start and _FROM.search(fold(insight[max(until, m.start - 6) : m.start]))), None)
        before = [m for m in sides if m.end <= at]
        origin = origin or (before[-1] if before else None)
        if origin is None or origin.percent != to.percent or origin.value == to.value:
            continue
        if (to.value > origin.value) != (sign > 0):
            found.append((at, to.end, insight[at : to.end], f"from {origin.text} to {to.text}"))
    return found
