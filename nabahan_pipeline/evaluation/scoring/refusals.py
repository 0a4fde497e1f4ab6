"""Refusal accounting: an in-scope case refused, an out-of-scope case answered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, scorer, sum_of


@scorer(
    Column("false_refusal", pa.Column(bool, description="An in-scope case refused."), "False Refusal"),
    Column("false_answer", pa.Column(bool, description="An out-of-scope case answered."), "False Answer"),
    figures=[
        Figure("false_refusals", "False Refusals", "count", "In-scope cases refused.", sum_of("false_refusal"),
               trend=True),
        Figure("false_answers", "False Answers", "count", "Out-of-scope cases answered.", sum_of("false_answer"),
               trend=True),
    ],
)
def refusals(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """A false refusal is status out_of_scope on an in-scope case; a false answer, a success on
    an out-of-scope one."""
    return {
        "false_refusal": answer.in_scope and answer.status == "out_of_scope",
        "false_answer": not answer.in_scope and answer.status == "success",
    }
