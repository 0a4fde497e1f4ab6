"""Agents for the limits faults (issue 31), named by `python:nabahan_pipeline_tests.limit_agents:NAME`.

Each leaves a mark in the file $LIMITS_CALLED when it is asked, so that a test in another process
can tell that no agent was called.
"""

from __future__ import annotations

import os

WIDE_BLOBS = "SELECT " + ", ".join(f"randomblob(999999) AS b{i}" for i in range(500))


def _mark(question: str) -> None:
    called = os.environ.get("LIMITS_CALLED")
    if called:
        with open(called, "a", encoding="utf-8") as handle:
            handle.write(question + "\n")


def marking_agent(question: str, filters: dict | None = None) -> dict:
    """A right, grounded answer to a count question; marks the call."""
    _mark(question)
    return {
        "status": "success",
        "sql": "SELECT 7 AS n FROM tenders_full_details LIMIT 1",
        "data": [{"n": 7}],
        "insights": "بلغ عدد المناقصات المطابقة 7 مناقصات وفق البيانات المتاحة في المنصة.",
        "error": None,
    }


def deep_value_agent(question: str, filters: dict | None = None) -> dict:
    """A cell, the status and the error holding lists nested 5,000 deep (its first question), else
    marking_agent's answer."""
    _mark(question)
    if not question.endswith("0؟"):
        return marking_agent(question, filters)
    deep: list = []
    for _ in range(5_000):
        deep = [deep]
    return {"status": "success", "sql": "SELECT 1 AS n", "columns": ["n"], "rows": [[deep]],
            "insights": "عدد المناقصات 1", "error": deep}


def wide_blobs_agent(question: str, filters: dict | None = None) -> dict:
    """SQL of one row of 500 blobs of 999,999 bytes each (under the 1 MB value cap)."""
    _mark(question)
    return {"status": "success", "sql": WIDE_BLOBS, "columns": ["b0"], "rows": [["x"]],
            "insights": "عدد المناقصات 1", "error": None}
