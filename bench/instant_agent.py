"""An agent that answers at once, for the benchmarks: ``--agent python:instant_agent:answer`` with
bench/ on PYTHONPATH (``eval_runs.user_environment`` puts it there).

Its answer is bench/loopback_agent.js's (one row its SQL really returns, a grounded Arabic
insight), so an in-process run and an HTTP run differ only in how the agent is reached.
"""

from __future__ import annotations

ANSWER = {
    "status": "success",
    "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
    "data": [{"n": 7}],
    "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
    "error": None,
}


def answer(question: str, filters: dict | None = None) -> dict:
    """The same passing answer to every question, without delay."""
    return {**ANSWER, "data": [dict(row) for row in ANSWER["data"]]}
