"""Refusal accounting: an in-scope case refused, an out-of-scope case answered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nabahan_pipeline.evaluation.scoring.answer import Answer, scorer


@scorer("false_refusal", "false_answer")
def refusals(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """A false refusal is status out_of_scope on an in-scope case; a false answer, a success on
    an out-of-scope one."""
    return {
        "false_refusal": answer.in_scope and answer.status == "out_of_scope",
        "false_answer": not answer.in_scope and answer.status == "success",
    }
