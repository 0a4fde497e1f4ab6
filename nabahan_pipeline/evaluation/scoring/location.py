"""Where a wrong answer goes wrong (``evaluation.error_location``): for an in-scope answer that is
not Correct and whose case has gold SQL, the clauses its SQL gets wrong, or the insight when the
result is right. Empty when Correct, out of scope, without gold SQL, or not an answer with SQL."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.evaluation.error_location import locate_error
from nabahan_pipeline.evaluation.scoring.answer import Answer, text_or_none
from nabahan_pipeline.evaluation.scoring.declare import Column, scorer
from nabahan_pipeline.evaluation.scoring.claims import contradictions, unsupported


@scorer(Column(
    "error_location",
    pa.Column(str, description='Where a wrong answer goes wrong: "clause: detail; ..." (its SQL against the gold\'s, or the insight); empty when correct or not located.'),
    "Error Location",
))
def error_location(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The error's location: "clause: detail; ..." (``error_location.CLAUSES``), or ""."""
    gold_sql = text_or_none(answer.case.get("expected_sql"))
    if scores["correct"] or not answer.in_scope or gold_sql is None or answer.status != "success":
        return {"error_location": ""}
    suite_right = scores["test_suite_match"] != 0.0  # NaN (no suite ran) does not count against it
    return {
        "error_location": locate_error(
            answer.checked.sqlite,
            gold_sql,
            result_right=scores["execution_match"] == 1.0 and suite_right,
            contradicted=contradictions(scores["claim_details"]),
            ungrounded=unsupported(scores["claim_details"]),
            arabic=bool(scores["arabic_text"]),
        )
    }
