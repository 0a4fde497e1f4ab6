"""What marks a hallucination in an insight: stock AI disclaimers, template placeholders, and
numbers traced neither to the reported rows nor to the question (``grounding``; where the claims
were checked against those same rows, their verdicts are read, so the two columns agree)."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.agents.responses_table import json_text
from nabahan_pipeline.arabic.normalize import normalize_arabic
from nabahan_pipeline.evaluation.grounding import ungrounded_numbers
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.claims import answer_rows, not_verified_numbers
from nabahan_pipeline.evaluation.scoring.declare import Column, scorer

# The words (package data, read once): stock AI disclaimers and hedges, an assistant speaking of
# itself as a model, of its training or of its knowledge, which a grounded answer over retrieved
# rows never needs; matched as whole words and phrases after normalize_arabic (hamza, ta marbuta
# and case variants all match; "as an ai" is not in "has an airport"). An access phrase ("I cannot
# reach ...") is a disclaimer only when one of LIVE_SOURCES (the internet, live or current data)
# follows within three words: "لا يمكنني الوصول إلى بيانات الطقس" honestly states the agent's scope.
_WORDS = json.loads(Path(__file__).with_name("markers.json").read_text(encoding="utf-8"))
DISCLAIMER_PHRASES: tuple[str, ...] = tuple(_WORDS["disclaimer_phrases"])
ACCESS_PHRASES: tuple[str, ...] = tuple(_WORDS["access_phrases"])
LIVE_SOURCES: tuple[str, ...] = tuple(_WORDS["live_sources"])


def _phrase(text: str) -> str:
    return r"(?<!\w)" + re.escape(normalize_arabic(text)) + r"(?!\w)"


def _with_preposition(source: str) -> list[str]:
    """A source as written, and after ب or ل ("بالإنترنت", "للبيانات الحية")."""
    folded = normalize_arabic(source)
    return [folded, "ب" + folded, "لل" + folded[2:] if folded.startswith("ال") else "ل" + folded]


_LIVE = "(?:" + "|".join(_phrase(form) for source in LIVE_SOURCES for form in _with_preposition(source)) + ")"
# Each pattern starts with its phrase as folded: one whose phrase is not in the text is not
# searched, nor compiled (each access phrase before every live source makes many patterns).
_FOLDED_DISCLAIMERS = tuple(
    (phrase, normalize_arabic(phrase), _phrase(phrase) + (r"(?:\s+\S+){0,3}?\s+" + _LIVE if access else ""))
    for phrases, access in ((DISCLAIMER_PHRASES, False), (ACCESS_PHRASES, True)) for phrase in phrases
)
_compiled = functools.cache(re.compile)  # pure, over the fixed patterns above: bounded in any process

# HTML element names: a tag an agent may emit (<br>, <thead>, </td>, <h3>, <a href=...>) is no
# placeholder.
_HTML_ELEMENTS = "|".join(_WORDS["html_elements"])
# Template placeholders left in the text: {count}, {{x}}, [REGION], <placeholder>, XXX, N/A,
# TODO/TBD/FIXME, $1, ${x}, %s, %(name)s. [REGION] and TODO count in capitals only ("[see note]"
# in prose is not a placeholder); an angle-bracket word counts when it is no HTML element name.
PLACEHOLDER_PATTERN = re.compile(
    r"\{\{?\s*[A-Za-z_][\w.]*\s*\}\}?"
    r"|\[[A-Z][A-Z0-9_ ]*\]"
    r"|\b(?:TODO|TBD|FIXME)\b"
    r"|<(?!(?i:" + _HTML_ELEMENTS + r")\b)[A-Za-z_][\w ]*>"
    r"|(?<![A-Za-z])[Xx]{3,}(?![A-Za-z])"
    r"|(?<![\w/])(?i:n/a)(?![\w/])"
    r"|\$[1-9](?![\d.,])|\$\{\w+\}"
    r"|%\(\w+\)[sd]|(?<![\w%])%[sd](?!\w)"
)


def hallucination_markers(insight: str, ungrounded: list[str]) -> list[str]:
    """What in ``insight`` marks a hallucination, each as 'kind: text': stock AI disclaimers,
    template placeholders, and the ``ungrounded`` numbers (from grounding.ungrounded_numbers)."""
    normalized = normalize_arabic(insight).replace("\u2019", "'")
    markers = [
        f"disclaimer: {phrase}"
        for phrase, folded, pattern in _FOLDED_DISCLAIMERS
        if folded in normalized and _compiled(pattern).search(normalized)
    ]
    markers += [f"placeholder: {match.group(0)}" for match in PLACEHOLDER_PATTERN.finditer(insight)]
    markers += [f"ungrounded number: {number}" for number in ungrounded]
    return markers


@scorer(
    Column("ungrounded_numbers", pa.Column(str, json_text(list), description="JSON list of the numbers, as written, traced to nothing."),
           "Ungrounded Numbers", draw=lambda drawn: "[]"),  # synthetic insights' numbers are their rows'
    Column("hallucination_markers", pa.Column(str, json_text(list), description="JSON list of what marks a hallucination."),
           "Hallucination Markers"),
)
def hallucination(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The insight's ungrounded numbers and every hallucination marker, each as a JSON list."""
    columns, rows = answer_rows(answer)
    # Compared a row at a time: two copies of a 30 MiB result, to compare them, cost 24 MiB.
    same_rows = len(rows) == len(answer.rows) and all(list(a) == list(b) for a, b in zip(rows, answer.rows))
    if list(columns) == list(answer.columns) and same_rows:
        ungrounded = not_verified_numbers(scores["claim_details"])
    else:  # the agent reported other rows than its SQL returns: what it saw when it wrote
        ungrounded = ungrounded_numbers(answer.insight, answer.rows, answer.question,
                                        answer.checked.sqlite or answer.sql, answer.columns)
    markers = hallucination_markers(answer.insight, ungrounded)
    return {
        "ungrounded_numbers": json.dumps(ungrounded, ensure_ascii=False),
        "hallucination_markers": json.dumps(markers, ensure_ascii=False),
    }
