"""The optional LLM judge's verdict (``evaluation.judge``): asked once per distinct answer, beside
Correct and read by no verdict; off, its columns are None."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import math

import pandas as pd
import pandera.pandas as pa

from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, Outcomes, Scorer, scorer
from nabahan_pipeline.evaluation.scoring.claims import answer_rows

if TYPE_CHECKING:  # pragma: no cover
    from nabahan_pipeline.evaluation.judge import Judge

COLUMNS = ("judge_verdict", "judge_reason")


def _agreement(scores: pd.DataFrame) -> pd.Series:
    # The judge agrees when it says supported exactly where the rules contradict no claim.
    verdicts = scores["judge_verdict"] if "judge_verdict" in scores else pd.Series(dtype=object)
    judged = verdicts.notna()
    if not judged.any():
        return pd.Series(dtype=bool)
    return (verdicts[judged] == "supported") == (scores.loc[judged, "claims_contradicted"].astype(int) == 0)


def _agreement_outcomes(scores: pd.DataFrame) -> Outcomes:
    agree = _agreement(scores)
    if agree.empty:
        return None
    return agree, scores.loc[agree.index, "case_id"] if "case_id" in scores else None


def _judged(scores: pd.DataFrame) -> int:
    return int(scores["judge_verdict"].notna().sum()) if "judge_verdict" in scores else 0


_DECLARED = (
    Column("judge_verdict", pa.Column(
        str, pa.Check.isin(("supported", "unsupported")), nullable=True,
        description="The optional LLM judge (--judge): supported or unsupported; None when off, failed or not judged. Never decides Correct.",
    ), "Judge Verdict"),
    Column("judge_reason", pa.Column(
        str, nullable=True, description="The judge's reason (its untrusted text, scrubbed), or why it failed; None when off or not judged."
    ), "Judge Reason"),
)
_FIGURES = (
    Figure("judged", "Judged Answers", "count", "Answers the optional LLM judge (--judge) gave a verdict on.", _judged,
           optional=True),
    Figure("judge_agreement", "Judge Agreement", "rate",
           "Share of the judged answers where the judge's supported matches no contradicted claim; NaN when none judged.",
           lambda scores: float(_agreement(scores).mean()) if _judged(scores) else math.nan, _agreement_outcomes,
           nullable=True, optional=True),
)


@scorer(*_DECLARED, figures=_FIGURES)
def judge_off(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """No judge configured: nothing judged."""
    return dict.fromkeys(COLUMNS)


def judge_scorer(judge: Judge | None) -> Scorer:
    """The scorer of the judge's columns: ``judge_off`` without a judge, else one that asks
    ``judge`` once per distinct (question, rows, insight) of the run it scores."""
    if judge is None:
        return judge_off
    verdicts: dict[tuple[str, str, str], tuple[str | None, str]] = {}

    def judged(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
        if answer.status != "success" or not answer.insight.strip():
            return dict.fromkeys(COLUMNS)
        columns, rows = answer_rows(answer)
        key = (answer.question, json.dumps([columns, rows], ensure_ascii=False, default=str), answer.insight)
        if key not in verdicts:
            verdicts[key] = judge.judge(answer.question, columns, rows, answer.insight)
        return dict(zip(COLUMNS, verdicts[key]))

    return Scorer("judge", _DECLARED, judged, _FIGURES)
