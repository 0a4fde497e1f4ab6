"""The insight's claims checked against the rows (``evaluation.claims``): each answer's coverage
(read, verified, contradicted, unverified numbers) and each claim's verdict. The rows are the
re-run's when the SQL ran here, else the reported ones. Correct reads these; the seed does not."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import pandera.pandas as pa

from nabahan_pipeline.evaluation.claims.checking import CONTRADICTED, SUPPORTED, UNSUPPORTED, ClaimCheck, check_insight
from nabahan_pipeline.agents.responses_table import json_text
from nabahan_pipeline.evaluation.scoring.answer import Answer
from nabahan_pipeline.evaluation.scoring.declare import Column, Figure, count, scorer


@scorer(
    # Synthetic answers make no claims.
    count("claims_checked", "Claims of the insight checked against the rows its SQL returns.", "Claims Checked",
          draw=lambda drawn: 0),
    count("claims_contradicted", "Claims the rows contradict (a figure on the wrong row, a wrong superlative ...).",
          "Claims Contradicted", draw=lambda drawn: 0),
    Column("claim_details", pa.Column(str, json_text(list), description="JSON list of each claim: {claim, verdict (supported, contradicted, unsupported), why}."),
           "Claims", draw=lambda drawn: "[]"),
    count("claims_verified", "Claims the rows verify, each by its own reading (its row, measure, comparator).",
          "Claims Verified", draw=lambda drawn: 0),
    Column("claims_unverified", pa.Column(str, json_text(list), description="JSON list of the numbers tied to no reading, each in its context."),
           "Claims Unverified", draw=lambda drawn: "[]"),
    figures=[
        Figure("claims_verified_share", "Claims Verified", "rate",
               "Of every claim the insights make, the share the rows verify (NaN when none was read).",
               lambda scores: verified_share(scores), nullable=True, optional=True),
    ],
)
def claims(answer: Answer, scores: Mapping[str, Any]) -> dict[str, Any]:
    """The claims checked, those contradicted, and every claim's verdict as a JSON list of
    {claim, verdict, why}."""
    columns, rows = answer_rows(answer)
    checks = check_insight(answer.insight, answer.question, columns, rows, answer.checked.sqlite or answer.sql,
                           answer.checked.aggregates)
    if answer.status != "success":  # a refusal's or an error's words are no claims about rows; its numbers still count
        checks = [check for check in checks if check.claim.kind == "number"]
    details = json.dumps([_detail(check) for check in checks], ensure_ascii=False)
    return {
        "claims_checked": len(checks),
        "claims_contradicted": sum(check.verdict == CONTRADICTED for check in checks),
        "claim_details": details,
        "claims_verified": sum(check.verdict == SUPPORTED for check in checks),
        "claims_unverified": json.dumps(unsupported(details), ensure_ascii=False),
    }


def _detail(check: ClaimCheck) -> dict[str, str]:
    """One claim's verdict as claim_details holds it; a number's mention as written (``number``)
    and, unverified, the words around it (``context``)."""
    detail = {"claim": check.claim.text, "verdict": check.verdict, "why": check.evidence}
    if check.claim.mention is not None:
        detail["number"] = check.claim.mention.text
    if check.context:
        detail["context"] = check.context
    return detail


def answer_rows(answer: Answer) -> tuple[list[str], list]:
    """The rows the agent's SQL really returns: the re-run's when there is one, else the reported."""
    if answer.replay is not None and answer.replay.result is not None:
        return list(answer.replay.result.columns), list(answer.replay.result.rows)
    return answer.columns, answer.rows


def contradictions(details: str) -> list[str]:
    """The contradicted claims of a claim_details JSON text, each as "claim: what the rows say"."""
    return [_described(item) for item in json.loads(details or "[]") if item["verdict"] == CONTRADICTED]


def unsupported(details: str) -> list[str]:
    """The unverified numbers (tied to no reading) of a claim_details JSON text, each in its
    context ("… في الرياض 1,234 منافسة …"), each once."""
    return list(dict.fromkeys(item.get("context") or item["claim"] for item in json.loads(details or "[]")
                              if item["verdict"] == UNSUPPORTED))


def not_verified_numbers(details: str) -> list[str]:
    """The numbers of a claim_details JSON text that are not verified (unsupported or
    contradicted), as written, each once: the shared reading of "found in the data"."""
    return list(dict.fromkeys(item["number"] for item in json.loads(details or "[]")
                              if item.get("number") and item["verdict"] != SUPPORTED))


def readable(details: str) -> str:
    """A claim_details JSON text as one line: "✗ جدة 1,204: row says 860; ✓ مكة 860"."""
    marks = {SUPPORTED: "✓", CONTRADICTED: "✗", UNSUPPORTED: "?"}
    return "; ".join(f"{marks.get(item['verdict'], '?')} {_described(item)}" for item in json.loads(details or "[]"))


def _described(item: Mapping[str, str]) -> str:
    return f"{item['claim']}: {item['why']}" if item.get("why") else item["claim"]


def verified_share(scores: Any) -> float:
    """Of the claims ``scores`` (case_scores rows) read, the share verified; NaN when none were read
    or the table predates the coverage columns."""
    if not {"claims_verified", "claims_checked"} <= set(scores.columns):
        return math.nan
    read = int(scores["claims_checked"].sum())
    return int(scores["claims_verified"].sum()) / read if read else math.nan


def coverage(row: Mapping[str, Any]) -> str:
    """An answer's claims coverage in a line: "claims: 5 read, 3 verified, 1 contradicted, 1
    unverified"; "" when the row has no claims columns or its insight made no claim."""
    read = row.get("claims_checked")
    if not isinstance(read, (int, float)) or read != read or not read:
        return ""
    unverified = len(json.loads(row.get("claims_unverified") or "[]"))
    return (f"claims: {int(read)} read, {int(row.get('claims_verified') or 0)} verified, "
            f"{int(row.get('claims_contradicted') or 0)} contradicted, {unverified} unverified")


def judge_disagreement(row: Mapping[str, Any]) -> str:
    """Where the optional LLM judge and the claims checker disagree on an answer's insight, said in a
    line ("" when they agree or the judge is off): the judge finds it supported and the checker
    contradicted or could not tie a claim, or the judge finds it unsupported and the checker
    verified every claim."""
    verdict = row.get("judge_verdict")  # the judge's words are the checker's: supported, unsupported
    if not isinstance(verdict, str) or not verdict:
        return ""
    faulted = bool(row.get("claims_contradicted")) or bool(json.loads(row.get("claims_unverified") or "[]"))
    if verdict == SUPPORTED and faulted:
        return "the LLM judge finds the insight supported; the claims checker does not"
    if verdict == UNSUPPORTED and not faulted and row.get("claims_checked"):
        return "the LLM judge finds the insight unsupported; the claims checker verified every claim"
    return ""
