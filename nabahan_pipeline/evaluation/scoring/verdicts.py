"""The two verdicts: ``overall_passed``, the seed's formula with two hardenings (an error or unsafe
SQL never passes), and ``correct`` (the gate's), which reads none of the seed's heuristics;
``not_correct_because`` says what failed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.escaping import one_line
from nabahan_pipeline.evaluation.agent_sql import lost_in_transpiling
from nabahan_pipeline.evaluation.scoring.answer import Answer, present
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, by_case, scorer, share_of, sum_of
from nabahan_pipeline.evaluation.scoring.execution import suite_failure
from nabahan_pipeline.evaluation.scoring.claims import contradictions, unsupported


@scorer(
    Column("overall_passed", pa.Column(bool, description="The seed's verdict (retrieval and fidelity) with two hardenings: no error, no unsafe SQL."),
           "Overall Passed"),
    figures=[
        Figure("passed", "Passed", "count", "Answers that passed the seed's verdict (Overall Passed).",
               sum_of("overall_passed"), trend=True),
        Figure("failed", "Failed", "count", "Answers that did not.",
               lambda scores: len(scores) - int(scores["overall_passed"].astype(bool).sum()), trend=True),
        Figure("pass_rate", "Pass Rate", "rate", "The seed's pass rate (Overall Passed), a fraction 0..1.",
               share_of("overall_passed"), by_case(lambda scores: scores["overall_passed"].astype(bool)),
               kpi=True, trend=True, denominator="total"),
    ],
)
def overall_passed(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The seed's Overall Passed: retrieval and fidelity pass; ours, an error answer and SQL that
    is not one read-only SELECT never pass."""
    passed = (
        scores["retrieval_accuracy"] == 1
        and scores["generation_fidelity"] == 1
        and answer.status != "error"
        and not answer.checked.unsafe
    )
    return {"overall_passed": passed}


@scorer(
    Column("correct", pa.Column(bool, description="Our verdict, the gate's."), "Correct"),
    Column("not_correct_because", pa.Column(str, description='Why not Correct, the reasons joined by "; "; empty when correct.'),
           "Why Not Correct"),
    figures=[
        Figure("correct", "Correct", "count", "Correct answers (ours).", sum_of("correct")),
        Figure("correct_rate", "Correct Rate", "rate", "Correct answers, a fraction 0..1 (the gate's).",
               share_of("correct"), by_case(lambda scores: scores["correct"].astype(bool)), kpi=True, trend=True,
               denominator="total"),
    ],
)
def correct(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """Our verdict, and why not when it is not."""
    reasons = not_correct_reasons(
        scores,
        status=answer.status,
        in_scope=answer.in_scope,
        error=answer.error,
        ungrounded=unsupported(scores["claim_details"]),
        contradicted=contradictions(scores["claim_details"]),
        suite_problem=suite_failure(answer.suite),
        untranspiled=answer.dialect if lost_in_transpiling(answer.sql, answer.dialect, answer.replay) else None,
    )
    return {"correct": not reasons, "not_correct_because": "; ".join(reasons)}


def not_correct_reasons(
    scores: Mapping[str, Any],
    *,
    status: Any,
    in_scope: bool,
    error: str | None,
    ungrounded: Sequence[str],
    contradicted: Sequence[str] = (),
    suite_problem: str | None = None,
    untranspiled: str | None = None,
) -> list[str]:
    """Why an answer is not Correct (see the module docstring), most telling first; empty when it
    is. ``contradicted`` are the claims the rows contradict, ``ungrounded`` the numbers tied to no
    reading, each in its context; ``suite_problem`` says where and why the agent's SQL failed on a test-suite
    database; ``untranspiled`` names the dialect whose SQL we could not run as SQLite."""
    reasons: list[str] = []
    if status == "error":
        reasons.append(f"error: {one_line(error, 120)}" if error else "error")
    if scores["unsafe_sql"]:
        reasons.append(f"unsafe SQL: {one_line(scores['sql_problem'] or '', 120)}")
    if in_scope and status == "out_of_scope":
        reasons.append("refused an in-scope question")
    if not in_scope and status != "out_of_scope" and status != "error":
        reasons.append("answered an out-of-scope question")
    elif not in_scope and status == "out_of_scope" and not scores["retrieval_accuracy"]:
        reasons.append("refused but ran SQL")
    if status == "success" and not scores["unsafe_sql"] and scores["sql_problem"] and untranspiled:
        reasons.append(f"the pipeline could not run its {untranspiled} SQL as SQLite: "
                       f"{one_line(scores['sql_problem'], 120)}")
    elif status == "success" and not scores["unsafe_sql"] and scores["sql_problem"]:
        reasons.append(f"its SQL gave no result here: {one_line(scores['sql_problem'], 120)}")
    elif scores["execution_match"] == 0.0 and status == "success":
        reasons.append("wrong result")
    elif scores["test_suite_match"] == 0.0 and status == "success":
        reasons.append(f"test suite: {suite_problem}" if suite_problem
                       else "right on the evaluation database only (test suite)")
    elif status == "success" and in_scope and not scores["retrieval_accuracy"] and not present(scores["execution_match"]):
        # No gold SQL to run: the expected table and its rows are the only test of the result.
        reasons.append(f"not the expected table, or no rows (retrieval {scores['retrieval_points']}/3)")
    if scores["rows_verified"] is False:
        reasons.append("reported rows its SQL does not return")
    if status in ("success", "out_of_scope") and not scores["arabic_text"]:
        reasons.append("not Arabic")
    if not in_scope and status == "out_of_scope" and not scores["status_match"]:
        reasons.append("no apology recognized")
    if contradicted:
        reasons.append(f"insight contradicts the rows: {one_line(contradicted[0], 120)}")
    hedges = [marker for marker in json.loads(scores.get("hallucination_markers") or "[]")
              if not marker.startswith("ungrounded number")]
    if status == "success" and hedges:  # a disclaimer or a template placeholder: the insight does not answer
        reasons.append(f"hedged: {one_line(hedges[0], 120)}")
    if ungrounded:
        reasons.append("unverified: " + "; ".join(ungrounded[:3]) + (" …" if len(ungrounded) > 3 else ""))
    return reasons
