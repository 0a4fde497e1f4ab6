"""The insight's claims checked against the rows the agent's SQL returned (``evaluation.claims``):
how many were checked, how many the rows contradict, and each with its verdict.

The rows are the re-run's when the agent's SQL was run here (what the SQL really returns), else
the rows the agent reported. The verdict ``correct`` reads these columns; the seed's Overall
Passed does not.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.evaluation.claims import CONTRADICTED, SUPPORTED, UNSUPPORTED, check_insight
from nabahan_pipeline.agents.responses_table import json_text
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, count, scorer


@scorer(
    # Synthetic answers make no claims.
    count("claims_checked", "Claims of the insight checked against the rows its SQL returns.", "Claims Checked",
          draw=lambda drawn: 0),
    count("claims_contradicted", "Claims the rows contradict (a figure on the wrong row, a wrong superlative ...).",
          "Claims Contradicted", draw=lambda drawn: 0),
    Column("claim_details", pa.Column(str, json_text(list), description="JSON list of each claim: {claim, verdict (supported, contradicted, unsupported), why}."),
           "Claims", draw=lambda drawn: "[]"),
)
def claims(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The claims checked, those contradicted, and every claim's verdict as a JSON list of
    {claim, verdict, why}."""
    columns, rows = answer_rows(answer)
    checks = check_insight(answer.insight, answer.question, columns, rows, answer.checked.sqlite or answer.sql,
                           answer.checked.aggregates)
    if answer.status != "success":  # a refusal's or an error's words are no claims about rows; its numbers still count
        checks = [check for check in checks if check.claim.kind == "number"]
    return {
        "claims_checked": len(checks),
        "claims_contradicted": sum(check.verdict == CONTRADICTED for check in checks),
        "claim_details": json.dumps([{"claim": check.claim.text, "verdict": check.verdict, "why": check.evidence}
                                     for check in checks], ensure_ascii=False),
    }


def answer_rows(answer: Answer) -> tuple[list[str], list]:
    """The rows the agent's SQL really returns: the re-run's when there is one, else the reported."""
    if answer.replay is not None and answer.replay.result is not None:
        return list(answer.replay.result.columns), list(answer.replay.result.rows)
    return answer.columns, answer.rows


def contradictions(details: str) -> list[str]:
    """The contradicted claims of a claim_details JSON text, each as "claim: what the rows say"."""
    return [_described(item) for item in json.loads(details or "[]") if item["verdict"] == CONTRADICTED]


def unsupported(details: str) -> list[str]:
    """The unsupported claims (numbers nothing derives) of a claim_details JSON text, as written,
    each once."""
    return list(dict.fromkeys(item["claim"] for item in json.loads(details or "[]") if item["verdict"] == UNSUPPORTED))


def readable(details: str) -> str:
    """A claim_details JSON text as one line: "✗ جدة 1,204: row says 860; ✓ مكة 860"."""
    marks = {SUPPORTED: "✓", CONTRADICTED: "✗", UNSUPPORTED: "?"}
    return "; ".join(f"{marks.get(item['verdict'], '?')} {_described(item)}" for item in json.loads(details or "[]"))


def _described(item: Mapping[str, str]) -> str:
    return f"{item['claim']}: {item['why']}" if item.get("why") else item["claim"]
