"""The seed's generation fidelity: four points on the insight (the status, Arabic, numbers, no
hallucination), 3 of 4 pass."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.arabic.normalize import arabic_letter_share, normalize_arabic
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, by_case, mean_of, point, scorer

MIN_INSIGHT_CHARS = 30  # a success must say more than this many characters (stripped)
MIN_ARABIC_SHARE = 0.3

# An apology, after normalize_arabic: عذراً، المعذرة، أعتذر، نعتذر، مع الاعتذار، اعذرني، آسف/آسفة،
# متأسف، للأسف، نأسف، يؤسفني، معليش، عفواً, sorry ... A word may carry و or ف, then ال, بال, لل, ب or ل.
APOLOGY_PATTERN = re.compile(
    r"(?<!\w)[وف]?(?:ال|بال|لل|[بل])?(?:"
    r"عذرا|معذره|اعتذر|نعتذر|اعتذار|اعتذاري|اعتذارنا|اعذرني|اعذرنا|اعذروني|اعذرونا"
    r"|اسف|اسفه|اسفون|اسفين|متاسف|متاسفه|متاسفون|متاسفين|ناسف|يوسفني|يوسفنا"
    r"|معليش|معلش|عفوا"
    r")(?!\w)"
    r"|\b(?:sorry|apologi[sz]e|apologies|unfortunately)\b"
)
_DIGIT_PATTERN = re.compile("[0-9\u0660-\u0669\u06f0-\u06f9]")


@scorer(
    point("status_match", "Fidelity point: the text fits the status (an apology for a refusal).", "Status Match"),
    point("arabic_text", "Fidelity point: the text is mostly Arabic.", "Arabic Text"),
    point("numbers_present", "Fidelity point: rows came back and the text has a digit.", "Numbers Present"),
    point("no_hallucination", "Fidelity point: no disclaimer, placeholder or ungrounded number.", "No Hallucination"),
    Column("fidelity_points", pa.Column(int, pa.Check.in_range(0, 4), description="The four fidelity points summed."),
           "Fidelity Points"),
    point("generation_fidelity", "The seed's fidelity verdict: 3 of 4 points.", "Generation Fidelity"),
    figures=[Figure("avg_generation_fidelity", "Avg Generation Fidelity", "rate", "Mean generation fidelity.",
                    mean_of("generation_fidelity"), by_case(lambda scores: scores["generation_fidelity"]), trend=True)],
)
def fidelity(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The four fidelity points, their sum and the seed's verdict on them; no_hallucination
    reads the hallucination scorer's markers."""
    status_match = int(matches_status(answer.status, answer.insight))
    arabic_text = int(arabic_letter_share(answer.insight) > MIN_ARABIC_SHARE)
    numbers_present = int(answer.data_rows > 0 and bool(_DIGIT_PATTERN.search(answer.insight)))
    no_hallucination = int(not json.loads(scores["hallucination_markers"]))
    points = status_match + arabic_text + numbers_present + no_hallucination
    return {
        "status_match": status_match,
        "arabic_text": arabic_text,
        "numbers_present": numbers_present,
        "no_hallucination": no_hallucination,
        "fidelity_points": points,
        "generation_fidelity": int(points >= 3),
    }


def matches_status(status: Any, insight: str) -> bool:
    """A success says more than MIN_INSIGHT_CHARS; a refusal apologizes; an error never matches."""
    if status == "success":
        return len(insight.strip()) > MIN_INSIGHT_CHARS
    if status == "out_of_scope":
        return bool(APOLOGY_PATTERN.search(normalize_arabic(insight)))
    return False
