"""An agent that answers at once, for the benchmarks: ``--agent python:instant_agent:answer`` with
bench/ on PYTHONPATH (``eval_runs.user_environment`` puts it there).

Its answer is bench/loopback_agent.js's (one row its SQL really returns, a grounded Arabic
insight; to a numbered copy of a case, its own), so an in-process run and an HTTP run differ only
in how the agent is reached.
"""

from __future__ import annotations

import re

ANSWER = {
    "status": "success",
    "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
    "data": [{"n": 7}],
    "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
    "error": None,
}


# A copy's number at the end of its question ("... (نسخة 12)", eval_runs.write_cases).
COPY = re.compile(r"\(نسخة (\d+)\)\s*$")


def answer(question: str, filters: dict | None = None) -> dict:
    """At once, the passing answer; to a numbered copy of a case, one of its own: its number as the
    row, in the SQL and in the insight (a number grounded in the row and the question)."""
    copy = COPY.search(question)
    if copy is None:
        return {**ANSWER, "data": [dict(row) for row in ANSWER["data"]]}
    number = int(copy.group(1))
    return {
        "status": "success",
        "sql": f"SELECT {number} AS n FROM tenders_full_details LIMIT 1",
        "data": [{"n": number}],
        "insights": f"بلغ عدد المناقصات المطابقة {number} مناقصة وفق البيانات المتاحة في المنصة.",
        "error": None,
    }
